/**
 * The recording ring of a step history (docs/rest-api.md#step-history; Google's "View history of execution steps"):
 * {@link StepRing}, the base of StepHistory (step-history.ts), is the {@link StepObserver} that turns the
 * engine's enter/leave events into step entries and the store that keeps them; StepHistory adds the read side
 * (snapshots in entryId order with their siblings, find, currentSteps, failurePath).
 *
 * What it keeps, per entry: Google's StepEntry fields (entryId from a counter starting at 1, routine, step,
 * stepType, state, create and update time, the error that failed it), the parent entry (navigationInfo's
 * parent; children, and the previous and next sibling, the nearest kept entries of the same parent, are
 * derived from it when read, so recording an entry touches no other), stepEntryMetadata's progress
 * (iteration, retry attempt, expected iterations, thread), the source position, and at the detailed level
 * the variables the step left, as JSON.
 *
 * Layout: entries live in a ring of records (a typed array for the numbers, one for the times, a plain array
 * of shared strings and positions), indexed by `entryId & (capacity - 1)`; the handle the engine passes back
 * is the entryId itself. Recording an entry allocates nothing per entry on the basic level (so a long run
 * does not fill the heap with small objects for the collector to move), and reading builds
 * {@link HistoryEntry} objects.
 *
 * Memory stays bounded: at most `maxEntries` entries (the ring grows up to that, rounded up to a power of
 * two; beyond it each new entry drops the oldest, and StepHistory.droppedEntries counts those dropped; a
 * dropped entry's slot is reused when the ring comes round to it; an entry still in progress is not dropped
 * but kept, moved aside when its slot is reused, until it ends), and at most `maxVariableBytes` of variables
 * JSON (beyond that entries are kept without variables and {@link StepRing.variablesTruncated} is set). The
 * history is freed with its execution.
 */
import type { SourcePos } from '../../lang/definition/ast.ts';
import type { StepEnd, StepEvent, StepObserver, StepType } from '../../engine/hooks.ts';
import type { Value, WMap } from '../../lang/value.ts';
import { toJson } from '../../lang/json.ts';

/** Default cap on entries kept per execution (documented in docs/rest-api.md#step-history). */
export const MAX_STEP_ENTRIES_PER_EXECUTION = 10_000;
/** Default cap on the variables JSON kept per execution at the detailed level, in bytes (8 MB). */
const MAX_VARIABLE_BYTES_PER_EXECUTION = 8 * 1024 * 1024;

/** Google's StepEntry `state` names. */
export type StepEntryState = 'STATE_IN_PROGRESS' | 'STATE_SUCCEEDED' | 'STATE_FAILED' | 'STATE_CANCELLED';

const STATES: readonly StepEntryState[] = ['STATE_IN_PROGRESS', 'STATE_SUCCEEDED', 'STATE_FAILED', 'STATE_CANCELLED'];
const IN_PROGRESS = 0;
const SUCCEEDED = 1;

// The ring's record of one entry: INTS numbers at `slot << 2` of `ints`, its create and update time at
// `slot << 1` of `times`, and REFS shared values at `slot * REFS` of `refs` (so recording an entry touches a
// few cache lines, not one per field).
const INTS = 4;
const ID = 0; // the entryId the slot holds (0: none)
const PARENT = 1;
/** The state (bits 0-2), HAS_EXTRA (bit 3) and the call depth (bits 4 up). */
const STATE = 2;
/** The iteration or retry attempt; 0 for none. */
const PROGRESS = 3;
const STATE_BITS = 7;
/** A bit of STATE: the entry has rare parts in `extras` (so entries without any cost no map lookup). */
const HAS_EXTRA = 8;
const DEPTH_SHIFT = 4;
const CREATED = 0;
const UPDATED = 1;
const REFS = 5;
const ROUTINE = 0;
const STEP = 1;
const TYPE = 2;
const THREAD = 3;
const POS = 4;
const END_STATE: Readonly<Record<StepEnd['state'], number>> = { succeeded: 1, failed: 2, cancelled: 3 };

/** One recorded entry as read (a snapshot built by StepHistory.entries and StepHistory.find, step-history.ts). */
export interface HistoryEntry {
  readonly id: number;
  /** The parent entry's ID; 0 for none. */
  readonly parentId: number;
  readonly routine: string;
  readonly step: string;
  readonly stepType: StepType;
  readonly pos: SourcePos;
  readonly threadId: string;
  readonly callDepth: number;
  readonly state: StepEntryState;
  readonly createMs: number;
  readonly updateMs: number;
  /** Entry ID of the previous and next sibling; 0 when none. */
  readonly previous: number;
  readonly next: number;
  /** 1-based iteration (STEP_FOR_ITERATION, a parallel for's STEP_PARALLEL_BRANCH_ENTRY) or retry attempt (STEP_RETRY). */
  readonly progress: number | undefined;
  readonly expectedIterations: number | undefined;
  /** STEP_PARALLEL_BRANCH_ENTRY of `branches`: the branch name. */
  readonly branch: string | undefined;
  /** What failed or cancelled the entry (a WorkflowError or a cancellation reason). */
  readonly error: unknown;
  /** Detailed level: the variables JSON the step left (a JSON object). */
  readonly variables: string | undefined;
}

