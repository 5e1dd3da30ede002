/**
 * The debugger of one execution (docs/debugging.md): a step observer that keeps the open step entries (the
 * threads and call stacks), and a gate (src/engine/hooks.ts `StepGate`) that holds a thread at a step when a
 * breakpoint, an error breakpoint, a pause request or a step command says so. A held thread waits on a promise:
 * other threads of the execution, other executions, the API and the UI go on.
 *
 * Threads are the execution's parallel threads, as the step history names them ('' is main, `2.1` the first
 * branch of the second branch); each gets a small number for the protocol. The stack of a thread is its
 * routine call stack: the step running now, then each calling step (and, for a branch, the parallel step that
 * started it), innermost first.
 */
import { WorkflowError } from '../lang/errors.ts';
import type { Definition } from '../lang/definition/ast.ts';
import type { GatedStep, StepEnd, StepEvent, StepGate, StepObserver } from '../engine/hooks.ts';
import { INNER_STEP_TYPES } from '../engine/hooks.ts';
import type { Value } from '../lang/value.ts';
import { toJson } from '../lang/json.ts';
import { hitStops, placeLine, stepSites, type StepSite } from './breakpoints.ts';

/** One open step entry: the debugger's handle of it. */
export interface EntryNode {
  readonly event: StepEvent;
  readonly parent: EntryNode | undefined;
  /** Entries above it (0 for a step of `main`'s own list). */
  readonly depth: number;
}

/** A breakpoint as a client sets it: on a line or a step name, with an optional condition, hit count, log message. */
export interface BreakpointSpec {
  readonly line?: number;
  readonly step?: string;
  /** A workflow expression (without `${}`); the breakpoint stops only where it is true. */
  readonly condition?: string;
  /** `N`, `>= N`, `== N` or `% N` (see breakpoints.ts `hitStops`). */
  readonly hitCondition?: string;
  /** A logpoint's message: printed (with `{expression}`s evaluated) instead of stopping. */
  readonly logMessage?: string;
}

/** What became of a breakpoint: verified at a line, or not with a reason. */
export interface BreakpointResult {
  readonly verified: boolean;
  readonly line?: number;
  readonly message?: string;
}

/** Which raised errors stop: every one, those no `try` will catch, those carrying one of `tags`. */
export interface ErrorBreaks {
  readonly all: boolean;
  readonly uncaught: boolean;
  readonly tags: readonly string[];
}

/** A thread held at a step. */
export interface Paused {
  readonly step: GatedStep;
  readonly node: EntryNode;
  readonly reason: 'breakpoint' | 'step' | 'pause' | 'exception' | 'entry' | 'function breakpoint';
  readonly text?: string;
  /** The error a thread stopped on by an error breakpoint. */
  readonly error?: WorkflowError;
}

/** A parallel thread of the execution as the debugger knows it. */
export interface DebugThread {
  /** The protocol's number of the thread (1 is main). */
  readonly id: number;
  /** The step history's thread ID ('' for main). */
  readonly threadId: string;
  readonly name: string;
  paused: Paused | undefined;
}

/** What the debugger tells its client about. */
export interface SessionEvents {
  stopped(thread: DebugThread): void;
  threadStarted(thread: DebugThread): void;
  threadExited(thread: DebugThread): void;
  output(text: string): void;
}

type StepMode = { readonly kind: 'over' | 'into' | 'out' | 'pause'; readonly threadId: string; readonly depth: number };

interface Held {
  resume: () => void;
}

/** The debugger of one execution; see the module header. */
export class DebugSession implements StepObserver<EntryNode>, StepGate {
  private readonly sites: StepSite[];
  private readonly workflowLines = new Map<string, number>();
  private lineBreaks = new Map<number, { spec: BreakpointSpec; hits: number }[]>();
  private stepBreaks = new Map<string, { spec: BreakpointSpec; hits: number }[]>();
  private errors: ErrorBreaks = { all: false, uncaught: false, tags: [] };
  private readonly threads = new Map<string, DebugThread>();
  private readonly held = new Map<DebugThread, Held>();
  private readonly modes = new Map<string, StepMode>();
  private readonly seenErrors = new WeakSet<object>();
  private pauseAll = false;
  private nextThread = 1;
  /** Set once the client is gone: nothing stops any more. */
  private detached = false;

