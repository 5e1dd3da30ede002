/**
 * Runs the gRPC API's RPCs on node:http2 server streams, without Node's HTTP/1-style compatibility layer
 * (Http2ServerRequest/Http2ServerResponse). Every request goes to the Connect router's universal handler of
 * its RPC (grpc.ts), which negotiates gRPC, gRPC-Web or Connect from the content type, reads and limits the
 * body and produces the status, headers, body and trailers written here — except the common case, a unary
 * call in plain gRPC (`application/grpc` or `application/grpc+proto`, no compression, one message), which
 * {@link serveUnaryGrpc} answers directly with the same service implementation: Connect's per-call pipeline
 * (async iterables, linked abort signals, an AbortError per call) cost about 30 times the RPC itself (docs/architecture.md:
 * GetExecution profile; docs/grpc.md#googles-client-libraries). Anything else that fast
 * path meets (compression, a malformed or oversized envelope, no message) is handed to Connect's handler
 * with the bytes already read, so Connect decides every edge case.
 */
import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { fromBinary, toBinary, type DescMethodUnary, type DescMessage } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import type { UniversalHandler, UniversalServerRequest, UniversalServerResponse } from '@connectrpc/connect/protocol';
import { nodeHttp2 } from '../platform/builtins.ts';

/** What happens to each response header and trailer before it is sent (e.g. re-encoding `grpc-message`). */
export type HeaderRewrite = (name: string, value: string) => string;

/** One RPC: Connect's universal handler, and for unary RPCs the implementation the fast path calls. */
export interface GrpcRoute {
  readonly handler: UniversalHandler;
  readonly unary?: {
    readonly method: DescMethodUnary;
    /** The implementation registered on the router; rejects with anything {@link GrpcRoute.toError} maps. */
    readonly call: (request: never) => Promise<unknown>;
  };
}

/** How the stream adapter answers: header rewriting, error mapping, and the request message limit. */
export interface StreamOptions {
  /** Sees every response header and trailer (e.g. to re-encode `grpc-message`). */
  readonly rewrite: HeaderRewrite;
  /** The ConnectError for an error the implementation threw (the router's error interceptor does the same). */
  readonly toError: (error: unknown) => ConnectError;
  /** The router's readMaxBytes: a larger request message goes to Connect, which refuses it. */
  readonly readMaxBytes: number;
}

/**
 * Serves one HTTP/2 stream with the route its `:path` names (the query is ignored when matching); 404 with
 * no body when none does. A stream the client resets (RST_STREAM, e.g. a cancelled call) or whose
 * connection drops aborts the handler's signal with the matching Connect code (CANCEL: Canceled); the
 * response is then dropped. Never throws: a failure of the handler itself resets the stream with
 * INTERNAL_ERROR.
 */
export function serveStream(routes: ReadonlyMap<string, GrpcRoute>, options: StreamOptions, stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
  const path = headers[':path'] ?? '';
  const query = path.indexOf('?');
  const route = routes.get(query < 0 ? path : path.slice(0, query));
  if (!route) {
    stream.respond({ ':status': 404 }, { endStream: true });
    return;
  }
  stream.on('error', () => {}); // 'close' reports it; an unheard 'error' would crash the process
  if (route.unary && isPlainGrpc(headers)) serveUnaryGrpc(route, options, stream, headers);
  else serveUniversal(route.handler, options.rewrite, stream, headers, []);
}

/**
 * A POST in gRPC's binary form without compression, and without a `grpc-timeout` or with a well-formed one:
 * what {@link serveUnaryGrpc} may answer. A malformed timeout goes to Connect, which refuses it with
 * INVALID_ARGUMENT as the gRPC protocol asks (https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md:
 * `Timeout → "grpc-timeout" TimeoutValue TimeoutUnit`, at most 8 digits); a well-formed one bounds nothing the
 * fast path waits for (a unary call of this API answers without waiting), so it is not enforced there.
 */
function isPlainGrpc(headers: IncomingHttpHeaders): boolean {
  const type = headers['content-type'];
  const encoding = headers['grpc-encoding'];
  const timeout = headers['grpc-timeout'];
  return (
    headers[':method'] === 'POST' &&
    (type === 'application/grpc' || type === 'application/grpc+proto') &&
    (encoding === undefined || encoding === 'identity') &&
    (timeout === undefined || (typeof timeout === 'string' && GRPC_TIMEOUT.test(timeout)))
  );
}

/** A well-formed `grpc-timeout`: 1 to 8 digits and a unit (hours, minutes, seconds, milli-, micro-, nanoseconds). */
const GRPC_TIMEOUT = /^\d{1,8}[HMSmun]$/;

