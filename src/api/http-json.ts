/**
 * JSON over node:http for the REST port (docs/rest-api.md#endpoints): JSON object bodies with a null prototype (so
 * `__proto__` is just a key), path segments, and answers in JSON, errors in Google's JSON error shape
 * `{"error": {"code", "message", "status"}}` (https://cloud.google.com/apis/design/errors). Used by the REST
 * routes (rest.ts), the callback endpoint (callback-handler.ts) and the control API (control.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../service/errors.ts';
import { ClientGone, readBody } from '../platform/request-body.ts';
import { writeError } from '../platform/std-streams.ts';

// ---------------------------------------------------------------------------------------------------------
// Requests (bodies are read by src/platform/request-body.ts).

/** Reads and drops a request body (up to its limit), so the connection can be reused. */
export function drain(req: IncomingMessage): Promise<void> {
  return readBody(req).then(() => undefined);
}

/**
 * Reads a JSON object body. An empty body is `{}`. Not JSON, or JSON that is not an object: 400.
 * The result has a null prototype, so `__proto__` in a body is just a (then ignored) key.
 */
export async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const bytes = await readBody(req);
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
/** The header every answer of the REST port carries (docs/cli.md#safe-by-default). */
export const NOSNIFF = 'x-content-type-options';
/** JSON text of resources by identity: resources are frozen and replaced on change, so this never goes stale. */
const jsonCache = new WeakMap<object, string>();

/**
 * Answers with a JSON body and `X-Content-Type-Options: nosniff` (given here with the other headers rather
 * than set ahead: node:http then writes the header block without merging a second set of headers). Resources
 * (frozen objects) are serialized once. Returns undefined (answered).
 */
export function sendJson(res: ServerResponse, status: number, body: unknown): undefined {
  return sendJsonText(res, status, jsonText(body));
}

/** Answers with `text`, JSON already serialized (or its UTF-8 bytes), as {@link sendJson} does. Returns undefined (answered). */
export function sendJsonText(res: ServerResponse, status: number, text: string | Uint8Array): undefined {
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': typeof text === 'string' ? Buffer.byteLength(text) : text.length, [NOSNIFF]: 'nosniff' });
  res.end(text);
  return undefined;
}

/** `JSON.stringify(value)`, cached by identity for a frozen object (a resource: replaced, never changed). */
export function jsonText(value: unknown): string {
  if (value === null || typeof value !== 'object' || !Object.isFrozen(value)) return JSON.stringify(value);
  let cached = jsonCache.get(value);
  if (cached === undefined) jsonCache.set(value, (cached = JSON.stringify(value)));
  return cached;
}

/**
 * Answers 200 with one page of a list method, `{"<key>": [<items>], "nextPageToken": "<token>"}` (the token
 * only when not empty): the same bytes as {@link sendJson} of that object, made from each item's own JSON
 * text (`itemJson`, {@link jsonText} by default, so a resource listed again is not serialized again: Google's
 * list methods answer up to 100 full executions a page). Returns undefined (answered).
 */
export function sendJsonPage<T>(res: ServerResponse, key: string, items: readonly T[], nextPageToken: string | undefined, itemJson: (item: T) => string = jsonText): undefined {
  return sendJsonText(res, 200, lastPage.bytes(key, items, nextPageToken ?? '', itemJson as (item: unknown) => string));
}

/**
 * The last page answered, kept as its UTF-8 bytes while a client polls the same page: the same key, token,
 * serializer and items (compared by identity, and all frozen when the page was made, so none has changed since)
 * give the same bytes without serializing, joining or encoding anything again (a list of 100 executions under
 * wrk: 8,700-10,700 -> 11,700-17,700 requests/s).
 */
class PageText {
  #key = '';
  #token = '';
  #items: readonly unknown[] = [];
  #frozen = false;
  #itemJson: ((item: unknown) => string) | undefined;
  #bytes: Uint8Array = new Uint8Array(0);

  /** The page's JSON as UTF-8 bytes: the same bytes again while the page is unchanged (class header). */
  bytes(key: string, items: readonly unknown[], token: string, itemJson: (item: unknown) => string): Uint8Array {
    if (this.#frozen && itemJson === this.#itemJson && key === this.#key && token === this.#token && sameItems(items, this.#items)) return this.#bytes;
    const texts = new Array<string>(items.length);
    let frozen = true;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      texts[i] = itemJson(item);
      if (frozen && !(item !== null && typeof item === 'object' && Object.isFrozen(item))) frozen = false;
    }
    const tail = token ? `],"nextPageToken":${JSON.stringify(token)}}` : ']}';
    this.#key = key;
    this.#token = token;
    this.#items = items.slice();
    this.#frozen = frozen;
    this.#itemJson = itemJson;
    this.#bytes = Buffer.from(`{${JSON.stringify(key)}:[` + texts.join(',') + tail, 'utf8');
    return this.#bytes;
  }
}

/** True when `a` and `b` hold the same items, by identity. */
function sameItems(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const lastPage = new PageText();

/**
 * Answers with Google's error JSON; anything that is not an ApiError is a 500 INTERNAL (and logged with its
 * stack). A client gone mid-body gets no answer and one line on stderr.
 */
export function sendError(res: ServerResponse, e: unknown): void {
  if (e instanceof ClientGone) {
    writeError(`workflows-emulator: ${e.message}\n`);
    res.destroy();
    return;
  }
  const err = ApiError.from(e);
  if (err.code === 'INTERNAL' && err !== e) writeError(`workflows-emulator: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
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
