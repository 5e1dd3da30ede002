/**
 * The recording of one execution: what it took in from outside, so that a run can be turned into a test case
 * (src/service/recording/test-case.ts) and its values played back (docs/recording.md). Besides the outbound calls of
 * the call record (src/mocks/call-log.ts) it holds the environment variables the workflow read
 * (`sys.get_env`), the callback endpoints it created and the requests they delivered
 * (`events.create_callback_endpoint`, `events.await_callback`), the times it read (`sys.now`, `sys.log` and
 * `sys.sleep_until` read the clock) and the random values it drew (`uuid.generate`).
 *
 * Bounded like the call record: at most {@link MAX_RECORDED} items of each kind are kept (the first ones: a
 * replay needs a recording's beginning), and `truncated` says when more were drawn. It lives as long as its
 * execution and is freed with it.
 */
import { isMap, type Value } from '../../lang/value.ts';
import type { CallbackHub, Clock } from '../../stdlib/types.ts';
import type { CancelSignal } from '../../platform/cancellation.ts';

/** Items of each kind kept per execution (times, random values, env reads, callbacks). */
export const MAX_RECORDED = 10_000;

/** One callback request an execution received, as `events.await_callback` gave it to the workflow. */
export interface RecordedCallback {
  /** The request's method, headers (names lower-case), query parameters and decoded body. */
  readonly method: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  readonly body: Value | undefined;
}

/**
 * Values an execution reads in order (and a replay hands back in the same order): times in milliseconds
 * since the epoch, as the clock gave them, and the UUIDs `uuid.generate` returned.
 */
export interface PlaybackValues {
  readonly times: readonly number[];
  readonly uuids: readonly string[];
  /** The URLs of the callbacks created, in order (their IDs are random). */
  readonly callbacks?: readonly string[] | undefined;
}

/**
 * What one execution took in from outside, besides its outbound calls (see the module header). Each list is
 * made on its first use (most executions read no UUIDs, env or callbacks), so a waiting execution holds only
 * the lists it has written.
 */
export class Recording {
  #times: number[] | undefined;
  #uuids: string[] | undefined;
  #env: Map<string, string | null> | undefined;
  #callbacksCreated: Value[] | undefined;
  #callbacks: RecordedCallback[] | undefined;
  /** True when an item was drawn after {@link MAX_RECORDED} of its kind were kept. */
  truncated = false;

