// Replaying a saved case over the control API (docs/recording.md#replaying-a-saved-case): `POST
// /emulator/v1/{workflow}:replay` with a test file as the body runs a new execution from that recording (its
// argument, answers, times, UUIDs and callback) with no request going out; a malformed recording is 400
// naming the problem with `test file:line:col`, and the server keeps serving. Black-box: the built bundle and
// a real HTTP service. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';
import { ORDER_AWAITING_APPROVAL } from '../support/workflows.ts';
import { untilEnded } from '../support/run-to-end.ts';

const s = suite('control API: replay a saved test case (docs/recording.md#replaying-a-saved-case)');

let emu: EmulatorProcess;
let server: Server;
let shop = '';
let hits = 0;

const SOURCE = ORDER_AWAITING_APPROVAL(false);

s.before(async () => {
  server = createServer((req, res) => {
    hits++;
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: `pay-${hits}` })));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  shop = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  emu = await startEmulator({ workflowsDir: false });
  const r = await emu.request('POST', '/workflows?workflowId=order', { sourceContents: SOURCE });
  assert.is(r.status, 200, r.text);
});

s.after(async () => void (await Promise.all([emu.close(), new Promise((r) => server.close(r))])));

const ended = (name: string): Promise<any> => untilEnded(emu, name);

/** POSTs a test file's text to `{workflow}:replay`; the status and the decoded JSON answer. */
async function replaySaved(text: string, query = '', workflow = 'order'): Promise<{ status: number; body: any }> {
  const r = await fetch(`${emu.url}/emulator/v1/projects/my-project/locations/us-central1/workflows/${workflow}:replay${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/yaml' },
    body: text,
  });
  return { status: r.status, body: await r.json() };
}

let saved = '';
let source: any;

s('a case saved with :testCase replays on the server: same result, no request out', async () => {
  const started = await emu.request('POST', '/workflows/order/executions', { argument: JSON.stringify({ shop, amount: 5 }) });
  const cb = await until(async () => (await emu.request('GET', `/v1/${started.body.name}/callbacks`)).body.callbacks?.[0], 'the callback');
  assert.is((await fetch(cb.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"approved": true}' })).status, 200);
  source = await ended(started.body.name);
  assert.is(source.state, 'SUCCEEDED', JSON.stringify(source));
  const t = await fetch(`${emu.url}/emulator/v1/${source.name}:testCase?workflow=order.yaml`);
  assert.is(t.status, 200);
  saved = await t.text();
  const before = hits;
  const r = await replaySaved(saved);
  assert.is(r.status, 200, JSON.stringify(r.body));
  const again = await ended(r.body.name);
  assert.is(again.state, 'SUCCEEDED', JSON.stringify(again));
  assert.equal(JSON.parse(again.result), JSON.parse(source.result));
  assert.is(hits, before, 'no request reached the service');
});

s('?case= picks one case of several; a call the saved case does not hold fails, naming it, instead of going out', async () => {
  const other = saved.replace(/- name: (.*)/, '- name: first').replace(/"?amount"?: 5\b/, 'amount: 7') + saved.slice(saved.indexOf('  - name:')).replace(/- name: (.*)/, '- name: second');
  const ambiguous = await replaySaved(other);
  assert.is(ambiguous.status, 400);
  assert.match(ambiguous.body.error.message, /the test file has 2 cases: name one with \?case=NAME \("first", "second"\)/);
  const missing = await replaySaved(other, '?case=third');
  assert.is(missing.status, 400);
  assert.match(missing.body.error.message, /no case "third"/);
  const before = hits;
  const r = await replaySaved(other, '?case=first');
  assert.is(r.status, 200, JSON.stringify(r.body));
  const done = await ended(r.body.name);
  assert.is(done.state, 'FAILED', 'amount 7 was never recorded');
  assert.match(JSON.parse(done.error.payload).message, new RegExp(`no http mock matches POST ${shop}/charge`));
  assert.is(hits, before);
  const second = await ended((await replaySaved(other, '?case=second')).body.name);
  assert.is(second.state, 'SUCCEEDED', JSON.stringify(second));
});

s('a malformed recording is 400 naming the problem at test file:line:col, and the server keeps serving', async () => {
  const bad: [string, string, RegExp][] = [
    ['not YAML', 'workflow: order.yaml\ncases: [\n', /^invalid test file: test file:\d+:\d+: /],
    ['a misspelled key', 'workflow: order.yaml\ncases:\n  - name: x\n    playbak: {times: []}\n', /^invalid test file: test file:4:5: unknown key 'playbak' in a case/],
    ['a time that is not a number', 'workflow: order.yaml\ncases:\n  - name: x\n    playback: {times: [soon]}\n', /^invalid test file: test file:4:24: 'playback.times' holds milliseconds/],
    ['a mock without match', 'workflow: order.yaml\ncases:\n  - name: x\n    mocks: {http: [{respond: {status: 200}}]}\n', /^invalid test file: test file:4:\d+: /],
    ['a callback URL that is not one', 'workflow: order.yaml\ncases:\n  - name: x\n    playback: {callbacks: ["ftp://x"]}\n', /^invalid test file: test file:4:\d+: 'playback.callbacks' holds callback URLs/],
    ['no cases', 'workflow: order.yaml\n', /^invalid test file: test file:1:1: missing required key 'cases'/],
    ['a mock file the server does not read', 'workflow: order.yaml\nmocks: ./mocks/shop.yaml\ncases:\n  - name: x\n', /^test file:2:8: the file names a mock file \(\.\/mocks\/shop\.yaml\) the server does not read/],
    ['a case that calls a routine', 'workflow: order.yaml\ncases:\n  - name: x\n    routine: helper\n', /calls routine 'helper': only a case through main replays/],
    ['an empty body', '', /the body is empty/],
  ];
  for (const [what, text, message] of bad) {
    const r = await replaySaved(text);
    assert.is(r.status, 400, what);
    assert.is(r.body.error.status, 'INVALID_ARGUMENT', what);
    assert.match(r.body.error.message, message, what);
  }
  assert.is((await replaySaved(saved, '', 'missing')).status, 404, 'an unknown workflow');
  const health = await emu.request('GET', `${emu.url}/emulator/v1/health`);
  assert.is(health.status, 200);
});

s.run();
