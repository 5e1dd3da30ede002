/**
 * What stops a run: the part of the DOM's `AbortSignal` the engine and the service use (`aborted`, `reason` and
 * `abort` listeners; https://dom.spec.whatwg.org/#interface-AbortSignal), so an `AbortSignal` is one wherever a
 * {@link CancelSignal} is asked for, and {@link Cancellation}, its own implementation, is what every execution's
 * run holds.
 *
 * Why not an AbortController per run: on Node 20 an `AbortSignal` is an EventTarget with two Maps of its own and a
 * hidden class of its own (about 800 bytes with the listener a sleep adds), and every suspended execution holds
 * one; a Cancellation with one listener is about 40 bytes (docs/architecture.md#start-up-and-memory-beside-their-floors).
 * What needs a real AbortSignal (`fetch`) makes one for its request and listens on the run's signal.
 */

/** A listener of a {@link CancelSignal}'s `abort`: a function or an object with `handleEvent` (as for EventTarget). */
export type CancelListener = (() => void) | { handleEvent(): void };

/** The `AbortSignal` subset a run is stopped through; an `AbortSignal` is one. */
export interface CancelSignal {
  /** True once aborted. */
  readonly aborted: boolean;
  /** What it was aborted with (undefined until then). */
  readonly reason: unknown;
  /** Calls `listener` once when it aborts (never when it already has); adding one listener twice adds it once. */
  addEventListener(type: 'abort', listener: CancelListener, options?: { once?: boolean }): void;
  /** Takes `listener` off. */
  removeEventListener(type: 'abort', listener: CancelListener): void;
}

/**
 * A controller and its signal in one object (`signal` is the object itself): `abort(reason)` sets `aborted` and
 * `reason`, then calls the listeners once each, in the order they were added (one removed by another before its
 * turn is not called), as `AbortController.abort` does. Listeners are called with no argument.
 * A listener that throws does not stop the others; its error is thrown again on its own, as EventTarget reports it.
 */
export class Cancellation implements CancelSignal {
  aborted = false;
  reason: unknown = undefined;
  /** None, one, or several (the rare case: a parallel step's branches). */
  #listeners: CancelListener | CancelListener[] | undefined = undefined;

  /** The signal: this object (so code written for an AbortController reads the same). */
  get signal(): Cancellation {
    return this;
  }

  /** Aborts with `reason` (an `AbortError` DOMException when none is given); a second call does nothing. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const listeners = this.#listeners;
    if (listeners === undefined) return;
    if (!Array.isArray(listeners)) {
      this.#listeners = undefined;
      return call(listeners);
    }
    // As EventTarget dispatches: a listener that another one removes before its turn is not called.
    for (const l of [...listeners]) if (listeners.includes(l)) call(l);
    this.#listeners = undefined;
  }

  addEventListener(_type: 'abort', listener: CancelListener): void {
    if (this.aborted) return;
    const ls = this.#listeners;
    if (ls === undefined) this.#listeners = listener;
    else if (!Array.isArray(ls)) {
      if (ls !== listener) this.#listeners = [ls, listener];
    } else if (!ls.includes(listener)) ls.push(listener);
  }

  removeEventListener(_type: 'abort', listener: CancelListener): void {
    const ls = this.#listeners;
    if (ls === listener) this.#listeners = undefined;
    else if (Array.isArray(ls)) {
      const i = ls.indexOf(listener);
      if (i >= 0) ls.splice(i, 1);
    }
  }
}

/** Calls one listener; what it throws is thrown again in a task of its own, so the other listeners still run. */
function call(listener: CancelListener): void {
  try {
    if (typeof listener === 'function') listener();
    else listener.handleEvent();
  } catch (e) {
    setTimeout(() => {
      throw e;
    });
  }
}
