/**
 * The gRPC API (SPEC.md "gRPC API"): one Connect router serving google.cloud.workflows.v1.Workflows,
 * google.cloud.workflows.executions.v1.Executions and google.longrunning.Operations (GetOperation) from the
 * published protobuf definitions (proto/, gen/), over HTTP/2 cleartext (h2c, no TLS) on GRPC_PORT. The router
 * speaks gRPC, gRPC-Web and the Connect protocol on the same port, so Google's client libraries (with an
 * insecure channel), Connect clients and grpcurl (given the .proto files: `-import-path proto`; there is no
 * reflection service) all work. The RPCs themselves live in
 * grpc-services.ts over the same service core REST uses; this module only routes, maps errors and listens;
 * grpc-stream.ts runs the router's handlers on the HTTP/2 streams.
 */
import { createServer, type Http2Server, type ServerHttp2Session } from 'node:http2';
import type { Socket } from 'node:net';
import { Code, ConnectError, createConnectRouter, type Interceptor } from '@connectrpc/connect';
import { compressionBrotli, compressionGzip } from '@connectrpc/connect-node';
import type { DescMethodUnary } from '@bufbuild/protobuf';
import type { ServiceCore } from '../service/model.ts';
import { API_CODES, ApiError, type ApiCode } from '../service/errors.ts';
import { allRpcs } from './grpc-services.ts';
import { serveStream, type GrpcRoute, type StreamOptions } from './grpc-stream.ts';

/**
 * The largest request message the gRPC API reads, in bytes: 4 MB, as REST's request bodies (rest.ts
 * MAX_API_BODY_BYTES). A larger one is refused with RESOURCE_EXHAUSTED (gRPC's own default limit and code).
 */
export const MAX_GRPC_MESSAGE_BYTES = 4 * 1024 * 1024;

/** A running gRPC listener. */
export interface GrpcServer {
  /** The port it listens on (the real one when 0 was asked for). */
  readonly port: number;
  /** Stops listening and closes open connections; resolves once the listener is closed. */
  close(): Promise<void>;
}

/**
 * The ConnectError a gRPC client receives for `error`: an {@link ApiError} keeps its message and maps to the
 * gRPC code of the same name (NOT_FOUND 5, ALREADY_EXISTS 6, INVALID_ARGUMENT 3, FAILED_PRECONDITION 9,
 * UNIMPLEMENTED 12, INTERNAL 13; src/service/errors.ts `API_CODES`); a ConnectError passes through; anything
 * else becomes INTERNAL with its message.
 */
export function toConnectError(error: unknown): ConnectError {
  if (error instanceof ConnectError) return error;
  if (error instanceof ApiError) return new ConnectError(error.message, API_CODES[error.code].grpc as Code, undefined, undefined, error);
  const message = error instanceof Error ? error.message : String(error);
  return new ConnectError(message, Code.Internal, undefined, undefined, error);
}

/** The ApiError code for a Connect code (the reverse of {@link toConnectError}); INTERNAL when unmapped. */
export function apiCodeOf(code: Code): ApiCode {
  const found = (Object.keys(API_CODES) as ApiCode[]).find((k) => API_CODES[k].grpc === code);
  return found ?? 'INTERNAL';
}

const errorMapping: Interceptor = (next) => async (request) => {
  try {
    return await next(request);
  } catch (error) {
    throw toConnectError(error);
  }
};

/**
 * `grpc-message` in the gRPC spec's own percent-encoding: only bytes outside 0x20-0x7E and `%` itself are
 * escaped (https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md#responses). Connect escapes like
 * encodeURIComponent, which spec-following decoders read the same, but @grpc/grpc-js (Google's Node client)
 * decodes with decodeURI and would show `/`, `:` and `,` as `%2F`, `%3A`, `%2C`. Returns `value` unchanged when
 * it is not valid percent-encoding.
 */
export function minimalGrpcMessage(value: string): string {
  let text: string;
  try {
    text = decodeURIComponent(value);
  } catch {
    return value;
  }
  let out = '';
  for (const byte of new TextEncoder().encode(text)) {
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The routes of the gRPC API over `service`, by request path (`/google.cloud.workflows.v1.Workflows/GetWorkflow`):
 * Connect's universal handler of each RPC, from one router with gzip and brotli, request messages limited to
 * {@link MAX_GRPC_MESSAGE_BYTES} and ApiErrors turned into ConnectErrors ({@link toConnectError}); and for
 * unary RPCs the same implementation, for grpc-stream.ts's plain-gRPC fast path (which maps errors with
 * {@link toConnectError} too: keep the router's interceptors to that one, or give the fast path the same).
 */
export function grpcRoutesByPath(service: ServiceCore): Map<string, GrpcRoute> {
  const router = createConnectRouter({
    interceptors: [errorMapping],
    acceptCompression: [compressionGzip, compressionBrotli],
    readMaxBytes: MAX_GRPC_MESSAGE_BYTES,
  });
  const implementations = new Map<string, GrpcRoute['unary']>();
  for (const { service: desc, rpcs } of allRpcs(service)) {
    router.service(desc, rpcs as never);
    for (const method of desc.methods) {
      const call = (rpcs as Record<string, ((request: never) => Promise<unknown>) | undefined>)[method.localName];
      if (method.methodKind === 'unary' && call) implementations.set(`/${desc.typeName}/${method.name}`, { method: method as DescMethodUnary, call });
    }
  }
  return new Map(router.handlers.map((handler) => [handler.requestPath, { handler, unary: implementations.get(handler.requestPath) }]));
}

/** How grpc-stream.ts answers: `grpc-message` in the gRPC spec's percent-encoding ({@link minimalGrpcMessage}). */
const streamOptions: StreamOptions = {
  rewrite: (name, value) => (name === 'grpc-message' ? minimalGrpcMessage(value) : value),
  toError: toConnectError,
  readMaxBytes: MAX_GRPC_MESSAGE_BYTES,
};

/**
 * Serves the Workflows, Executions and Operations gRPC services for `service` over h2c on host:port (port 0: a
 * free port). Resolves once listening; rejects with the listen error (e.g. EADDRINUSE). Resolves to undefined
 * when the runtime has no HTTP/2 server (the REST API still works then; a warning says so). Prints nothing:
 * the caller prints the address (src/server.ts).
 */
export async function startGrpcServer(service: ServiceCore, opts: { host: string; port: number }): Promise<GrpcServer | undefined> {
  let server: Http2Server;
  try {
    server = createServer();
  } catch (error) {
    process.stderr.write(`gRPC API unavailable in this runtime: ${(error as Error).message}\n`);
    return undefined;
  }
  // Small responses must not wait for Nagle's algorithm (40 ms against the client's delayed ACK).
  server.on('connection', (socket: Socket) => socket.setNoDelay(true));
  const routes = grpcRoutesByPath(service);
  server.on('stream', (stream, headers) => serveStream(routes, streamOptions, stream, headers));
  const sessions = new Set<ServerHttp2Session>();
  server.on('session', (session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const session of sessions) session.close();
        // Sessions that do not close in time (a client holding a stream open) are cut.
        setTimeout(() => {
          for (const session of sessions) session.destroy();
        }, 500).unref();
      }),
  };
}
