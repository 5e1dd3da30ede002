/**
 * The real clock (stdlib `Clock`), the default of every execution. Time is injected, so the other clock, the
 * virtual one of `--clock virtual` (virtual-time.ts), runs the same workflows and tests without waiting.
 */
import type { Clock } from '../stdlib/types.ts';

// setTimeout holds at most 2^31 - 1 ms (about 24.8 days); longer sleeps (an execution may last a year) wait in
// chunks.
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Real time: `now()` is milliseconds since the Unix epoch with sub-millisecond precision (performance.now
 * added to the time origin); `sleep(ms, signal)` resolves after `ms` milliseconds and rejects with
 * `signal.reason` as soon as the signal aborts (at once when it already has). The pending timer is cleared
 * on abort, so a cancelled execution holds nothing.
 */
export const systemClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  sleep: (ms, signal) => abortableSleep(ms, signal, (f, d) => setTimeout(f, d), (t) => clearTimeout(t)),
};

/** Sleeps `ms` on the timer functions `set`/`clear`, in chunks a timer can hold; rejects when `signal` aborts. */
function abortableSleep<T>(
  ms: number,
  signal: AbortSignal | undefined,
  set: (f: () => void, delayMs: number) => T,
  clear: (t: T) => void,
): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    let remainingMs = Math.max(0, ms);
    let timer: T;
    const onAbort = (): void => {
      clear(timer);
      reject(signal!.reason);
    };
    const arm = (): void => {
      const d = Math.min(remainingMs, MAX_TIMER_MS);
      remainingMs -= d;
      timer = set(() => {
        if (remainingMs > 0) return arm();
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, d);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
  });
}