/**
 * The unary fast path: reads the whole request, and when it is exactly one uncompressed message within the
 * limit, decodes it, calls the implementation and answers as Connect's gRPC handler does (status 200,
 * `content-type: application/grpc+proto`, the message, trailers `grpc-status` and `grpc-message`). Any
 * other body (and a message that does not decode) goes to Connect's handler, replayed from the bytes read.
 */
function serveUnaryGrpc(route: GrpcRoute, options: StreamOptions, stream: ServerHttp2Stream, headers: IncomingHttpHeaders): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const onData = (chunk: Buffer): void => {
    chunks.push(chunk);
    size += chunk.length;
    // Over the limit: stop buffering, Connect reads the rest and refuses the message.
    if (size > options.readMaxBytes + 5) handOver();
  };
  const handOver = (): void => {
    stream.pause();
    stream.off('data', onData);
    stream.off('end', onEnd);
    serveUniversal(route.handler, options.rewrite, stream, headers, chunks);
  };
  const onEnd = (): void => {
    stream.off('data', onData);
    const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
    const input = size >= 5 && body[0] === 0 && body.readUInt32BE(1) === size - 5 ? decode(route.unary!.method.input, body.subarray(5)) : undefined;
    if (input === undefined) return serveUniversal(route.handler, options.rewrite, stream, headers, chunks);
    let output: Promise<unknown>;
    try {
      output = route.unary!.call(input as never);
    } catch (error) {
      output = Promise.reject(error);
    }
    output.then(
      (message) => respondGrpc(stream, envelopeOf(route.unary!.method.output, message as object), OK_TRAILERS),
      (error: unknown) => {
        const e = options.toError(error);
        respondGrpc(stream, undefined, { 'grpc-status': String(e.code), 'grpc-message': options.rewrite('grpc-message', encodeURIComponent(e.rawMessage)) });
      },
    );
  };
  stream.on('data', onData);
  stream.once('end', onEnd);
}

/** The trailers of a successful call (node:http2 copies them; never changed). */
const OK_TRAILERS: OutgoingHttpHeaders = Object.freeze({ 'grpc-status': '0' });

/**
 * Envelopes of frozen messages by identity: the service hands out one frozen message per execution resource
 * (grpc-services.ts `fullMessage`), which a poll reads again and again; like REST's JSON text of a resource
 * (http-json.ts), it is encoded once. A frozen message never changes, so its envelope is never stale.
 */
const envelopes = new WeakMap<object, Buffer>();

/** `message` of `schema` in gRPC's length-prefixed envelope (uncompressed). */
function envelopeOf(schema: DescMessage, message: object): Buffer {
  const frozen = Object.isFrozen(message);
  if (frozen) {
    const cached = envelopes.get(message);
    if (cached) return cached;
  }
  const bytes = toBinary(schema, message as never);
  const envelope = Buffer.allocUnsafe(5 + bytes.length);
  envelope[0] = 0;
  envelope.writeUInt32BE(bytes.length, 1);
  envelope.set(bytes, 5);
  if (frozen) envelopes.set(message, envelope);
  return envelope;
}

/** `bytes` decoded as `schema`, or undefined when they are not a valid message of it. */
function decode(schema: DescMessage, bytes: Uint8Array): unknown {
  try {
    return fromBinary(schema, bytes);
  } catch {
    return undefined;
  }
}

/** A gRPC response: headers, the message envelope (if any), then `trailers`; nothing once the client reset the stream. */
function respondGrpc(stream: ServerHttp2Stream, envelope: Buffer | undefined, trailers: OutgoingHttpHeaders): void {
  if (stream.destroyed || stream.closed) return;
  stream.respond({ ':status': 200, 'content-type': 'application/grpc+proto' }, { waitForTrailers: true });
  stream.once('wantTrailers', () => stream.sendTrailers(trailers));
  if (envelope) stream.end(envelope);
  else stream.end();
}

/**
 * Serves the stream with Connect's universal handler; `read` holds request body chunks already taken from
 * the stream (the fast path's), which the handler reads first.
 */
