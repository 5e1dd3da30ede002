/**
 * The `http` namespace (docs/standard-library.md, http table; Google's `http` reference): real requests through
 * the execution's injected fetch (`platformFetch` of platform-fetch.ts in production).
 *
 * Request: `url` (http or https), `method` (http.request only), `headers`, `body` (bytes sent raw; with no
 * Content-Type header any other body is JSON-encoded and sent as `application/json; charset=utf-8`; a string
 * under another Content-Type is sent as is; a map under `application/x-www-form-urlencoded` is form-encoded;
 * sent with every method, GET and HEAD included),
 * `query` (URL-encoded and appended to a query already in the URL), `auth` (accepted, not enforced:
 * docs/api-resources.md#authentication), `timeout` (seconds, default and maximum 1800).
 *
 * Response: `{code, headers, body}` with header names lowercased and the body parsed by content type (JSON to
 * a value, `text/*` to a string, anything else to bytes). Errors, each code 0 except HttpError:
 * - HttpError (code: the status) for a non-2xx response, with `headers` and `body` as above;
 * - ConnectionFailedError when no connection was made (refused, DNS failure, unreachable);
 * - ConnectionError when the connection broke after it was made (reset, closed mid-response);
 * - TimeoutError when `timeout` passed first;
 * - ResourceLimitError for a response body over 2 MB (docs/api-resources.md#limits: HTTP response size).
 * Cancelling the execution aborts the request at once.
 */
import { WorkflowError, typeError, valueError } from '../lang/errors.ts';
import { isBytes, isList, isMap, typeName, type Value, type WMap } from '../lang/value.ts';
import { JsonEncodeError, parseJson, toJson } from '../lang/json.ts';
import { checkValue } from '../lang/size-checks.ts';
import { num, str } from './check.ts';
import type { CallContext, ParamSpec, StdlibFunction } from './types.ts';
import type { Compat } from '../lang/compat.ts';
import { withGetBodies } from './platform-fetch.ts';
import { HeaderFields, type HeaderReader } from './header-fields.ts';
import { Cancellation } from '../platform/cancellation.ts';

/** Default and maximum request timeout, seconds (docs/api-resources.md#limits). */
const MAX_HTTP_TIMEOUT_SEC = 1800;
/**
 * The default request timeout under `--compat google`, seconds: "The request timeout, in seconds (default:
 * 300.0)" (https://cloud.google.com/workflows/docs/reference/stdlib/http/get); the maximum stays 1800.
 */
const GOOGLE_DEFAULT_HTTP_TIMEOUT_SEC = 300;
/** Largest response body accepted, bytes (docs/api-resources.md#limits: 2 MB). */
const MAX_HTTP_RESPONSE_BYTES = 2 * 1024 * 1024;

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Node's (undici's) error codes for a connection that was never established. */
const NOT_CONNECTED_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'EAI_FAIL',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
  'ConnectionRefused', // Bun
]);

/**
 * The platform fetch as http.* uses it in production: the runtime's own `fetch`, with no timeout of its own,
 * so a request ends only when the workflow's `timeout` (docs/api-resources.md#limits: up to 1800 s, TimeoutError) passes or
 * the execution is cancelled.
 *
 * Node's fetch (undici) would otherwise cut a request off after 300 s without response headers, or 300 s
 * without a body chunk (its `headersTimeout` and `bodyTimeout`), with a ConnectionError. Node does not export
 * undici's `Agent`, so the first call takes the class of the global dispatcher Node's fetch installs, and
 * makes one with both timeouts off for http.* (the process-wide dispatcher is left as it is). Bun is asked
 * with its `timeout: false` option; Deno's fetch has no such timeout.
 *
 * A GET or HEAD with a body, which the runtime's fetch refuses, goes through node:http (platform-fetch.ts).
 */
export const platformFetch: typeof fetch = withGetBodies(async (input, init) => {
  const dispatcher = await (untimedDispatcher ??= makeUntimedDispatcher());
  return globalThis.fetch(input, { ...init, ...(dispatcher ? { dispatcher } : {}), timeout: false } as RequestInit);
});

