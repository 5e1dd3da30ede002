/**
 * The virtual clock of `--clock virtual` (docs/mocks-and-clock.md#virtual-clock): one clock shared by every execution of
 * a server (or by one `run`), on which time stands still while anything runs and jumps to the next timer as
 * soon as nothing does. Results are those of the real clock, only sooner: sys.now, the time functions,
 * resource timestamps and sys.log times all read this clock.
 *
 * The exact rule. Timers are of two kinds:
 * - *sleeps* (sys.sleep, sys.sleep_until, a retry backoff, a mock's delay): `sleep()`;
 * - *deadlines* (an http.* request timeout, an events.await_callback timeout): `deadline()`.
 * Time moves forward by itself only when (1) at least one sleep is pending, (2) nothing runs: no step is
 * being executed, and no real outbound I/O is in flight (`hold()`: a passthrough http request), checked as
 * two consecutive event-loop turns in which no timer was added, ended or held; then time jumps to the earliest
 * pending timer of either kind, wakes every timer due then, and the rule applies again. So an execution
 * waiting on a callback with a timeout, while nothing else sleeps, waits for the callback for as long as it
 * takes: its deadline fires only when other sleeps carry time past it, or when time is moved explicitly
 * with {@link VirtualTime.advance} (`POST /emulator/v1/clock:advance`, the JS API's `advanceClock`).
 */
import type { Clock } from '../stdlib/types.ts';
import { clockRangeProblem, sleepRangeError } from './system-clock.ts';
import type { CancelSignal } from '../platform/cancellation.ts';

interface Timer {
  readonly dueMs: number;
  readonly seq: number;
  readonly sleep: boolean;
  readonly wake: () => void;
  done: boolean;
}

/** The virtual clock; see the module header for when time moves. */
export interface VirtualTime extends Clock {
  readonly kind: 'virtual';
  /** A deadline: like sleep, but time never jumps to it by itself (see the module header). */
  deadline(ms: number, signal?: CancelSignal): Promise<void>;
  /**
   * Moves time forward by `ms` milliseconds, waking the timers due on the way in order (each at its own
   * time, letting what it wakes run before the next); resolves once time is `now + ms`.
   * @throws RangeError (at once) when the time would pass 9999-12-31 (clock.ts MAX_CLOCK_MS): see `advanceProblem`.
   */
  advance(ms: number): Promise<void>;
  /** Holds time still until `work` settles (real outbound I/O). Returns `work`. */
  hold<T>(work: Promise<T>): Promise<T>;
  /** Why `advance(ms)` would be refused (the time would pass 9999-12-31), or undefined when it may. */
  advanceProblem(ms: number): string | undefined;
  /** Timers pending: sleeps and deadlines. */
  pending(): { sleeps: number; deadlines: number };
  /**
   * Back to the real current time when the clock is ahead of it and nothing waits on it (no timer, no
   * advance, no hold): `POST /emulator/v1/reset` does it once every execution is cancelled, so a clock sleeps
   * carried to the end of its range (9999-12-31) is usable again. Returns whether the clock moved.
   */
  rewind(): boolean;
}

/**
 * Creates a virtual clock starting at `startMs` (ms since the epoch; default: the real current time, so
 * timestamps look like today's).
 */
export function createVirtualTime(startMs: number = Date.now()): VirtualTime {
  return new VirtualClock(startMs);
}

/** A binary min-heap of timers on (dueMs, seq): timers due at the same time wake in the order they were set. */
class TimerHeap {
  readonly #heap: Timer[] = [];

  get length(): number {
    return this.#heap.length;
  }

  /** The earliest timer, or undefined when there is none. */
  peek(): Timer | undefined {
    return this.#heap[0];
  }

  push(t: Timer): void {
    const heap = this.#heap;
    heap.push(t);
    let i = heap.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!less(heap[i]!, heap[p]!)) break;
      [heap[i], heap[p]] = [heap[p]!, heap[i]!];
      i = p;
    }
  }

  pop(): Timer | undefined {
    const heap = this.#heap;
    const top = heap[0];
    const last = heap.pop();
    if (heap.length > 0 && last) {
      heap[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < heap.length && less(heap[l]!, heap[m]!)) m = l;
        if (r < heap.length && less(heap[r]!, heap[m]!)) m = r;
        if (m === i) break;
        [heap[i], heap[m]] = [heap[m]!, heap[i]!];
        i = m;
      }
    }
    return top;
  }

  /** Drops the ended timers at the top. */
  dropDone(): void {
    while (this.#heap.length > 0 && this.#heap[0]!.done) this.pop();
  }
}

function less(a: Timer, b: Timer): boolean {
  return a.dueMs < b.dueMs || (a.dueMs === b.dueMs && a.seq < b.seq);
}

