// The emulator's own limits seen through its APIs, in process on a real socket (docs/limits.md): what would
// exhaust, freeze or brick the emulator is answered with a 400 or RESOURCE_EXHAUSTED naming the limit, and
// the server keeps answering.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type RunningServer } from '../../src/server.ts';

const s = suite('emulator limits through the REST and control APIs (docs/limits.md)');

let server: RunningServer;
s.before(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, grpcPort: 0, clock: 'virtual', service: { log: () => {} } });
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

s.run();
