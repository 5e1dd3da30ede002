/**
 * The server's `--inspect` port (docs/debugging.md#attach): Debug Adapter Protocol clients attach over TCP to the
 * executions the {@link DebugHub} runs under the debugger. Loaded only with `--inspect`.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { WorkflowDebugAdapter } from './adapter.ts';
import type { DebugHub } from './hub.ts';

/** The `--inspect` listener: one Debug Adapter Protocol session per TCP connection. */
export interface Inspector {
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Listens for Debug Adapter Protocol clients on `host`:`port` (0: a free port). A connection whose first bytes
 * are not a protocol header (`Content-Length: `) is closed at once: a web page can make a browser send an HTTP
 * request here, and its body must never be read as a request to the debugger.
 */
export function startInspector(hub: DebugHub, host: string, port: number): Promise<Inspector> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.once('data', (first: Buffer) => {
      const head = first.subarray(0, HEADER.length).toString('latin1');
      if (!HEADER.startsWith(head)) return void socket.destroy();
      const adapter = new WorkflowDebugAdapter({ attach: (args, events, gone) => hub.attach(args, events, gone) });
      adapter.setRunAsServer(true);
      adapter.start(socket, socket);
      socket.emit('data', first);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: () =>
          new Promise<void>((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

const HEADER = 'Content-Length: ';
