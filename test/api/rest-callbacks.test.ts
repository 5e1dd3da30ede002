// Callbacks end to end over real sockets, against the built bundle (docs/api-resources.md#events): a workflow creates a
// callback endpoint, waits on it, and resumes with the request a client sends to the callback URL; early
// requests are kept; unknown IDs, wrong methods and ended executions are refused without changing anything.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';
import { displayHost } from '../../src/api/http-server.ts';

const s = suite('REST callbacks (black-box)');

let emu: EmulatorProcess;
s.before(async () => {
  emu = await startEmulator({ workflowsDir: false });
});
s.after(async () => {
  await emu.close();
});

const WAITER = (opts: { method?: string; pauseSec?: number; timeoutSec?: number } = {}) => `main:
  steps:
    - make:
        call: events.create_callback_endpoint
        args:
          http_callback_method: ${opts.method ?? 'POST'}
        result: cb
    - pause:
        call: sys.sleep
        args:
          seconds: ${opts.pauseSec ?? 0}
    - wait:
        call: events.await_callback
        args:
          callback: \${cb}
          timeout: ${opts.timeoutSec ?? 30}
        result: got
    - done:
        return: \${got}
`;

async function deploy(id: string, source: string): Promise<void> {
  const r = await emu.request('POST', `/workflows?workflowId=${id}`, { sourceContents: source });
  assert.is(r.status, 200, r.text);
}

async function start(id: string): Promise<string> {
  const r = await emu.request('POST', `/workflows/${id}/executions`, {});
  assert.is(r.status, 200, r.text);
  return r.body.name;
}

async function callbackOf(name: string): Promise<{ url: string; method: string; name: string; createTime: string }> {
  return until(async () => {
    const r = await emu.request('GET', `/v1/${name}/callbacks`);
    return r.body.callbacks.length ? r.body.callbacks[0] : undefined;
  }, 'a callback to be listed');
}

async function finished(name: string) {
  return until(async () => {
    const r = await emu.request('GET', `/v1/${name}`);
    return r.body.state === 'ACTIVE' ? undefined : r.body;
  }, `execution ${name} to finish`);
}

s('the callback URL is http://<host>:<PORT>/callbacks/<128-bit id> and is listed with the spec fields (docs/api-resources.md#events and docs/api-resources.md#callback)', async () => {
  await deploy('waits', WAITER());
  const name = await start('waits');
  const cb = await callbackOf(name);
  assert.equal(Object.keys(cb).sort(), ['createTime', 'method', 'name', 'url']);
  assert.match(cb.url, new RegExp(`^${emu.url}/callbacks/[0-9a-f]{32}$`));
  assert.is(cb.method, 'POST');
  assert.is(cb.name, `${name}/callbacks/${cb.url.split('/').pop()}`);
  // The execution stays ACTIVE while it waits.
  assert.is((await emu.request('GET', `/v1/${name}`)).body.state, 'ACTIVE');
  const other = await start('waits');
  const cb2 = await callbackOf(other);
  assert.is.not(cb2.url, cb.url);
  await emu.request('POST', `/v1/${other}:cancel`);
  await emu.request('POST', `/v1/${name}:cancel`);
});

