/**
 * The Debug Adapter Protocol side of the debugger (docs/debugging.md, which links the
 * protocol), on Microsoft's `@vscode/debugadapter`: requests of a client (VS Code, Neovim, Emacs,
 * JetBrains editors, a script) become calls of the execution's {@link DebugSession}, and its stops, threads and
 * output become events. How an execution is launched or attached is the host's ({@link DebugHost}): the
 * `debug` command launches one from a file, the server's `--inspect` port attaches to those the API starts.
 */
import { DebugSession as DapSession, Handles, InitializedEvent, OutputEvent, StoppedEvent, TerminatedEvent, ThreadEvent, ExitedEvent } from '@vscode/debugadapter';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { WorkflowError } from '../lang/errors.ts';
import { isList, isMap, typeName, type Value } from '../lang/value.ts';
import type { GatedStep } from '../engine/hooks.ts';
import { itemOf, keyOf, replaced, typeChecked } from './set-variable.ts';
import { display, errorMessage, shown, type DebugSession, type DebugThread, type EntryNode, type SessionEvents } from './session.ts';

/** An execution a client debugs: its debugger, its source, and how it ends. */
export interface DebugTarget {
  readonly session: DebugSession;
  /** The source file's path, or a name when the source is not a file here (then served by `source` requests). */
  readonly sourcePath: string;
  readonly sourceIsFile: boolean;
  readonly sourceText: string;
  /** Lets the execution run (once the client's configuration is done). */
  start(): void;
  /** Settles when the execution ends: its result, or its error. */
  readonly done: Promise<{ readonly result?: Value; readonly error?: WorkflowError }>;
}

/**
 * Launches or attaches; each rejects with an Error whose message the client is shown. `gone` aborts when the
 * client leaves before the target is found (an attach waiting for an execution stops waiting).
 */
export interface DebugHost {
  launch?(args: Record<string, unknown>, events: SessionEvents, gone: AbortSignal): Promise<DebugTarget>;
  attach?(args: Record<string, unknown>, events: SessionEvents, gone: AbortSignal): Promise<DebugTarget>;
}

/** A variables reference: the variables of one scope, or the items of a map or list somewhere under a variable. */
interface VarRef {
  readonly step: GatedStep;
  /** The scope's variables, or the value whose items these are. */
  readonly value: ReadonlyMap<string, Value> | Value;
  /** The variable the value lives under and the path to it (empty for a scope). */
  readonly root?: string;
  readonly path: readonly (string | number)[];
}

/** The error code of the adapter's error responses. */
const FAILED = 3000;

/** One client connection: see the module header. */
export class WorkflowDebugAdapter extends DapSession {
  private target: DebugTarget | undefined;
  private readonly configured: Promise<void>;
  private configure!: () => void;
  private readonly frames = new Handles<{ thread: DebugThread; node: EntryNode; step: GatedStep }>();
  private readonly vars = new Handles<VarRef>();
  private attached = false;
  /** Aborted when the client disconnects or its connection closes. */
  private readonly gone = new AbortController();

  constructor(private readonly host: DebugHost) {
    super();
    this.configured = new Promise((resolve) => (this.configure = resolve));
    this.on('close', () => this.leave());
    this.setDebuggerLinesStartAt1(true);
    this.setDebuggerColumnsStartAt1(true);
  }

  /** Messages that are not requests or requests without a command get an error event; the adapter keeps serving. */
  override handleMessage(msg: DebugProtocol.ProtocolMessage): void {
    const m = msg as Partial<DebugProtocol.Request> | null;
    if (m === null || typeof m !== 'object' || m.type !== 'request' || typeof m.command !== 'string' || typeof m.seq !== 'number') {
      this.sendEvent(new OutputEvent(`ignored a message that is not a Debug Adapter Protocol request: ${JSON.stringify(msg)?.slice(0, 200)}\n`, 'stderr'));
      return;
    }
    if (m.arguments === undefined || m.arguments === null || typeof m.arguments !== 'object') (m as { arguments: unknown }).arguments = {};
    super.handleMessage(m as DebugProtocol.Request);
  }

