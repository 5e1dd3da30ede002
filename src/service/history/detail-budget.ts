/**
 * The byte budget of detailed step history across finished executions (docs/limits.md "Step history"): at
 * the detailed level each entry keeps the variables its step left as JSON, up to 8 MB per execution
 * (step-ring.ts), and executions are kept by the hundred thousand. Once the variables kept by finished
 * executions pass {@link MAX_DETAILED_BYTES_TOTAL}, those of the executions that ended longest ago are freed
 * first; their entries stay, without variables.
 */
import type { StepHistoryReader } from './settled-history.ts';

/** Bytes of variables JSON kept across finished executions' detailed histories (64 MB). */
export const MAX_DETAILED_BYTES_TOTAL = 64 * 1024 * 1024;

/** What the budget frees: a history whose variables can be dropped (StepRing). */
interface Droppable {
  readonly variableBytes: number;
  dropAllVariables(): number;
}

function droppable(h: StepHistoryReader | undefined): Droppable | undefined {
  const d = h as Partial<Droppable> | undefined;
  return d && typeof d.dropAllVariables === 'function' && (d.variableBytes ?? 0) > 0 ? (d as Droppable) : undefined;
}

/** The budget of one service: finished executions' histories in the order they ended. */
export class DetailBudget {
  /** Histories with variables, oldest ended first (a Map keeps insertion order), with the bytes counted. */
  readonly #kept = new Map<object, { history: Droppable; bytes: number }>();
  #total = 0;

  constructor(private readonly maxBytes: number = MAX_DETAILED_BYTES_TOTAL) {}

  /** Counts the history of `owner`'s execution, which has just ended; frees the oldest ones over the budget. */
  ended(owner: object, history: StepHistoryReader | undefined): void {
    const h = droppable(history);
    if (h === undefined) return;
    this.#kept.set(owner, { history: h, bytes: h.variableBytes });
    this.#total += h.variableBytes;
    for (const [o, k] of this.#kept) {
      if (this.#total <= this.maxBytes) break;
      k.history.dropAllVariables();
      this.#total -= k.bytes;
      this.#kept.delete(o);
    }
  }

  /** Stops counting `owner`'s history (its execution is forgotten). */
  forget(owner: object): void {
    const k = this.#kept.get(owner);
    if (k === undefined) return;
    this.#total -= k.bytes;
    this.#kept.delete(owner);
  }

  /** Forgets every history (reset). */
  clear(): void {
    this.#kept.clear();
    this.#total = 0;
  }

  /** Bytes of variables counted now. */
  get totalBytes(): number {
    return this.#total;
  }
}
