/**
 * Retry predicates, named retry policies and the default backoff (docs/standard-library.md#retry-policies;
 * Google's `retry.*` and `http.default_retry*` pages).
 *
 * - Predicates are ordinary functions called with the error map and returning a bool, so `predicate:
 *   ${http.default_retry_predicate}` and a subworkflow predicate are used the same way: `retry.always`,
 *   `retry.never`, `http.default_retry_predicate`, `http.default_retry_predicate_non_idempotent`.
 * - {@link RETRY_POLICIES} are the values of `retry: ${http.default_retry}` and
 *   `retry: ${http.default_retry_non_idempotent}`: a predicate name, max_retries 5 and the default backoff.
 * - {@link BACKOFFS} holds `retry.default_backoff` (initial_delay 1 s, max_delay 60 s, multiplier 1.25), which
 *   Google documents as the backoff of both http policies. The engine should accept it wherever a backoff
 *   map is expected (`backoff: ${retry.default_backoff}`) by resolving the name to {@link DEFAULT_BACKOFF}
 *   (or its map form {@link backoffValue}); it is a value, not a function, so it is not in `functions`.
 *
 * Spec vs real service: the spec gives `http.default_retry_non_idempotent` the same conditions as
 * `http.default_retry`, while Google retries only 429, 503 and ConnectionFailedError for non-idempotent
 * targets. The spec wins for the policy (its predicate is `http.default_retry_predicate`); the separate
 * predicate function `http.default_retry_predicate_non_idempotent`, which the spec does not list, keeps
 * Google's narrower conditions.
 */
import { mapOf, type Value, type WMap } from '../lang/value.ts';
import type { RetryPolicy, StdlibFunction } from './types.ts';

/** A backoff as a `retry` block's `backoff` map describes it, in seconds. */
export interface Backoff {
  readonly initialDelaySec: number;
  readonly maxDelaySec: number;
  readonly multiplier: number;
}

/** `retry.default_backoff`: initial_delay 1 s, max_delay 60 s, multiplier 1.25 (docs/standard-library.md). */
export const DEFAULT_BACKOFF: Backoff = { initialDelaySec: 1, maxDelaySec: 60, multiplier: 1.25 };

/** Named backoffs by dotted name (`retry.default_backoff`). */
export const BACKOFFS: ReadonlyMap<string, Backoff> = new Map([['retry.default_backoff', DEFAULT_BACKOFF]]);

/** The workflow value of a backoff: the map `{initial_delay, max_delay, multiplier}` a `backoff:` block holds. */
export function backoffValue(b: Backoff): WMap {
  return mapOf([
    ['initial_delay', Number.isInteger(b.initialDelaySec) ? BigInt(b.initialDelaySec) : b.initialDelaySec],
    ['max_delay', Number.isInteger(b.maxDelaySec) ? BigInt(b.maxDelaySec) : b.maxDelaySec],
    ['multiplier', b.multiplier],
  ]);
}

/** HTTP statuses http.default_retry retries on (docs/standard-library.md#retry-policies: 429, 502, 503, 504; not 500). */
const DEFAULT_RETRY_CODES: ReadonlySet<bigint> = new Set([429n, 502n, 503n, 504n]);
/** Error tags http.default_retry retries on (docs/standard-library.md#retry-policies; ConnectionFailedError as Google documents). */
const DEFAULT_RETRY_TAGS: readonly string[] = ['ConnectionError', 'ConnectionFailedError', 'TimeoutError'];
/** Google's non-idempotent predicate: 429, 503 and ConnectionFailedError only. */
const NON_IDEMPOTENT_CODES: ReadonlySet<bigint> = new Set([429n, 503n]);
const NON_IDEMPOTENT_TAGS: readonly string[] = ['ConnectionFailedError'];

function codeOf(e: WMap): bigint | undefined {
  const c = e.get('code');
  if (typeof c === 'bigint') return c;
  if (typeof c === 'number' && Number.isInteger(c)) return BigInt(c);
  return undefined;
}

function tagsOf(e: WMap): string[] {
  const t = e.get('tags');
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === 'string') : [];
}

/**
 * True when an error map should be retried: its `code` is one of `codes` or it carries one of `tags`. The
 * code is checked whatever the tags, so `raise: {code: 503}` is retried like an HttpError 503. A value that
 * is not a map (a raised string becomes a map before it gets here) is never retried.
 */
function matchesRetry(e: Value | undefined, codes: ReadonlySet<bigint>, tags: readonly string[]): boolean {
  if (!(e instanceof Map)) return false;
  const code = codeOf(e);
  if (code !== undefined && codes.has(code)) return true;
  return tagsOf(e).some((t) => tags.includes(t));
}

const exceptionParam = [{ name: 'exception', aliases: ['e', 'error'] }] as const;

/** The retry predicate functions, one row per function. */
export const functions: StdlibFunction[] = [
  {
    // retry.always(exception): true for every error.
    name: 'retry.always',
    params: exceptionParam,
    impl: () => true,
  },
  {
    // retry.never(exception): false for every error.
    name: 'retry.never',
    params: exceptionParam,
    impl: () => false,
  },
  {
    // http.default_retry_predicate(exception): 429, 502, 503, 504, ConnectionError,
    // ConnectionFailedError, TimeoutError.
    name: 'http.default_retry_predicate',
    params: exceptionParam,
    impl: ([e]) => matchesRetry(e, DEFAULT_RETRY_CODES, DEFAULT_RETRY_TAGS),
  },
  {
    // http.default_retry_predicate_non_idempotent(exception): Google's 429, 503, ConnectionFailedError.
    name: 'http.default_retry_predicate_non_idempotent',
    params: exceptionParam,
    impl: ([e]) => matchesRetry(e, NON_IDEMPOTENT_CODES, NON_IDEMPOTENT_TAGS),
  },
];

/**
 * The named retry policies by dotted name (`retry: ${http.default_retry}`): the predicate to call (a name in
 * `functions`), max_retries 5 and the default backoff. Both use `http.default_retry_predicate`, because the
 * spec gives the non-idempotent policy the same conditions (see the module header).
 */
export const RETRY_POLICIES: ReadonlyMap<string, RetryPolicy> = new Map<string, RetryPolicy>([
  [
    'http.default_retry',
    { predicate: 'http.default_retry_predicate', maxRetries: 5, ...backoffFields(DEFAULT_BACKOFF) },
  ],
  [
    'http.default_retry_non_idempotent',
    {
      predicate: 'http.default_retry_predicate',
      // Google: 429, 503 and ConnectionFailedError only
      // (https://cloud.google.com/workflows/docs/reference/stdlib/http/default_retry_predicate_non_idempotent).
      googlePredicate: 'http.default_retry_predicate_non_idempotent',
      maxRetries: 5,
      ...backoffFields(DEFAULT_BACKOFF),
    },
  ],
]);

function backoffFields(b: Backoff): Pick<RetryPolicy, 'initialDelaySec' | 'maxDelaySec' | 'multiplier'> {
  return { initialDelaySec: b.initialDelaySec, maxDelaySec: b.maxDelaySec, multiplier: b.multiplier };
}