/** A pinned entry: a snapshot that enter/leave keep up to date. */
export type MutableEntry = { -readonly [K in keyof HistoryEntry]: HistoryEntry[K] };

/** The rare parts of an entry, kept aside by entryId. */
interface Extra {
  event?: StepEvent | undefined;
  error?: unknown;
  variables?: string;
  branch?: string;
  expectedIterations?: number;
}

/** Options of a StepHistory (step-history.ts): those of its {@link StepRing}. */
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

/**
 * Entries the ring starts with: 4 keeps each typed array at 64 bytes, which V8 holds inside the array object
 * itself (no separate buffer and backing store: ~430 bytes less per execution, most of them short or waiting).
 */
const INITIAL_CAPACITY = 4;
/** The shared empty maps of a history that has written none yet (never written to). */
const NO_EXTRAS = new Map<number, Extra>();
const NO_PINNED = new Map<number, MutableEntry>();
/** The rings whose clock reading is fresh: marked stale together in one microtask (no function per ring). */
const FRESH: StepRing[] = [];

/**
 * The ring of step entry records and the observer methods that fill it: the base of StepHistory
 * (step-history.ts), which reads it. Pass a StepHistory to the engine as the execution's `observer`.
 */
export abstract class StepRing implements StepObserver<number> {
  readonly detailed: boolean;
  private readonly now: () => number;
  private readonly maxEntries: number;
  private readonly maxVariableBytes: number;
  /** The last entryId given. */
  protected counter = 0;
  private capacity = INITIAL_CAPACITY;
  private mask = INITIAL_CAPACITY - 1;
  // The ring: slot = entryId & mask; a slot's ID field says which entry it holds (0: none).
  private ints = new Int32Array(INITIAL_CAPACITY * INTS);
  private times = new Float64Array(INITIAL_CAPACITY * 2);
  /** Per slot: routine, step, stepType, threadId (strings) and the source position. */
  private refs: unknown[] = new Array<unknown>(INITIAL_CAPACITY * REFS);
  /**
   * Rare parts by entryId (events kept until leave, errors, variables, branch names, loop sizes). Shared
   * empty maps until first written, so a short history costs no map.
   */
  protected extras: Map<number, Extra> = NO_EXTRAS;
  /** Entries pushed out of the ring while still in progress, by entryId. */
  protected pinned: Map<number, MutableEntry> = NO_PINNED;
  protected lastEntered = 0;
  /** The innermost entry that failed with the error now propagating (the first to be left with it). */
  protected failureId = 0;
  private failureError: unknown = undefined;
  protected failure: HistoryEntry[] = [];
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

  /**
   * The clock, read at most once per 64 entries within one synchronous run of the engine: a step that waits
   * ends the run (the microtask below marks the reading stale), so a waiting step's times are exact, and a
   * CPU-bound run shares readings over a few microseconds, well under the milliseconds timestamps show.
   */
  private time(): number {
    if (this.fresh && --this.uses > 0) return this.cachedMs;
    this.cachedMs = this.now();
    this.uses = 64;
    if (!this.fresh) {
      this.fresh = true;
      if (FRESH.push(this) === 1) queueMicrotask(StepRing.expireAll);
    }
    return this.cachedMs;
  }
  private cachedMs = 0;
  private uses = 0;
  private fresh = false;
  /** Marks every reading taken since the last call stale (one microtask for all the rings read meanwhile). */
  private static expireAll(): void {
    for (const ring of FRESH) ring.fresh = false;
    FRESH.length = 0;
  }

