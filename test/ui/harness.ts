/**
 * Test harness for the web UI: a real ServiceCore (src/service/core.ts) with the UI handler from
 * src/ui/routes.ts mounted alone on a loopback node:http server on a free port, in this process. Requests go
 * through fetch without following redirects, so tests see statuses and headers exactly as the handler set
 * them.
 *
 *   const ui = await startUi();
 *   ui.core.createWorkflow('hello', { sourceContents: '...' });
 *   const r = await ui.get('/ui/workflows/hello');   // { status, headers, text }
 *   await ui.close();
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServiceCore } from '../../src/service/core.ts';
import type { Execution, ServiceCore } from '../../src/service/model.ts';
import { createUi } from '../../src/ui/routes.ts';

/** A response as the tests read it. */
export interface UiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** A running UI over a real service core. */
export interface UiHarness {
  readonly core: ServiceCore;
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  get(path: string, headers?: Record<string, string>): Promise<UiResponse>;
  /** A URL-encoded form POST. */
  post(path: string, form: Record<string, string>, headers?: Record<string, string>): Promise<UiResponse>;
  request(method: string, path: string, headers?: Record<string, string>): Promise<UiResponse>;
  /** Waits until the execution is no longer ACTIVE (at most `timeoutMs`) and returns it. */
  settle(workflowId: string, executionId: string, timeoutMs?: number): Promise<Execution>;
  close(): Promise<void>;
}

/** Starts the harness; sys.log lines are kept by the core and not printed. */
export async function startUi(): Promise<UiHarness> {
  // Listen first: callback URLs carry the port, so the core needs it.
  let ui: ReturnType<typeof createUi> | undefined;
  const server: Server = createServer((req, res) => {
    void ui!(req, res, new URL(req.url ?? '/', 'http://localhost'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const core = createServiceCore({ project: 'my-project', location: 'us-central1', callbackBaseUrl: url, log: () => {} });
  ui = createUi(core);

  const request = async (method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<UiResponse> => {
    const r = await fetch(url + path, { method, headers, redirect: 'manual', ...(body !== undefined ? { body } : {}) });
    return { status: r.status, headers: r.headers, text: await r.text() };
  };
  return {
    core,
    url,
    get: (path, headers) => request('GET', path, headers),
    post: (path, form, headers = {}) =>
      request('POST', path, { 'content-type': 'application/x-www-form-urlencoded', ...headers }, new URLSearchParams(form).toString()),
    request: (method, path, headers) => request(method, path, headers),
    async settle(workflowId, executionId, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const e = core.getExecution(workflowId, executionId);
        if (e.state !== 'ACTIVE') return e;
        if (Date.now() > deadline) throw new Error(`execution ${executionId} still ACTIVE after ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 10));
      }
    },
    async close() {
      (core as ServiceCore & { close(): void }).close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The execution ID at the end of an execution's name. */
export function idOf(e: Pick<Execution, 'name'>): string {
  return e.name.slice(e.name.lastIndexOf('/') + 1);
}
