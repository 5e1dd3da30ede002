// The engine's step gate (src/engine/hooks.ts `StepGate`, docs/debugging.md#how-it-works): a held step holds its
// own execution only, an error is shown to the gate once at the step that raised it, a cancelled execution
// ends even while held, and the gate is not asked without an observer.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { runExecution } from '../../src/engine/run.ts';
import type { GatedStep, StepGate, StepObserver } from '../../src/engine/hooks.ts';
import { harness } from './helpers.ts';
import { until } from '../support/emulator.ts';

const s = suite('engine step gate (docs/debugging.md)');

const SOURCE = `main:
  steps:
    - a:
        assign:
          - x: 1
    - b:
        try:
          steps:
            - boom:
                raise: {message: no, tags: [KeyError]}
        except:
          as: e
          steps:
            - c:
                assign:
                  - x: \${x + 1}
    - d:
        return: \${x}
`;
const def = compileDefinition(SOURCE, DEFINITION_LIBRARY);
const observer: StepObserver = { enter: () => undefined, leave: () => {} };

s('a step held by the gate holds its execution only; another execution runs to its end meanwhile', async () => {
  let release!: () => void;
  const seen: string[] = [];
  const gate: StepGate = {
    before: (step) => {
      seen.push(step.step);
      if (step.step === 'd') return new Promise<void>((r) => (release = r));
    },
    raised: () => {},
  };
  const held = runExecution(def, null, { ...harness().deps, hooks: { observer, gate } }, new AbortController().signal);
  let done = false;
  void held.then(() => (done = true));
  assert.is(await runExecution(def, null, harness().deps, new AbortController().signal), 2n);
  await until(() => (seen.includes('d') ? true : undefined), 'the held execution to reach d');
  assert.is(done, false, 'still held at step d');
  assert.equal(seen, ['a', 'b', 'boom', 'c', 'd']);
  release();
  assert.is(await held, 2n);
});

s('the gate sees an error once, at the step that raised it, and may change variables and evaluate there', async () => {
  const raised: string[] = [];
  let at: GatedStep | undefined;
  const gate: StepGate = {
    before: (step) => {
      if (step.step === 'd') {
        step.setVariable('x', 40n);
        at = step;
      }
    },
    raised: (step, _entry, error) => void raised.push(`${step.step}:${(error as Error).message}`),
  };
  assert.is(await runExecution(def, null, { ...harness().deps, hooks: { observer, gate } }, new AbortController().signal), 40n);
  assert.equal(raised, ['boom:no']);
  assert.is(await at!.evaluate('x + 2'), 42n);
  const refused = await Promise.resolve()
    .then(() => at!.evaluate('sys.log("x")'))
    .then(() => 'ran', (e: Error) => e.message);
  assert.match(refused, /side effects/);
});

s('cancelling a held execution ends it with the cancellation', async () => {
  const abort = new AbortController();
  const gate: StepGate = {
    before: (step) => new Promise<void>((_resolve, reject) => step.signal.addEventListener('abort', () => reject(step.signal.reason))),
    raised: () => {},
  };
  const held = runExecution(def, null, { ...harness().deps, hooks: { observer, gate } }, abort.signal);
  abort.abort(new Error('cancelled'));
  await held.then(() => assert.unreachable('should not succeed'), (e: Error) => assert.is(e.message, 'cancelled'));
});

s('without an observer the gate is not asked', async () => {
  let asked = false;
  const gate: StepGate = { before: () => void (asked = true), raised: () => {} };
  assert.is(await runExecution(def, null, { ...harness().deps, hooks: { gate } }, new AbortController().signal), 2n);
  assert.is(asked, false);
});

s.run();
