// The emulator's own limits seen through its APIs, in process on a real socket (docs/limits.md): what would
// exhaust, freeze or brick the emulator is answered with a 400 or RESOURCE_EXHAUSTED naming the limit, and
// the server keeps answering.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request as httpRequest } from 'node:http';
import { startServer, type RunningServer } from '../../src/server.ts';

const s = suite('emulator limits through the REST and control APIs (docs/limits.md)');

let server: RunningServer;
s.before(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, grpcPort: 0, clock: 'virtual', service: { log: () => {} }, printExecutionEnd: () => {} });
});
s.after(async () => {
  await server.close();
});

async function post(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const r = await fetch(server.url + path, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: r.status, json: await r.json() };
}

s('clock:advance past 9999-12-31 is a 400 naming the limit; the clock and reset still work (docs/limits.md "Clock")', async () => {
  const before = (await (await fetch(`${server.url}/emulator/v1/clock`)).json()) as { now: string };
  const bad = await post('/emulator/v1/clock:advance', { seconds: 1e13 });
  assert.is(bad.status, 400);
  assert.match(bad.json.error.message, /9999-12-31/);
  const after = (await (await fetch(`${server.url}/emulator/v1/clock`)).json()) as { now: string };
  assert.is(after.now, before.now);
  const ok = await post('/emulator/v1/clock:advance', { seconds: 60 });
  assert.is(ok.status, 200);
  assert.is((await post('/emulator/v1/reset', {})).status, 200);
});

