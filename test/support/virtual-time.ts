/**
 * The product's virtual clock (src/engine/virtual-time.ts, the clock of `--clock virtual`) for in-process tests,
 * with every timer it was asked for recorded: tests of sys.sleep, retry backoff and timeouts read what was waited
 * for. Time moves as it does in the product: a sleep ends when nothing else runs, parallel sleeps overlap, and a
 * deadline (an http.* or callback timeout) passes only when sleeps or {@link VirtualTime.advance} carry time past it.
 */
import { createVirtualTime, type VirtualTime } from '../../src/engine/virtual-time.ts';

/** The virtual clock with the timers asked of it. */
export interface RecordingVirtualTime extends VirtualTime {
  /** Every sleep and deadline requested so far, in milliseconds, in call order. */
  readonly sleepsMs: number[];
}

/** A virtual clock starting at `startMs` (default 2026-01-01T00:00:00Z) that records its timers. */
export function recordingVirtualTime(startMs: number = Date.UTC(2026, 0, 1)): RecordingVirtualTime {
  const time = createVirtualTime(startMs);
  const sleepsMs: number[] = [];
  return {
    kind: time.kind,
    sleepsMs,
    now: () => time.now(),
    sleep(ms, signal) {
      sleepsMs.push(ms);
      return time.sleep(ms, signal);
    },
    deadline(ms, signal) {
      sleepsMs.push(ms);
      return time.deadline(ms, signal);
    },
    advance: (ms) => time.advance(ms),
    advanceProblem: (ms) => time.advanceProblem(ms),
    hold: (work) => time.hold(work),
    pending: () => time.pending(),
    rewind: () => time.rewind(),
  };
}