  /**
   * @param definition the definition the execution runs (for placing line breakpoints)
   * @param lineCount the source's number of lines
   * @param events where stops, threads and log output go
   * @param stopOnEntry hold main's first step
   */
  constructor(definition: Definition, private readonly lineCount: number, private events: SessionEvents, stopOnEntry = false) {
    this.sites = stepSites(definition);
    for (const [name, wf] of definition.workflows) this.workflowLines.set(name, wf.pos.line);
    this.pauseAll = stopOnEntry;
    this.thread('');
  }

  /** Replaces the client the events go to (a new attach). */
  attach(events: SessionEvents): void {
    this.events = events;
    this.detached = false;
  }

  /** The lines steps are written on. */
  stepLines(): ReadonlySet<number> {
    return new Set(this.sites.map((x) => x.pos.line));
  }

  /** Tells the client again about every thread held now (a client that attached after they stopped). */
  announce(): void {
    for (const t of this.threads.values()) if (t.paused) this.events.stopped(t);
  }

  /** Replaces the line breakpoints; says where each landed. */
  setLineBreakpoints(specs: readonly BreakpointSpec[]): BreakpointResult[] {
    this.lineBreaks = new Map();
    return specs.map((spec) => {
      const placed = placeLine(this.sites, this.workflowLines, spec.line ?? 0, this.lineCount);
      if ('reason' in placed) return { verified: false, message: placed.reason };
      const list = this.lineBreaks.get(placed.line) ?? [];
      list.push({ spec, hits: 0 });
      this.lineBreaks.set(placed.line, list);
      return { verified: true, line: placed.line };
    });
  }

  /** Replaces the breakpoints on step names; unverified when no step has the name. */
  setStepBreakpoints(specs: readonly BreakpointSpec[]): BreakpointResult[] {
    this.stepBreaks = new Map();
    return specs.map((spec) => {
      const site = this.sites.find((s) => s.step === spec.step);
      if (!site) return { verified: false, message: `no step is named ${JSON.stringify(spec.step)}` };
      const list = this.stepBreaks.get(site.step) ?? [];
      list.push({ spec, hits: 0 });
      this.stepBreaks.set(site.step, list);
      return { verified: true, line: site.pos.line };
    });
  }

  /** Sets which raised errors stop. */
  setErrorBreaks(errors: ErrorBreaks): void {
    this.errors = errors;
  }

  /** The threads alive now, main first. */
  allThreads(): DebugThread[] {
    return [...this.threads.values()];
  }

  /** The thread with protocol number `id`. */
  threadById(id: number): DebugThread | undefined {
    for (const t of this.threads.values()) if (t.id === id) return t;
    return undefined;
  }

  /** Holds every thread at its next step. */
  pause(thread?: DebugThread): void {
    if (thread === undefined) this.pauseAll = true;
    else this.modes.set(thread.threadId, { kind: 'pause', threadId: thread.threadId, depth: Infinity });
  }

  /** Lets a held thread (or every one) run on. */
  continue(thread?: DebugThread): void {
    for (const t of thread ? [thread] : [...this.held.keys()]) this.release(t);
  }

  /** Lets a held thread run to its next step at the same depth or above (`over`), the very next (`into`), or out of its block or call (`out`). */
  step(thread: DebugThread, kind: 'over' | 'into' | 'out'): void {
    const p = thread.paused;
    if (!p) return;
    let depth = p.node.depth;
    if (kind === 'out') {
      let n = p.node.parent;
      while (n && INNER_STEP_TYPES.has(n.event.stepType)) n = n.parent;
      depth = n ? n.depth : -1;
    }
    this.modes.set(thread.threadId, { kind, threadId: thread.threadId, depth });
    this.release(thread);
  }

  /** The client left: nothing stops any more and every held thread runs on. */
  detach(): void {
    this.detached = true;
    this.lineBreaks = new Map();
    this.stepBreaks = new Map();
    this.errors = { all: false, uncaught: false, tags: [] };
    this.modes.clear();
    this.pauseAll = false;
    this.continue();
  }

