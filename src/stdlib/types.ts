/**
 * The shape of the standard library (docs/standard-library.md): one table row per function, gathered by
 * name in `src/stdlib/index.ts`. A row gives the function's parameter names (so the `call:` form with named
 * `args` and the expression form with positional arguments bind the same way), its defaults, whether it may
 * wait, and its implementation.
 */
import type { DefinitionLibrary } from '../lang/definition/library.ts';
import type { Value } from '../lang/value.ts';
import type { Compat } from '../lang/compat.ts';
import type { CancelSignal } from '../platform/cancellation.ts';

/** One parameter of a stdlib function. */
export interface ParamSpec {
  /** The name used in a `call` step's `args` (Google's documented name). */
  readonly name: string;
  /** Other names the real service or the spec accepts for it (e.g. `text` for `sys.log`'s `data`). */
  readonly aliases?: readonly string[];
  /** True when the argument may be left out; the implementation then receives `default` (or undefined). */
  readonly optional?: boolean;
  readonly default?: Value;
}

/**
 * What a stdlib function may use besides its arguments. Pure functions ignore it; sys.*, http.* and events.*
 * use the injected clock, fetch, environment, log and callbacks, so tests control time and the network.
 */
export interface CallContext {
  /** Current time, sleeps and timers. */
  readonly clock: Clock;
  /** Outbound HTTP for http.* (the platform fetch in production). */
  readonly fetch: typeof fetch;
  /**
   * Environment variables readable by sys.get_env: the built-in CLOUD_* and GOOGLE_CLOUD_* values of this
   * execution (docs/standard-library.md#sys).
   */
  readonly env: ReadonlyMap<string, string>;
  /** Aborted when the execution is cancelled; every wait must stop promptly when it fires. */
  readonly signal: CancelSignal;
  /** Records a sys.log entry for this execution (the engine prints it and keeps it). */
  log(entry: LogEntry): void;
  /** The callback endpoints of this execution (events.*). */
  readonly callbacks: CallbackHub;
  /** Draws a random version 4 UUID for `uuid.generate` (absent: the platform's `crypto.randomUUID`). */
  readonly uuid?: (() => string) | undefined;
  /**
   * `google`: Google's behaviour where it and the specification differ (`text.find_all`'s result,
   * `text.replace_all_regex`'s replacement, the non-idempotent retry policy, the default `http.*` timeout;
   * docs/compat.md). Absent: the specification's.
   */
  readonly compat?: Compat;
}

/** A stdlib function: one row of the table. */
export interface StdlibFunction {
  /** The dotted name as workflows write it: `len`, `text.split`, `http.get`. */
  readonly name: string;
  readonly params: readonly ParamSpec[];
  /**
   * True when the function may wait (http.*, sys.sleep, events.await_callback): its implementation may return
   * a promise, and expressions calling it are compiled as async.
   */
  readonly blocking?: boolean;
  /**
   * The implementation. `args` is positional, one entry per param (undefined for an omitted optional one
   * without a default).
   * @throws WorkflowError with the spec's tags: TypeError for a wrong argument type or count, ValueError for a
   *   bad value, others as documented per function.
   */
  readonly impl: (args: (Value | undefined)[], ctx: CallContext) => Value | Promise<Value>;
}

/** Time, injected so that sleeps, backoff and timeouts are testable without waiting. */
export interface Clock {
  /** Milliseconds since the Unix epoch, with sub-millisecond precision where the platform has it. */
  now(): number;
  /**
   * Resolves after `ms` milliseconds; rejects with the signal's reason as soon as the signal aborts (at once
   * if it already has).
   */
  sleep(ms: number, signal?: CancelSignal): Promise<void>;
  /**
   * A timeout (an http.* request's, an events.await_callback's): resolves after `ms` milliseconds like
   * `sleep`, but a virtual clock never jumps to it by itself (src/engine/virtual-time.ts). Absent: `sleep`.
   */
  deadline?(ms: number, signal?: CancelSignal): Promise<void>;
}

/** One sys.log entry. */
export interface LogEntry {
  /** Time of the call, ISO 8601 UTC. */
  readonly time: string;
  /** DEFAULT, DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT or EMERGENCY. */
  readonly severity: string;
  /** The logged value (`data`/`text` as given, or the `json` map). */
  readonly payload: Value;
  /** True for a map or list payload (given as `data` or `json`): written as a jsonPayload, else a textPayload. */
  readonly structured: boolean;
}

/**
 * Callback endpoints of one execution (docs/api-resources.md#events). One implementation, the service's callback registry
 * (src/service/callbacks/callback-registry.ts `CallbackRegistry.hubFor`), serves the service, one-shot runs, tests and benches.
 */
export interface CallbackHub {
  /**
   * Creates a callback endpoint that accepts `method` (GET, HEAD, POST, PUT, DELETE, OPTIONS or PATCH).
   * Returns the map events.create_callback_endpoint returns: at least `url`.
   */
  create(method: string): Value;
  /**
   * Waits for a request to the callback whose map `create` returned, for at most `timeoutMs`.
   * Resolves to `{http_request: {body, headers, method, query}, received_time, type: "HTTP"}`.
   * A request that arrived before the wait is delivered at once.
   * @throws WorkflowError tagged TimeoutError when the time runs out; rejects with the signal's reason when
   *   the execution is cancelled.
   */
  await(callback: Value, timeoutMs: number, signal: CancelSignal): Promise<Value>;
}

/** A retry policy the stdlib provides by name (`retry: ${http.default_retry}`). */
export interface RetryPolicy {
  /** The stdlib predicate function deciding whether an error map is retried. */
  readonly predicate: string;
  /** The predicate under `--compat google`, where it differs from the spec's (docs/compat.md). */
  readonly googlePredicate?: string;
  readonly maxRetries: number;
  readonly initialDelaySec: number;
  readonly maxDelaySec: number;
  readonly multiplier: number;
}

/**
 * The functions and retry policies executions call, by dotted name: what the definition compiler checks names
 * against ({@link DefinitionLibrary}) and what the engine runs, in one table, so a library handed to the
 * service (ServiceCoreOptions.library) changes both what deploys and what runs. The standard library's is
 * `DEFINITION_LIBRARY` of src/stdlib/index.ts; `withFunctions` there adds functions to it.
 */
export interface FunctionLibrary extends DefinitionLibrary {
  /** Every function by dotted name (`len`, `text.split`, `http.get`, ...). */
  readonly functions: ReadonlyMap<string, StdlibFunction>;
  /** Named retry policies (`retry: ${http.default_retry}`) by dotted name. */
  readonly retryPolicies: ReadonlyMap<string, RetryPolicy>;
}
