// The server's `--inspect` port (docs/debugging.md#attach): Debug Adapter Protocol clients attach to executions
// started through the REST API, by workflow (the next execution) or by execution (one created with
// "debug": true); a held execution blocks neither the API nor other executions; disconnecting resumes it; the
// port refuses anything that is not the protocol (a browser's HTTP request).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect } from 'node:net';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { startServer, type RunningServer } from '../../src/server.ts';

const SOURCE = `main:
  params: [args]
  steps:
    - start:
        assign:
          - n: \${args.n}
    - grow:
        assign:
          - n: \${n * 10}
    - done:
        return: \${n}
`;
const PLAIN = `main:
  steps:
    - done:
        return: 7
`;

interface Ctx {
  server: RunningServer;
  base: string;
  dc: DebugClient;
}

const s = suite<Ctx>('debug: attaching over --inspect (docs/debugging.md#attach)');

async function api(c: Ctx, method: string, path: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(c.base + path, { method, headers: { 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

async function ended(c: Ctx, name: string): Promise<Record<string, unknown>> {
  for (;;) {
    const r = await api(c, 'GET', `/v1/${name}`);
    if (r.json.state !== 'ACTIVE') return r.json;
    await new Promise((x) => setTimeout(x, 20));
  }
}

s.before(async (c) => {
  c.server = await startServer({ host: '127.0.0.1', port: 0, grpcPort: 0, inspect: 0, service: { log: () => {} } });
  c.base = c.server.url;
  for (const [id, src] of [['grower', SOURCE], ['plain', PLAIN]] as const) {
    const r = await api(c, 'POST', `/v1/projects/my-project/locations/us-central1/workflows?workflowId=${id}`, { sourceContents: src });
    assert.is(r.status, 200, JSON.stringify(r.json));
  }
});

s.after(async (c) => {
  await c.server.close();
});

s.before.each(async (c) => {
  c.dc = new DebugClient('node', 'unused', 'workflows');
  c.dc.defaultTimeout = 8000;
  await c.dc.start(c.server.inspectPort!);
});

s.after.each(async (c) => {
  await c.dc.stop().catch(() => {});
});

const WF = '/v1/projects/my-project/locations/us-central1/workflows';

s('attach by workflow holds its next execution at a breakpoint while the API and other executions go on; a set variable changes its result', async (c) => {
  await c.dc.initializeRequest();
  const initialized = c.dc.waitForEvent('initialized');
  const attached = c.dc.attachRequest({ workflow: 'grower' } as DebugProtocol.AttachRequestArguments);
  const created = await api(c, 'POST', `${WF}/grower/executions`, { argument: '{"n": 2}' });
  await initialized;
  await c.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'grow' }] });
  const stopped = c.dc.waitForEvent('stopped');
  await c.dc.configurationDoneRequest();
  await attached;
  const e = (await stopped) as DebugProtocol.StoppedEvent;
  // Held: the API answers, the execution is ACTIVE, another workflow's execution runs to its end.
  assert.is((await api(c, 'GET', `/v1/${created.json.name}`)).json.state, 'ACTIVE');
  const other = await api(c, 'POST', `${WF}/plain/executions`, {});
  assert.is((await ended(c, String(other.json.name))).result, '7');
  const frame = (await c.dc.stackTraceRequest({ threadId: e.body.threadId! })).body.stackFrames[0]!;
  assert.is(frame.name, 'main.grow');
  const src = await c.dc.sourceRequest({ sourceReference: frame.source!.sourceReference!, source: frame.source! });
  assert.is(src.body.content, SOURCE, 'the source comes from the deployed revision');
  const scopes = (await c.dc.scopesRequest({ frameId: frame.id })).body.scopes;
  await c.dc.setVariableRequest({ variablesReference: scopes[scopes.length - 1]!.variablesReference, name: 'n', value: 'n + 3' });
  await c.dc.continueRequest({ threadId: e.body.threadId! });
  assert.is((await ended(c, String(created.json.name))).result, '50');
});