  /** Times read, ms since the epoch, in order. */
  get times(): number[] {
    return (this.#times ??= []);
  }
  /** UUIDs drawn by `uuid.generate`, in order. */
  get uuids(): string[] {
    return (this.#uuids ??= []);
  }
  /** Environment variables read by name: the value, or null when unset. First read wins. */
  get env(): Map<string, string | null> {
    return (this.#env ??= new Map());
  }
  /** The maps `events.create_callback_endpoint` returned (their URLs hold the random callback IDs). */
  get callbacksCreated(): Value[] {
    return (this.#callbacksCreated ??= []);
  }
  /** The callback requests delivered to the workflow, in order. */
  get callbacks(): RecordedCallback[] {
    return (this.#callbacks ??= []);
  }

  /** Appends to one of the lists unless it is full. */
  keep<T>(list: T[], item: T): void {
    if (list.length < MAX_RECORDED) list.push(item);
    else this.truncated = true;
  }
}

const NO_VALUES: readonly never[] = [];

/**
 * The execution's clock: each time read recorded, and answered from `playback` while it has times left.
 * `deadline` is there when `clock` has one.
 */
export function recordingClock(clock: Clock, rec: Recording, playback?: PlaybackValues): Clock {
  const times = playback?.times ?? NO_VALUES;
  return clock.deadline ? new RecordingDeadlineClock(clock, rec, times) : new RecordingClock(clock, rec, times);
}

/** See {@link recordingClock}: one object per execution, its methods on the prototype. */
class RecordingClock implements Clock {
  private next = 0;
  constructor(
    protected readonly clock: Clock,
    private readonly rec: Recording,
    private readonly played: readonly number[],
  ) {}

  now(): number {
    const t = this.next < this.played.length ? this.played[this.next++]! : this.clock.now();
    this.rec.keep(this.rec.times, t);
    return t;
  }
  sleep(ms: number, signal?: CancelSignal): Promise<void> {
    return this.clock.sleep(ms, signal);
  }
}

/** A {@link RecordingClock} over a clock with `deadline`. */
class RecordingDeadlineClock extends RecordingClock {
  deadline(ms: number, signal?: CancelSignal): Promise<void> {
    return this.clock.deadline!(ms, signal);
  }
}

/** `uuid.generate` for an execution: recorded, and answered from `playback` while it has UUIDs left. */
export function recordingUuid(rec: Recording, playback?: PlaybackValues): () => string {
  let next = 0;
  const uuids = playback?.uuids ?? NO_VALUES;
  return () => {
    const u = next < uuids.length ? uuids[next++]! : crypto.randomUUID();
    rec.keep(rec.uuids, u);
    return u;
  };
}

/** The environment `sys.get_env` reads, each name read recorded with its value (null: unset). */
export function recordingEnv(env: ReadonlyMap<string, string>, rec: Recording): ReadonlyMap<string, string> {
  return new RecordingEnv(env, rec);
}

/**
 * recordingEnv's map: reads go to `env` (nothing is copied: an execution's environment is only read by name,
 * and most executions read none of it), each name read by `get` or `has` recorded once.
 */
class RecordingEnv implements ReadonlyMap<string, string> {
  constructor(
    private readonly env: ReadonlyMap<string, string>,
    private readonly rec: Recording,
  ) {}

  get(key: string): string | undefined {
    const v = this.env.get(key);
    const rec = this.rec;
    if (!rec.env.has(key)) {
      if (rec.env.size < MAX_RECORDED) rec.env.set(key, v ?? null);
      else rec.truncated = true;
    }
    return v;
  }
  has(key: string): boolean {
    return this.get(key) !== undefined;
  }
  get size(): number {
    return this.env.size;
  }
  forEach(callback: (value: string, key: string, map: ReadonlyMap<string, string>) => void, thisArg?: unknown): void {
    this.env.forEach((value, key) => callback.call(thisArg, value, key, this));
  }
  entries(): MapIterator<[string, string]> {
    return this.env.entries();
  }
  keys(): MapIterator<string> {
    return this.env.keys();
  }
  values(): MapIterator<string> {
    return this.env.values();
  }
  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.env.entries();
  }
}

/** The callback hub an execution uses, each endpoint created and each request delivered recorded. */
export function recordingCallbacks(hub: CallbackHub, rec: Recording): CallbackHub {
  return new RecordingCallbacks(hub, rec);
}

/** See {@link recordingCallbacks}: one object per execution, its methods on the prototype. */
class RecordingCallbacks implements CallbackHub {
  constructor(
    private readonly hub: CallbackHub,
    private readonly rec: Recording,
  ) {}

  create(method: string): Value {
    const made = this.hub.create(method);
    this.rec.keep(this.rec.callbacksCreated, made);
    return made;
  }
  await(callback: Value, timeoutMs: number, signal: CancelSignal): Promise<Value> {
    return this.hub.await(callback, timeoutMs, signal).then((got) => {
      const req = isMap(got) ? got.get('http_request') : undefined;
      if (isMap(req)) this.rec.keep(this.rec.callbacks, deliveredRequest(req));
      return got;
    });
  }
}

/** The request of an `events.await_callback` answer's `http_request` map. */
function deliveredRequest(req: Map<string, Value>): RecordedCallback {
  const text = (m: Value | undefined): Record<string, string> => {
    const out: Record<string, string> = {};
    if (isMap(m)) for (const [k, v] of m) out[k] = typeof v === 'string' ? v : Array.isArray(v) ? String(v[0] ?? '') : String(v);
    return out;
  };
  const method = req.get('method');
  return {
    method: typeof method === 'string' ? method : 'POST',
    headers: text(req.get('headers')),
    query: text(req.get('query')),
    body: req.get('body'),
  };
}
