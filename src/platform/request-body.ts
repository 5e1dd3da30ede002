/**
 * The one reader of HTTP request bodies on node:http (the REST API, Google's REST transport, callbacks, the
 * control API and the web UI's forms), with the one size limit of a request.
 */
import type { IncomingMessage } from 'node:http';

/**
 * Largest request accepted, in bytes: a REST body, a gRPC or Connect message, a mock file (a 128 KB source,
 * JSON-escaped, fits many times over). 4 MiB, gRPC's own default message limit
 * (https://grpc.github.io/grpc/core/group__grpc__arg__keys.html, GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH).
 */
export const MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** A request body was larger than the limit it was read with; the API answers 400 INVALID_ARGUMENT. */
export class RequestTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`the request body is larger than ${maxBytes} bytes`);
    this.name = 'RequestTooLarge';
  }
}

/**
 * A client closed its connection before its request body was complete (it gave up, or crashed): there is
 * no one to answer, and nothing went wrong here, so it is logged as one line, not as an internal error.
 */
export class ClientGone extends Error {}

/**
 * Reads a request body up to `maxBytes` (default {@link MAX_REQUEST_BYTES}). Rejects with
 * {@link RequestTooLarge} past the limit (the rest of the body is then ignored), with {@link ClientGone} when
 * the client goes away mid-body.
 */
export function readBody(req: IncomingMessage, maxBytes: number = MAX_REQUEST_BYTES): Promise<Uint8Array> {
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
        reject(new RequestTooLarge(maxBytes));
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
