/**
 * The debugger of a running emulator (docs/debugging.md#attach): which executions run under a debugger, and the
 * `--inspect` port (inspect.ts) where Debug Adapter Protocol clients attach to them, and the web UI's debugger. An execution runs under the debugger
 * when it was created with `debug: true` (held at its first step until a client lets it go) or when a client
 * waits, attached by workflow, for the next execution of its workflow (held until the client's configuration
 * is done). Every other execution runs without one, at full speed.
 */
import type { DebuggedExecution } from '../service/service-core-options.ts';
import type { DebuggerHooks } from '../service/executions/prepare-execution.ts';
import { WorkflowError } from '../lang/errors.ts';
import { parseJson } from '../lang/json.ts';
import type { Value } from '../lang/value.ts';
import type { DebugTarget } from './adapter.ts';
import { DebugSession, type SessionEvents } from './session.ts';

/** One execution under the debugger. */
interface Debugged {
  readonly execution: DebuggedExecution;
  readonly session: DebugSession;
  /** Lets the execution's first step run (an attach by workflow holds it until the client is configured). */
  readonly release: () => void;
  /** Where the session's events go now (a client's, or nowhere). */
  events: SessionEvents | undefined;
  /** The line breakpoints the web UI set. */
  readonly uiLines: Set<number>;
}

/** An execution under the debugger as the web UI drives it (docs/debugging.md#in-the-web-ui). */
export interface UiDebugged {
  readonly session: DebugSession;
  readonly sourceText: string;
  /** The lines steps are written on (where breakpoints can go). */
  readonly stepLines: ReadonlySet<number>;
  /** The line breakpoints set from the web UI. */
  readonly breakpoints: ReadonlySet<number>;
  /** Sets or clears the breakpoint on `line`. */
  toggle(line: number): void;
}

const NOWHERE: SessionEvents = { stopped: () => {}, threadStarted: () => {}, threadExited: () => {}, output: () => {} };

/** See the module header. */
export class DebugHub {
  private readonly debugged = new Map<string, Debugged>();
  private readonly waiting: { workflowId: string; found: (d: Debugged) => void }[] = [];

  /** The service core's `debuggerFor` (src/service/core.ts): a debugger for the execution, when wanted. */
  debuggerFor(execution: DebuggedExecution, requested: boolean): DebuggerHooks | undefined {
    const w = this.waiting.findIndex((x) => x.workflowId === execution.workflowId);
    if (!requested && w < 0) return undefined;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    const forward: SessionEvents = {
      stopped: (t) => (d.events ?? NOWHERE).stopped(t),
      threadStarted: (t) => (d.events ?? NOWHERE).threadStarted(t),
      threadExited: (t) => (d.events ?? NOWHERE).threadExited(t),
      output: (text) => (d.events ?? NOWHERE).output(text),
    };
    const session = new DebugSession(execution.definition, execution.sourceContents.split('\n').length, forward, requested);
    const d: Debugged = { execution, session, release, events: undefined, uiLines: new Set() };
    this.debugged.set(execution.name, d);
    void execution.ended.then(() => this.debugged.delete(execution.name));
    if (requested) release();
    else this.waiting.splice(w, 1)[0]!.found(d);
    let open = requested;
    return {
      observer: session,
      gate: {
        before: (step, entry) => (open ? session.before(step, entry) : released.then(() => ((open = true), session.before(step, entry)))),
        raised: (step, entry, error) => session.raised(step, entry, error),
      },
    };
  }

  /** The execution named `name` for the web UI, when it runs under the debugger. */
  forUi(name: string): UiDebugged | undefined {
    const d = this.debugged.get(name);
    if (!d) return undefined;
    return {
      session: d.session,
      sourceText: d.execution.sourceContents,
      stepLines: d.session.stepLines(),
      breakpoints: d.uiLines,
      toggle: (line) => {
        if (!d.uiLines.delete(line)) d.uiLines.add(line);
        d.session.setLineBreakpoints([...d.uiLines].map((l) => ({ line: l })));
      },
    };
  }

  /**
   * A protocol client attaches (the adapter's `attach`): by `execution` (name or ID), or by `workflow` (ID;
   * waits for its next execution). @throws Error with the reason the client is shown.
   */
  async attach(args: Record<string, unknown>, events: SessionEvents, gone?: AbortSignal): Promise<DebugTarget> {
    const execution = typeof args.execution === 'string' ? args.execution : undefined;
    const workflow = typeof args.workflow === 'string' ? args.workflow : undefined;
    let d: Debugged | undefined;
    if (execution !== undefined) {
      d = this.debugged.get(execution) ?? [...this.debugged.values()].find((x) => x.execution.executionId === execution);
      if (!d) throw new Error(`execution ${JSON.stringify(execution)} is not running under the debugger: create it with "debug": true, or attach by workflow before it starts`);
    } else if (workflow !== undefined) {
      d = await new Promise<Debugged>((found, reject) => {
        const waiter = { workflowId: workflow, found };
        this.waiting.push(waiter);
        // A client that leaves while waiting stops waiting: no later execution is held for it.
        gone?.addEventListener('abort', () => {
          const i = this.waiting.indexOf(waiter);
          if (i >= 0) this.waiting.splice(i, 1);
          reject(gone.reason);
        }, { once: true });
      });
    } else throw new Error('attach needs "execution" (a name or ID) or "workflow" (a workflow ID)');
    d.events = events;
    d.session.attach(events);
    const x = d.execution;
    const target = d;
    return {
      session: d.session,
      sourcePath: `${x.workflowId}.yaml`,
      sourceIsFile: false,
      sourceText: x.sourceContents,
      start: () => {
        target.release();
        target.session.announce();
      },
      done: x.ended.then((r) => (r.state === 'SUCCEEDED' ? { result: resultOf(r.result) } : { error: new WorkflowError(resultOf(r.error?.payload) ?? r.state) })),
    };
  }
}

function resultOf(json: string | undefined): Value {
  if (json === undefined) return null;
  try {
    return parseJson(json);
  } catch {
    return json;
  }
}

