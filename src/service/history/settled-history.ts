/**
 * The step history of an execution that has ended, kept small (docs/architecture.md#step-history-and-call-logs-the-cost-per-step: heap per retained execution). A
 * running execution records into a {@link StepHistory} ring (typed arrays sized for growth, about 1.5 KB even
 * for one entry); once the execution ends nothing is appended any more, so a short history is kept as its
 * frozen entries instead (a few hundred bytes), and the ring is freed. Executions are kept in memory by the
 * hundred thousand (src/service/core.ts), so this is most of what a finished trivial execution costs the
 * heap and the garbage collector. stepEntries.list and get read either form through
 * {@link StepHistoryReader} (src/service/history/step-entries.ts) and answer the same.
 */
import type { StepHistory } from './step-history.ts';
import type { HistoryEntry } from './step-ring.ts';

/** What reading a step history needs (stepEntries.list and get): the live ring and the settled form alike. */
export interface StepHistoryReader {
  /** Entries kept, in entryId order. */
  entries(): readonly HistoryEntry[];
  /** The entry with this ID, or undefined when there is none (never recorded, or dropped). */
  find(entryId: number): HistoryEntry | undefined;
  /** Entries recorded, including dropped ones (the last entryId given). */
  readonly recorded: number;
  /** Entries dropped to stay under the cap on entries per execution. */
  readonly droppedEntries: number;
}

/**
 * Histories of at most this many entries are settled into their entries when the execution ends; longer
 * ones stay in the ring, which costs less per entry than an object each.
 */
const SETTLE_MAX_ENTRIES = 16;

/** A finished execution's step history, as its entries (immutable: the execution has ended). */
class SettledHistory implements StepHistoryReader {
  constructor(
    private readonly kept: readonly HistoryEntry[],
    readonly recorded: number,
    readonly droppedEntries: number,
  ) {}

  entries(): readonly HistoryEntry[] {
    return this.kept;
  }

  find(entryId: number): HistoryEntry | undefined {
    // Entries are in entryId order from 1, without gaps unless some were dropped.
    const at = this.kept[entryId - 1];
    if (at !== undefined && at.id === entryId) return at;
    return this.kept.find((e) => e.id === entryId);
  }
}

/** The history with nothing in it (an execution that records none still lists its empty step entries). */
export const EMPTY_HISTORY: StepHistoryReader = new SettledHistory([], 0, 0);

/**
 * The form to keep `history` in once its execution has ended: its entries when there are few (see
 * {@link SETTLE_MAX_ENTRIES}), else the ring itself. Call it after the execution's last step has left (no
 * entry is still recorded into it).
 */
export function settleHistory(history: StepHistory): StepHistoryReader {
  if (history.recorded > SETTLE_MAX_ENTRIES) return history;
  // Variables stay in the ring, where the budget on detailed history can free them (detail-budget.ts).
  if (history.variableBytes > 0) return history;
  const entries = history.entries();
  // An entry still in progress (a branch that has not noticed a cancellation yet) may still change: keep the ring.
  for (const e of entries) if (e.state === 'STATE_IN_PROGRESS') return history;
  return new SettledHistory(Object.freeze(entries), history.recorded, history.droppedEntries);
}

/**
 * A finished execution's history of the given entries (in entryId order, previous and next filled in), as
 * read back from a data directory or an export (src/service/persist/records.ts).
 */
export function settledHistory(entries: readonly HistoryEntry[], recorded: number, droppedEntries: number): StepHistoryReader {
  return new SettledHistory(Object.freeze(entries), recorded, droppedEntries);
}
