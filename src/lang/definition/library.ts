/**
 * What the definition compiler knows about the functions a workflow may call, handed in by the caller (as
 * cel-es takes its function registry): the language layer does not import the standard library, the
 * standard library describes itself in these terms (src/stdlib/index.ts `DEFINITION_LIBRARY`).
 */

/** A backoff of a retry policy (docs/language.md#try-retry-and-except): delays in seconds. */
export interface BackoffSpec {
  /** First delay, in seconds. */
  readonly initialDelaySec: number;
  /** Largest delay, in seconds. */
  readonly maxDelaySec: number;
  /** Factor from one delay to the next. */
  readonly multiplier: number;
}

/** The functions, retry policies and backoffs a definition may name, as the compiler checks them. */
export interface DefinitionLibrary {
  /** Whether `name` (dotted, e.g. `http.get`) is a function of the standard library. */
  hasFunction(name: string): boolean;
  /**
   * The parameter names of the function `name`, in order: a `call` step may give its `args` as a list, bound
   * by position (Google's sys.log examples: `args: [${myVar}, "ERROR"]`). Absent or undefined: only named.
   */
  paramNames?(name: string): readonly string[] | undefined;
  /** Every function's dotted name (for "did you mean" hints). */
  functionNames(): Iterable<string>;
  /**
   * Whether the function `name` may wait (http.*, sys.sleep, events.await_callback, ...): expressions
   * calling it compile to the asynchronous path.
   */
  isBlocking(name: string): boolean;
  /** Named retry policies (`retry: ${http.default_retry}`) by dotted name, with their predicate's name. */
  readonly retryPolicies: ReadonlyMap<string, { readonly predicate: string; readonly googlePredicate?: string }>;
  /** Named backoffs (`backoff: ${retry.default_backoff}`) by dotted name. */
  readonly backoffs: ReadonlyMap<string, BackoffSpec>;
  /** The backoff of a custom retry without `backoff` (Google: `retry.default_backoff`). */
  readonly defaultBackoff: BackoffSpec;
}