s('an execution created with "debug": true waits at its first step until a client attaches to it; disconnecting resumes it', async (c) => {
  const created = await api(c, 'POST', `${WF}/grower/executions`, { argument: '{"n": 1}', debug: true });
  assert.is(created.status, 200, JSON.stringify(created.json));
  await new Promise((x) => setTimeout(x, 100));
  assert.is((await api(c, 'GET', `/v1/${created.json.name}`)).json.state, 'ACTIVE', 'held at its first step');
  await c.dc.initializeRequest();
  const initialized = c.dc.waitForEvent('initialized');
  const attached = c.dc.attachRequest({ execution: String(created.json.name).split('/').pop() } as DebugProtocol.AttachRequestArguments);
  await initialized;
  const stopped = c.dc.waitForEvent('stopped');
  await c.dc.configurationDoneRequest();
  await attached;
  const e = (await stopped) as DebugProtocol.StoppedEvent;
  assert.is(e.body.reason, 'entry');
  await c.dc.disconnectRequest({});
  assert.is((await ended(c, String(created.json.name))).result, '10');
});

s('attaching to an execution that runs without the debugger is refused with the reason; "debug" must be a bool', async (c) => {
  await c.dc.initializeRequest();
  const err = await c.dc.attachRequest({ execution: 'nope' } as DebugProtocol.AttachRequestArguments).catch((x: Error) => x);
  assert.instance(err, Error);
  assert.match((err as Error).message, /not running under the debugger/);
  const bad = await api(c, 'POST', `${WF}/grower/executions`, { debug: 'yes' });
  assert.is(bad.status, 400);
  assert.match(JSON.stringify(bad.json), /debug must be a bool/);
});

s('a client that leaves while waiting by workflow, or with the execution held, leaves nothing held', async (c) => {
  await c.dc.initializeRequest();
  void c.dc.attachRequest({ workflow: 'grower' } as DebugProtocol.AttachRequestArguments).catch(() => {});
  await new Promise((x) => setTimeout(x, 50));
  await c.dc.stop();
  await new Promise((x) => setTimeout(x, 50));
  const free = await api(c, 'POST', `${WF}/grower/executions`, { argument: '{"n": 4}' });
  assert.is((await ended(c, String(free.json.name))).result, '40', 'no debugger held it');
  // A client whose connection drops while it holds an execution at a breakpoint.
  c.dc = new DebugClient('node', 'unused', 'workflows');
  await c.dc.start(c.server.inspectPort!);
  await c.dc.initializeRequest();
  const initialized = c.dc.waitForEvent('initialized');
  const attached = c.dc.attachRequest({ workflow: 'grower' } as DebugProtocol.AttachRequestArguments);
  const held = await api(c, 'POST', `${WF}/grower/executions`, { argument: '{"n": 5}' });
  await initialized;
  await c.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'grow' }] });
  const stopped = c.dc.waitForEvent('stopped');
  await c.dc.configurationDoneRequest();
  await attached;
  await stopped;
  await c.dc.stop();
  c.dc = new DebugClient('node', 'unused', 'workflows');
  await c.dc.start(c.server.inspectPort!);
  assert.is((await ended(c, String(held.json.name))).result, '50', 'resumed when the connection closed');
});

s('the inspect port closes a connection that speaks HTTP instead of the protocol and keeps serving', async (c) => {
  const socket = connect(c.server.inspectPort!, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let got = '';
  socket.on('data', (d) => (got += d.toString()));
  const body = JSON.stringify({ seq: 1, type: 'request', command: 'attach', arguments: { workflow: 'grower' } });
  socket.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: ${body.length}\r\n\r\n${body}`);
  await new Promise((r) => socket.once('close', r));
  assert.is(got, '');
  const init = await c.dc.initializeRequest();
  assert.ok(init.success);
});

s.run();