let untimedDispatcher: Promise<object | undefined> | undefined;

/** The undici dispatcher without headers and body timeouts, or undefined where fetch is not undici's. */
async function makeUntimedDispatcher(): Promise<object | undefined> {
  const key = Symbol.for('undici.globalDispatcher.1');
  const g = globalThis as unknown as Record<symbol, unknown>;
  if (g[key] === undefined && typeof process !== 'undefined' && process.versions?.node && !('Bun' in globalThis) && !('Deno' in globalThis)) {
    // Node loads undici, and with it the global dispatcher, on the first fetch; a data: URL needs no network.
    await (await globalThis.fetch('data:,')).arrayBuffer();
  }
  const global = g[key] as { constructor?: new (options: object) => object } | undefined;
  if (!global || typeof global.constructor !== 'function' || global.constructor.name !== 'Agent') return undefined;
  return new global.constructor({ headersTimeout: 0, bodyTimeout: 0 });
}

/** Why a request was aborted from inside: the timeout. */
class RequestTimeout extends Error {}

/** The arguments of an http.* call by name (`method` only for http.request). */
export interface RequestArgs {
  readonly url: Value | undefined;
  readonly method: Value | undefined;
  readonly headers: Value | undefined;
  readonly body: Value | undefined;
  readonly query: Value | undefined;
  readonly timeout: Value | undefined;
}

/**
 * Performs one request and returns the response map, or raises the errors of the module header.
 * @internal Exported for tests; workflows call it through the table below.
 */
export async function httpRequest(fnName: string, a: RequestArgs, ctx: CallContext): Promise<Value> {
  const { method, url, headers, body, timeoutMs } = prepareRequest(fnName, a, ctx.compat);

  const signal = ctx.signal;
  if (signal.aborted) throw signal.reason;
  const ctrl = new AbortController();
  const onAbort = (): void => ctrl.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = new Cancellation();
  (ctx.clock.deadline ?? ctx.clock.sleep).call(ctx.clock, timeoutMs, timer.signal).then(
    () => ctrl.abort(new RequestTimeout()),
    () => {}, // the request ended first
  );
  const fail = (e: unknown, connected: boolean): never => {
    if (signal.aborted) throw signal.reason;
    if (ctrl.signal.reason instanceof RequestTimeout) throw timeoutError(fnName, method, url, timeoutMs);
    throw connectionError(fnName, method, url, e, connected);
  };
  try {
    let res: Response;
    try {
      const f = ctx.fetch;
      res = await f(url, { method, headers: headers.entries(), ...(body !== undefined ? { body: body as BodyInit } : {}), signal: ctrl.signal, redirect: 'follow' });
    } catch (e) {
      // An injected fetch (http mocks) may fail the call with the error the workflow is to see.
      if (e instanceof WorkflowError && !signal.aborted && !(ctrl.signal.reason instanceof RequestTimeout)) throw e;
      return fail(e, false);
    }
    let raw: Uint8Array;
    try {
      raw = await readLimited(fnName, res);
    } catch (e) {
      if (e instanceof WorkflowError) throw e;
      return fail(e, true);
    }
    return responseValue(res.status, res.headers, raw);
  } finally {
    signal.removeEventListener('abort', onAbort);
    // A reason given: abort() without one builds a DOMException with a stack trace, per request.
    timer.abort(REQUEST_ENDED);
  }
}

/** The reason the request's timeout timer is cancelled with when the request ends first. */
const REQUEST_ENDED = Symbol('the request ended');

/** A request as http.* sends it: method, full URL, headers, the encoded body, the timeout. */
export interface PreparedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: HeaderFields;
  readonly body: Uint8Array | string | undefined;
  readonly timeoutMs: number;
}

/**
 * Checks and encodes an http.* call's arguments (module header: Request). Used by {@link httpRequest} and by
 * http mocks, which answer the same request without sending it.
 * @throws WorkflowError TypeError or ValueError for a bad argument; ResourceLimitError for a body over the value
 *   limits (src/lang/size-checks.ts).
 */