  protected override initializeRequest(response: DebugProtocol.InitializeResponse): void {
    response.body = {
      supportsConfigurationDoneRequest: true,
      supportsFunctionBreakpoints: true,
      supportsConditionalBreakpoints: true,
      supportsHitConditionalBreakpoints: true,
      supportsLogPoints: true,
      supportsEvaluateForHovers: true,
      supportsSetVariable: true,
      supportsTerminateRequest: true,
      supportsExceptionInfoRequest: true,
      supportsExceptionFilterOptions: true,
      supportSuspendDebuggee: false,
      exceptionBreakpointFilters: [
        { filter: 'all', label: 'All raised errors', default: false },
        { filter: 'uncaught', label: 'Uncaught errors', description: 'errors no try step will catch', default: false },
        {
          filter: 'tags',
          label: 'Errors by tag',
          description: 'errors carrying one of the tags in the condition',
          supportsCondition: true,
          conditionDescription: 'error tags, comma separated: HttpError, KeyError',
        },
      ],
    };
    this.sendResponse(response);
  }

  protected override launchRequest(response: DebugProtocol.LaunchResponse, args: DebugProtocol.LaunchRequestArguments): void {
    void this.begin(response, () => (this.host.launch ? this.host.launch(args as Record<string, unknown>, this.events(), this.gone.signal) : refuse('launch')));
  }

  protected override attachRequest(response: DebugProtocol.AttachResponse, args: DebugProtocol.AttachRequestArguments): void {
    this.attached = true;
    void this.begin(response, () => (this.host.attach ? this.host.attach(args as Record<string, unknown>, this.events(), this.gone.signal) : refuse('attach')));
  }

  private async begin(response: DebugProtocol.Response, get: () => Promise<DebugTarget>): Promise<void> {
    if (this.target) return this.fail(response, 'this connection already debugs an execution');
    let target: DebugTarget;
    try {
      target = await get();
    } catch (e) {
      return this.fail(response, e instanceof Error ? e.message : String(e));
    }
    this.target = target;
    this.sendEvent(new InitializedEvent());
    await this.configured;
    this.sendResponse(response);
    target.start();
    // A client that left before its configuration was done leaves the execution running free.
    if (this.gone.signal.aborted) target.session.detach();
    void target.done.then(({ result, error }) => {
      if (error) this.sendEvent(new OutputEvent(`execution failed: ${errorMessage(error)}\n`, 'stderr'));
      else this.sendEvent(new OutputEvent(`execution succeeded: ${display(result ?? null)}\n`, 'stdout'));
      this.sendEvent(new ExitedEvent(error ? 1 : 0));
      this.sendEvent(new TerminatedEvent());
    });
  }

  private events(): SessionEvents {
    return {
      stopped: (t) => {
        const e = new StoppedEvent(t.paused?.reason ?? 'pause', t.id, t.paused?.text) as DebugProtocol.StoppedEvent;
        e.body.allThreadsStopped = false;
        this.sendEvent(e);
      },
      threadStarted: (t) => this.sendEvent(new ThreadEvent('started', t.id)),
      threadExited: (t) => this.sendEvent(new ThreadEvent('exited', t.id)),
      output: (text) => this.sendEvent(new OutputEvent(text, 'console')),
    };
  }

  protected override configurationDoneRequest(response: DebugProtocol.ConfigurationDoneResponse): void {
    this.sendResponse(response);
    this.configure();
  }

