/**
 * Real node:http servers for http.* tests (docs/standard-library.md#http): echo, status codes, content types, slow
 * responses, connection drops, and a closed port. Each test file starts its own server on an ephemeral port.
 *
 * Routes of {@link startTestServer}:
 * - `/echo`: 200 JSON `{method, path, query, headers, body}` describing the request (`query` is the raw search
 *   string, `body` the request body as text);
 * - `/status/<code>`: that status with JSON `{"status": <code>}` and header `X-Test: yes`;
 * - `/text`: `text/plain` "hello"; `/html`: `text/html; charset=utf-8` "<p>hi</p>";
 * - `/bytes`: `application/octet-stream` bytes 1, 2, 3; `/json`: `{"i": 2, "d": 2.0}` as JSON;
 * - `/big`: 3 MB of `application/octet-stream`;
 * - `/slow?ms=<n>`: answers after n ms (the timer is cleared when the client goes away);
 * - `/slow-body?ms=<n>`: sends the headers and a first chunk at once, the rest of the body after n ms;
 * - `/drop`: sends headers and part of the body, then destroys the socket;
 * - `/hangup`: destroys the socket without answering.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running test server. */
export interface TestServer {
  /** Base URL without trailing slash, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** Requests received so far, in order (method and path with query). */
  readonly requests: { method: string; url: string }[];
  close(): Promise<void>;
}

/** Starts the test server on 127.0.0.1 and an ephemeral port. */
export async function startTestServer(): Promise<TestServer> {
  const requests: { method: string; url: string }[] = [];
  const server = createServer((req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '' });
    handle(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A URL on 127.0.0.1 where nothing listens (a port opened, then closed). */
export async function closedPortUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const u = new URL(req.url ?? '/', 'http://x');
  const body = await readBody(req);
  const status = /^\/status\/(\d{3})$/.exec(u.pathname);
  if (status) {
    res.writeHead(Number(status[1]), { 'Content-Type': 'application/json', 'X-Test': 'yes' });
    res.end(JSON.stringify({ status: Number(status[1]) }));
    return;
  }
  switch (u.pathname) {
    case '/echo':
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, path: u.pathname, query: u.search, headers: req.headers, body }));
      return;
    case '/text':
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.end('hello');
      return;
    case '/html':
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<p>hi</p>');
      return;
    case '/bytes':
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(Buffer.from([1, 2, 3]));
      return;
    case '/json':
      res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
      res.end('{"i": 2, "d": 2.0}');
      return;
    case '/big':
      res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      res.end(Buffer.alloc(3 * 1024 * 1024, 7));
      return;
    case '/slow': {
      const ms = Number(u.searchParams.get('ms') ?? '1000');
      const t = setTimeout(() => {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('late');
      }, ms);
      res.on('close', () => clearTimeout(t));
      return;
    }
    case '/slow-body': {
      // Headers at once, the body after n ms.
      const ms = Number(u.searchParams.get('ms') ?? '1000');
      res.writeHead(200, { 'Content-Type': 'text/plain' });
      res.write('early ');
      const t = setTimeout(() => res.end('late'), ms);
      res.on('close', () => clearTimeout(t));
      return;
    }
    case '/drop':
      res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': '1000' });
      res.write('partial');
      setTimeout(() => res.destroy(), 20);
      return;
    case '/hangup':
      req.socket.destroy();
      return;
    default:
      res.writeHead(404, { 'Content-Type': 'text/plain' });
      res.end('not found');
  }
}