/** The virtual clock (see the module header); its methods are bound, so they may be passed around alone. */
class VirtualClock implements VirtualTime {
  readonly kind = 'virtual' as const;
  #nowMs: number;
  #seq = 0;
  readonly #heap = new TimerHeap();
  #sleeps = 0;
  #deadlines = 0;
  #holds = 0;
  /** Bumped by every change; a check that sees it unchanged for a whole turn knows nothing ran. */
  #activity = 0;
  #seen = -1;
  #scheduled = false;
  readonly #advances: { untilMs: number; resolve: () => void }[] = [];

  constructor(startMs: number) {
    this.#nowMs = startMs;
  }

  readonly now = (): number => this.#nowMs;
  readonly sleep = (ms: number, signal?: CancelSignal): Promise<void> => {
    // A sleep (a deadline never moves time by itself, so it may lie past the end: it just never comes).
    const tooLate = sleepRangeError(this.#nowMs, ms);
    return tooLate ? Promise.reject(tooLate) : this.#add(ms, true, signal);
  };
  readonly deadline = (ms: number, signal?: CancelSignal): Promise<void> => this.#add(ms, false, signal);
  readonly pending = (): { sleeps: number; deadlines: number } => ({ sleeps: this.#sleeps, deadlines: this.#deadlines });

  readonly rewind = (): boolean => {
    const real = Date.now();
    if (this.#nowMs <= real || this.#sleeps + this.#deadlines > 0 || this.#advances.length > 0 || this.#holds > 0) return false;
    this.#nowMs = real;
    return true;
  };

  readonly advanceProblem = (ms: number): string | undefined =>
    clockRangeProblem(Math.max(this.#nowMs, this.#advances.at(-1)?.untilMs ?? this.#nowMs), ms);

  readonly advance = (ms: number): Promise<void> => {
    const problem = this.advanceProblem(ms);
    if (problem !== undefined) throw new RangeError(problem);
    const untilMs = Math.max(this.#nowMs, this.#advances.at(-1)?.untilMs ?? this.#nowMs) + Math.max(0, ms);
    return new Promise<void>((resolve) => {
      this.#advances.push({ untilMs, resolve });
      this.#poke();
    });
  };

  readonly hold = <T>(work: Promise<T>): Promise<T> => {
    this.#holds++;
    this.#poke();
    const release = (): void => {
      this.#holds--;
      this.#poke();
    };
    work.then(release, release);
    return work;
  };

  #poke(): void {
    this.#activity++;
    if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.#check);
    }
  }

  /** Moves time when nothing ran for a whole turn (see the module header). */
  readonly #check = (): void => {
    this.#scheduled = false;
    if (this.#holds > 0) return; // the hold's end pokes again
    if (this.#seen !== this.#activity) {
      // Something happened since the last look: wait one more turn to see it settle.
      this.#seen = this.#activity;
      this.#scheduled = true;
      setImmediate(this.#check);
      return;
    }
    const heap = this.#heap;
    heap.dropDone();
    const next = heap.peek();
    const limit = this.#advances.length > 0 ? this.#advances[0]!.untilMs : undefined;
    if (next && (this.#sleeps > 0 || (limit !== undefined && next.dueMs <= limit))) {
      if (next.dueMs > this.#nowMs) this.#nowMs = next.dueMs;
      while (heap.length > 0 && (heap.peek()!.done || heap.peek()!.dueMs <= this.#nowMs)) this.#fire(heap.pop()!);
      this.#poke();
      return;
    }
    if (limit !== undefined) {
      // No timer is due before the explicit target: time reaches it.
      const a = this.#advances.shift()!;
      if (a.untilMs > this.#nowMs) this.#nowMs = a.untilMs;
      a.resolve();
      if (this.#advances.length > 0 || this.#sleeps > 0) this.#poke();
    }
  };

  /** Ends a timer (woken or aborted): it no longer counts as pending. */
  #end(t: Timer): void {
    t.done = true;
    if (t.sleep) this.#sleeps--;
    else this.#deadlines--;
  }

  #fire(t: Timer): void {
    if (t.done) return;
    this.#end(t);
    t.wake();
  }

  #add(ms: number, sleep: boolean, signal: CancelSignal | undefined): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        if (t.done) return;
        this.#end(t);
        this.#poke();
        reject(signal!.reason);
      };
      const t: Timer = {
        dueMs: this.#nowMs + (ms > 0 ? ms : 0), // NaN is 0: a NaN in the heap would stop its ordering
        seq: this.#seq++,
        sleep,
        done: false,
        wake: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      if (sleep) this.#sleeps++;
      else this.#deadlines++;
      this.#heap.push(t);
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#poke();
    });
  }
}

/**
 * The fetch an execution uses for real requests under `clock`: on a {@link VirtualTime}, each request holds
 * time still until it settles (a real request takes real time, see the module header); on any other clock,
 * `realFetch` itself.
 */
export function fetchHoldingTime(clock: Clock, realFetch: typeof fetch): typeof fetch {
  if (!('hold' in clock)) return realFetch;
  const virtual = clock as VirtualTime;
  return ((input: RequestInfo | URL, init?: RequestInit) => virtual.hold(realFetch(input, init))) as typeof fetch;
}
