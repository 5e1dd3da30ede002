/**
 * Filtering and ordering a long list a slice at a time, with a turn of the event loop between slices, so a
 * list request over the full retention of executions never holds the other requests and the running
 * executions for long (docs/limits.md#list-filters). Lists of at most {@link SLICE} items are done at once.
 */
/**
 * Items tested or ordered between two turns of the event loop: at least this many, and at most 8 times as
 * many (fewer turns when the items are cheap: a turn is due after {@link SLICE} items only once 2 ms have
 * passed). A list of 100,000 executions with a filter of 32 restrictions gives the loop a turn every few
 * milliseconds.
 */
export const SLICE = 1000;

/** When a long job should give the event loop a turn (see {@link SLICE}). */
class Pace {
  #items = 0;
  #since = performance.now();

  /** Counts `n` more items done; true when a turn is due. */
  due(n: number): boolean {
    this.#items += n;
    if (this.#items < SLICE) return false;
    return this.#items >= 8 * SLICE || performance.now() - this.#since >= 2;
  }

  /** Resolves after the event loop has had a turn (pending I/O and timers run). */
  async turn(): Promise<void> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.#items = 0;
    this.#since = performance.now();
  }
}

/** The items `predicate` accepts, in order: at once for at most {@link SLICE} items, else in slices. */
export function filterInSlices<T>(items: readonly T[], predicate: (item: T) => boolean): T[] | Promise<T[]> {
  return items.length <= SLICE ? items.filter(predicate) : filterSlowly(items, predicate);
}

async function filterSlowly<T>(items: readonly T[], predicate: (item: T) => boolean): Promise<T[]> {
  const out: T[] = [];
  const pace = new Pace();
  for (let from = 0; from < items.length; from += SLICE) {
    const to = Math.min(items.length, from + SLICE);
    for (let i = from; i < to; i++) if (predicate(items[i]!)) out.push(items[i]!);
    if (pace.due(to - from)) await pace.turn();
  }
  return out;
}

/**
 * The items in `compare`'s order, stable (items it finds equal keep their order): at once for at most
 * {@link SLICE} items, else as a merge sort whose runs are sorted and merged a slice at a time.
 */
export function sortInSlices<T>(items: readonly T[], compare: (a: T, b: T) => number): T[] | Promise<T[]> {
  return items.length <= SLICE ? items.slice().sort(compare) : sortSlowly(items, compare);
}

async function sortSlowly<T>(items: readonly T[], compare: (a: T, b: T) => number): Promise<T[]> {
  const pace = new Pace();
  let runs: T[][] = [];
  for (let from = 0; from < items.length; from += SLICE) {
    runs.push(items.slice(from, from + SLICE).sort(compare));
    if (pace.due(SLICE)) await pace.turn();
  }
  while (runs.length > 1) {
    const merged: T[][] = [];
    for (let i = 0; i < runs.length; i += 2) merged.push(i + 1 < runs.length ? await merge(runs[i]!, runs[i + 1]!, compare, pace) : runs[i]!);
    runs = merged;
  }
  return runs[0]!;
}

/**
 * Merges two sorted runs, `a` the earlier: on a tie `a`'s item comes first (stable). Runs already in order
 * either way (a list ordered by its default order's field, e.g. startTime) are joined without comparing.
 */
async function merge<T>(a: readonly T[], b: readonly T[], compare: (x: T, y: T) => number, pace: Pace): Promise<T[]> {
  if (compare(b[0]!, a[a.length - 1]!) >= 0) return a.concat(b);
  if (compare(b[b.length - 1]!, a[0]!) < 0) return b.concat(a);
  const out: T[] = new Array(a.length + b.length);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    out[k++] = compare(b[j]!, a[i]!) < 0 ? b[j++]! : a[i++]!;
    if (k % SLICE === 0 && pace.due(SLICE)) await pace.turn();
  }
  while (i < a.length) out[k++] = a[i++]!;
  while (j < b.length) out[k++] = b[j++]!;
  return out;
}