  protected override setBreakPointsRequest(response: DebugProtocol.SetBreakpointsResponse, args: DebugProtocol.SetBreakpointsArguments): void {
    const session = this.need(response);
    if (!session) return;
    const specs = (Array.isArray(args.breakpoints) ? args.breakpoints : []).map((b) => ({
      line: this.convertClientLineToDebugger(Number(b.line)),
      ...(typeof b.condition === 'string' ? { condition: b.condition } : {}),
      ...(typeof b.hitCondition === 'string' ? { hitCondition: b.hitCondition } : {}),
      ...(typeof b.logMessage === 'string' ? { logMessage: b.logMessage } : {}),
    }));
    const results = session.setLineBreakpoints(specs);
    response.body = { breakpoints: results.map((r) => this.breakpoint(r)) };
    this.sendResponse(response);
  }

  protected override setFunctionBreakPointsRequest(response: DebugProtocol.SetFunctionBreakpointsResponse, args: DebugProtocol.SetFunctionBreakpointsArguments): void {
    const session = this.need(response);
    if (!session) return;
    const specs = (Array.isArray(args.breakpoints) ? args.breakpoints : []).map((b) => ({
      step: String(b.name),
      ...(typeof b.condition === 'string' ? { condition: b.condition } : {}),
      ...(typeof b.hitCondition === 'string' ? { hitCondition: b.hitCondition } : {}),
    }));
    response.body = { breakpoints: session.setStepBreakpoints(specs).map((r) => this.breakpoint(r)) };
    this.sendResponse(response);
  }

  private breakpoint(r: { verified: boolean; line?: number; message?: string }): DebugProtocol.Breakpoint {
    return {
      verified: r.verified,
      ...(r.line !== undefined ? { line: this.convertDebuggerLineToClient(r.line), source: this.source() } : {}),
      ...(r.message !== undefined ? { message: r.message } : {}),
    };
  }

  protected override setExceptionBreakPointsRequest(response: DebugProtocol.SetExceptionBreakpointsResponse, args: DebugProtocol.SetExceptionBreakpointsArguments): void {
    const session = this.need(response);
    if (!session) return;
    const filters = new Set(Array.isArray(args.filters) ? args.filters : []);
    const tags: string[] = [];
    for (const o of Array.isArray(args.filterOptions) ? args.filterOptions : []) {
      filters.add(o.filterId);
      if (o.filterId === 'tags' && typeof o.condition === 'string') tags.push(...o.condition.split(',').map((t) => t.trim()).filter(Boolean));
    }
    session.setErrorBreaks({ all: filters.has('all'), uncaught: filters.has('uncaught'), tags: filters.has('tags') ? tags : [] });
    this.sendResponse(response);
  }

  protected override threadsRequest(response: DebugProtocol.ThreadsResponse): void {
    const threads = this.target?.session.allThreads() ?? [];
    response.body = { threads: threads.map((t) => ({ id: t.id, name: t.name })) };
    this.sendResponse(response);
  }

  protected override stackTraceRequest(response: DebugProtocol.StackTraceResponse, args: DebugProtocol.StackTraceArguments): void {
    const thread = this.paused(response, args.threadId);
    if (!thread) return;
    const nodes = this.target!.session.stack(thread);
    const frames = nodes.map((node, i) => {
      const step = i === 0 ? thread.paused!.step : (node.event as GatedStep);
      const id = this.frames.create({ thread, node, step });
      return {
        id,
        name: `${node.event.routine}.${node.event.step}`,
        source: this.source(),
        line: this.convertDebuggerLineToClient(node.event.pos.line),
        column: this.convertDebuggerColumnToClient(node.event.pos.col),
      };
    });
    response.body = { stackFrames: frames, totalFrames: frames.length };
    this.sendResponse(response);
  }

  protected override scopesRequest(response: DebugProtocol.ScopesResponse, args: DebugProtocol.ScopesArguments): void {
    const frame = this.frames.get(Number(args.frameId));
    if (!frame) return this.fail(response, `no frame ${args.frameId}`);
    const scopes = frame.step.scopes();
    response.body = {
      scopes: scopes.map((vars, i) => ({
        name: i === scopes.length - 1 ? `${frame.node.event.routine} variables` : i === 0 ? 'Block variables' : `Enclosing block ${i}`,
        variablesReference: this.vars.create({ step: frame.step, value: vars, path: [] }),
        expensive: false,
      })),
    };
    this.sendResponse(response);
  }

