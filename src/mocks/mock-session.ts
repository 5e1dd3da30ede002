/**
 * Matching calls against a {@link MockSet} for one execution (docs/mocks-and-clock.md#mocks): the first entry that
 * matches wins; an entry with a list of outcomes gives the next one on each call and repeats the last. The
 * sequence position is per execution, so concurrent executions (and test cases) do not disturb each other.
 */
import { compareNumbers, isList, isMap, typeName, type Value } from '../lang/value.ts';
import { toJson } from '../lang/json.ts';
import type { ConnectorMock, ConnectorOutcome, HttpMock, HttpOutcome, MockSet } from './mock-file.ts';
import { globMatches, urlFor } from './url-pattern.ts';

/** An outbound HTTP request as the mocks see it. */
export interface MockedRequest {
  /** Upper-case method. */
  readonly method: string;
  /** The full URL as http.* sends it (normalized, query included). */
  readonly url: string;
  /** Header names lower-case. */
  readonly headers: ReadonlyMap<string, string>;
  /** The body decoded as http.* encoded it (JSON to a value, a form to a map, else text); undefined: none. */
  readonly body: Value | undefined;
  /** The step making the call and its routine, when known. */
  readonly step?: string | undefined;
  readonly routine?: string | undefined;
}

/** The per-execution state of a mock set: where each sequence stands. */
export class MockSession {
  /** Calls matched per sequence; made on the first match (most executions match no mock). */
  private calls: Map<object, number> | undefined;

  constructor(readonly mocks: MockSet) {}

  /** The outcome of the first http entry matching `req` (advancing its sequence), or undefined. */
  http(req: MockedRequest): { readonly mock: HttpMock; readonly outcome: HttpOutcome } | undefined {
    for (const mock of this.mocks.http) {
      if (httpMismatch(mock, req) === undefined) return { mock, outcome: this.next(mock, mock.outcomes) };
    }
    return undefined;
  }

  /** The outcome of the first connector entry matching the call (advancing its sequence), or undefined. */
  connector(name: string, args: Value, caller?: { readonly step: string; readonly routine: string }): { readonly mock: ConnectorMock; readonly outcome: ConnectorOutcome } | undefined {
    for (const mock of this.mocks.connectors) {
      if (mock.callGlob ? !globMatches(mock.callGlob, name) : mock.call !== name) continue;
      if (callerMismatch(mock, caller)) continue;
      if (mock.args !== undefined && subsetMismatch(mock.args, args, 'args') !== undefined) continue;
      return { mock, outcome: this.next(mock, mock.outcomes) };
    }
    return undefined;
  }

  private next<T>(mock: object, outcomes: readonly T[]): T {
    const calls = (this.calls ??= new Map());
    const n = calls.get(mock) ?? 0;
    calls.set(mock, n + 1);
    return outcomes[Math.min(n, outcomes.length - 1)]!;
  }
}

/**
 * Why the nearest http entry did not match `req`, for the error of an unmatched call: the entry with the
 * fewest failing criteria (the first on a tie), e.g. `the nearest mock (mocks.yaml:3:5) did not match: url
 * "https://a/x" does not match "https://a/y/*"`; or a note that there are no http mocks.
 */
export function nearestHttpMiss(mocks: MockSet, req: MockedRequest): string {
  let best: { mock: HttpMock; misses: string[] } | undefined;
  for (const mock of mocks.http) {
    const misses = allHttpMismatches(mock, req);
    if (!best || misses.length < best.misses.length) best = { mock, misses };
  }
  if (!best) return 'there are no http mocks';
  return `the nearest mock (${best.mock.where}) did not match: ${best.misses.join('; ')}`;
}

/** Why a mock limited to a calling step or routine does not match the caller; undefined when it does. */
function callerMismatch(mock: { readonly step?: string | undefined; readonly routine?: string | undefined }, caller: { readonly step?: string | undefined; readonly routine?: string | undefined } | undefined): string | undefined {
  if (mock.step !== undefined && caller?.step !== mock.step) return `the calling step is ${JSON.stringify(caller?.step ?? '')}, not ${JSON.stringify(mock.step)}`;
  if (mock.routine !== undefined && caller?.routine !== mock.routine) return `the calling routine is ${JSON.stringify(caller?.routine ?? '')}, not ${JSON.stringify(mock.routine)}`;
  return undefined;
}

