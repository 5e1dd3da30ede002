// AbortControllers reused across executions' runs (src/service/executions/abort-controller-pool.ts; docs/architecture.md): only a controller
// that never aborted and that nothing listens on is reused, so cancelling one execution never reaches another
// (docs/api-resources.md#states-and-transitions: cancel moves that execution to CANCELLED).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { giveBackController, takeController } from '../../../src/service/executions/abort-controller-pool.ts';
import { createServiceCore } from '../../../src/service/core.ts';
import type { Execution } from '../../../src/service/model.ts';
import { until } from '../../support/emulator.ts';

const s = suite('abort pool');

s('a controller handed back clean is taken again; an aborted one or one still listened on is not', () => {
  const clean = takeController();
  giveBackController(clean);
  assert.is(takeController(), clean);

  const aborted = takeController();
  aborted.abort(new Error('cancelled'));
  giveBackController(aborted);
  const next = takeController();
  assert.is.not(next, aborted);
  assert.not.ok(next.signal.aborted);

  const held = takeController();
  const listener = (): void => {};
  held.signal.addEventListener('abort', listener);
  giveBackController(held);
  const other = takeController();
  assert.is.not(other, held);
  held.signal.removeEventListener('abort', listener);
});

s('after many runs have ended, cancelling one sleeping execution leaves the others running to their end', async () => {
  const c = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:9', log: () => {} });
  c.createWorkflow('quick', { sourceContents: 'main:\n  steps:\n    - done:\n        return: 1\n' });
  c.createWorkflow('nap', { sourceContents: 'main:\n  steps:\n    - wait:\n        call: sys.sleep\n        args:\n          seconds: 2\n    - done:\n        return: "woke"\n' });
  const id = (e: Execution) => e.name.slice(e.name.lastIndexOf('/') + 1);
  const quick = Array.from({ length: 50 }, () => c.createExecution('quick', {}));
  await until(() => (quick.every((e) => c.getExecution('quick', id(e)).state === 'SUCCEEDED') ? true : undefined), 'the quick runs to end');
  const naps = Array.from({ length: 4 }, () => c.createExecution('nap', {}));
  // Each nap has started (its run holds a controller) once its step history names the sleep.
  const asleep = (e: Execution): boolean => c.getExecution('nap', id(e)).status?.currentSteps[0]?.step === 'wait';
  await until(() => (naps.every(asleep) ? true : undefined), 'every nap to be asleep');
  assert.is(c.cancelExecution('nap', id(naps[1]!)).state, 'CANCELLED');
  await until(() => (naps.every((e) => c.getExecution('nap', id(e)).state !== 'ACTIVE') ? true : undefined), 'the naps to end', 30_000);
  assert.equal(naps.map((e) => c.getExecution('nap', id(e)).state), ['SUCCEEDED', 'CANCELLED', 'SUCCEEDED', 'SUCCEEDED']);
  assert.equal(naps.map((e) => c.getExecution('nap', id(e)).result), ['"woke"', undefined, '"woke"', '"woke"']);
  c.close();
});

s.run();
