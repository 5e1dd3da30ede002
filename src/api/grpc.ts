/**
 * The gRPC API (SPEC.md "gRPC API"): one Connect router serving google.cloud.workflows.v1.Workflows,
 * google.cloud.workflows.executions.v1.Executions and google.longrunning.Operations (GetOperation) from the
 * published protobuf definitions (proto/, gen/), over HTTP/2 cleartext (h2c, no TLS) on GRPC_PORT. The router
 * speaks gRPC, gRPC-Web and the Connect protocol on the same port, so Google's client libraries (with an
 * insecure channel), Connect clients and grpcurl (given the .proto files: `-import-path proto`; there is no
 * reflection service) all work. The RPCs themselves live in grpc-services.ts over the same service core REST
 * uses; grpc-routes.ts holds the router and the error mapping, grpc-stream.ts runs them on HTTP/2 streams, and
 * this module only listens, loading grpc-routes.ts on the first request.
 */
import type { Http2Server, IncomingHttpHeaders, ServerHttp2Session, ServerHttp2Stream } from 'node:http2';
import { nodeHttp2 } from './builtins.ts';
import type { Socket } from 'node:net';
import type { ServiceCore } from '../service/model.ts';

/** A running gRPC listener. */
export interface GrpcServer {
  /** The port it listens on (the real one when 0 was asked for). */
  readonly port: number;
  /** Stops listening and closes open connections; resolves once the listener is closed. */
  close(): Promise<void>;
}

type StreamHandler = (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void;

/**
 * The stream handler of grpc-routes.ts over `service`, loaded when the first stream arrives (a stream waits,
 * unread, until then); a stream that arrives while it loads waits for the same load.
 */
function lazyStreamHandler(service: ServiceCore): StreamHandler {
  let handler: StreamHandler | undefined;
  let loading: Promise<StreamHandler> | undefined;
  return (stream, headers) => {
    if (handler) return handler(stream, headers);
    loading ??= import('./grpc-routes.ts').then((m) => (handler = m.grpcStreamHandler(service)));
    loading.then(
      (h) => h(stream, headers),
      (error: unknown) => {
        process.stderr.write(`workflows-emulator: gRPC API unavailable: ${(error as Error)?.message ?? String(error)}\n`);
        if (!stream.destroyed) stream.close(nodeHttp2().constants.NGHTTP2_INTERNAL_ERROR);
      },
    );
  };
}

/**
 * Serves the Workflows, Executions and Operations gRPC services for `service` over h2c on host:port (port 0: a
 * free port). Resolves once listening; rejects with the listen error (e.g. EADDRINUSE). Resolves to undefined
 * when the runtime has no HTTP/2 server (the REST API still works then; a warning says so). Prints nothing:
 * the caller prints the address (src/server.ts).
 */
export async function startGrpcServer(service: ServiceCore, opts: { host: string; port: number }): Promise<GrpcServer | undefined> {
  let server: Http2Server;
  try {
    server = nodeHttp2().createServer();
  } catch (error) {
    process.stderr.write(`gRPC API unavailable in this runtime: ${(error as Error).message}\n`);
    return undefined;
  }
  // Small responses must not wait for Nagle's algorithm (40 ms against the client's delayed ACK).
  server.on('connection', (socket: Socket) => socket.setNoDelay(true));
  server.on('stream', lazyStreamHandler(service));
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
