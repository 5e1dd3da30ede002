/**
 * http mocks at the fetch level (docs/mocks-and-clock.md#mocks): a `fetch` for one execution that answers matching requests from
 * the mock set and passes the others to the real fetch (or fails them, under `unmatched.http: error`).
 * Because `http.*` reads a mocked answer through the same code as a real one (src/stdlib/http.ts), a mocked
 * call behaves exactly like a real one: the same response map, HttpError with `code`, `headers` and `body`
 * for a 4xx/5xx (so `http.default_retry` retries a mocked 503), the same body decoding by content type.
 */
import { WorkflowError } from '../lang/errors.ts';
import { type Value, type WMap } from '../lang/value.ts';
import { parseJson, toJson } from '../lang/json.ts';
import type { Clock } from '../stdlib/types.ts';
import type { CallLog } from './call-log.ts';
import type { HttpOutcome } from './mock-file.ts';
import { HeaderFields, type HeaderReader } from '../stdlib/header-fields.ts';
import { nearestHttpMiss, type MockedRequest, type MockSession } from './mock-session.ts';

/** What {@link mockFetch} needs besides the session. */
export interface MockFetchOptions {
  /** Where unmatched requests go under `unmatched.http: passthrough`. */
  readonly realFetch: typeof fetch;
  /** The execution's clock (a mock's `delay` sleeps on it; record times read it). */
  readonly clock: Clock;
  /** Where the calls are recorded. */
  readonly log: CallLog;
}

/**
 * A fetch that serves `session`'s http mocks. An answered request resolves to a real `Response` built from
 * the outcome after its `delay`; a `raise` outcome rejects with the WorkflowError http.* then raises; an
 * unmatched request goes to `realFetch`, or under `unmatched.http: error` rejects with a SystemError naming
 * the method, the URL and why the nearest mock did not match. The request's signal aborts a delay.
 */
export function mockFetch(session: MockSession, options: MockFetchOptions): typeof fetch {
  const { realFetch, clock, log } = options;
  return (async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const record = log.current ?? log.add({ kind: 'http', name: 'http.request', mocked: false, startMs: clock.now() });
    const req = { ...requestOf(input, init), step: record.step, routine: record.routine };
    record.method = req.method;
    record.url = req.url;
    if (req.body !== undefined) record.requestBody = req.body;
    const hit = session.mocks.http.length > 0 ? session.http(req) : undefined;
    if (!hit) {
      if (session.mocks.unmatchedHttp === 'error') {
        throw WorkflowError.of(
          'SystemError',
          `no http mock matches ${req.method} ${req.url} (unmatched.http is error): ${nearestHttpMiss(session.mocks, req)}`,
        );
      }
      return realFetch(input, init);
    }
    record.mocked = true;
    record.mock = hit.mock.where;
    if (hit.mock.delayMs > 0) await clock.sleep(hit.mock.delayMs, init?.signal ?? undefined);
    return outcomeResponse(hit.outcome, req);
  }) as typeof fetch;
}

/** The encoded form of a respond outcome, made once per outcome (echo responses are made per call). */
const encoded = new WeakMap<HttpOutcome, { readonly headers: HeaderFields; readonly bytes: Uint8Array | null }>();

function outcomeResponse(outcome: HttpOutcome, req: MockedRequest): Response {
  if (outcome.kind === 'raise') throw new WorkflowError(new Map(outcome.error));
  const enc = encodedOutcome(outcome, req);
  return mockResponse(outcome.status, enc.headers, enc.bytes);
}

/**
 * The response headers and body bytes of a respond outcome for `req` (made once per outcome, except echoes).
 * The headers object is shared: read it, never change it.
 */
export function encodedOutcome(
  outcome: HttpOutcome & { kind: 'respond' },
  req: MockedRequest,
): { readonly headers: HeaderFields; readonly bytes: Uint8Array | null } {
  let enc = outcome.echo ? undefined : encoded.get(outcome);
  if (!enc) {
    enc = encode(outcome, outcome.echo ? echoOf(req) : outcome.body);
    if (!outcome.echo) encoded.set(outcome, enc);
  }
  return enc;
}

