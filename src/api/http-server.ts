/**
 * The node:http listener of the REST port (docs/cli.md#configuration: PORT and HOST). It works the same on Node,
 * Deno and Bun through their node:http compatibility.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { nodeHttp } from '../platform/builtins.ts';

/** A running HTTP listener. */
export interface HttpListener {
  readonly server: Server;
  /** The port it listens on (the real one when 0 was asked for). */
  readonly port: number;
  /** Stops accepting connections, closes idle and open ones, and resolves once closed. */
  close(): Promise<void>;
}

/**
 * Starts an HTTP server with `handler` on host:port (port 0: a free port).
 *
 * @throws the listen error (e.g. `EADDRINUSE`, `EACCES`) as a rejection.
 */
export function listenHttp(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  opts: { host: string; port: number },
): Promise<HttpListener> {
  const server = nodeHttp().createServer({ keepAlive: true }, handler);
  // Keep-alive clients (benchmarks, SDKs) reuse connections; a little longer than common client pools.
  server.keepAliveTimeout = 65_000;
  server.on('clientError', (_err, socket) => {
    // A malformed request line or headers: answer 400 if the socket still can, never crash.
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
    else socket.destroy();
  });
  return new Promise((resolve, reject) => {
    const onError = (e: Error): void => reject(e);
    server.once('error', onError);
    server.listen(opts.port, opts.host, () => {
      server.off('error', onError);
      const addr = server.address();
      const port = typeof addr === 'object' && addr ? addr.port : opts.port;
      resolve({
        server,
        port,
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            // Not every runtime has these (Node ≥ 18.2 does); without them, close waits for idle sockets.
            (server as { closeAllConnections?: () => void }).closeAllConnections?.();
          }),
      });
    });
  });
}

/** The host clients should use: `localhost` for a wildcard bind address, brackets around IPv6 literals. */
export function displayHost(host: string): string {
  if (isWildcard(host)) return 'localhost';
  if (host.includes(':') && !host.startsWith('[')) return `[${host}]`;
  return host;
}

/** True for a bind address that means every interface (`0.0.0.0`, `::`). */
export function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '' || host === '[::]';
}