function serveUniversal(handler: UniversalHandler, rewrite: HeaderRewrite, stream: ServerHttp2Stream, headers: IncomingHttpHeaders, read: Buffer[]): void {
  const path = headers[':path'] ?? '';
  const abort = new AbortController();
  let finished = false;
  stream.once('close', () => {
    if (!finished) abort.abort(abortReason(stream.rstCode));
  });
  const request: UniversalServerRequest = {
    httpVersion: '2.0',
    method: headers[':method'] ?? '',
    url: `http://${headers[':authority'] ?? 'localhost'}${path}`,
    header: webHeaders(headers),
    body: readStream(stream, read),
    signal: abort.signal,
  };
  handler(request)
    .then((response) => writeResponse(stream, response, rewrite, abort.signal))
    .then(
      () => {
        finished = true;
      },
      () => {
        finished = true;
        if (!stream.destroyed) stream.close(nodeHttp2().constants.NGHTTP2_INTERNAL_ERROR);
      },
    );
}

/** The Connect error for a stream closed with `rstCode` before its response was written. */
function abortReason(rstCode: number): ConnectError {
  const { NGHTTP2_CANCEL, NGHTTP2_NO_ERROR, NGHTTP2_REFUSED_STREAM } = nodeHttp2().constants;
  const code = rstCode === NGHTTP2_CANCEL || rstCode === NGHTTP2_NO_ERROR ? Code.Canceled : rstCode === NGHTTP2_REFUSED_STREAM ? Code.Unavailable : Code.Internal;
  return new ConnectError(`http/2 stream closed (code ${rstCode}) before the response was written`, code);
}

/** The request headers without HTTP/2 pseudo-headers, as a fetch Headers (what universal handlers read). */
function webHeaders(headers: IncomingHttpHeaders): Headers {
  const out = new Headers();
  for (const name in headers) {
    if (name.charCodeAt(0) === 58 /* ':' */) continue;
    const value = headers[name];
    if (typeof value === 'string') out.append(name, value);
    else if (Array.isArray(value)) for (const v of value) out.append(name, v);
  }
  return out;
}

/**
 * The request body as an async iterable of chunks, read with back-pressure: the stream is paused while a
 * chunk waits to be taken. Rejects when the stream errors or closes before its end (a reset).
 */
async function* readStream(stream: ServerHttp2Stream, read: Uint8Array[]): AsyncGenerator<Uint8Array> {
  const chunks: Uint8Array[] = [...read];
  if (stream.readableEnded) {
    yield* chunks;
    return;
  }
  let ended = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const onData = (chunk: Uint8Array): void => {
    chunks.push(chunk);
    stream.pause();
    notify();
  };
  const onEnd = (): void => {
    ended = true;
    notify();
  };
  const onClose = (): void => {
    if (!ended) failure ??= new ConnectError('the request stream closed before its end', Code.Canceled);
    notify();
  };
  stream.on('data', onData);
  stream.once('end', onEnd);
  stream.once('close', onClose);
  try {
    for (;;) {
      const chunk = chunks.shift();
      if (chunk) {
        yield chunk;
        continue;
      }
      if (ended) return;
      if (failure) throw failure;
      stream.resume();
      await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stream.off('data', onData);
    stream.off('end', onEnd);
    stream.off('close', onClose);
  }
}

/** Response (or trailer) headers as node:http2 wants them, each value through `rewrite`. */
function nodeHeaders(headers: Headers | undefined, rewrite: HeaderRewrite, into: OutgoingHttpHeaders): OutgoingHttpHeaders {
  headers?.forEach((value, name) => {
    into[name] = rewrite(name, value);
  });
  return into;
}

/**
 * Writes a universal response on the stream: headers once the body's first chunk is known (so the handler
 * may still set headers), the body with back-pressure, then trailers (gRPC) if any. Stops quietly when the
 * stream is gone or `signal` aborted (the client reset the stream).
 */
async function writeResponse(stream: ServerHttp2Stream, response: UniversalServerResponse, rewrite: HeaderRewrite, signal: AbortSignal): Promise<void> {
  const body = response.body?.[Symbol.asyncIterator]();
  try {
    let chunk = body ? await body.next() : { done: true as const, value: undefined };
    if (stream.destroyed || signal.aborted) return;
    let trailers: Headers | undefined;
    response.trailer?.forEach(() => (trailers = response.trailer));
    stream.respond(nodeHeaders(response.header, rewrite, { ':status': response.status }), { waitForTrailers: trailers !== undefined });
    if (trailers) stream.once('wantTrailers', () => stream.sendTrailers(nodeHeaders(trailers, rewrite, {})));
    while (!chunk.done) {
      if (!stream.write(chunk.value)) await drained(stream);
      if (stream.destroyed || signal.aborted) return;
      chunk = await body!.next();
    }
    stream.end();
  } finally {
    await body?.return?.();
  }
}

/** Resolves once `stream` can take more data, or has closed. */
function drained(stream: ServerHttp2Stream): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
  });
}
