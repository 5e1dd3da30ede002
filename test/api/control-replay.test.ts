// Replay and redrive over the control API (docs/recording.md "Replay and redrive"): `POST
// /emulator/v1/{execution}:replay` runs a new execution from the recording, with the same argument, answers,
// times, UUIDs and callbacks and no outbound request, labelled with its source. `{"revision": "latest"}` runs
// the current revision: the recorded calls are answered from the recording and a new one goes out;
// `{"strict": true}` fails it instead, naming the call. Black-box: the built bundle and a real HTTP service.
// Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';
import { ORDER_AWAITING_APPROVAL } from '../support/workflows.ts';
import { untilEnded } from '../support/run-to-end.ts';

const s = suite('control API: replay and redrive an execution from its recording');

let emu: EmulatorProcess;
let server: Server;
let shop = '';
const hits: Record<string, number> = {};

const v1 = ORDER_AWAITING_APPROVAL;

s.before(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '';
    hits[path] = (hits[path] ?? 0) + 1;
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: `${path.slice(1)}-${hits[path]}` }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  shop = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  emu = await startEmulator({ workflowsDir: false });
  const r = await emu.request('POST', '/workflows?workflowId=order', { sourceContents: v1(false) });
  assert.is(r.status, 200, r.text);
});

s.after(async () => {
  await emu.close();
  await new Promise((r) => server.close(r));
});

const ended = (name: string): Promise<any> => untilEnded(emu, name);

const replay = (name: string, body?: unknown) => emu.request('POST', `${emu.url}/emulator/v1/${name}:replay`, body);
let source: any;

s('a replay gets the same result (times, UUIDs, answers, callback) without a request going out', async () => {
  const started = await emu.request('POST', '/workflows/order/executions', { argument: JSON.stringify({ shop, amount: 5 }) });
  const cb = await until(async () => (await emu.request('GET', `/v1/${started.body.name}/callbacks`)).body.callbacks?.[0], 'the callback');
  const sent = await fetch(cb.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"approved": true}' });
  assert.is(sent.status, 200);
  source = await ended(started.body.name);
  assert.is(source.state, 'SUCCEEDED', JSON.stringify(source));
  const before = { ...hits };
  const r = await replay(source.name);
  assert.is(r.status, 200, r.text);
  assert.is(r.body.labels['replay-of'], source.name.split('/').pop());
  const again = await ended(r.body.name);
  assert.is(again.state, 'SUCCEEDED', JSON.stringify(again));
  assert.equal(JSON.parse(again.result), JSON.parse(source.result));
  assert.equal(hits, before, 'no request reached the service');
});

s('after a new revision, a plain replay is refused; a redrive answers the recorded call and sends the new one', async () => {
  const u = await emu.request('PATCH', '/workflows/order', { sourceContents: v1(true) });
  assert.is(u.status, 200, u.text);
  const refused = await replay(source.name);
  assert.is(refused.status, 400, refused.text);
  assert.match(refused.body.error.message, /revision.*"latest"/);
  const before = { ...hits };
  const r = await replay(source.name, { revision: 'latest' });
  assert.is(r.status, 200, r.text);
  const done = await ended(r.body.name);
  assert.is(done.state, 'SUCCEEDED', JSON.stringify(done));
  assert.is(hits['/charge'], before['/charge'], 'the charge was answered from the recording');
  assert.is(hits['/ship'], (before['/ship'] ?? 0) + 1, 'the new call went out');
});

s('a strict redrive fails at the first call the recording does not hold, naming it', async () => {
  const before = { ...hits };
  const r = await replay(source.name, { revision: 'latest', strict: true });
  assert.is(r.status, 200, r.text);
  const done = await ended(r.body.name);
  assert.is(done.state, 'FAILED');
  assert.match(JSON.parse(done.error.payload).message, new RegExp(`POST ${shop}/ship`));
  assert.equal(hits, before);
});

s('bad input: an unknown field or revision is 400, an unknown execution 404', async () => {
  assert.is((await replay(source.name, { revision: 'previous' })).status, 400);
  assert.is((await replay(source.name, { strict: 'yes' })).status, 400);
  assert.is((await replay(source.name, { nope: 1 })).status, 400);
  assert.is((await replay(source.name.replace(/[^/]+$/, 'missing'))).status, 404);
});

s.run();