  /** The call stack of a held thread, innermost first: each entry the step a frame is at. */
  stack(thread: DebugThread): EntryNode[] {
    const p = thread.paused;
    if (!p) return [];
    const out = [p.node];
    let top = p.node;
    for (let n = p.node.parent; n; n = n.parent) {
      if (INNER_STEP_TYPES.has(n.event.stepType)) continue;
      if (n.event.callDepth < top.event.callDepth || n.event.threadId !== top.event.threadId) {
        out.push(n);
        top = n;
      }
    }
    return out;
  }

  // --- StepObserver

  enter(event: StepEvent, parent: EntryNode | undefined): EntryNode {
    if (event.stepType === 'STEP_PARALLEL_BRANCH_ENTRY') this.thread(event.threadId, event.branch);
    return { event, parent, depth: parent ? parent.depth + 1 : 0 };
  }

  leave(node: EntryNode, _end: StepEnd): void {
    if (node.event.stepType !== 'STEP_PARALLEL_BRANCH_ENTRY') return;
    const t = this.threads.get(node.event.threadId);
    if (!t) return;
    this.threads.delete(t.threadId);
    this.modes.delete(t.threadId);
    this.events.threadExited(t);
  }

  // --- StepGate

  before(step: GatedStep, entry: unknown): void | Promise<void> {
    // Nothing set that could stop here: the common case, kept to four loads.
    if (!this.pauseAll && this.modes.size === 0 && this.stepBreaks.size === 0 && this.lineBreaks.size === 0) return;
    if (this.detached) return;
    const node = entry as EntryNode;
    const thread = this.thread(step.threadId);
    if (this.pauseAll) {
      this.pauseAll = false;
      return this.hold(thread, { step, node, reason: step.callDepth === 0 && thread.threadId === '' && node.depth === 0 ? 'entry' : 'pause' });
    }
    const mode = this.modeFor(step.threadId);
    if (mode && this.stepDone(mode, node)) {
      this.modes.delete(mode.threadId);
      return this.hold(thread, { step, node, reason: mode.kind === 'pause' ? 'pause' : 'step' });
    }
    const byStep = this.stepBreaks.get(step.step);
    const byLine = this.lineBreaks.get(step.pos.line);
    if (byStep === undefined && byLine === undefined) return;
    return this.checkBreaks(thread, step, node, [...(byStep ?? []), ...(byLine ?? [])], byStep !== undefined);
  }

  raised(step: GatedStep, entry: unknown, error: unknown): void | Promise<void> {
    if (this.detached || typeof error !== 'object' || error === null || this.seenErrors.has(error)) return;
    this.seenErrors.add(error);
    const e = WorkflowError.from(error);
    const { all, uncaught, tags } = this.errors;
    const node = entry as EntryNode;
    const tagged = tags.length > 0 && errorTags(e).some((t) => tags.includes(t));
    if (!all && !tagged && !(uncaught && !caught(node))) return;
    const text = `${errorTags(e).join(', ') || 'error'}: ${errorMessage(e)}`;
    return this.hold(this.thread(step.threadId), { step, node, reason: 'exception', text, error: e });
  }

  // --- internals

  private thread(threadId: string, branch?: string): DebugThread {
    let t = this.threads.get(threadId);
    if (!t) {
      const name = threadId === '' ? 'main' : `branch ${threadId}${branch ? ` (${branch})` : ''}`;
      t = { id: this.nextThread++, threadId, name, paused: undefined };
      this.threads.set(threadId, t);
      if (threadId !== '') this.events.threadStarted(t);
    }
    return t;
  }

  /** The step command of this thread, or of the nearest enclosing thread stepping into its branches. */
  private modeFor(threadId: string): StepMode | undefined {
    const own = this.modes.get(threadId);
    if (own) return own;
    for (const m of this.modes.values()) {
      if (m.kind === 'into' && (m.threadId === '' || threadId.startsWith(m.threadId + '.'))) return m;
    }
    return undefined;
  }

