import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rejection } from '../support/rejection.ts';
import { createVirtualClock, systemClock } from '../../src/engine/clock.ts';

// The injected Clock (stdlib types; STYLE.md "Modeling": time is injected so sleeps are testable).
const s = suite('engine clocks');


s('systemClock.now is Unix time in ms with sub-millisecond precision', () => {
  const t = systemClock.now();
  assert.ok(Math.abs(t - Date.now()) < 1000);
  assert.ok(!Number.isInteger(t) || !Number.isInteger(systemClock.now()));
});

s('systemClock.sleep resolves, and rejects with the reason when aborted (issue 3: abortable sleep)', async () => {
  await systemClock.sleep(1);
  const ctrl = new AbortController();
  const p = systemClock.sleep(60_000, ctrl.signal);
  const reason = new Error('stop');
  ctrl.abort(reason);
  assert.is(await rejection(p), reason);
  assert.is(await rejection(systemClock.sleep(1, ctrl.signal)), reason, 'an aborted signal rejects at once');
});

s('virtual clock: sleeps end at once, move the time and are recorded', async () => {
  const c = createVirtualClock({ startMs: 1000 });
  await c.sleep(5000);
  assert.is(c.now(), 6000);
  c.advance(4);
  assert.is(c.now(), 6004);
  assert.equal(c.sleepsMs, [5000]);
});

s('virtual clock: held sleeps end when the time passes them, or reject on abort', async () => {
  const c = createVirtualClock({ startMs: 0, holdOverMs: 100 });
  let done = false;
  const p = c.sleep(1000).then(() => {
    done = true;
  });
  await c.sleep(50);
  await new Promise((r) => setImmediate(r));
  assert.is(done, false);
  c.advance(1000);
  await p;
  assert.is(done, true);
  const ctrl = new AbortController();
  const q = c.sleep(10_000, ctrl.signal);
  ctrl.abort('why');
  assert.is(await rejection(q), 'why');
});

s.run();
