/**
 * Callback endpoints (docs/api-resources.md#events): what `events.create_callback_endpoint` creates and
 * `events.await_callback` waits on, backed by the service so a request to `/callbacks/{id}` on the REST port
 * reaches the waiting execution.
 *
 * One {@link CallbackRegistry} per service holds every callback by its unguessable ID; each execution gets a
 * {@link CallbackHub} from it. A request that arrives before the workflow awaits is kept and handed over when
 * it does, so nothing is lost. What is kept is bounded, so no client can exhaust memory: at most
 * {@link MAX_QUEUED_REQUESTS} requests per callback, {@link MAX_QUEUED_BYTES_PER_EXECUTION} bytes per
 * execution and {@link MAX_QUEUED_BYTES_TOTAL} bytes in the whole service; a request beyond any of them is
 * refused with 429 RESOURCE_EXHAUSTED (Google's error shape) and nothing changes. When an execution ends, the
 * requests still queued for its callbacks are dropped at once.
 */
import { WorkflowError } from '../../lang/errors.ts';
import { isMap, type Value, type WMap } from '../../lang/value.ts';
import { parseJson } from '../../lang/json.ts';
import { CALLBACK_METHODS as EVENTS_CALLBACK_METHODS } from '../../stdlib/events.ts';
import type { CallbackHub, Clock } from '../../stdlib/types.ts';
import type { Callback, CallbackRequest } from '../model.ts';
import { newCallbackId, timestamp } from '../names.ts';
import { Cancellation, type CancelSignal } from '../../platform/cancellation.ts';

/** HTTP methods a callback may accept (docs/api-resources.md#events), as the events namespace lists them. */
const CALLBACK_METHODS: ReadonlySet<string> = new Set(EVENTS_CALLBACK_METHODS);

/** Requests kept per callback while nobody awaits it; more are refused (429) so a client cannot exhaust memory. */
const MAX_QUEUED_REQUESTS = 100;
/**
 * Bytes of undelivered requests kept for the callbacks of one execution (body, header and query text, as
 * {@link requestBytes} counts them): 4 MB, eight times the 512 KB a workflow can hold in its variables
 * (docs/api-resources.md#limits). More is refused with 429.
 */
const MAX_QUEUED_BYTES_PER_EXECUTION = 4 * 1024 * 1024;
/** Bytes of undelivered requests kept in the whole service, all executions together: 64 MB. More is refused with 429. */
const MAX_QUEUED_BYTES_TOTAL = 64 * 1024 * 1024;

/** Limits of a {@link CallbackRegistry} (defaults: the constants above); smaller ones are for tests. */
export interface CallbackLimits {
  /** Requests kept per callback. */
  readonly requestsPerCallback?: number;
  /** Bytes kept per execution. */
  readonly bytesPerExecution?: number;
  /** Bytes kept in total. */
  readonly bytesTotal?: number;
}

/** What the registry needs to know about the execution that owns a callback. */
export interface CallbackOwner {
  /** `projects/.../executions/{executionId}`: the parent of the callback's resource name. */
  readonly executionName: string;
  /** True while the execution is ACTIVE; a callback of an ended execution refuses requests. */
  isActive(): boolean;
  /**
   * The URL the next callback gets, when it must be one a recorded run created (a played-back test case:
   * docs/recording.md); undefined: a new random ID under the registry's base URL.
   */
  nextUrl?(): string | undefined;
}

/** @internal One waiter of `await_callback`. */
interface Waiter {
  resolve(v: Value): void;
  reject(e: unknown): void;
}

/** @internal A callback and its state. */
interface CallbackRecord {
  readonly id: string;
  readonly owner: CallbackOwner;
  readonly resource: Callback;
  /** Requests received while no one waited, oldest first, with their size in bytes. */
  readonly queue: Queued[];
  /** Executions waiting, oldest first (parallel branches may await the same callback). */
  readonly waiters: Waiter[];
}

