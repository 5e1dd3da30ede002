import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rejection } from '../support/rejection.ts';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import type { Definition, Step, StepList, WorkflowDef } from '../../src/lang/definition/ast.ts';
import { WorkflowError } from '../../src/lang/errors.ts';
import { systemClock } from '../../src/engine/system-clock.ts';
import { recordingVirtualTime } from '../support/virtual-time.ts';
import { runExecution } from '../../src/engine/run.ts';
import { failure, harness, run } from './helpers.ts';

// runExecution's contract (docs/language.md#running): result or WorkflowError with stepName; cancellation wherever the
// execution is; synchronous progress until something waits. docs/api-resources.md#states-and-transitions and docs/api-resources.md#limits.
const s = suite('engine runExecution');

const never = (): AbortSignal => new AbortController().signal;
const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 10));


s('an unhandled error rejects with a WorkflowError naming the step (docs/api-resources.md#states-and-transitions)', async () => {
  const def = compileDefinition(`
main:
  steps:
    - ok:
        assign:
          - x: 1
    - broken:
        return: \${x / 0}
`, DEFINITION_LIBRARY);
  const e = await rejection(runExecution(def, null, harness().deps, never()));
  assert.ok(e instanceof WorkflowError);
  assert.is((e as WorkflowError).stepName, 'broken');
  assert.equal((e as WorkflowError).tags, ['ZeroDivisionError']);
});

s('plain steps run synchronously: a workflow that never waits has finished when runExecution returns', () => {
  const h = harness();
  const def = compileDefinition(`
main:
  steps:
    - loop:
        for:
          value: i
          range: [1, 3]
          steps:
            - log:
                call: sys.log
                args:
                  text: \${i}
`, DEFINITION_LIBRARY);
  void runExecution(def, null, h.deps, never());
  assert.is(h.logs.length, 3);
});

s('an already cancelled signal rejects with its reason and runs no step (docs/language.md#running: cancellation)', async () => {
  const h = harness();
  const ctrl = new AbortController();
  const reason = new Error('cancelled');
  ctrl.abort(reason);
  const def = compileDefinition('main:\n  steps:\n    - l:\n        call: sys.log\n        args:\n          text: x\n', DEFINITION_LIBRARY);
  assert.is(await rejection(runExecution(def, null, h.deps, ctrl.signal)), reason);
  assert.is(h.logs.length, 0);
});

const cancelCases: [string, string][] = [
  [
    'sys.sleep',
    `
    - wait:
        call: sys.sleep
        args:
          seconds: 3600`,
  ],
  [
    'a retry backoff',
    `
    - t:
        try:
          steps:
            - log0:
                call: sys.log
                args:
                  text: attempt
            - fail:
                raise: again
        retry:
          predicate: \${always}
          max_retries: 3
          backoff:
            initial_delay: 3600
            max_delay: 3600
            multiplier: 1`,
  ],
  [
    'a callback wait',
    `
    - cb:
        call: events.create_callback_endpoint
        result: cb
    - wait:
        call: events.await_callback
        args:
          callback: \${cb}`,
  ],
  [
    'parallel branches',
    `
    - p:
        parallel:
          branches:
            - a:
                steps:
                  - wait:
                      call: sys.sleep
                      args:
                        seconds: 3600
            - b:
                steps:
                  - wait_b:
                      call: sys.sleep
                      args:
                        seconds: 7200
                  - late:
                      call: sys.log
                      args:
                        text: after`,
  ],
  [
    'a try whose except would catch anything',
    `
    - t:
        try:
          call: sys.sleep
          args:
            seconds: 3600
        except:
          as: e
          steps:
            - caught:
                call: sys.log
                args:
                  text: caught`,
  ],
];

for (const [where, steps] of cancelCases) {
  s(`cancellation in ${where} rejects with the reason at once and nothing runs after (docs/language.md#running)`, async () => {
    const h = harness(systemClock);
    const def = compileDefinition(`
main:
  steps:${steps}
    - after:
        call: sys.log
        args:
          text: after
always:
  params: [e]
  steps:
    - r:
        return: true
`, DEFINITION_LIBRARY);
    const ctrl = new AbortController();
    const p = runExecution(def, null, h.deps, ctrl.signal);
    await tick();
    const logged = h.logs.length;
    const reason = new Error('cancelled');
    ctrl.abort(reason);
    assert.is(await rejection(p), reason);
    await tick();
    assert.is(h.logs.length, logged, 'no step ran after the cancellation');
    assert.ok(h.logs.every((l) => l.payload !== 'after' && l.payload !== 'caught'));
  });
}

