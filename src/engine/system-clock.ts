/**
 * The real clock (stdlib `Clock`), the default of every execution, and the range every clock keeps to. Time is
 * injected, so the other clock, the virtual one of `--clock virtual` (virtual-time.ts), runs the same workflows
 * and tests without waiting.
 */
import { valueError, type WorkflowError } from '../lang/errors.ts';
import type { Clock } from '../stdlib/types.ts';
import type { CancelSignal } from '../platform/cancellation.ts';

/**
 * The latest time a clock may reach, in ms since the Unix epoch: 9999-12-31T23:59:59.999Z, the end of the
 * range of google.protobuf.Timestamp, in which every timestamp of the API is written
 * (https://protobuf.dev/reference/protobuf/google.protobuf/#timestamp), and well inside JavaScript's date
 * range (docs/limits.md "Clock"). A sleep, a mock's delay, a retry backoff or a clock advance that would end
 * later is refused, so the clock never reaches a time the emulator cannot write.
 */
export const MAX_CLOCK_MS = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * Why a wait of `ms` milliseconds from `nowMs` cannot be, or undefined when it ends within
 * {@link MAX_CLOCK_MS} (NaN and infinite waits never can).
 */
export function clockRangeProblem(nowMs: number, ms: number): string | undefined {
  if (!Number.isFinite(ms)) return `a wait of ${ms} ms is not a finite time`;
  if (nowMs + Math.max(0, ms) <= MAX_CLOCK_MS) return undefined;
  return `a wait of ${ms / 1000} seconds would end after 9999-12-31T23:59:59.999Z, the latest time the clock can show`;
}

/** The ValueError a sleep past {@link MAX_CLOCK_MS} rejects with, or undefined when the wait fits. */
export function sleepRangeError(nowMs: number, ms: number): WorkflowError | undefined {
  const problem = clockRangeProblem(nowMs, ms);
  return problem === undefined ? undefined : valueError(problem);
}

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
  sleep(ms, signal) {
    const tooLate = sleepRangeError(systemClock.now(), ms);
    if (tooLate) return Promise.reject(tooLate);
    return abortableSleep(ms, signal);
  },
  deadline: (ms, signal) => fairDeadline(ms, signal),
};

/**
 * A timer that fires later than due by more than this (ms) was held up by the emulator's own event loop (a
 * stall of ours, not slowness of what is awaited).
 */
const STALL_MS = 20;

/**
 * A deadline (an http.* timeout, a callback wait's timeout) that does not charge the emulator's own stalls to
 * what it waits for (docs/limits.md "Timeouts"): when the timer fires late because the event loop was busy, a
 * response that arrived meanwhile may still be queued behind it, so the time it fired late is given back (at
 * most the timeout once more) and pending I/O is handled first. Resolves when the deadline has passed;
 * rejects with the signal's reason when it aborts first.
 */
async function fairDeadline(ms: number, signal: CancelSignal | undefined): Promise<void> {
  let dueMs = systemClock.now() + Math.max(0, ms);
  let creditMs = Math.max(0, ms);
  for (;;) {
    await systemClock.sleep(Math.max(0, dueMs - systemClock.now()), signal);
    const lateMs = systemClock.now() - dueMs;
    // What arrived during a stall is handled before the deadline is declared.
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (signal?.aborted) throw signal.reason;
    if (lateMs <= STALL_MS || creditMs <= 0) return;
    const extraMs = Math.min(lateMs, creditMs);
    creditMs -= extraMs;
    dueMs = systemClock.now() + extraMs;
  }
}

function abortableSleep(ms: number, signal: CancelSignal | undefined): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<void>((resolve, reject) => {
    const sleep = new PendingSleep(Math.max(0, ms), signal, resolve, reject);
    signal?.addEventListener('abort', sleep, { once: true });
    sleep.arm();
  });
}

/**
 * One sleep in progress: its timer, re-armed in steps of at most MAX_TIMER_MS, and its abort listener. Every
 * sleeping execution holds one of these, so it makes no function of its own: the timer calls the shared
 * {@link fireSleep} with the sleep as its argument, and the sleep itself is the abort listener (an event
 * listener object, whose `handleEvent` the signal calls; https://dom.spec.whatwg.org/#callbackdef-eventlistener).
 * Three arrow functions per sleep, as it had, and their context took about 200 bytes more of every sleeping
 * execution (docs/architecture.md#start-up-and-memory-beside-their-floors).
 */
class PendingSleep {
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private remainingMs: number,
    private readonly signal: CancelSignal | undefined,
    private readonly resolve: () => void,
    private readonly reject: (reason: unknown) => void,
  ) {}

  /** The signal aborted: the sleep ends with its reason. */
  handleEvent(): void {
    clearTimeout(this.#timer);
    this.reject(this.signal!.reason);
  }

  /** Sets the timer for the next step of at most MAX_TIMER_MS. */
  arm(): void {
    const d = Math.min(this.remainingMs, MAX_TIMER_MS);
    this.remainingMs -= d;
    this.#timer = setTimeout(fireSleep, d, this);
  }

  /** The timer fired: the next step, or the end of the sleep. */
  fire(): void {
    if (this.remainingMs > 0) return this.arm();
    this.signal?.removeEventListener('abort', this);
    this.resolve();
  }
}

/** The timer callback of every {@link PendingSleep}. */
function fireSleep(sleep: PendingSleep): void {
  sleep.fire();
}