/** @internal A request kept for a callback until someone awaits it. */
interface Queued {
  readonly value: Value;
  /** Its size as {@link requestBytes} counts it. */
  readonly bytes: number;
}

/** The answer to a request on `/callbacks/{id}`: an HTTP status and a JSON body. */
export interface DeliveryResult {
  readonly status: number;
  readonly body: unknown;
}

/** Callback IDs of ended executions remembered to answer a late delivery 400 rather than 404. */
const MAX_ENDED_IDS = 10_000;

/** Every callback of the service, by ID. */
export class CallbackRegistry {
  readonly #byId = new Map<string, CallbackRecord>();
  readonly #byExecution = new Map<string, CallbackRecord[]>();
  /** IDs of the callbacks forgotten most recently with their ended execution (a delivery is 400, not 404). */
  readonly #ended = new Set<string>();
  /** Bytes queued per execution name (absent: none). */
  readonly #queuedByExecution = new Map<string, number>();
  #queuedTotal = 0;
  readonly #maxRequests: number;
  readonly #maxExecutionBytes: number;
  readonly #maxTotalBytes: number;

  constructor(
    /** Scheme, host and port callback URLs start with, without a trailing slash (`http://localhost:8787`). */
    private readonly baseUrl: string,
    private readonly clock: Clock,
    limits: CallbackLimits = {},
  ) {
    this.#maxRequests = limits.requestsPerCallback ?? MAX_QUEUED_REQUESTS;
    this.#maxExecutionBytes = limits.bytesPerExecution ?? MAX_QUEUED_BYTES_PER_EXECUTION;
    this.#maxTotalBytes = limits.bytesTotal ?? MAX_QUEUED_BYTES_TOTAL;
  }

  /** Bytes of undelivered requests kept now: for one execution (by resource name), or in total. */
  queuedBytes(executionName?: string): number {
    return executionName === undefined ? this.#queuedTotal : (this.#queuedByExecution.get(executionName) ?? 0);
  }

  /**
   * The CallbackHub of one execution: `create` registers a callback owned by it, `await` waits on one.
   */
  hubFor(owner: CallbackOwner): CallbackHub {
    return new OwnedHub(this, owner);
  }

