/**
 * The step history of one execution (issue 12; Google's "View history of execution steps" and the REST
 * resource `projects.locations.workflows.executions.stepEntries`): a {@link StepObserver} that turns the
 * engine's enter/leave events into step entries, and the store that keeps them. It records, it does not
 * format: resource shapes are built when read (src/service/step-entries.ts).
 *
 * What it keeps, per entry: Google's StepEntry fields (entryId from a counter starting at 1, routine, step,
 * stepType, state, create and update time, the error that failed it), the parent entry (navigationInfo's
 * parent; children are derived from it when read), the previous and next sibling (entries of the same
 * parent on the same thread), stepEntryMetadata's progress (iteration, retry attempt, expected iterations,
 * thread), the source position, and at the detailed level the variables the step left, as JSON.
 *
 * Memory stays bounded: at most `maxEntries` entries (beyond that the oldest finished entries are dropped,
 * a tenth of the cap at a time, and {@link StepHistory.droppedEntries} counts them; entries still in progress
 * are never dropped), and at most `maxVariableBytes` of variables JSON (beyond that entries are kept without
 * variables and {@link StepHistory.variablesTruncated} is set). The history is freed with its execution.
 */
import type { SourcePos } from '../lang/definition/ast.ts';
import type { StepEnd, StepEvent, StepObserver, StepType } from '../engine/hooks.ts';
import type { Value, WMap } from '../lang/value.ts';
import { toJson } from '../lang/json.ts';

/** Google's `executionHistoryLevel` values (Workflow and Execution resources). */
export type ExecutionHistoryLevel = 'EXECUTION_HISTORY_LEVEL_UNSPECIFIED' | 'EXECUTION_HISTORY_BASIC' | 'EXECUTION_HISTORY_DETAILED';

/** Default cap on entries kept per execution (documented in README "Step history"). */
export const MAX_STEP_ENTRIES_PER_EXECUTION = 10_000;
/** Default cap on the variables JSON kept per execution at the detailed level, in bytes (8 MB). */
export const MAX_VARIABLE_BYTES_PER_EXECUTION = 8 * 1024 * 1024;

/** Google's StepEntry `state` names. */
export type StepEntryState = 'STATE_IN_PROGRESS' | 'STATE_SUCCEEDED' | 'STATE_FAILED' | 'STATE_CANCELLED';

const END_STATE: Readonly<Record<StepEnd['state'], StepEntryState>> = {
  succeeded: 'STATE_SUCCEEDED',
  failed: 'STATE_FAILED',
  cancelled: 'STATE_CANCELLED',
};

/** One recorded entry. Fields are read by the renderers; only this module writes them. */
export class HistoryEntry {
  state: StepEntryState = 'STATE_IN_PROGRESS';
  updateMs: number;
  /** What failed or cancelled the entry (a WorkflowError or a cancellation reason). */
  error: unknown = undefined;
  /** Entry ID of the previous and next sibling; 0 when none. */
  previous = 0;
  next = 0;
  /** Entries entered inside this one and not yet left. */
  open = 0;
  /** The last child entered, to link the next one as its sibling. */
  lastChild: HistoryEntry | undefined = undefined;
  /** Detailed level: the variables JSON the step left (a JSON object). */
  variables: string | undefined = undefined;
  /** Detailed level, while in progress: the event, to read its variables when the entry is left. */
  event: StepEvent | undefined;
  readonly routine: string;
  readonly step: string;
  readonly stepType: StepType;
  readonly pos: SourcePos;
  readonly threadId: string;
  readonly callDepth: number;
  /** 1-based iteration (STEP_FOR_ITERATION, a parallel for's STEP_PARALLEL_BRANCH_ENTRY) or retry attempt (STEP_RETRY). */
  readonly progress: number | undefined;
  readonly expectedIterations: number | undefined;
  readonly branch: string | undefined;

  constructor(
    readonly id: number,
    e: StepEvent,
    readonly parent: HistoryEntry | undefined,
    readonly createMs: number,
    detailed: boolean,
  ) {
    this.routine = e.routine;
    this.step = e.step;
    this.stepType = e.stepType;
    this.pos = e.pos;
    this.threadId = e.threadId;
    this.callDepth = e.callDepth;
    this.progress = e.iteration ?? e.retryAttempt;
    this.expectedIterations = e.expectedIterations;
    this.branch = e.branch;
    this.updateMs = createMs;
    this.event = detailed ? e : undefined;
  }
}

/** Options of a {@link StepHistory}. */
export interface StepHistoryOptions {
  /** Record the variables each step leaves (Google's EXECUTION_HISTORY_DETAILED). */
  readonly detailed: boolean;
  /** Milliseconds since the epoch: the execution's clock. */
  readonly now: () => number;
  /** Default {@link MAX_STEP_ENTRIES_PER_EXECUTION}. */
  readonly maxEntries?: number;
  /** Default {@link MAX_VARIABLE_BYTES_PER_EXECUTION}. */
  readonly maxVariableBytes?: number;
}

/** A step Google's Execution.Status.currentSteps names: `routine` and `step`. */
export interface CurrentStep {
  readonly routine: string;
  readonly step: string;
}

/**
 * The step history of one execution and the observer that fills it. Pass it to the engine as the
 * execution's `observer`; read it with {@link entries}, {@link find}, {@link currentSteps} and
 * {@link failurePath}.
 */
