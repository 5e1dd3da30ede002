/**
 * An in-memory {@link CallbackHub} (spec "Events") for engine tests and the one-shot `run` command: callbacks
 * live in a map, and a request is handed in with {@link MemoryCallbackHub.deliver} instead of arriving over
 * HTTP. The service implements its own hub with real URLs (`POST /callbacks/{callbackId}`).
 */
import { WorkflowError } from '../lang/errors.ts';
import { isMap, type Value, type WMap } from '../lang/value.ts';
import type { CallbackHub, Clock } from '../stdlib/types.ts';
import { systemClock } from './clock.ts';

/** A request delivered to a callback: what `events.await_callback` returns under `http_request`. */
export interface CallbackRequest {
  /** HTTP method of the request (checked against the callback's method). */
  readonly method: string;
  /** Header names and values (names are lowercased when stored). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The parsed request body (null when there was none). */
  readonly body?: Value;
  /** Query parameters of the request URL, each a list of values as the real service reports them. */
  readonly query?: Readonly<Record<string, readonly string[]>>;
}

/** One callback endpoint known to the hub. */
export interface MemoryCallback {
  readonly id: string;
  readonly url: string;
  readonly method: string;
  /** Creation time, ISO 8601 UTC. */
  readonly createTime: string;
}

/** The in-memory hub: a {@link CallbackHub} plus delivery and listing for the host. */
export interface MemoryCallbackHub extends CallbackHub {
  /**
   * Delivers a request to callback `id`. Returns `'delivered'`, `'unknown'` (no such callback) or
   * `'method-not-allowed'` (the callback accepts another method). A request that arrives before anyone
   * waits is queued and handed to the next `await`.
   */
  deliver(id: string, request: CallbackRequest): 'delivered' | 'unknown' | 'method-not-allowed';
  /** The callbacks created so far, oldest first. */
  list(): MemoryCallback[];
}

interface Entry extends MemoryCallback {
  readonly queue: WMap[];
  waiter: ((v: WMap) => void) | undefined;
}

/**
 * Creates an in-memory callback hub whose URLs are `<baseUrl>/callbacks/<id>` (a trailing slash on `baseUrl`
 * is dropped). `clock` stamps `received_time` and times out waits (default: real time).
 *
 * `create(method)` returns `{url}`; `await(callback, timeoutMs, signal)` resolves to
 * `{http_request: {body, headers, method, query}, received_time, type: "HTTP"}`, raises TimeoutError when
 * `timeoutMs` passes first, and rejects with `signal.reason` on cancellation.
 */
export function createMemoryCallbackHub(baseUrl: string, clock: Clock = systemClock): MemoryCallbackHub {
  const base = baseUrl.replace(/\/+$/, '');
  const entries = new Map<string, Entry>();

  const idOf = (callback: Value): string => {
    const url = isMap(callback) ? callback.get('url') : undefined;
    if (typeof url !== 'string') {
      throw WorkflowError.of('TypeError', 'events.await_callback: callback must be the map create_callback_endpoint returned');
    }
    return url.slice(url.lastIndexOf('/') + 1);
  };

  return {
    create(method) {
      const id = crypto.randomUUID();
      const url = `${base}/callbacks/${id}`;
      entries.set(id, {
        id,
        url,
        method,
        createTime: new Date(clock.now()).toISOString(),
        queue: [],
        waiter: undefined,
      });
      return new Map([['url', url]]);
    },

    await(callback, timeoutMs, signal) {
      const entry = entries.get(idOf(callback));
      if (!entry) return Promise.reject(WorkflowError.of('KeyError', 'events.await_callback: unknown callback'));
      if (signal.aborted) return Promise.reject(signal.reason);
      const queued = entry.queue.shift();
      if (queued) return Promise.resolve(queued);
      return new Promise<Value>((resolve, reject) => {
        const timer = new AbortController();
        const done = (): void => {
          entry.waiter = undefined;
          signal.removeEventListener('abort', onAbort);
          timer.abort();
        };
        const onAbort = (): void => {
          done();
          reject(signal.reason);
        };
        signal.addEventListener('abort', onAbort, { once: true });
        entry.waiter = (v) => {
          done();
          resolve(v);
        };
        clock.sleep(timeoutMs, timer.signal).then(
          () => {
            done();
            reject(WorkflowError.of('TimeoutError', `events.await_callback: no request within ${timeoutMs / 1000} seconds`));
          },
          () => {}, // the wait ended first
        );
      });
    },

    deliver(id, request) {
      const entry = entries.get(id);
      if (!entry) return 'unknown';
      if (request.method.toUpperCase() !== entry.method) return 'method-not-allowed';
      const headers: WMap = new Map();
      for (const [k, v] of Object.entries(request.headers ?? {})) headers.set(k.toLowerCase(), v);
      const query: WMap = new Map();
      for (const [k, v] of Object.entries(request.query ?? {})) query.set(k, [...v]);
      const httpRequest: WMap = new Map<string, Value>([
        ['body', request.body ?? null],
        ['headers', headers],
        ['method', request.method.toUpperCase()],
        ['query', query],
      ]);
      const event: WMap = new Map<string, Value>([
        ['http_request', httpRequest],
        ['received_time', new Date(clock.now()).toISOString()],
        ['type', 'HTTP'],
      ]);
      if (entry.waiter) entry.waiter(event);
      else entry.queue.push(event);
      return 'delivered';
    },

    list() {
      return [...entries.values()].map(({ id, url, method, createTime }) => ({ id, url, method, createTime }));
    },
  };
}