function httpMismatch(mock: HttpMock, req: MockedRequest): string | undefined {
  const who = callerMismatch(mock, req);
  if (who) return who;
  if (mock.methods && !mock.methods.includes(req.method)) return `method ${req.method} is not ${mock.methods.join(' or ')}`;
  if (mock.url && !mock.url.test(urlFor(mock.url, req.url))) return `url "${req.url}" does not match "${mock.url.text}"`;
  if (mock.query) {
    const miss = queryMismatch(mock.query, req.url);
    if (miss) return miss;
  }
  if (mock.headers) {
    for (const [k, v] of mock.headers) {
      const got = req.headers.get(k);
      if (got === undefined) return `header ${k} is missing (expected "${v}")`;
      if (got !== v) return `header ${k} is "${got}", not "${v}"`;
    }
  }
  if (mock.body !== undefined) {
    if (req.body === undefined) return 'the request has no body';
    return subsetMismatch(mock.body, req.body, 'body');
  }
  return undefined;
}

function allHttpMismatches(mock: HttpMock, req: MockedRequest): string[] {
  // Each criterion alone, so the message lists every reason.
  const who = callerMismatch(mock, req);
  mock = { ...mock, step: undefined, routine: undefined } as HttpMock;
  const parts: HttpMock[] = [
    { ...mock, url: undefined, query: undefined, headers: undefined, body: undefined } as HttpMock,
    { ...mock, methods: undefined, query: undefined, headers: undefined, body: undefined } as HttpMock,
    { ...mock, methods: undefined, url: undefined, headers: undefined, body: undefined } as HttpMock,
    { ...mock, methods: undefined, url: undefined, query: undefined, body: undefined } as HttpMock,
    { ...mock, methods: undefined, url: undefined, query: undefined, headers: undefined } as HttpMock,
  ];
  const out: string[] = who ? [who] : [];
  for (const p of parts) {
    const m = httpMismatch(p, req);
    if (m !== undefined) out.push(m);
  }
  return out;
}

function queryMismatch(want: ReadonlyMap<string, readonly string[]>, url: string): string | undefined {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return `url "${url}" cannot be parsed`;
  }
  for (const [k, values] of want) {
    const got = params.getAll(k);
    if (got.length === 0) return `query parameter ${k} is missing`;
    for (const v of values) if (!got.includes(v)) return `query parameter ${k} is ${JSON.stringify(got.length === 1 ? got[0] : got)}, not "${v}"`;
  }
  return undefined;
}

/**
 * Why `actual` does not contain `expected`, or undefined when it does: a map matches when each expected key
 * is present and matches; a list when it has the same length and each item matches; numbers by value (1
 * matches 1.0); anything else by equality.
 */
export function subsetMismatch(expected: Value, actual: Value, path: string): string | undefined {
  if (isMap(expected)) {
    if (!isMap(actual)) return `${path} is ${typeName(actual)}, expected a map`;
    for (const [k, v] of expected) {
      const a = actual.get(k);
      if (a === undefined) return `${path}.${k} is missing`;
      const m = subsetMismatch(v, a, `${path}.${k}`);
      if (m) return m;
    }
    return undefined;
  }
  if (isList(expected)) {
    if (!isList(actual)) return `${path} is ${typeName(actual)}, expected a list`;
    if (actual.length !== expected.length) return `${path} has ${actual.length} items, expected ${expected.length}`;
    for (let i = 0; i < expected.length; i++) {
      const m = subsetMismatch(expected[i]!, actual[i]!, `${path}[${i}]`);
      if (m) return m;
    }
    return undefined;
  }
  const en = typeof expected === 'bigint' || typeof expected === 'number';
  const an = typeof actual === 'bigint' || typeof actual === 'number';
  if (en && an) return compareNumbers(expected, actual) === 0 ? undefined : `${path} is ${show(actual)}, expected ${show(expected)}`;
  if (expected === actual) return undefined;
  return `${path} is ${show(actual)}, expected ${show(expected)}`;
}

function show(v: Value): string {
  try {
    const s = toJson(v);
    return s.length > 80 ? s.slice(0, 77) + '...' : s;
  } catch {
    return typeName(v);
  }
}