  private stepDone(mode: StepMode, node: EntryNode): boolean {
    if (mode.kind === 'into' || mode.kind === 'pause') return true;
    return node.depth <= mode.depth;
  }

  private async checkBreaks(
    thread: DebugThread,
    step: GatedStep,
    node: EntryNode,
    breaks: { spec: BreakpointSpec; hits: number }[],
    byName: boolean,
  ): Promise<void> {
    for (const b of breaks) {
      if (b.spec.condition !== undefined && b.spec.condition.trim() !== '') {
        let v: Value;
        try {
          v = await step.evaluate(b.spec.condition);
        } catch (e) {
          this.events.output(`breakpoint condition ${JSON.stringify(b.spec.condition)} at step ${step.step} failed: ${errorMessage(WorkflowError.from(e))}\n`);
          continue;
        }
        if (v !== true) continue;
      }
      b.hits++;
      if (b.spec.hitCondition !== undefined && b.spec.hitCondition.trim() !== '' && hitStops(b.spec.hitCondition, b.hits) === false) continue;
      if (b.spec.logMessage !== undefined) {
        this.events.output((await interpolate(b.spec.logMessage, step)) + '\n');
        continue;
      }
      return this.hold(thread, { step, node, reason: byName ? 'function breakpoint' : 'breakpoint' });
    }
  }

  private hold(thread: DebugThread, paused: Paused): Promise<void> {
    thread.paused = paused;
    return new Promise<void>((resolve, reject) => {
      const signal = paused.step.signal;
      const onAbort = (): void => {
        this.held.delete(thread);
        thread.paused = undefined;
        reject(signal.reason);
      };
      if (signal.aborted) return onAbort();
      signal.addEventListener('abort', onAbort, { once: true });
      this.held.set(thread, {
        resume: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
      });
      this.events.stopped(thread);
    });
  }

  private release(thread: DebugThread): void {
    const h = this.held.get(thread);
    if (!h) return;
    this.held.delete(thread);
    thread.paused = undefined;
    h.resume();
  }
}

/** Whether an error raised at `node` will be caught: a `try` encloses it (not from inside its own except block). */
function caught(node: EntryNode): boolean {
  let skipTry = false;
  for (let n = node.parent; n; n = n.parent) {
    const t = n.event.stepType;
    if (t === 'STEP_EXCEPT') skipTry = true;
    else if (t === 'STEP_TRY' || t === 'STEP_TRY_RETRY_EXCEPT') {
      if (!skipTry) return true;
      skipTry = false;
    }
  }
  return false;
}

/** The `tags` of an error's value (Google's error maps), as strings. */
export function errorTags(e: WorkflowError): string[] {
  return e.tags;
}

/** An error's message: its value's `message`, or its value as JSON. */
export function errorMessage(e: WorkflowError): string {
  const v = e.value;
  const m = v instanceof Map ? v.get('message') : undefined;
  if (typeof m === 'string') return m;
  try {
    return typeof v === 'string' ? v : toJson(v);
  } catch {
    return String(e.message);
  }
}

/** A logpoint's message with each `{expression}` replaced by its value (or the error it raised). */
async function interpolate(message: string, step: GatedStep): Promise<string> {
  let out = '';
  let i = 0;
  while (i < message.length) {
    const open = message.indexOf('{', i);
    const close = open < 0 ? -1 : message.indexOf('}', open);
    if (open < 0 || close < 0) {
      out += message.slice(i);
      break;
    }
    out += message.slice(i, open);
    try {
      out += display(await step.evaluate(message.slice(open + 1, close)));
    } catch (e) {
      out += `<${errorMessage(WorkflowError.from(e))}>`;
    }
    i = close + 1;
  }
  return out;
}

/** A value as the debugger shows it: strings as they are, anything else as JSON. */
export function display(v: Value): string {
  if (typeof v === 'string') return v;
  try {
    return toJson(v);
  } catch {
    return String(v);
  }
}

/** A value as a variables view shows it: JSON (strings quoted), bytes by their length. */
export function shown(v: Value): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (v instanceof Uint8Array) return `bytes (${v.length})`;
  return display(v);
}
