import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rejection } from '../support/rejection.ts';
import { systemClock } from '../../src/engine/system-clock.ts';

// The real clock, the default Clock of executions (src/engine/system-clock.ts); the virtual one is tested in
// virtual-time.test.ts.
const s = suite('engine: the system clock');


s('systemClock.now is Unix time in ms with sub-millisecond precision', () => {
  const t = systemClock.now();
  assert.ok(Math.abs(t - Date.now()) < 1000);
  assert.ok(!Number.isInteger(t) || !Number.isInteger(systemClock.now()));
});

s('systemClock.sleep resolves, and rejects with the reason when aborted (docs/standard-library.md#sys: abortable sleep)', async () => {
  await systemClock.sleep(1);
  const ctrl = new AbortController();
  const p = systemClock.sleep(60_000, ctrl.signal);
  const reason = new Error('stop');
  ctrl.abort(reason);
  assert.is(await rejection(p), reason);
  assert.is(await rejection(systemClock.sleep(1, ctrl.signal)), reason, 'an aborted signal rejects at once');
});

s.run();