  protected override variablesRequest(response: DebugProtocol.VariablesResponse, args: DebugProtocol.VariablesArguments): void {
    const ref = this.vars.get(Number(args.variablesReference));
    if (!ref) return this.fail(response, `no variables ${args.variablesReference}`);
    const entries: [string | number, Value][] = ref.value instanceof Map ? [...ref.value] : isList(ref.value as Value) ? (ref.value as Value[]).map((v, i) => [i, v]) : [];
    response.body = {
      variables: entries.map(([k, v]) => this.variable(String(k), v, {
        step: ref.step,
        value: v,
        ...(ref.root !== undefined ? { root: ref.root, path: [...ref.path, k] } : { root: String(k), path: [] }),
      })),
    };
    this.sendResponse(response);
  }

  private variable(name: string, v: Value, ref: VarRef): DebugProtocol.Variable {
    const expandable = isMap(v) || isList(v);
    return {
      name,
      value: shown(v),
      type: typeName(v),
      variablesReference: expandable ? this.vars.create(ref) : 0,
    };
  }

  protected override setVariableRequest(response: DebugProtocol.SetVariableResponse, args: DebugProtocol.SetVariableArguments): void {
    const ref = this.vars.get(Number(args.variablesReference));
    if (!ref) return this.fail(response, `no variables ${args.variablesReference}`);
    void this.settle(response, async () => {
      const name = String(args.name);
      const given = await ref.step.evaluate(String(args.value));
      let value: Value;
      if (ref.root === undefined) {
        value = typeChecked(name, ref.step.scopes().find((s) => s.has(name))?.get(name), given);
        ref.step.setVariable(name, value);
      } else {
        const current = ref.step.scopes().find((s) => s.has(ref.root!))?.get(ref.root);
        if (current === undefined) throw new Error(`variable ${ref.root} is gone`);
        const key = keyOf(ref.value, name);
        value = typeChecked(`${ref.root}${[...ref.path, key].map((k) => `[${JSON.stringify(k)}]`).join('')}`, itemOf(ref.value, key), given);
        ref.step.setVariable(ref.root, replaced(current, [...ref.path, key], value));
      }
      response.body = { value: shown(value), type: typeName(value), variablesReference: 0 };
    });
  }

  protected override evaluateRequest(response: DebugProtocol.EvaluateResponse, args: DebugProtocol.EvaluateArguments): void {
    const frame = args.frameId !== undefined ? this.frames.get(Number(args.frameId)) : undefined;
    const step = frame?.step ?? this.target?.session.allThreads().find((t) => t.paused)?.paused?.step;
    if (!step) return this.fail(response, 'no thread is paused: evaluating needs the scope of a paused step');
    void this.settle(response, async () => {
      const text = String(args.expression).trim();
      const v = await step.evaluate(text.startsWith('${') && text.endsWith('}') ? text.slice(2, -1) : text);
      response.body = {
        result: shown(v),
        type: typeName(v),
        variablesReference: isMap(v) || isList(v) ? this.vars.create({ step, value: v, path: [] }) : 0,
      };
    });
  }

  protected override exceptionInfoRequest(response: DebugProtocol.ExceptionInfoResponse, args: DebugProtocol.ExceptionInfoArguments): void {
    const thread = this.paused(response, args.threadId);
    if (!thread) return;
    const e = thread.paused!.error;
    if (!e) return this.fail(response, 'the thread did not stop on an error');
    response.body = { exceptionId: e.tags.join(', ') || 'error', description: errorMessage(e), breakMode: 'always', details: { message: display(e.value) } };
    this.sendResponse(response);
  }

  protected override continueRequest(response: DebugProtocol.ContinueResponse, args: DebugProtocol.ContinueArguments): void {
    const thread = this.thread(response, args.threadId);
    if (!thread) return;
    this.target!.session.continue(thread);
    response.body = { allThreadsContinued: false };
    this.sendResponse(response);
  }

