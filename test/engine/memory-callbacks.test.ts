import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WorkflowError } from '../../src/lang/errors.ts';
import { isMap, toJs, type WMap } from '../../src/lang/value.ts';
import { createVirtualClock } from '../../src/engine/clock.ts';
import { createMemoryCallbackHub } from '../../src/engine/memory-callbacks.ts';

// The in-memory CallbackHub (spec "Events") used by engine tests and one-shot runs.
const s = suite('engine in-memory callback hub');

const never = (): AbortSignal => new AbortController().signal;
const idOf = (cb: WMap): string => String(cb.get('url')).split('/').pop()!;

s('create returns {url} under <baseUrl>/callbacks/ and lists the callback (spec "Events")', () => {
  const hub = createMemoryCallbackHub('http://localhost:8787/');
  const cb = hub.create('POST') as WMap;
  assert.match(String(cb.get('url')), /^http:\/\/localhost:8787\/callbacks\/[0-9a-f-]+$/);
  assert.equal(hub.list().map((c) => [c.id, c.method]), [[idOf(cb), 'POST']]);
});

s('a delivered request resolves the wait with http_request, received_time and type HTTP (spec "Events")', async () => {
  const clock = createVirtualClock();
  const hub = createMemoryCallbackHub('http://h', clock);
  const cb = hub.create('POST') as WMap;
  const p = hub.await(cb, 60_000, never());
  assert.is(
    hub.deliver(idOf(cb), { method: 'post', headers: { 'X-A': '1' }, body: new Map([['k', 1n]]), query: { q: ['v'] } }),
    'delivered',
  );
  const ev = await p;
  assert.ok(isMap(ev));
  assert.equal(JSON.parse(JSON.stringify(toJs(ev))), {
    http_request: { body: { k: 1 }, headers: { 'x-a': '1' }, method: 'POST', query: { q: ['v'] } },
    received_time: new Date(clock.now()).toISOString(),
    type: 'HTTP',
  });
});

s('a request that arrives before the wait is queued and delivered at once (stdlib CallbackHub)', async () => {
  const hub = createMemoryCallbackHub('http://h');
  const cb = hub.create('PUT') as WMap;
  hub.deliver(idOf(cb), { method: 'PUT', body: 'early' });
  const ev = (await hub.await(cb, 1000, never())) as WMap;
  assert.is((ev.get('http_request') as WMap).get('body'), 'early');
});

s('deliver refuses unknown callbacks and other methods', () => {
  const hub = createMemoryCallbackHub('http://h');
  const cb = hub.create('GET') as WMap;
  assert.is(hub.deliver('nope', { method: 'GET' }), 'unknown');
  assert.is(hub.deliver(idOf(cb), { method: 'POST' }), 'method-not-allowed');
});

s('the wait raises TimeoutError after timeoutMs on the clock (spec "Events")', async () => {
  const clock = createVirtualClock();
  const hub = createMemoryCallbackHub('http://h', clock);
  const cb = hub.create('POST') as WMap;
  try {
    await hub.await(cb, 5000, never());
    assert.unreachable();
  } catch (e) {
    assert.ok(e instanceof WorkflowError && e.hasTag('TimeoutError'));
  }
  assert.equal(clock.sleepsMs, [5000]);
});

s('cancellation rejects the wait with the signal reason', async () => {
  const hub = createMemoryCallbackHub('http://h', createVirtualClock({ holdOverMs: 0 }));
  const cb = hub.create('POST') as WMap;
  const ctrl = new AbortController();
  const p = hub.await(cb, 5000, ctrl.signal);
  ctrl.abort('cancelled');
  try {
    await p;
    assert.unreachable();
  } catch (e) {
    assert.is(e, 'cancelled');
  }
});

s.run();
