/**
 * The real clock the service gives executions when none is injected (see `Clock` in src/stdlib/types.ts):
 * wall time with sub-millisecond precision, and an abortable sleep that also handles waits longer than
 * a platform timer can hold (about 24.8 days), such as a one-year execution or a long callback timeout.
 */
import type { Clock } from '../stdlib/types.ts';

/** Longest delay one platform timer accepts, in milliseconds (2^31 - 1). */
const MAX_TIMER_MS = 2_147_483_647;

/** The system clock: `now()` in epoch milliseconds (fractional), `sleep(ms, signal)` rejecting with `signal.reason`. */
export const systemClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout>;
      const end = Date.now() + Math.max(0, ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      const arm = (): void => {
        const left = end - Date.now();
        if (left <= 0) {
          signal?.removeEventListener('abort', onAbort);
          resolve();
          return;
        }
        timer = setTimeout(arm, Math.min(left, MAX_TIMER_MS));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (ms <= MAX_TIMER_MS) {
        timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, Math.max(0, ms));
      } else arm();
    });
  },
};