  protected override nextRequest(response: DebugProtocol.NextResponse, args: DebugProtocol.NextArguments): void {
    this.stepCommand(response, args.threadId, 'over');
  }

  protected override stepInRequest(response: DebugProtocol.StepInResponse, args: DebugProtocol.StepInArguments): void {
    this.stepCommand(response, args.threadId, 'into');
  }

  protected override stepOutRequest(response: DebugProtocol.StepOutResponse, args: DebugProtocol.StepOutArguments): void {
    this.stepCommand(response, args.threadId, 'out');
  }

  private stepCommand(response: DebugProtocol.Response, threadId: number, kind: 'over' | 'into' | 'out'): void {
    const thread = this.paused(response, threadId);
    if (!thread) return;
    this.target!.session.step(thread, kind);
    this.sendResponse(response);
  }

  protected override pauseRequest(response: DebugProtocol.PauseResponse, args: DebugProtocol.PauseArguments): void {
    const thread = this.thread(response, args.threadId);
    if (!thread) return;
    this.target!.session.pause(thread);
    this.sendResponse(response);
  }

  protected override sourceRequest(response: DebugProtocol.SourceResponse): void {
    if (!this.target) return this.fail(response, 'no execution is being debugged');
    response.body = { content: this.target.sourceText, mimeType: 'text/yaml' };
    this.sendResponse(response);
  }

  protected override disconnectRequest(response: DebugProtocol.DisconnectResponse): void {
    this.leave();
    this.sendResponse(response);
  }

  /** The client is gone (disconnect, or its connection closed): the execution resumes, every breakpoint goes. */
  private leave(): void {
    if (!this.gone.signal.aborted) this.gone.abort(new Error('the debugger client left'));
    this.configure();
    this.target?.session.detach();
  }

  protected override terminateRequest(response: DebugProtocol.TerminateResponse): void {
    this.target?.session.detach();
    this.sendResponse(response);
    if (!this.attached) this.sendEvent(new TerminatedEvent());
  }

  // --- helpers

  private source(): DebugProtocol.Source {
    const t = this.target!;
    if (t.sourceIsFile) return { name: t.sourcePath.split(/[\\/]/).pop()!, path: this.convertDebuggerPathToClient(t.sourcePath) };
    return { name: t.sourcePath, sourceReference: 1 };
  }

  private need(response: DebugProtocol.Response): DebugSession | undefined {
    if (!this.target) {
      this.fail(response, 'no execution is being debugged yet: send launch or attach first');
      return undefined;
    }
    return this.target.session;
  }

  private thread(response: DebugProtocol.Response, id: number): DebugThread | undefined {
    const session = this.need(response);
    if (!session) return undefined;
    const t = session.threadById(Number(id));
    if (!t) this.fail(response, `no thread ${id}`);
    return t;
  }

  private paused(response: DebugProtocol.Response, id: number): DebugThread | undefined {
    const t = this.thread(response, id);
    if (t && !t.paused) {
      this.fail(response, `thread ${id} is running, not paused`);
      return undefined;
    }
    return t;
  }

  private async settle(response: DebugProtocol.Response, run: () => Promise<void>): Promise<void> {
    try {
      await run();
      this.sendResponse(response);
    } catch (e) {
      const message = e instanceof WorkflowError ? `${e.tags.join(', ') || 'error'}: ${errorMessage(e)}` : e instanceof Error ? e.message : String(e);
      this.fail(response, message);
    }
  }

  private fail(response: DebugProtocol.Response, message: string): void {
    this.sendErrorResponse(response, { id: FAILED, format: message.replace(/[{}]/g, (c) => (c === '{' ? '(' : ')')), showUser: true });
  }
}

function refuse(what: string): Promise<never> {
  return Promise.reject(new Error(`this debugger does not ${what}`));
}