  enter(event: StepEvent, parent: number | undefined): number {
    const id = ++this.counter;
    if (id > this.capacity && this.capacity < this.maxEntries) this.grow();
    const ints = this.ints;
    const slot = id & this.mask;
    // Once the ring has come round, the slot's entry (`capacity` entries back) leaves it; one that has ended
    // without rare parts (the common case) is simply overwritten.
    const held = ints[(slot << 2) + STATE]!;
    if (((held & STATE_BITS) === IN_PROGRESS || (held & HAS_EXTRA) !== 0) && ints[slot << 2] !== 0) this.evict(slot);
    // Detailed history frees the variables of the entry that has just dropped out of the cap at once, so the
    // byte cap counts only the entries kept.
    if (this.detailed && id > this.maxEntries) this.dropVariables(id - this.maxEntries);
    const parentId = parent ?? 0;
    const type = event.stepType;
    let state = IN_PROGRESS | (event.callDepth << DEPTH_SHIFT);
    // Detailed history reads variables, and loops' sizes, when the step is left; a branch keeps its name.
    if (this.detailed || event.branch !== undefined) {
      this.ownExtras().set(id, { event });
      state |= HAS_EXTRA;
    }
    const at = slot << 2;
    ints[at + ID] = id;
    ints[at + PARENT] = parentId;
    ints[at + STATE] = state;
    ints[at + PROGRESS] = event.iteration ?? event.retryAttempt ?? 0;
    const now = this.time();
    const times = this.times;
    times[(slot << 1) + CREATED] = now;
    times[(slot << 1) + UPDATED] = now;
    const refs = this.refs;
    const r = slot * REFS;
    refs[r + ROUTINE] = event.routine;
    refs[r + STEP] = event.step;
    refs[r + TYPE] = type;
    refs[r + THREAD] = event.threadId;
    refs[r + POS] = event.pos;
    this.lastEntered = id;
    return id;
  }

  leave(id: number, end: StepEnd): void {
    // An entry past the entry cap was kept only while in progress: it is dropped as it ends.
    const dropped = id <= this.counter - this.maxEntries;
    const succeeded = end.state === 'succeeded';
    const state = succeeded ? SUCCEEDED : END_STATE[end.state];
    const now = this.time();
    let hasExtra: number;
    const slot = this.slotOf(id);
    const ints = this.ints;
    if (slot >= 0) {
      const at = slot << 2;
      const old = ints[at + STATE]!;
      hasExtra = old & HAS_EXTRA;
      ints[at + STATE] = (old & ~STATE_BITS) | state;
      this.times[(slot << 1) + UPDATED] = now;
    } else {
      const p = this.pinned.get(id);
      if (!p) return;
      p.state = STATES[state]!;
      p.updateMs = now;
      hasExtra = HAS_EXTRA;
    }
    if (succeeded && hasExtra === 0) return;
    let extra = this.extras.get(id);
    if (!succeeded) {
      if (!extra) {
        this.ownExtras().set(id, (extra = {}));
        if (slot >= 0) ints[(slot << 2) + STATE]! |= HAS_EXTRA;
      }
      extra.error = end.error;
      if (end.state === 'failed' && (this.failureId === 0 || this.failureError !== end.error)) {
        this.failureId = id;
        this.failureError = end.error;
        this.failure = [];
      }
    }
    if (extra?.event !== undefined) {
      const event = extra.event;
      extra.event = undefined;
      // Google gives the expected number of iterations (for loops, parallel branches and iterations) only at
      // the detailed level (https://cloud.google.com/workflows/docs/debug-steps#execution-history-level).
      if (this.detailed && event.expectedIterations !== undefined) extra.expectedIterations = event.expectedIterations;
      if (event.branch !== undefined) extra.branch = event.branch;
      // A dropped entry's variables are never read: they would only count against the byte cap.
      if (this.detailed && !dropped) this.recordVariables(extra, event);
    }
    // The path of a failure is taken while its entries are certainly kept.
    if (this.failureId !== 0 && this.failure.length === 0 && id === this.failureId) this.failure = this.pathOf(id);
    if (dropped && slot < 0) {
      this.pinned.delete(id);
      this.freeExtra(id);
    }
  }

  private ownExtras(): Map<number, Extra> {
    if (this.extras === NO_EXTRAS) this.extras = new Map();
    return this.extras;
  }

  private recordVariables(extra: Extra, event: StepEvent): void {
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
    extra.variables = json;
  }

  /** The ring slot holding entry `id`, or -1 when it is not in the ring (pinned, dropped or never recorded). */
  private slotOf(id: number): number {
    const slot = id & this.mask;
    return this.ints[slot << 2] === id ? slot : -1;
  }

  /**
   * Grows the ring (up to the cap, rounded up to a power of two): doubles it while small, quadruples it from
   * 1,024 entries on (fewer large copies), moving each entry to its slot in the larger ring.
   */
  private grow(): void {
    const old = this.capacity;
    const capacity = old < 1024 ? old * 2 : old * 4;
    const mask = capacity - 1;
    const ints = new Int32Array(capacity * INTS);
    const times = new Float64Array(capacity * 2);
    const refs = new Array<unknown>(capacity * REFS);
    const [fromInts, fromTimes, fromRefs] = [this.ints, this.times, this.refs];
    for (let s = 0; s < old; s++) {
      const id = fromInts[s << 2]!;
      if (id === 0) continue;
      const to = id & mask;
      for (let k = 0; k < INTS; k++) ints[(to << 2) + k] = fromInts[(s << 2) + k]!;
      times[to << 1] = fromTimes[s << 1]!;
      times[(to << 1) + 1] = fromTimes[(s << 1) + 1]!;
      for (let k = 0; k < REFS; k++) refs[to * REFS + k] = fromRefs[s * REFS + k];
    }
    this.ints = ints;
    this.times = times;
    this.refs = refs;
    this.capacity = capacity;
    this.mask = mask;
  }