export class StepHistory implements StepObserver<HistoryEntry> {
  readonly detailed: boolean;
  /** Entries kept, in entryId order. */
  private list: HistoryEntry[] = [];
  private counter = 0;
  private lastRoot: HistoryEntry | undefined = undefined;
  private lastEntered: HistoryEntry | undefined = undefined;
  /** The innermost entry that failed with the error now propagating (the first to be left with it). */
  private failure: HistoryEntry | undefined = undefined;
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly maxVariableBytes: number;
  /** Entries dropped to stay under the entry cap (the oldest finished ones). */
  droppedEntries = 0;
  /** Bytes of variables JSON kept. */
  variableBytes = 0;
  /** True once an entry was kept without its variables because of the byte cap. */
  variablesTruncated = false;

  constructor(options: StepHistoryOptions) {
    this.detailed = options.detailed;
    this.now = options.now;
    this.maxEntries = Math.max(1, options.maxEntries ?? MAX_STEP_ENTRIES_PER_EXECUTION);
    this.maxVariableBytes = options.maxVariableBytes ?? MAX_VARIABLE_BYTES_PER_EXECUTION;
  }

  enter(event: StepEvent, parent: HistoryEntry | undefined): HistoryEntry {
    const entry = new HistoryEntry(++this.counter, event, parent, this.now(), this.detailed);
    let previous: HistoryEntry | undefined;
    if (parent) {
      previous = parent.lastChild;
      parent.lastChild = entry;
      parent.open++;
    } else {
      previous = this.lastRoot;
      this.lastRoot = entry;
    }
    if (previous) {
      entry.previous = previous.id;
      previous.next = entry.id;
    }
    this.lastEntered = entry;
    if (this.list.push(entry) > this.maxEntries) this.trim();
    return entry;
  }

  leave(entry: HistoryEntry, end: StepEnd): void {
    entry.state = END_STATE[end.state];
    entry.updateMs = this.now();
    if (entry.parent) entry.parent.open--;
    if (end.state !== 'succeeded') {
      entry.error = end.error;
      if (end.state === 'failed' && (this.failure === undefined || this.failure.error !== end.error)) this.failure = entry;
    }
    const event = entry.event;
    if (event !== undefined) {
      entry.event = undefined;
      this.recordVariables(entry, event);
    }
  }

  private recordVariables(entry: HistoryEntry, event: StepEvent): void {
    if (this.variablesTruncated) return;
    let json: string;
    try {
      const vars: WMap = new Map();
      for (const [k, v] of event.variables()) vars.set(k, v as Value);
      json = toJson(vars);
    } catch {
      return; // bytes or a value JSON cannot hold: no variables for this entry
    }
    if (this.variableBytes + json.length > this.maxVariableBytes) {
      this.variablesTruncated = true;
      return;
    }
    this.variableBytes += json.length;
    entry.variables = json;
  }

  /** Drops the oldest finished entries, a tenth of the cap at once (so trimming is amortized O(1)). */
  private trim(): void {
    let excess = this.list.length - this.maxEntries + Math.ceil(this.maxEntries / 10);
    const kept: HistoryEntry[] = [];
    for (const e of this.list) {
      if (excess > 0 && e.state !== 'STATE_IN_PROGRESS') {
        excess--;
        this.droppedEntries++;
        if (e.variables !== undefined) this.variableBytes -= e.variables.length;
        continue;
      }
      kept.push(e);
    }
    this.list = kept;
  }

  /** Entries kept, in entryId order (the array itself: do not modify). */
  entries(): readonly HistoryEntry[] {
    return this.list;
  }

  /** Entries recorded so far, including dropped ones (the last entryId given). */
  get recorded(): number {
    return this.counter;
  }

  /** The entry with this ID, or undefined when there is none (never recorded, or dropped). */
  find(entryId: number): HistoryEntry | undefined {
    const list = this.list;
    let lo = 0;
    let hi = list.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const id = list[mid]!.id;
      if (id === entryId) return list[mid];
      if (id < entryId) lo = mid + 1;
      else hi = mid - 1;
    }
    return undefined;
  }

  /**
   * Google's Execution.Status.currentSteps: while the execution runs, the innermost entry in progress on each
   * thread (one per running parallel branch), in entryId order; once it has ended, the last step entered.
   * Inner entries (iterations, branches, conditions, retries, except blocks) name the step they belong to.
   */
  currentSteps(): CurrentStep[] {
    const out: CurrentStep[] = [];
    for (const e of this.list) {
      if (e.state === 'STATE_IN_PROGRESS' && e.open === 0) out.push({ routine: e.routine, step: e.step });
    }
    if (out.length === 0 && this.lastEntered) out.push({ routine: this.lastEntered.routine, step: this.lastEntered.step });
    return out;
  }

  /**
   * Where the error that failed the execution came from, innermost first: the entry that failed first with
   * it, then each subworkflow call it propagated through (Google's Execution.Error.stackTrace). Empty when no
   * entry failed.
   */
  failurePath(): HistoryEntry[] {
    const out: HistoryEntry[] = [];
    let e = this.failure;
    if (!e) return out;
    out.push(e);
    for (let p = e.parent; p; p = p.parent) {
      if (p.callDepth < e.callDepth && (p.stepType === 'STEP_SUBWORKFLOW_CALL' || p.stepType === 'STEP_CALL')) {
        out.push(p);
        e = p;
      }
    }
    return out;
  }
}
