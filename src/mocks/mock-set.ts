/**
 * A set of mocks as the mock file (mock-file.ts, docs/mocks-and-clock.md#mocks) describes it: its http and
 * connector entries with their outcomes, the empty set, and one set laid over another.
 */
import type { Value, WMap } from '../lang/value.ts';
import type { UrlPattern } from './url-pattern.ts';

/** What an http mock answers on one call: a response, or an error as `http.*` raises it. */
export type HttpOutcome =
  | {
      readonly kind: 'respond';
      /** HTTP status, 200..599. */
      readonly status: number;
      /** Response headers as written (names as given; fetch lowercases them). */
      readonly headers: readonly (readonly [string, string])[];
      /** The body: a string is sent as text, any other value as JSON; undefined: no body. */
      readonly body: Value | undefined;
      /** True: the body is the request (`{method, url, headers, query, body}`) as JSON. */
      readonly echo: boolean;
    }
  | { readonly kind: 'raise'; readonly error: WMap };

/** One `http` entry: a matcher and its outcomes. */
export interface HttpMock {
  /** Where the entry is written: `mocks.yaml:3:5`, for messages. */
  readonly where: string;
  /** Upper-case methods any of which matches; undefined: any method. */
  readonly methods?: readonly string[] | undefined;
  readonly url?: UrlPattern | undefined;
  /** Query parameters that must be present with these values (text compare). */
  readonly query?: ReadonlyMap<string, readonly string[]> | undefined;
  /** Headers (lower-case names) that must be present with these values. */
  readonly headers?: ReadonlyMap<string, string> | undefined;
  /** A subset of the request body (maps: keys present and matching; lists: same length; scalars: equal). */
  readonly body?: Value | undefined;
  /** One outcome per call; the last repeats. Never empty. */
  readonly outcomes: readonly HttpOutcome[];
  /** Time before the outcome, milliseconds (on the execution's clock, so virtual time skips it). */
  readonly delayMs: number;
  /** Only calls made by this step, in this routine (workflow or subworkflow name). */
  readonly step?: string | undefined;
  readonly routine?: string | undefined;
}

/** What a connector mock answers on one call. */
export type ConnectorOutcome = { readonly kind: 'result'; readonly value: Value } | { readonly kind: 'raise'; readonly error: WMap };

/** One `connectors` entry. */
export interface ConnectorMock {
  readonly where: string;
  /** The dotted connector name as written: exact, or a glob (`googleapis.firestore.v1.*`, `*`). */
  readonly call: string;
  /** For a glob: its literal parts, between the `*`s (url-pattern.ts `globMatches`). */
  readonly callGlob?: readonly string[];
  /** A subset of the call's args that must match (as {@link HttpMock.body}). */
  readonly args?: Value;
  readonly outcomes: readonly ConnectorOutcome[];
  readonly delayMs: number;
  /** Only calls made by this step, in this routine. */
  readonly step?: string;
  readonly routine?: string;
}

/**
 * A set of mocks: http and connector entries, first match wins, and what an unmatched http call does. Built
 * by parseMocks (mock-file.ts), laid over another by {@link overlayMocks}. Immutable; per-execution state (which
 * call of a sequence comes next) lives in a MockSession (mock-session.ts).
 */
export interface MockSet {
  readonly http: readonly HttpMock[];
  readonly connectors: readonly ConnectorMock[];
  /** `passthrough` (the default): an unmatched http call goes out for real; `error`: it fails. */
  readonly unmatchedHttp: 'passthrough' | 'error';
  /** The content as JSON-ready data (GET /emulator/v1/mocks answers it): `{http, connectors, unmatched}`. */
  readonly content: { http: unknown[]; connectors: unknown[]; unmatched?: { http: string } };
}

/** The empty set: nothing mocked, http passes through. */
export const NO_MOCKS: MockSet = Object.freeze({
  http: [],
  connectors: [],
  unmatchedHttp: 'passthrough',
  content: { http: [], connectors: [] },
});

/**
 * `over` laid over `base`: over's http and connector entries are tried first, then base's; over's
 * `unmatched` wins when it says one.
 */
export function overlayMocks(base: MockSet, over: MockSet): MockSet {
  const unmatched = over.content.unmatched ?? base.content.unmatched;
  return {
    http: [...over.http, ...base.http],
    connectors: [...over.connectors, ...base.connectors],
    unmatchedHttp: unmatched ? (unmatched.http as 'passthrough' | 'error') : 'passthrough',
    content: {
      http: [...over.content.http, ...base.content.http],
      connectors: [...over.content.connectors, ...base.content.connectors],
      ...(unmatched ? { unmatched } : {}),
    },
  };
}

/**
 * `mocks` as a test case applies them (docs/testing.md#the-test-command): an unmatched http.* call fails, naming
 * the nearest mock, unless the mocks say `unmatched: {http: passthrough}` (tests should not reach the network
 * unnoticed). The `test` command and the replay of a saved case both run cases so.
 */
export function unmatchedFails(mocks: MockSet): MockSet {
  return mocks.content.unmatched ? mocks : { ...mocks, unmatchedHttp: 'error' };
}