export function prepareRequest(fnName: string, a: RequestArgs, compat?: Compat): PreparedRequest {
  const method = str(fnName, 'method', a.method).toUpperCase();
  const url = buildUrl(fnName, str(fnName, 'url', a.url), a.query);
  const headers = buildHeaders(fnName, a.headers);
  // Sent for every method, GET included, as the argument table of docs/standard-library.md#http says (the production fetch,
  // platformFetch, sends a GET or HEAD body through node:http, since the platform fetch refuses one).
  // The body is encoded and recorded: held to the value limits (256 KB strings, 512 KB otherwise).
  const body = encodeBody(fnName, a.body === undefined ? undefined : checkValue(`${fnName} body`, a.body), headers);
  const timeoutMs = timeoutOf(fnName, a.timeout, compat);
  return { method, url, headers, body, timeoutMs };
}

/**
 * The value of a response (module header: Response): `{code, headers, body}` for a 2xx, else the HttpError
 * with `code`, `headers` and `body`. Used by {@link httpRequest} and by http mocks.
 * @throws WorkflowError HttpError for a status outside 200..299.
 */
export function responseValue(status: number, headers: HeaderReader, raw: Uint8Array): Value {
  const respHeaders: WMap = new Map();
  headers.forEach((v, k) => respHeaders.set(k.toLowerCase(), v));
  const respBody = decodeBody(raw, headers.get('content-type'));
  if (status < 200 || status > 299) {
    throw WorkflowError.of('HttpError', `HTTP server responded with error code ${status}`, {
      code: status,
      headers: respHeaders,
      body: respBody,
    });
  }
  return new Map<string, Value>([
    ['code', BigInt(status)],
    ['headers', respHeaders],
    ['body', respBody],
  ]);
}

/** The TimeoutError of a request whose `timeout` passed first. */
export function timeoutError(fnName: string, method: string, url: string, timeoutMs: number): WorkflowError {
  return WorkflowError.of('TimeoutError', `${fnName}: ${method} ${url} timed out after ${timeoutMs / 1000} seconds`);
}

function buildUrl(fn: string, text: string, query: Value | undefined): string {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw valueError(`${fn}: url '${text}' is not a valid URL`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') throw valueError(`${fn}: url must be http or https, got '${text}'`);
  if (query !== undefined && query !== null) {
    if (!isMap(query)) throw typeError(`${fn}: query must be a map, got ${typeName(query)}`);
    for (const [k, v] of query) {
      for (const item of isList(v) ? v : [v]) u.searchParams.append(k, scalarText(fn, `query.${k}`, item));
    }
  }
  return u.toString();
}

function scalarText(fn: string, what: string, v: Value): string {
  switch (typeof v) {
    case 'string':
      return v;
    case 'bigint':
    case 'boolean':
      return String(v);
    case 'number':
      return toJson(v);
    default:
      throw typeError(`${fn}: ${what} must be a string, number or bool, got ${typeName(v)}`);
  }
}

function buildHeaders(fn: string, h: Value | undefined): HeaderFields {
  const out = new HeaderFields();
  if (h === undefined || h === null) return out;
  if (!isMap(h)) throw typeError(`${fn}: headers must be a map, got ${typeName(h)}`);
  for (const [k, v] of h) {
    const text = scalarText(fn, `headers.${k}`, v);
    try {
      out.set(k, text);
    } catch {
      throw valueError(`${fn}: invalid header ${JSON.stringify(k)}: ${JSON.stringify(text)}`);
    }
  }
  return out;
}

function encodeBody(fn: string, body: Value | undefined, headers: HeaderFields): Uint8Array | string | undefined {
  if (body === undefined || body === null) return undefined;
  if (isBytes(body)) return body;
  const ct = headers.get('content-type');
  if (ct === null) {
    headers.set('content-type', JSON_CONTENT_TYPE);
    return jsonText(fn, body);
  }
  const type = ct.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/x-www-form-urlencoded' && isMap(body)) {
    const form = new URLSearchParams();
    for (const [k, v] of body) form.append(k, scalarText(fn, `body.${k}`, v));
    return form.toString();
  }
  if (typeof body === 'string') return body;
  return jsonText(fn, body);
}

