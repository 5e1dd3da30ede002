/**
 * The one request of http.* the platform fetch refuses: a GET or HEAD with a body. The spec's
 * http.* argument table gives every call a `body`, and Google's service sends the body of `http.get` (and of
 * `http.request` with `method: GET`); the platform fetch throws "Request with GET/HEAD method cannot have
 * body", so http.ts's production fetch sends a GET or HEAD with a body through node:http/node:https instead
 * (also in Deno and Bun, which provide both modules; node:http sets no response timeout of its own). The
 * answer is a standard {@link Response}, so callers see one interface.
 */
import type { IncomingMessage } from 'node:http';
import { nodeHttp, nodeHttps, nodeStream } from '../platform/builtins.ts';

const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);
const MAX_REDIRECTS = 20;

/**
 * Wraps a fetch so that a GET or HEAD with a body goes through node:http(s) with the same headers, signal and
 * redirect following (`redirect: 'follow'`: up to 20; 303 and the 301/302 of a GET drop the body and go on
 * through `base`, as fetch does); every other request goes to `base`. Rejects as fetch does: with the
 * signal's reason when aborted, a TypeError when the connection fails.
 */
export function withGetBodies(base: typeof fetch): typeof fetch {
  const wrapped = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = init?.body;
    if (body === undefined || body === null || (method !== 'GET' && method !== 'HEAD')) return base(input, init);
    if (typeof body !== 'string' && !(body instanceof Uint8Array)) {
      return Promise.reject(new TypeError('a GET or HEAD body must be a string or bytes'));
    }
    const url = input instanceof Request ? input.url : String(input);
    return sendWithBody(new URL(url), method, new Headers(init?.headers), body, init?.signal ?? undefined, 0, base);
  };
  return wrapped as typeof fetch;
}

function sendWithBody(
  url: URL,
  method: string,
  headers: Headers,
  body: string | Uint8Array,
  signal: AbortSignal | undefined,
  redirects: number,
  base: typeof fetch,
): Promise<Response> {
  return new Promise<Response>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body);
    const outgoing: Record<string, string> = {};
    headers.forEach((v, k) => (outgoing[k] = v));
    outgoing['content-length'] = String(bytes.length);
    const send = url.protocol === 'https:' ? nodeHttps().request : nodeHttp().request;
    const req = send(url, { method, headers: outgoing });
    const onAbort = (): void => {
      req.destroy();
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = (): void => signal?.removeEventListener('abort', onAbort);
    req.on('error', (e) => {
      done();
      reject(new TypeError('fetch failed', { cause: e }));
    });
    req.on('response', (res: IncomingMessage) => {
      const status = res.statusCode ?? 0;
      const location = res.headers.location;
      if (status >= 300 && status < 400 && status !== 304 && location !== undefined) {
        res.resume();
        done();
        if (redirects >= MAX_REDIRECTS) return reject(new TypeError('fetch failed: too many redirects'));
        const next = new URL(location, url);
        // fetch keeps method and body only for 307 and 308; otherwise the next request is a GET without one.
        if (status === 307 || status === 308) {
          return resolve(sendWithBody(next, method, headers, body, signal, redirects + 1, base));
        }
        return resolve(base(next, { method: 'GET', headers, ...(signal ? { signal } : {}) }));
      }
      const responseHeaders = new Headers();
      for (const [k, v] of Object.entries(res.headers)) {
        if (v === undefined) continue;
        for (const item of Array.isArray(v) ? v : [v]) responseHeaders.append(k, item);
      }
      res.on('end', done);
      res.on('error', done);
      const stream =
        method === 'HEAD' || NULL_BODY_STATUSES.has(status) ? null : (nodeStream().Readable.toWeb(res) as ReadableStream<Uint8Array>);
      if (stream === null) res.resume();
      resolve(new Response(stream, { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
    });
    req.end(bytes);
  });
}
