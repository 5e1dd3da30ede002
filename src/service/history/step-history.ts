/**
 * The step history of one execution (docs/rest-api.md#step-history; Google's "View history of execution steps" and the REST
 * resource `projects.locations.workflows.executions.stepEntries`): a `StepObserver` that turns the
 * engine's enter/leave events into step entries, and the store that keeps them. It records, it does not
 * format: resource shapes are built when read (src/service/history/step-entries.ts).
 *
 * Recording, the ring of records and its memory bounds are {@link StepRing} (step-ring.ts); this file is the
 * read side. Entries are read as {@link HistoryEntry} snapshots, and the previous and next sibling of each
 * (navigationInfo; the nearest kept entries of the same parent) are derived when read, so recording an entry
 * touches no other.
 */
import { StepRing, type HistoryEntry, type MutableEntry } from './step-ring.ts';

/** Google's `executionHistoryLevel` values (Workflow and Execution resources). */
export type ExecutionHistoryLevel = 'EXECUTION_HISTORY_LEVEL_UNSPECIFIED' | 'EXECUTION_HISTORY_BASIC' | 'EXECUTION_HISTORY_DETAILED';

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
export class StepHistory extends StepRing {
  /** Entries kept, in entryId order (snapshots). */
  entries(): HistoryEntry[] {
    const out: MutableEntry[] = [];
    for (const p of this.pinned.values()) out.push(this.refresh(p));
    out.sort((a, b) => a.id - b.id);
    const first = this.ringStart();
    for (let id = first; id <= this.counter; id++) {
      const slot = this.keptSlot(id);
      if (slot >= 0) out.push(this.snapshot(slot));
    }
    // Siblings: each entry's previous is the last kept entry before it with the same parent.
    const last = new Map<number, MutableEntry>();
    for (const e of out) {
      const before = last.get(e.parentId);
      if (before !== undefined) {
        e.previous = before.id;
        before.next = e.id;
      }
      last.set(e.parentId, e);
    }
    return out;
  }

  /**
   * Sets `e`'s previous and next sibling as {@link entries} does: the nearest kept entries before and after
   * it with the same parent. Pinned entries are all older than those in the ring; a sibling comes after its
   * parent.
   */
  private link(e: MutableEntry): MutableEntry {
    const parent = e.parentId;
    const start = this.ringStart();
    for (let id = e.id - 1; id >= start && id > parent; id--) {
      if (this.ringParent(id) === parent) {
        e.previous = id;
        break;
      }
    }
    for (const p of this.pinned.values()) {
      if (p.parentId !== parent) continue;
      if (p.id < e.id && p.id > e.previous && e.previous < start) e.previous = p.id;
      if (p.id > e.id && (e.next === 0 || p.id < e.next)) e.next = p.id;
    }
    if (e.next === 0) {
      for (let id = Math.max(e.id + 1, start); id <= this.counter; id++) {
        if (this.ringParent(id) === parent) {
          e.next = id;
          break;
        }
      }
    }
    return e;
  }

  /** Entries dropped to stay under the entry cap (the oldest finished ones). */
  get droppedEntries(): number {
    let kept = this.pinned.size;
    const first = this.ringStart();
    for (let id = first; id <= this.counter; id++) if (this.keptSlot(id) >= 0) kept++;
    return this.counter - kept;
  }

  /** A pinned entry with its rare parts as they are now. */
  private refresh(p: MutableEntry): MutableEntry {
    const extra = this.extras.get(p.id);
    return extra ? { ...p, error: extra.error, variables: extra.variables, branch: extra.branch ?? p.branch, expectedIterations: extra.expectedIterations ?? p.expectedIterations } : { ...p };
  }

  /** Entries recorded so far, including dropped ones (the last entryId given). */
  get recorded(): number {
    return this.counter;
  }

  /** The entry with this ID, or undefined when there is none (never recorded, or dropped). */
  find(entryId: number): HistoryEntry | undefined {
    const e = this.unlinked(entryId);
    return e === undefined ? undefined : this.link(e);
  }

  /** {@link find} without the siblings (previous and next left 0). */
  private unlinked(entryId: number): MutableEntry | undefined {
    if (!Number.isInteger(entryId) || entryId < 1 || entryId > this.counter) return undefined;
    const slot = this.keptSlot(entryId);
    if (slot >= 0) return this.snapshot(slot);
    const p = this.pinned.get(entryId);
    return p ? this.refresh(p) : undefined;
  }

  /**
   * Google's Execution.Status.currentSteps: while the execution runs, the innermost entry in progress on each
   * thread (one per running parallel branch), in entryId order; once it has ended, the last step entered.
   * Inner entries (iterations, branches, conditions, retries, except blocks) name the step they belong to.
   */
  currentSteps(): CurrentStep[] {
    const out: CurrentStep[] = [];
    const entries = this.entries();
    // An entry in progress is innermost when no entry in progress has it as parent.
    const enclosing = new Set<number>();
    for (const e of entries) if (e.state === 'STATE_IN_PROGRESS') enclosing.add(e.parentId);
    for (const e of entries) {
      if (e.state === 'STATE_IN_PROGRESS' && !enclosing.has(e.id)) out.push({ routine: e.routine, step: e.step });
    }
    if (out.length === 0 && this.lastEntered !== 0) {
      const e = this.find(this.lastEntered);
      if (e) out.push({ routine: e.routine, step: e.step });
    }
    return out;
  }

  /**
   * Where the error that failed the execution came from, innermost first: the entry that failed first with
   * it, then each subworkflow call it propagated through (Google's Execution.Error.stackTrace). Empty when no
   * entry failed.
   */
  failurePath(): HistoryEntry[] {
    if (this.failureId === 0) return [];
    return this.failure.length ? this.failure : this.pathOf(this.failureId);
  }

  protected pathOf(id: number): HistoryEntry[] {
    const out: MutableEntry[] = [];
    let e = this.unlinked(id);
    if (!e) return out;
    out.push(e);
    for (let p = this.unlinked(e.parentId); p; p = this.unlinked(p.parentId)) {
      if (p.callDepth < e.callDepth && (p.stepType === 'STEP_SUBWORKFLOW_CALL' || p.stepType === 'STEP_CALL')) {
        out.push(p);
        e = p;
      }
    }
    return out.map((x) => this.link(x));
  }
}