function jsonText(fn: string, v: Value): string {
  try {
    return toJson(v);
  } catch (e) {
    if (e instanceof JsonEncodeError) throw valueError(`${fn}: body cannot be JSON-encoded: ${e.message}`);
    throw e;
  }
}

function timeoutOf(fn: string, t: Value | undefined, compat?: Compat): number {
  if (t === undefined || t === null) return (compat === 'google' ? GOOGLE_DEFAULT_HTTP_TIMEOUT_SEC : MAX_HTTP_TIMEOUT_SEC) * 1000;
  const sec = Number(num(fn, 'timeout', t));
  if (!(sec > 0) || sec > MAX_HTTP_TIMEOUT_SEC) {
    throw valueError(`${fn}: timeout must be more than 0 and at most ${MAX_HTTP_TIMEOUT_SEC} seconds, got ${sec}`);
  }
  return sec * 1000;
}

async function readLimited(fn: string, res: Response): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array(0);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > MAX_HTTP_RESPONSE_BYTES) {
      await reader.cancel().catch(() => {});
      throw WorkflowError.of(
        'ResourceLimitError',
        `${fn}: the response body is over the limit of ${MAX_HTTP_RESPONSE_BYTES} bytes (2 MB)`,
      );
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let off = 0;
  for (const c of chunks) {
    out.set(c, off);
    off += c.length;
  }
  return out;
}

function decodeBody(raw: Uint8Array, contentType: string | null): Value {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || type.endsWith('+json')) {
    if (raw.length === 0) return null;
    const text = new TextDecoder().decode(raw);
    try {
      return parseJson(text);
    } catch {
      return text; // not JSON after all: keep the text rather than fail the call
    }
  }
  if (type.startsWith('text/')) return new TextDecoder().decode(raw);
  return raw.length === 0 ? null : raw;
}

function connectionError(fn: string, method: string, url: string, e: unknown, connected: boolean): WorkflowError {
  const code = errorCode(e);
  const detail = code ?? (e instanceof Error ? (e.cause instanceof Error ? e.cause.message : e.message) : String(e));
  if (!connected && (code === undefined || NOT_CONNECTED_CODES.has(code))) {
    return WorkflowError.of('ConnectionFailedError', `${fn}: could not connect for ${method} ${url}: ${detail}`);
  }
  return WorkflowError.of('ConnectionError', `${fn}: the connection broke during ${method} ${url}: ${detail}`);
}

/** The platform's error code (`ECONNREFUSED`, `UND_ERR_SOCKET`...) from an error or its causes. */
function errorCode(e: unknown): string | undefined {
  for (let x = e, i = 0; x instanceof Error && i < 5; x = x.cause, i++) {
    const c = (x as { code?: unknown }).code;
    if (typeof c === 'string') return c;
    const errs = (x as { errors?: unknown }).errors; // AggregateError from happy-eyeballs connects
    if (Array.isArray(errs) && errs.length > 0) return errorCode(errs[0]);
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// The table

const COMMON: readonly ParamSpec[] = [
  { name: 'headers', optional: true },
  { name: 'body', optional: true },
  { name: 'query', optional: true },
  { name: 'auth', optional: true },
  { name: 'timeout', optional: true },
];

function verb(method: string): StdlibFunction {
  const name = `http.${method.toLowerCase()}`;
  return {
    name,
    params: [{ name: 'url' }, ...COMMON],
    blocking: true,
    impl: ([url, headers, body, query, , timeout], ctx) =>
      httpRequest(name, { url, method, headers, body, query, timeout }, ctx),
  };
}

/** The `http` rows of the standard-library table: the five verbs and http.request, all blocking. */
export const functions: StdlibFunction[] = [
  verb('GET'),
  verb('POST'),
  verb('PUT'),
  verb('PATCH'),
  verb('DELETE'),
  {
    name: 'http.request',
    params: [{ name: 'url' }, { name: 'method' }, ...COMMON],
    blocking: true,
    impl: ([url, method, headers, body, query, , timeout], ctx) =>
      httpRequest('http.request', { url, method, headers, body, query, timeout }, ctx),
  },
];