  /**
   * Frees `slot` for a new entry: its entry (long past the cap, so dropped already unless in progress) loses
   * its rare parts, or is pinned when still in progress.
   */
  private evict(slot: number): void {
    const at = slot << 2;
    const id = this.ints[at + ID]!;
    const state = this.ints[at + STATE]!;
    if ((state & STATE_BITS) === IN_PROGRESS) {
      // A pinned entry is past the cap (its slot came round), so {@link leave} drops it as it ends: the pinned
      // set stays as small as the nesting.
      if (this.pinned === NO_PINNED) this.pinned = new Map();
      this.pinned.set(id, this.snapshot(slot));
    } else if ((state & HAS_EXTRA) !== 0) this.freeExtra(id);
    this.ints[at + ID] = 0;
  }

  /**
   * Frees the variables JSON of every entry (the detailed history of a finished execution, over the budget of
   * docs/limits.md "Step history"); later reads show the entries without variables, and
   * {@link variablesTruncated} is set. Returns the bytes freed.
   */
  dropAllVariables(): number {
    const freed = this.variableBytes;
    for (const extra of this.extras.values()) delete extra.variables;
    for (const entry of this.pinned.values()) entry.variables = undefined;
    this.variableBytes = 0;
    if (freed > 0) this.variablesTruncated = true;
    return freed;
  }

  /** Frees the variables of entry `id`, dropped by the cap, unless it is still in progress (and so kept). */
  private dropVariables(id: number): void {
    const slot = this.slotOf(id);
    if (slot < 0) return;
    const state = this.ints[(slot << 2) + STATE]!;
    if ((state & STATE_BITS) === IN_PROGRESS || (state & HAS_EXTRA) === 0) return;
    const extra = this.extras.get(id);
    if (extra?.variables === undefined) return;
    this.variableBytes -= extra.variables.length;
    delete extra.variables;
  }

  /** Frees the rare parts of entry `id`. */
  private freeExtra(id: number): void {
    const extra = this.extras.get(id);
    if (extra) {
      if (extra.variables !== undefined) this.variableBytes -= extra.variables.length;
      this.extras.delete(id);
    }
  }

  protected snapshot(slot: number): MutableEntry {
    const ints = this.ints;
    const at = slot << 2;
    const id = ints[at + ID]!;
    const extra = this.extras.get(id);
    const event = extra?.event;
    const p = ints[at + PROGRESS]!;
    const state = ints[at + STATE]!;
    const r = slot * REFS;
    return {
      id,
      parentId: ints[at + PARENT]!,
      routine: this.refs[r + ROUTINE] as string,
      step: this.refs[r + STEP] as string,
      stepType: this.refs[r + TYPE] as StepType,
      pos: this.refs[r + POS] as SourcePos,
      threadId: this.refs[r + THREAD] as string,
      callDepth: state >> DEPTH_SHIFT,
      state: STATES[state & STATE_BITS]!,
      createMs: this.times[(slot << 1) + CREATED]!,
      updateMs: this.times[(slot << 1) + UPDATED]!,
      previous: 0,
      next: 0,
      progress: p === 0 ? undefined : p,
      expectedIterations: extra?.expectedIterations ?? (this.detailed ? event?.expectedIterations : undefined),
      branch: extra?.branch ?? event?.branch,
      error: extra?.error,
      variables: extra?.variables,
    };
  }

  /** The oldest entryId the ring may hold. */
  protected ringStart(): number {
    return Math.max(1, this.counter - this.capacity + 1);
  }

  /** The parent of entry `id` when the ring keeps it; -1 when it does not (pinned, dropped). */
  protected ringParent(id: number): number {
    const slot = this.keptSlot(id);
    return slot >= 0 ? this.ints[(slot << 2) + PARENT]! : -1;
  }

  /**
   * The ring slot of entry `id` when it is kept: among the last `maxEntries` entries, or older but still in
   * progress. -1 otherwise (an older entry that has ended is dropped, though its slot is reused only later).
   */
  protected keptSlot(id: number): number {
    const slot = this.slotOf(id);
    if (slot < 0 || id > this.counter - this.maxEntries) return slot;
    return (this.ints[(slot << 2) + STATE]! & STATE_BITS) === IN_PROGRESS ? slot : -1;
  }

  /**
   * The path of the failure whose innermost entry is `id`, as StepHistory.failurePath returns it;
   * {@link leave} takes it when that entry is left, while its entries are certainly kept.
   */
  protected abstract pathOf(id: number): HistoryEntry[];
}