function encode(outcome: HttpOutcome & { kind: 'respond' }, value: Value | undefined): { headers: HeaderFields; bytes: Uint8Array | null } {
  const headers = new HeaderFields(outcome.headers as [string, string][]);
  if (value === undefined) return { headers, bytes: null };
  let text: string;
  if (typeof value === 'string') {
    text = value;
    if (!headers.has('content-type')) headers.set('content-type', 'text/plain; charset=utf-8');
  } else {
    text = value === null ? 'null' : toJson(value);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json; charset=utf-8');
  }
  return { headers, bytes: new TextEncoder().encode(text) };
}

/**
 * A Response as http.* reads one (status, headers, a body stream read to its end), without the platform's
 * stream machinery: a mocked call then costs microseconds. The headers object is shared by the calls of one
 * outcome; http.* only reads it.
 */
function mockResponse(status: number, headers: HeaderFields, bytes: Uint8Array | null): Response {
  let sent = false;
  const body =
    bytes === null
      ? null
      : {
          getReader: () => ({
            read: (): Promise<ReadableStreamReadResult<Uint8Array>> => {
              if (sent) return Promise.resolve({ done: true, value: undefined });
              sent = true;
              return Promise.resolve({ done: false, value: bytes });
            },
            cancel: (): Promise<void> => Promise.resolve(),
          }),
        };
  return { status, headers, body, ok: status >= 200 && status < 300 } as unknown as Response;
}

/** The request as an echo response's body: `{method, url, headers, query, body}`. */
function echoOf(req: MockedRequest): Value {
  const headers: WMap = new Map(req.headers);
  const query: WMap = new Map();
  try {
    for (const [k, v] of new URL(req.url).searchParams) {
      const had = query.get(k);
      query.set(k, had === undefined ? v : Array.isArray(had) ? [...had, v] : [had, v]);
    }
  } catch {
    // an unparsable URL has no query to show
  }
  return new Map<string, Value>([
    ['method', req.method],
    ['url', req.url],
    ['headers', headers],
    ['query', query],
    ['body', req.body ?? null],
  ]);
}

/** The request as the mocks see it: method, URL, lower-case headers, and the body decoded. */
function requestOf(input: RequestInfo | URL, init: RequestInit | undefined): MockedRequest {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
  const method = (init?.method ?? 'GET').toUpperCase();
  const headers = new Map<string, string>();
  const h = init?.headers;
  // An array first: http.* sends its headers as pairs, and naming the platform's Headers would load its fetch.
  if (Array.isArray(h)) for (const [k, v] of h) headers.set(k!.toLowerCase(), v!);
  else if (h && typeof (h as HeaderReader).forEach === 'function') (h as HeaderReader).forEach((v, k) => headers.set(k, v));
  else if (h) for (const k of Object.keys(h)) headers.set(k.toLowerCase(), (h as Record<string, string>)[k]!);
  return { method, url, headers, body: decodeRequestBody(init?.body, headers.get('content-type')) };
}

/** A request encoded by http.* (stdlib/http.ts prepareRequest) as the mocks see it. */
export function mockedRequest(method: string, url: string, headers: HeaderReader, body: Uint8Array | string | undefined): MockedRequest {
  const h = new Map<string, string>();
  headers.forEach((v, k) => h.set(k, v));
  return { method, url, headers: h, body: decodeRequestBody(body, h.get('content-type')) };
}

function decodeRequestBody(body: unknown, contentType: string | undefined): Value | undefined {
  if (body === undefined || body === null) return undefined;
  let text: string;
  if (typeof body === 'string') text = body;
  else if (body instanceof Uint8Array) {
    const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
    if (!(type.includes('json') || type.startsWith('text/') || type === 'application/x-www-form-urlencoded')) return body;
    text = new TextDecoder().decode(body);
  } else return undefined;
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) {
    try {
      return parseJson(text);
    } catch {
      return text;
    }
  }
  if (type === 'application/x-www-form-urlencoded') {
    const m: WMap = new Map();
    for (const [k, v] of new URLSearchParams(text)) m.set(k, v);
    return m;
  }
  return text;
}