  /** The callbacks of an execution (by its resource name), oldest first; empty when it has none. */
  list(executionName: string): Callback[] {
    return (this.#byExecution.get(executionName) ?? []).map((r) => r.resource);
  }

  /**
   * Hands a request to the callback `id`: to the oldest waiter, or into the queue when nobody waits yet.
   * Returns 200 when delivered or kept; 404 for an unknown callback; 405 for a method the callback does not
   * accept; 400 (FAILED_PRECONDITION) when its execution has ended; 429 (RESOURCE_EXHAUSTED) when keeping it
   * would pass a limit of the module header. Nothing changes on an error answer.
   */
  deliver(id: string, request: CallbackRequest): DeliveryResult {
    const rec = this.#byId.get(id);
    if (!rec) {
      if (this.#ended.has(id)) return errorBody(400, 'FAILED_PRECONDITION', `the execution of callback ${id} has ended; the request was not delivered`);
      return errorBody(404, 'NOT_FOUND', `callback ${id} does not exist`);
    }
    if (request.method !== rec.resource.method) {
      return errorBody(405, 'INVALID_ARGUMENT', `callback ${id} accepts ${rec.resource.method} requests, not ${request.method}`);
    }
    if (!rec.owner.isActive()) {
      return errorBody(400, 'FAILED_PRECONDITION', `the execution of callback ${id} has ended; the request was not delivered`);
    }
    const waiter = rec.waiters.shift();
    const value = this.#eventValue(request);
    if (waiter) {
      waiter.resolve(value);
      return { status: 200, body: {} };
    }
    if (rec.queue.length >= this.#maxRequests) {
      return errorBody(429, 'RESOURCE_EXHAUSTED', `callback ${id} already holds ${this.#maxRequests} undelivered requests`);
    }
    const bytes = requestBytes(request);
    const execution = rec.owner.executionName;
    const executionBytes = this.queuedBytes(execution) + bytes;
    if (executionBytes > this.#maxExecutionBytes) {
      return errorBody(
        429,
        'RESOURCE_EXHAUSTED',
        `the callbacks of this execution already hold ${this.queuedBytes(execution)} bytes of undelivered requests; ` +
          `${bytes} more would pass the limit of ${this.#maxExecutionBytes} bytes`,
      );
    }
    if (this.#queuedTotal + bytes > this.#maxTotalBytes) {
      return errorBody(
        429,
        'RESOURCE_EXHAUSTED',
        `the emulator already holds ${this.#queuedTotal} bytes of undelivered callback requests; ` +
          `${bytes} more would pass the limit of ${this.#maxTotalBytes} bytes`,
      );
    }
    rec.queue.push({ value, bytes });
    this.#queuedByExecution.set(execution, executionBytes);
    this.#queuedTotal += bytes;
    return { status: 200, body: {} };
  }

  /**
   * Drops the undelivered requests of an execution's callbacks: called when the execution ends, since no one
   * can await them any more. The callbacks stay listed.
   */
  release(executionName: string): void {
    for (const r of this.#byExecution.get(executionName) ?? []) r.queue.length = 0;
    this.#queuedTotal -= this.#queuedByExecution.get(executionName) ?? 0;
    this.#queuedByExecution.delete(executionName);
  }

  /**
   * Forgets every callback of an execution, with the requests they hold: called when the execution ends
   * (Google lists only the active callbacks of an execution:
   * https://cloud.google.com/workflows/docs/reference/executions/rest/v1/projects.locations.workflows.executions.callbacks/list),
   * so no registration outlives its execution (docs/limits.md "Callbacks").
   */
  forget(executionName: string): void {
    this.release(executionName);
    for (const r of this.#byExecution.get(executionName) ?? []) {
      this.#byId.delete(r.id);
      this.#ended.add(r.id);
    }
    // The IDs remembered for the 400 answer are the most recent few; older ones answer 404.
    if (this.#ended.size > MAX_ENDED_IDS) {
      for (const id of this.#ended) {
        this.#ended.delete(id);
        if (this.#ended.size <= MAX_ENDED_IDS) break;
      }
    }
    this.#byExecution.delete(executionName);
  }

  /** Forgets every callback of every execution (`POST /emulator/v1/reset`). */
  clear(): void {
    this.#byId.clear();
    this.#byExecution.clear();
    this.#ended.clear();
    this.#queuedByExecution.clear();
    this.#queuedTotal = 0;
  }

  /** The resource name of the execution that owns callback `id`; undefined for an unknown one. */
  executionOf(id: string): string | undefined {
    return this.#byId.get(id)?.owner.executionName;
  }

  /** Callbacks registered now, across executions. */
  get size(): number {
    return this.#byId.size;
  }

  #unqueue(rec: CallbackRecord): Value | undefined {
    const queued = rec.queue.shift();
    if (queued === undefined) return undefined;
    const execution = rec.owner.executionName;
    const left = this.queuedBytes(execution) - queued.bytes;
    if (left > 0) this.#queuedByExecution.set(execution, left);
    else this.#queuedByExecution.delete(execution);
    this.#queuedTotal -= queued.bytes;
    return queued.value;
  }

  /** The hub's `create` for `owner` (see {@link hubFor}). @throws WorkflowError as `events.create_callback_endpoint` */
  createFor(owner: CallbackOwner, method: string): Value {
    const m = method.toUpperCase();
    if (!CALLBACK_METHODS.has(m)) {
      throw WorkflowError.of('ValueError', `http_callback_method must be one of ${[...CALLBACK_METHODS].join(', ')}; got "${method}"`);
    }
    const given = owner.nextUrl?.();
    const givenId = given?.slice(given.lastIndexOf('/') + 1);
    const id = givenId && !this.#byId.has(givenId) ? givenId : newCallbackId();
    const url = givenId === id ? given! : `${this.baseUrl}/callbacks/${id}`;
    // An execution cancelled or ended under a running step registers nothing: nobody could forget it.
    const registered = owner.isActive();
    const resource: Callback = {
      name: `${owner.executionName}/callbacks/${id}`,
      method: m,
      url,
      createTime: timestamp(this.clock.now()),
    };
    if (registered) {
      const rec: CallbackRecord = { id, owner, resource, queue: [], waiters: [] };
      this.#byId.set(id, rec);
      let list = this.#byExecution.get(owner.executionName);
      if (!list) this.#byExecution.set(owner.executionName, (list = []));
      list.push(rec);
    }
    const out: WMap = new Map();
    out.set('url', url);
    return out;
  }

  /** The hubs' `await` (see {@link hubFor}): rejects with a WorkflowError as `events.await_callback`, or the signal's reason. */
  awaitOn(callback: Value, timeoutMs: number, signal: CancelSignal): Promise<Value> {
    const url = isMap(callback) ? callback.get('url') : undefined;
    if (typeof url !== 'string') {
      return Promise.reject(WorkflowError.of('TypeError', 'events.await_callback: callback must be the map events.create_callback_endpoint returned'));
    }
    const id = url.slice(url.lastIndexOf('/') + 1);
    const rec = this.#byId.get(id);
    if (!rec) return Promise.reject(WorkflowError.of('ValueError', `events.await_callback: unknown callback ${url}`));
    if (signal.aborted) return Promise.reject(signal.reason);
    const queued = this.#unqueue(rec);
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise<Value>((resolve, reject) => {
      const timer = new Cancellation();
      const onAbort = (): void => settle(() => reject(signal.reason));
      const settle = (f: () => void): void => {
        const i = rec.waiters.indexOf(waiter);
        if (i >= 0) rec.waiters.splice(i, 1);
        signal.removeEventListener('abort', onAbort);
        timer.abort(WAIT_ENDED); // a reason given: abort() alone builds a DOMException with a stack trace
        f();
      };
      const waiter: Waiter = {
        resolve: (v) => settle(() => resolve(v)),
        reject: (e) => settle(() => reject(e)),
      };
      rec.waiters.push(waiter);
      signal.addEventListener('abort', onAbort, { once: true });
      (this.clock.deadline ?? this.clock.sleep).call(this.clock, timeoutMs, timer.signal).then(
        () => waiter.reject(WorkflowError.of('TimeoutError', `events.await_callback: no request reached ${url} within ${timeoutMs / 1000} s`)),
        () => {
          /* the timer was stopped because the wait ended */
        },
      );
    });
  }

  /** The value await_callback resumes with (docs/api-resources.md#events; Google's "Wait using callbacks"). */
  #eventValue(req: CallbackRequest): Value {
    const headers: WMap = new Map();
    for (const k of Object.keys(req.headers)) headers.set(k, req.headers[k]!);
    const query: WMap = new Map();
    for (const k of Object.keys(req.query)) query.set(k, req.query[k]!);
    const httpRequest: WMap = new Map();
    httpRequest.set('body', decodeBody(req.body, req.headers['content-type']));
    httpRequest.set('headers', headers);
    httpRequest.set('method', req.method);
    httpRequest.set('query', query);
    const v: WMap = new Map();
    v.set('http_request', httpRequest);
    v.set('received_time', timestamp(this.clock.now()));
    v.set('type', 'HTTP');
    return v;
  }
}

/**
 * A callback request body as the workflow sees it: null when empty; parsed JSON (ints exact) when it is JSON
 * (a JSON content type, or no content type and text that parses); otherwise the UTF-8 text.
 */
export function decodeBody(body: Uint8Array, contentType: string | undefined): Value {
  if (body.length === 0) return null;
  const text = new TextDecoder().decode(body);
  const ct = (contentType ?? '').toLowerCase();
  if (ct.includes('json') || ct === '') {
    try {
      return parseJson(text);
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * The bytes a queued request is counted for: its body, plus the text of its method, header and query names
 * and values. (The decoded value held in memory is of the same order.)
 */
function requestBytes(req: CallbackRequest): number {
  let n = req.body.length + req.method.length;
  for (const k of Object.keys(req.headers)) n += k.length + req.headers[k]!.length;
  for (const k of Object.keys(req.query)) n += k.length + req.query[k]!.length;
  return n;
}

function errorBody(status: number, code: string, message: string): DeliveryResult {
  return { status, body: { error: { code: status, message, status: code } } };
}

/** The reason a callback wait's timeout timer is cancelled with when the wait ends first. */
const WAIT_ENDED = Symbol('the wait ended');

/** A wait on a callback as it starts: the execution, the callback's URL and method, the wait's timeout. */
export interface CallbackWait {
  readonly executionName: string;
  readonly url: string;
  readonly method: string;
  readonly timeoutMs: number;
}

/**
 * The callback hub of an execution, telling `onWait` (the service core's onCallbackWait option) of each wait.
 * With `urls` (a replay, or a run again after a restart: docs/recording.md, docs/persistence.md), the callbacks
 * it creates get those URLs, in order, while their IDs are free.
 */
export function announcingHub(
  callbacks: CallbackRegistry,
  owner: CallbackOwner,
  onWait: ((wait: CallbackWait) => void) | undefined,
  urls?: readonly string[],
): CallbackHub {
  let next = 0;
  const hub = callbacks.hubFor(urls?.length ? { executionName: owner.executionName, isActive: () => owner.isActive(), nextUrl: () => urls[next++] } : owner);
  return onWait ? new AnnouncingHub(hub, callbacks, owner.executionName, onWait) : hub;
}

/**
 * An execution record as the owner of its callbacks: active while its resource is ACTIVE. An object of a class,
 * not a closure: every suspended execution holds one (docs/architecture.md#start-up-and-memory-beside-their-floors).
 */
export class ExecutionOwner implements CallbackOwner {
  constructor(private readonly ex: { readonly name: string; readonly resource: { readonly state: string } }) {}
  get executionName(): string {
    return this.ex.name;
  }
  isActive(): boolean {
    return this.ex.resource.state === 'ACTIVE';
  }
}

/** One execution's hub of a registry (see {@link CallbackRegistry.hubFor}). */
class OwnedHub implements CallbackHub {
  constructor(
    private readonly registry: CallbackRegistry,
    private readonly owner: CallbackOwner,
  ) {}

  create(method: string): Value {
    return this.registry.createFor(this.owner, method);
  }
  await(callback: Value, timeoutMs: number, signal: CancelSignal): Promise<Value> {
    return this.registry.awaitOn(callback, timeoutMs, signal);
  }
}

/** See {@link announcingHub}: `hub`, each wait told to `onWait` first. */
class AnnouncingHub implements CallbackHub {
  constructor(
    private readonly hub: CallbackHub,
    private readonly callbacks: CallbackRegistry,
    private readonly executionName: string,
    private readonly onWait: (wait: CallbackWait) => void,
  ) {}

  create(method: string): Value {
    return this.hub.create(method);
  }
  await(callback: Value, timeoutMs: number, signal: CancelSignal): Promise<Value> {
    const url = isMap(callback) ? callback.get('url') : undefined;
    if (typeof url === 'string') {
      const executionName = this.executionName;
      const method = this.callbacks.list(executionName).find((c) => c.url === url)?.method ?? 'POST';
      this.onWait({ executionName, url, method, timeoutMs });
    }
    return this.hub.await(callback, timeoutMs, signal);
  }
}
