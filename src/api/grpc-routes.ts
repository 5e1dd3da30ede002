/**
 * The gRPC API's routes (docs/grpc.md#the-grpc-api): one Connect router over the RPCs of grpc-services.ts, the
 * mapping of ApiErrors to gRPC codes, the request size limit, and the handler grpc.ts's listener gives each
 * HTTP/2 stream (grpc-stream.ts), and the same routes for the Connect protocol on the REST port. Loaded on the first gRPC request, not at start-up: the protobuf descriptors
 * and Connect cost about a quarter of the emulator's start-up (docs/architecture.md#start-up, start-up profile).
 */
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { Code, ConnectError, createConnectRouter, type ConnectRouterOptions, type Interceptor } from '@connectrpc/connect';
import { compressionBrotli, compressionGzip, universalRequestFromNodeRequest, universalResponseToNodeResponse } from '@connectrpc/connect-node';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { DescMethodUnary } from '@bufbuild/protobuf';
import type { ServiceCore } from '../service/model.ts';
import { API_CODES, ApiError } from '../service/errors.ts';
import { allRpcs } from './grpc-services.ts';
import { OPERATION_TYPES } from './grpc-operations.ts';
import { serveStream, type GrpcRoute, type StreamOptions } from './grpc-stream.ts';
import { MAX_REQUEST_BYTES } from '../platform/request-body.ts';


/**
 * The ConnectError a gRPC client receives for `error`: an {@link ApiError} keeps its message and maps to the
 * gRPC code of the same name (NOT_FOUND 5, ALREADY_EXISTS 6, INVALID_ARGUMENT 3, FAILED_PRECONDITION 9,
 * UNIMPLEMENTED 12, INTERNAL 13; src/service/errors.ts `API_CODES`); a ConnectError passes through; anything
 * else becomes INTERNAL ({@link ApiError.from}).
 */
export function toConnectError(error: unknown): ConnectError {
  if (error instanceof ConnectError) return error;
  const apiError = ApiError.from(error);
  return new ConnectError(apiError.message, API_CODES[apiError.code].grpc as Code, undefined, undefined, error);
}

const errorMapping: Interceptor = (next) => async (request) => {
  try {
    return await next(request);
  } catch (error) {
    throw toConnectError(error);
  }
};

/**
 * `grpc-message` in the gRPC spec's own percent-encoding: only bytes outside 0x20-0x7E, `%` itself and a
 * space at either end are escaped (https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md#responses). Connect escapes like
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
  const bytes = new TextEncoder().encode(text);
  let out = '';
  for (const [i, byte] of bytes.entries()) {
    // A space at either end is escaped too: HTTP/2 forbids white space around a field value (RFC 9113
    // section 8.2.1), and a client drops a `grpc-message` that has it.
    const edgeSpace = byte === 0x20 && (i === 0 || i === bytes.length - 1);
    out += byte >= 0x20 && byte <= 0x7e && byte !== 0x25 && !edgeSpace ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * The options of the gRPC API's Connect router: gzip and brotli, request messages limited to
 * {@link MAX_REQUEST_BYTES}, ApiErrors turned into ConnectErrors ({@link toConnectError}). Exported so
 * that the differential test of the fast path (test/api/grpc-fast-path.test.ts) serves the same RPCs through
 * Connect's own Node adapter with exactly these options.
 */
export const GRPC_ROUTER_OPTIONS: ConnectRouterOptions = Object.freeze({
  interceptors: [errorMapping],
  acceptCompression: [compressionGzip, compressionBrotli],
  readMaxBytes: MAX_REQUEST_BYTES,
  // The Connect protocol's JSON writes operations, whose Any fields need their types.
  jsonOptions: { registry: OPERATION_TYPES },
});

/**
 * The routes of the gRPC API over `service`, by request path (`/google.cloud.workflows.v1.Workflows/GetWorkflow`):
 * Connect's universal handler of each RPC, from one router with gzip and brotli, request messages limited to
 * {@link MAX_REQUEST_BYTES} and ApiErrors turned into ConnectErrors ({@link toConnectError}); and for
 * unary RPCs the same implementation, for grpc-stream.ts's plain-gRPC fast path (which maps errors with
 * {@link toConnectError} too: keep the router's interceptors to that one, or give the fast path the same).
 */
function grpcRoutesByPath(service: ServiceCore): Map<string, GrpcRoute> {
  let routes = routesByCore.get(service);
  if (!routes) routesByCore.set(service, (routes = createRoutes(service)));
  return routes;
}

const routesByCore = new WeakMap<ServiceCore, Map<string, GrpcRoute>>();

function createRoutes(service: ServiceCore): Map<string, GrpcRoute> {
  const router = createConnectRouter(GRPC_ROUTER_OPTIONS);
  const implementations = new Map<string, NonNullable<GrpcRoute['unary']>>();
  for (const { service: desc, rpcs } of allRpcs(service)) {
    router.service(desc, rpcs as never);
    for (const method of desc.methods) {
      const call = (rpcs as Record<string, ((request: never) => Promise<unknown>) | undefined>)[method.localName];
      if (method.methodKind === 'unary' && call) implementations.set(`/${desc.typeName}/${method.name}`, { method: method as DescMethodUnary, call });
    }
  }
  return new Map(
    router.handlers.map((handler): [string, GrpcRoute] => {
      const unary = implementations.get(handler.requestPath);
      return [handler.requestPath, unary ? { handler, unary } : { handler }];
    }),
  );
}

/** How grpc-stream.ts answers: `grpc-message` in the gRPC spec's percent-encoding ({@link minimalGrpcMessage}). */
const streamOptions: StreamOptions = {
  rewrite: (name, value) => (name === 'grpc-message' ? minimalGrpcMessage(value) : value),
  toError: toConnectError,
  readMaxBytes: MAX_REQUEST_BYTES,
};

/**
 * The handler of every HTTP/2 stream of the gRPC port over `service` (grpc-stream.ts {@link serveStream} on
 * {@link grpcRoutesByPath}).
 */
export function grpcStreamHandler(service: ServiceCore): (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void {
  const routes = grpcRoutesByPath(service);
  return (stream, headers) => serveStream(routes, streamOptions, stream, headers);
}

/**
 * The same routes over HTTP/1.1 for the REST port (src/api/rest.ts): the Connect protocol (unary `POST
 * /{service}/{method}` with `application/json` or `application/proto`, https://connectrpc.com/docs/protocol/)
 * and gRPC-Web, answered by Connect's own handlers through connect-node's adapters. The handler returns false,
 * answering nothing, for a path that names no RPC.
 */
export function connectHttpHandler(service: ServiceCore): (req: IncomingMessage, res: ServerResponse, path: string) => boolean {
  const routes = grpcRoutesByPath(service);
  return (req, res, path) => {
    const route = routes.get(path);
    if (!route) return false;
    const request = universalRequestFromNodeRequest(req, res, undefined, undefined);
    route.handler(request)
      .then((answer) => universalResponseToNodeResponse(answer, res))
      // The client went away mid-answer: there is no one left to tell.
      .catch(() => res.destroy());
    return true;
  };
}
