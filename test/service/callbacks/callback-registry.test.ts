import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WorkflowError } from '../../../src/lang/errors.ts';
import { toJs, type Value, type WMap } from '../../../src/lang/value.ts';
import { recordingVirtualTime } from '../../support/virtual-time.ts';
import { testCallbacks } from '../../support/callbacks.ts';

// The one callback hub (src/service/callbacks/callback-registry.ts CallbackRegistry) in process, as the service, the one-shot
// run, the engine tests and the benches use it (docs/api-resources.md#events; Google's "Wait using callbacks").
const s = suite('service callback registry');

const never = (): AbortSignal => new AbortController().signal;
const plain = (v: Value): unknown => JSON.parse(JSON.stringify(toJs(v)));

s('a delivered request resumes the wait with http_request, received_time (on the clock) and type HTTP', async () => {
  const clock = recordingVirtualTime(Date.parse('2030-01-02T03:04:05.000Z'));
  const cbs = testCallbacks(clock, 'http://h:1');
  const cb = cbs.hub.create('post') as WMap;
  assert.match(String(cb.get('url')), /^http:\/\/h:1\/callbacks\/[0-9a-f]{32}$/);
  const [listed] = cbs.list();
  assert.is(listed!.method, 'POST');
  const wait = cbs.hub.await(cb, 60_000, never());
  const r = cbs.deliver(listed!.id, { method: 'POST', headers: { 'X-A': '1' }, query: { q: 'v' }, body: 'plain text' });
  assert.is(r.status, 200);
  const ev = plain(await wait) as { http_request: Record<string, unknown>; received_time: string; type: string };
  assert.equal(ev.http_request, { body: 'plain text', headers: { 'x-a': '1', 'content-type': 'text/plain' }, method: 'POST', query: { q: 'v' } });
  assert.is(ev.received_time, '2030-01-02T03:04:05.000Z');
  assert.is(ev.type, 'HTTP');
});

s('two waiters on one callback are served oldest first; a cancelled waiter is skipped', async () => {
  const cbs = testCallbacks(recordingVirtualTime());
  const cb = cbs.hub.create('POST') as WMap;
  const id = cbs.list()[0]!.id;
  const ctrl = new AbortController();
  const cancelled = cbs.hub.await(cb, 60_000, ctrl.signal);
  const first = cbs.hub.await(cb, 60_000, never());
  const second = cbs.hub.await(cb, 60_000, never());
  ctrl.abort('gone');
  assert.is(await cancelled.catch((e: unknown) => e), 'gone');
  cbs.deliver(id, { method: 'POST', body: 1n });
  cbs.deliver(id, { method: 'POST', body: 2n });
  const bodies = await Promise.all([first, second]);
  assert.equal(bodies.map((b) => plain(b) as { http_request: { body: unknown } }).map((b) => b.http_request.body), [1, 2]);
});

s('the wait raises TimeoutError after its timeout on the injected clock', async () => {
  const clock = recordingVirtualTime();
  const cbs = testCallbacks(clock);
  const waiting = cbs.hub.await(cbs.hub.create('GET'), 5000, never()).catch((x: unknown) => x);
  // A deadline passes when time is carried past it (src/engine/virtual-time.ts).
  await clock.advance(5000);
  const e = await waiting;
  assert.ok(e instanceof WorkflowError && e.hasTag('TimeoutError'));
  assert.equal(clock.sleepsMs, [5000]);
});

s.run();