s('retry backoff waits min(initial_delay * multiplier^attempt, max_delay) on the clock (docs/language.md#try-retry-and-except 3)', async () => {
  const clock = recordingVirtualTime();
  const o = await run(
    `
main:
  steps:
    - t:
        try:
          raise: again
        retry:
          predicate: \${always}
          max_retries: 4
          backoff:
            initial_delay: 1
            max_delay: 5
            multiplier: 2
always:
  params: [e]
  steps:
    - r:
        return: true
`,
    undefined,
    harness(clock),
  );
  assert.ok('error' in o);
  assert.equal(clock.sleepsMs, [1000, 2000, 4000, 5000]);
});

s('retry.default_backoff numbers: 1 s, then x1.25, at most 60 s (docs/standard-library.md#retry-policies)', async () => {
  const clock = recordingVirtualTime();
  await run(
    `
main:
  steps:
    - t:
        try:
          raise: {code: 503, tags: [HttpError], message: busy}
        retry: \${http.default_retry}
`,
    undefined,
    harness(clock),
  );
  assert.equal(clock.sleepsMs, [1000, 1250, 1562.5, 1953.125, 2441.40625]);
});

s('range: ${[start, end]} evaluates its expression once: a subworkflow in it runs once (docs/architecture.md#layers-and-where-things-are)', async () => {
  const loop = `
          value: i
          range: \${[1, f()]}
          steps:
            - noop:
                assign:
                  - x: \${i}`;
  const tail = `
    - r:
        return: done
f:
  steps:
    - count:
        call: sys.log
        args:
          text: f ran
    - three:
        return: 3
`;
  const forms = {
    for: `main:\n  steps:\n    - loop:\n        for:${loop}${tail}`,
    'parallel for': `main:\n  steps:\n    - loop:\n        parallel:\n         for:${loop.replaceAll('\n', '\n ')}${tail}`,
  };
  for (const [form, yaml] of Object.entries(forms)) {
    const h = harness();
    assert.equal(await run(yaml, undefined, h), { result: '"done"' }, form);
    assert.equal(h.logs.map((l) => l.payload), ['f ran'], form);
  }
});

s('range: an expression that is not a list of two numbers is a TypeError naming the loop (Google: range is [start, end])', async () => {
  const e = await failure('main:\n  steps:\n    - loop:\n        for:\n          value: i\n          range: ${[1, 2, 3]}\n          steps:\n            - n:\n                next: continue\n');
  assert.equal(e.tags, ['TypeError']);
  assert.match(e.message, 'range must be a list of two numbers');
  assert.is(e.step, 'loop');
});

// A definition built by hand, as the definition compiler would reject it at deploy time.
function handMade(steps: Step[]): Definition {
  const list: StepList = { steps, index: new Map(steps.map((st, i) => [st.name, i])) };
  const main: WorkflowDef = { name: 'main', params: [], steps: list, pos: { line: 1, col: 1 } };
  return { main, workflows: new Map([['main', main]]) };
}

s('more than 10 branches is a ResourceLimitError at run time too (docs/api-resources.md#limits)', async () => {
  const pos = { line: 1, col: 1 };
  const empty: StepList = { steps: [], index: new Map() };
  const def = handMade([
    {
      kind: 'parallel',
      name: 'wide',
      pos,
      shared: [],
      exceptionPolicy: 'unhandled',
      branches: Array.from({ length: 11 }, (_, i) => ({ name: `b${i}`, steps: empty, pos })),
    },
  ]);
  const e = (await rejection(runExecution(def, null, harness().deps, never()))) as WorkflowError;
  assert.equal(e.tags, ['ResourceLimitError']);
  assert.is(e.stepName, 'wide');
});

s('continueAll collects at most 100 errors, then raises UnhandledBranchError (docs/api-resources.md#limits)', async () => {
  const o = await run(`
main:
  steps:
    - t:
        try:
          steps:
            - p:
                parallel:
                  exception_policy: continueAll
                  for:
                    value: i
                    range: [1, 150]
                    steps:
                      - boom:
                          raise: \${"failed " + string(i)}
        except:
          as: e
          steps:
            - r:
                return: \${[e.tags, len(e.branches), e.branches[0].id]}
`);
  assert.equal(o, { result: '[["UnhandledBranchError"],100,0]' });
});

s('a result over 512 KB is a ResourceLimitError (docs/api-resources.md#limits: also for oversized results)', async () => {
  const o = await run(`
main:
  steps:
    - init:
        assign:
          - s: x
    - grow:
        for:
          value: i
          range: [1, 17]
          steps:
            - double:
                assign:
                  - s: \${s + s}
    - r:
        return: \${[s, s, s, s, "x"]}
`);
  assert.ok('error' in o);
  if ('error' in o) assert.match(o.error.json, /ResourceLimitError/);
  if ('error' in o) assert.match(o.error.json, /the result is \d+ bytes/);
});

s.run();
