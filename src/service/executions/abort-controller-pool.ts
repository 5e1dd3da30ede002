/**
 * AbortControllers for executions' runs, reused (docs/architecture.md: server CPU per execution). Every run needs one,
 * so that cancel can stop it (docs/api-resources.md#states-and-transitions), and on Node 20 making one costs about 8 µs (its
 * AbortSignal is an EventTarget given another prototype after construction), a tenth of what the service
 * core spends on a trivial execution. Most runs end without being cancelled and leave nothing listening on
 * the signal: such a controller is as good as new, and the next run takes it.
 *
 * A controller is handed back only when its signal has not aborted and has no `abort` listener left (an
 * outbound request or a sleep still holding it keeps it out of the pool). Whether listeners can be counted
 * is checked once, when the first run ends; where the runtime cannot tell (`events.getEventListeners` missing or wrong
 * for an AbortSignal), nothing is reused.
 */
import { getEventListeners } from 'node:events';

/** Controllers kept for reuse at most (the runs that end in one burst; more would only hold memory). */
const MAX_POOLED = 256;

const pool: AbortController[] = [];

/** Listeners on `signal`'s `abort`, or -1 when the runtime cannot count them. */
function abortListeners(signal: AbortSignal): number {
  try {
    return getEventListeners(signal, 'abort').length;
  } catch {
    return -1;
  }
}

/**
 * True when this runtime counts an AbortSignal's listeners correctly: checked on the first run that ends, not at
 * start-up, where the check cost about 1 ms of CPU (Node loads what `getEventListeners` needs) at every start of
 * the server and of every command.
 */
let canCount: boolean | undefined;

function countsListeners(): boolean {
  const { signal } = new AbortController();
  const listener = (): void => {};
  if (abortListeners(signal) !== 0) return false;
  signal.addEventListener('abort', listener);
  const one = abortListeners(signal) === 1;
  signal.removeEventListener('abort', listener);
  return one && abortListeners(signal) === 0;
}

/** A controller that has never aborted and that nothing listens on: a pooled one, or a new one. */
export function takeController(): AbortController {
  return pool.pop() ?? new AbortController();
}

/**
 * Hands back the controller of a run that has ended (nothing of the run will look at it again); it is kept
 * for the next run when it never aborted and nothing listens on its signal any more.
 */
export function giveBackController(controller: AbortController): void {
  if (!(canCount ??= countsListeners()) || pool.length >= MAX_POOLED || controller.signal.aborted) return;
  if (abortListeners(controller.signal) !== 0) return;
  pool.push(controller);
}