s('a POST to the callback URL is answered 200 and resumes the workflow with http_request, received_time, type (docs/api-resources.md#events)', async () => {
  await deploy('resumes', WAITER());
  const name = await start('resumes');
  const cb = await callbackOf(name);
  const r = await fetch(`${cb.url}?source=test&x=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-request-id': 'abc' },
    body: '{"approved": true, "count": 12345678901234567}',
  });
  assert.is(r.status, 200);
  const done = await finished(name);
  assert.is(done.state, 'SUCCEEDED', JSON.stringify(done));
  assert.ok(done.result.includes('"count":12345678901234567'), 'ints stay exact');
  const v = JSON.parse(done.result);
  assert.equal(v.http_request.body, { approved: true, count: 12345678901234567 });
  assert.is(v.http_request.method, 'POST');
  assert.is(v.http_request.headers['x-request-id'], 'abc');
  assert.equal(v.http_request.query, { source: 'test', x: '1' });
  assert.is(v.type, 'HTTP');
  assert.match(v.received_time, /^\d{4}-\d\d-\d\dT/);
});

s('a query parameter named __proto__ reaches the workflow as an ordinary key (STYLE: __proto__ is a map key)', async () => {
  await deploy('proto-keys', WAITER());
  const name = await start('proto-keys');
  const cb = await callbackOf(name);
  const r = await fetch(`${cb.url}?__proto__=q&a=1`, { method: 'POST', body: '{}' });
  assert.is(r.status, 200);
  const done = await finished(name);
  const v = JSON.parse(done.result);
  assert.equal(Object.keys(v.http_request.query), ['__proto__', 'a']);
  assert.ok(Object.hasOwn(v.http_request.query, '__proto__') && v.http_request.query['__proto__'] === 'q', done.result);
});

s('a non-JSON body is delivered as text; the callback\'s own method (PUT) is honoured (docs/api-resources.md#events)', async () => {
  await deploy('puts', WAITER({ method: 'PUT' }));
  const name = await start('puts');
  const cb = await callbackOf(name);
  assert.is(cb.method, 'PUT');
  const wrong = await fetch(cb.url, { method: 'POST', body: 'x' });
  assert.is(wrong.status, 405);
  const body = (await wrong.json()) as any;
  assert.is(body.error.code, 405);
  assert.is((await emu.request('GET', `/v1/${name}`)).body.state, 'ACTIVE', 'a wrong method changes nothing');
  const ok = await fetch(cb.url, { method: 'PUT', headers: { 'content-type': 'text/plain' }, body: 'plain words' });
  assert.is(ok.status, 200);
  const done = await finished(name);
  assert.is(JSON.parse(done.result).http_request.body, 'plain words');
});

s('a request that arrives before await_callback is kept and delivered when the workflow waits (docs/api-resources.md#events)', async () => {
  await deploy('early', WAITER({ pauseSec: 1 }));
  const name = await start('early');
  const cb = await callbackOf(name);
  const r = await fetch(cb.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"early": true}' });
  assert.is(r.status, 200);
  assert.is((await emu.request('GET', `/v1/${name}`)).body.state, 'ACTIVE', 'still sleeping');
  const done = await finished(name);
  assert.is(done.state, 'SUCCEEDED');
  assert.equal(JSON.parse(done.result).http_request.body, { early: true });
});

s('an unknown callback ID is 404 in Google\'s error shape (docs/api-resources.md#events)', async () => {
  const r = await emu.request('POST', '/callbacks/0123456789abcdef0123456789abcdef', { x: 1 });
  assert.is(r.status, 404);
  assert.is(r.body.error.status, 'NOT_FOUND');
});

s('a callback of an ended execution answers an error and changes nothing (docs/api-resources.md#events)', async () => {
  await deploy('ended', WAITER());
  const name = await start('ended');
  const cb = await callbackOf(name);
  await fetch(cb.url, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } });
  const done = await finished(name);
  const late = await fetch(cb.url, { method: 'POST', body: '{"again": 1}', headers: { 'content-type': 'application/json' } });
  assert.ok(late.status >= 400, `status ${late.status}`);
  assert.equal((await emu.request('GET', `/v1/${name}`)).body, done);
  // Cancelled while waiting: the same.
  const name2 = await start('ended');
  const cb2 = await callbackOf(name2);
  const c = await emu.request('POST', `/v1/${name2}:cancel`);
  assert.is(c.body.state, 'CANCELLED');
  const after = await fetch(cb2.url, { method: 'POST', body: '{}' });
  assert.ok(after.status >= 400);
  assert.is((await emu.request('GET', `/v1/${name2}`)).body.state, 'CANCELLED');
});

s('await_callback times out with TimeoutError, which except can catch (docs/api-resources.md#events)', async () => {
  await deploy('times-out', WAITER({ timeoutSec: 0.1 }));
  const done = await finished(await start('times-out'));
  assert.is(done.state, 'FAILED');
  assert.ok(JSON.parse(done.error.payload).tags.includes('TimeoutError'));
  assert.is(done.error.context, 'step: wait');
});

s('callback URLs name localhost when the emulator is bound to all interfaces (docs/api-resources.md#events)', () => {
  assert.is(displayHost('0.0.0.0'), 'localhost');
  assert.is(displayHost('::'), 'localhost');
  assert.is(displayHost('127.0.0.1'), '127.0.0.1');
  assert.is(displayHost('::1'), '[::1]');
});

s('undelivered requests are bounded per execution (4 MB) and in total (64 MB), refused with 429 in Google\'s shape, and freed when the execution ends (docs/api-resources.md#limits)', async () => {
  // Two callbacks per execution, so the per-execution bound is not the per-callback count.
  await deploy('hoards', `main:
  steps:
    - make:
        assign:
          - a: \${events.create_callback_endpoint("POST")}
          - b: \${events.create_callback_endpoint("POST")}
    - pause:
        call: sys.sleep
        args:
          seconds: 600
`);
  const body = 'x'.repeat(1_000_000);
  const post = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'text/plain' }, body });
  const callbacksOf = async (name: string): Promise<string[]> =>
    until(async () => {
      const r = await emu.request('GET', `/v1/${name}/callbacks`);
      return r.body.callbacks.length === 2 ? r.body.callbacks.map((c: { url: string }) => c.url) : undefined;
    }, 'two callbacks');
  // One execution: requests alternate between its two callbacks until the execution's bound refuses one.
  const names: string[] = [];
  let refusedTotal: { url: string; error: any } | undefined;
  for (let e = 0; e < 40 && !refusedTotal; e++) {
    const name = await start('hoards');
    names.push(name);
    const [a, b] = await callbacksOf(name);
    let kept = 0;
    for (let i = 0; ; i++) {
      const r = await post(i % 2 ? b! : a!);
      if (r.status === 200) {
        kept++;
        continue;
      }
      assert.is(r.status, 429);
      const err = ((await r.json()) as any).error;
      assert.is(err.code, 429);
      assert.is(err.status, 'RESOURCE_EXHAUSTED');
      if (/this execution/.test(err.message)) {
        assert.is(kept, 4, 'four requests of 1,000,000 bytes fit in 4 MB, a fifth does not');
      } else {
        assert.match(err.message, /emulator already holds \d+ bytes/);
        refusedTotal = { url: a!, error: err };
      }
      break;
    }
  }
  assert.ok(refusedTotal, 'the total bound refused a request');
  assert.ok(names.length >= 16 && names.length <= 17, `64 MB hold about 16 executions of 4 MB, got ${names.length}`);
  // An ended execution gives its bytes back: the refused request now fits.
  const c = await emu.request('POST', `/v1/${names[0]}:cancel`);
  assert.is(c.body.state, 'CANCELLED');
  assert.is((await post(refusedTotal.url)).status, 200);
  for (const name of names.slice(1)) await emu.request('POST', `/v1/${name}:cancel`);
});

s('many callbacks at once each reach their own execution', async () => {
  await deploy('crowd', WAITER());
  const names = await Promise.all(Array.from({ length: 10 }, () => start('crowd')));
  const cbs = await Promise.all(names.map(callbackOf));
  await Promise.all(cbs.map((cb, i) => fetch(cb.url, { method: 'POST', body: JSON.stringify({ i }), headers: { 'content-type': 'application/json' } })));
  const results = await Promise.all(names.map(finished));
  results.forEach((r, i) => assert.is(JSON.parse(r.result).http_request.body.i, i));
});

s.run();