s('a virtual clock moved to the end of its range comes back to the real time with reset, and sleeps work again (docs/limits.md "Clock")', async () => {
  const api = '/v1/projects/my-project/locations/us-central1';
  const nap = 'main:\n  steps:\n    - s:\n        call: sys.sleep\n        args: {seconds: 31536000}\n    - r:\n        return: ${sys.now()}\n';
  assert.is((await post(`${api}/workflows?workflowId=nap`, { sourceContents: nap })).status, 200);
  const now = async (): Promise<number> => Date.parse(((await (await fetch(`${server.url}/emulator/v1/clock`)).json()) as { now: string }).now);
  // Within a day of 9999-12-31: a sleep of a year cannot end any more.
  const end = Date.UTC(9999, 11, 31, 23, 59, 59, 999);
  assert.is((await post('/emulator/v1/clock:advance', { seconds: Math.floor((end - (await now())) / 1000) - 86_400 })).status, 200);
  const ended = async (): Promise<{ state: string; error?: { payload: string } }> => {
    const ex = (await post(`${api}/workflows/nap/executions`, {})).json as { name: string };
    for (;;) {
      const e = (await (await fetch(`${server.url}/v1/${ex.name}`)).json()) as { state: string; error?: { payload: string } };
      if (e.state !== 'ACTIVE') return e;
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const late = await ended();
  assert.is(late.state, 'FAILED');
  assert.match(late.error!.payload, /ValueError/);
  assert.is((await post('/emulator/v1/reset', {})).status, 200);
  const back = await now();
  assert.ok(Math.abs(back - Date.now()) < 3_600_000, `the clock shows ${new Date(back).toISOString()} after reset`);
  assert.is((await post(`${api}/workflows?workflowId=nap`, { sourceContents: nap })).status, 200);
  assert.is((await ended()).state, 'SUCCEEDED');
});

/** One request over node:http, so `Host` can be anything (fetch would not send a forged Host). */
function raw(method: string, path: string, headers: Record<string, string>, body = ''): Promise<{ status: number; text: string }> {
  const u = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: u.hostname, port: u.port, method, path, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const WAITER = 'main:\n  steps:\n    - c:\n        call: events.create_callback_endpoint\n        result: cb\n    - w:\n        call: events.await_callback\n        args:\n          callback: ${cb}\n          timeout: 3600\n        result: got\n    - r:\n        return: ${got.http_request.body}\n';

s('DNS rebinding: a browser\'s read under a name the emulator does not answer to is 403; callback URLs stay open to other clients (docs/limits.md "Requests from browsers")', async () => {
  const api = '/v1/projects/my-project/locations/us-central1';
  assert.is((await post(`${api}/workflows?workflowId=waiter`, { sourceContents: WAITER })).status, 200);
  const ex = (await post(`${api}/workflows/waiter/executions`, {})).json as { name: string };
  const rebound = { host: 'attacker.example:80', 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors' };
  let callbacks = '';
  for (let i = 0; i < 100 && !callbacks.includes('/callbacks/'); i++) {
    await new Promise((r) => setTimeout(r, 10));
    callbacks = (await raw('GET', `/v1/${ex.name}/callbacks`, { host: 'localhost' })).text;
  }
  const url = (JSON.parse(callbacks) as { callbacks: { url: string }[] }).callbacks[0]!.url;
  for (const path of [`/v1/${ex.name}/callbacks`, `${api}/workflows/waiter`, `/v1/${ex.name}`, '/ui', '/emulator/v1/clock']) {
    const r = await raw('GET', path, rebound);
    assert.is(r.status, 403, `${path}: ${r.text}`);
    assert.match(r.text, /not a host name this emulator answers to/);
    // A browser too old for Fetch Metadata is known by its User-Agent.
    assert.is((await raw('GET', path, { host: 'attacker.example', 'user-agent': 'Mozilla/5.0 (old)' })).status, 403, path);
  }
  // The same reads by name (localhost) or by a client that is not a browser are answered.
  assert.is((await raw('GET', `${api}/workflows/waiter`, { host: 'localhost', 'sec-fetch-site': 'same-origin' })).status, 200);
  assert.is((await raw('GET', `${api}/workflows/waiter`, { host: 'attacker.example', 'user-agent': 'curl/8' })).status, 200);
  // The callback URL is open to whoever holds it, browser or not, by any Host.
  const cb = new URL(url);
  const d = await raw('POST', cb.pathname, { host: 'attacker.example', 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' }, '"ok"');
  assert.is(d.status, 200, d.text);
});

// Each execution starts two more of itself (skip_polling: it does not wait on them), computes a little and
// then waits for a callback nobody sends: 2,047 executions down to the nesting bound, all ACTIVE at once.
const STORM = `main:
  steps:
    - spawn:
        for:
          value: i
          range: [1, 2]
          steps:
            - child:
                try:
                  call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.create
                  args:
                    parent: projects/my-project/locations/us-central1/workflows/storm
                    execution: {argument: {}}
                    connector_params: {skip_polling: true}
                except:
                  as: e
                  steps:
                    - deep:
                        next: continue
    - work:
        for:
          value: i
          range: [1, 200]
          steps:
            - step:
                assign:
                  - x: \${i}
    - cb:
        call: events.create_callback_endpoint
        result: cb
    - wait:
        call: events.await_callback
        args:
          callback: \${cb}
          timeout: 3600
`;

s('a storm of executions that start executions keeps the control API and the web UI answering, and reset ends it (docs/limits.md "Executions")', async () => {
  const api = '/v1/projects/my-project/locations/us-central1';
  assert.is((await post(`${api}/workflows?workflowId=storm`, { sourceContents: STORM })).status, 200);
  const top = (await post(`${api}/workflows/storm/executions`, {})).json as { name: string };
  // Wait until the storm is wide: a thousand executions ACTIVE at once.
  let active = 0;
  for (let i = 0; i < 500 && active < 1000; i++) {
    await new Promise((r) => setTimeout(r, 20));
    const list = (await (await fetch(`${server.url}${api}/workflows/storm/executions?view=BASIC&pageSize=1000&filter=state%3D%22ACTIVE%22`)).json()) as { executions?: unknown[] };
    active = list.executions?.length ?? 0;
  }
  assert.ok(active >= 1000, `${active} executions ACTIVE`);
  for (const path of ['/emulator/v1/health', '/emulator/v1/clock', '/ui', `/v1/${top.name}`]) {
    assert.is((await raw('GET', path, { host: 'localhost' })).status, 200, path);
  }
  assert.is((await post('/emulator/v1/reset', {})).status, 200);
  // Nothing of the storm is left: its workflow and executions are gone, and nothing runs on.
  assert.is((await raw('GET', `/v1/${top.name}`, { host: 'localhost' })).status, 404);
  assert.is((await raw('GET', `${api}/workflows/storm`, { host: 'localhost' })).status, 404);
  assert.is([...server.service.listWorkflows()].length, 0);
});

s.run();
