/**
 * JSON over node:http for the REST port (spec "Endpoints"): reading request bodies within a size limit
 * (a client gone mid-body settles as {@link ClientGone}), JSON object bodies with a null prototype (so
 * `__proto__` is just a key), path segments, and answers in JSON, errors in Google's JSON error shape
 * `{"error": {"code", "message", "status"}}` (https://cloud.google.com/apis/design/errors). Used by the REST
 * routes (rest.ts), the callback endpoint (callback-handler.ts) and the control API (control.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../service/errors.ts';

/** Largest request body accepted on the management API, in bytes (a 128 KB source, JSON-escaped, fits). */
export const MAX_API_BODY_BYTES = 4 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------------------
// Requests.

/**
 * A client closed its connection before its request body was complete (it gave up, or crashed): there is
 * no one to answer, and nothing went wrong here, so it is logged as one line, not as an internal error.
 */
class ClientGone extends Error {}

/**
 * Reads a request body up to `maxBytes`; a larger one is a 400 (INVALID_ARGUMENT). Rejects with
 * {@link ClientGone} when the client goes away mid-body.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > maxBytes) {
        failed = true;
        chunks.length = 0;
        reject(ApiError.invalidArgument(`the request body is larger than ${maxBytes} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    // A client that goes away mid-body ('error' with "aborted", then 'close'): settle, so nothing waits forever.
    const gone = (): void => {
      if (failed) return;
      failed = true;
      chunks.length = 0;
      reject(new ClientGone(`${req.method} ${(req.url ?? '/').split('?')[0]}: the client closed the connection before its request body was complete`));
    };
    req.on('error', gone);
    req.on('close', () => {
      if (!req.complete) gone();
    });
  });
}

/** Reads and drops a request body (up to MAX_API_BODY_BYTES), so the connection can be reused. */
export function drain(req: IncomingMessage): Promise<void> {
  return readBody(req, MAX_API_BODY_BYTES).then(() => undefined);
}

/**
 * Reads a JSON object body. An empty body is `{}`. Not JSON, or JSON that is not an object: 400.
 * The result has a null prototype, so `__proto__` in a body is just a (then ignored) key.
 */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const bytes = await readBody(req, MAX_API_BODY_BYTES);
  if (bytes.length === 0) return Object.create(null) as Record<string, unknown>;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.trim() === '') return Object.create(null) as Record<string, unknown>;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw ApiError.invalidArgument(`Invalid JSON payload received: ${(e as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw ApiError.invalidArgument('Invalid JSON payload received: the request body must be a JSON object');
  }
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(parsed)) out[k] = (parsed as Record<string, unknown>)[k];
  return out;
}

/** A path segment, percent-decoded. @throws ApiError INVALID_ARGUMENT for malformed percent-encoding. */
export function decodeSegment(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    throw ApiError.invalidArgument(`malformed percent-encoding in the path segment "${s}"`);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Responses.

/** The content type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8';
/** The header every answer of the REST port carries (README "Safe by default"). */
export const NOSNIFF = 'x-content-type-options';
/** JSON text of resources by identity: resources are frozen and replaced on change, so this never goes stale. */
const jsonCache = new WeakMap<object, string>();

/**
 * Answers with a JSON body and `X-Content-Type-Options: nosniff` (given here with the other headers rather
 * than set ahead: node:http then writes the header block without merging a second set of headers). Resources
 * (frozen objects) are serialized once. Returns undefined (answered).
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): undefined {
  let text: string;
  if (body !== null && typeof body === 'object' && Object.isFrozen(body)) {
    let cached = jsonCache.get(body);
    if (cached === undefined) jsonCache.set(body, (cached = JSON.stringify(body)));
    text = cached;
  } else text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text), [NOSNIFF]: 'nosniff' });
  res.end(text);
  return undefined;
}

/**
 * Answers with Google's error JSON; anything that is not an ApiError is a 500 INTERNAL (and logged with its
 * stack). A client gone mid-body gets no answer and one line on stderr.
 */
export function sendError(res: ServerResponse, e: unknown): void {
  if (e instanceof ClientGone) {
    process.stderr.write(`workflows-emulator: ${e.message}\n`);
    res.destroy();
    return;
  }
  let err: ApiError;
  if (e instanceof ApiError) err = e;
  else {
    process.stderr.write(`workflows-emulator: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    err = new ApiError('INTERNAL', `internal error: ${(e as Error)?.message ?? String(e)}`);
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(err.toJSON());
  const headers: Record<string, string | number> = { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text), [NOSNIFF]: 'nosniff' };
  // A body we stopped reading cannot be left on a keep-alive connection.
  if ((res as { req?: IncomingMessage }).req?.complete === false) headers['connection'] = 'close';
  res.writeHead(err.httpStatus, headers);
  res.end(text);
}
