/**
 * The gRPC API (docs/grpc.md#the-grpc-api): one Connect router serving google.cloud.workflows.v1.Workflows,
 * google.cloud.workflows.executions.v1.Executions and google.longrunning.Operations (GetOperation) from the
 * published protobuf definitions (proto/, gen/), over HTTP/2 cleartext (h2c, no TLS) on GRPC_PORT. The router
 * speaks gRPC, gRPC-Web and the Connect protocol on the same port, so Google's client libraries (with an
 * insecure channel), Connect clients and grpcurl (given the .proto files: `-import-path proto`; there is no
 * reflection service) all work. The RPCs themselves live in grpc-services.ts over the same service core REST
 * uses; grpc-routes.ts holds the router and the error mapping, grpc-stream.ts runs them on HTTP/2 streams, and
 * this module only listens, loading grpc-routes.ts on the first request.
 */
import type { Http2Server, IncomingHttpHeaders, ServerHttp2Session, ServerHttp2Stream } from 'node:http2';
import { nodeHttp2, nodeNet } from '../platform/builtins.ts';
import type { Socket } from 'node:net';
import type { ServiceCore } from '../service/model.ts';
import { loadModule } from '../platform/libraries.ts';
import { writeError } from '../platform/std-streams.ts';

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
    loading ??= loadModule('grpc', 'src/api/grpc-routes.ts', () => import('./grpc-routes.ts')).then((m) => (handler = m.grpcStreamHandler(service)));
    loading.then(
      (h) => h(stream, headers),
      (error: unknown) => {
        writeError(`workflows-emulator: gRPC API unavailable: ${(error as Error)?.message ?? String(error)}\n`);
        if (!stream.destroyed) stream.close(nodeHttp2().constants.NGHTTP2_INTERNAL_ERROR);
      },
    );
  };
}

/**
 * Serves the Workflows, Executions and Operations gRPC services for `service` over h2c on host:port (port 0: a
 * free port). Resolves once listening; rejects with the listen error (e.g. EADDRINUSE). Prints nothing: the
 * caller prints the address (src/server.ts).
 *
 * The port is a plain TCP listener (node:net, which node:http loads anyway); node:http2, with the node:tls and
 * node:crypto it loads, costs about 8 ms of CPU, so it is loaded on the first connection, whose socket is then
 * handed to the HTTP/2 server (`emit('connection')`, as Node documents for its HTTP servers; the same under
 * Deno and Bun). A runtime without an HTTP/2 server says so on stderr then and closes the connection; the REST
 * API works as before. See docs/architecture.md#start-up.
 */
export async function startGrpcServer(service: ServiceCore, opts: { host: string; port: number }): Promise<GrpcServer> {
  const sessions = new Set<ServerHttp2Session>();
  let http2: Http2Server | undefined;
  const http2Server = (): Http2Server => {
    if (http2) return http2;
    const server = nodeHttp2().createServer();
    server.on('stream', lazyStreamHandler(service));
    server.on('session', (session) => {
      sessions.add(session);
      session.on('close', () => sessions.delete(session));
    });
    return (http2 = server);
  };
  const listener = nodeNet().createServer((socket: Socket) => {
    // Small responses must not wait for Nagle's algorithm (40 ms against the client's delayed ACK).
    socket.setNoDelay(true);
    let server: Http2Server;
    try {
      server = http2Server();
    } catch (error) {
      writeError(`gRPC API unavailable in this runtime: ${(error as Error).message}\n`);
      socket.destroy();
      return;
    }
    server.emit('connection', socket);
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(opts.port, opts.host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  const address = listener.address();
  const port = typeof address === 'object' && address ? address.port : opts.port;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        listener.close(() => resolve());
        for (const session of sessions) session.close();
        // Sessions that do not close in time (a client holding a stream open) are cut.
        setTimeout(() => {
          for (const session of sessions) session.destroy();
        }, 500).unref();
      }),
  };
}
