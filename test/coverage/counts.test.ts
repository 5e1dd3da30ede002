// Coverage counts kept by the step observer (docs/coverage.md): which steps started, which branch paths were
// taken and which routines were called, over executions of one source, for every branch kind.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CoverageCounts } from '../../src/coverage/counts.ts';
import { summarize } from '../../src/coverage/summary.ts';
import { createVirtualTime } from '../../src/engine/virtual-time.ts';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { parseJson } from '../../src/lang/json.ts';
import { NO_MOCKS, parseMocks } from '../../src/mocks/mock-file.ts';
import { prepareExecution } from '../../src/service/executions/prepare-execution.ts';
import { runToOutcome } from '../../src/service/executions/run-to-outcome.ts';
import { CallbackRegistry } from '../../src/service/callbacks/callback-registry.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';

const source = readFileSync(new URL('../fixtures/coverage/every-branch.yaml', import.meta.url), 'utf8');
const definition = compileDefinition(source, DEFINITION_LIBRARY);

async function run(counts: CoverageCounts, argument: unknown, history: 'none' | 'basic' = 'basic'): Promise<string> {
  const clock = createVirtualTime();
  const { deps } = prepareExecution({
    ids: { project: 'p', location: 'l', workflowId: 'w', revisionId: 'r', executionId: 'e' },
    clock,
    fetch,
    library: DEFINITION_LIBRARY,
    mocks: NO_MOCKS,
    history,
    log: () => {},
    callbacks: new CallbackRegistry('http://localhost', clock).hubFor({ executionName: 'x', isActive: () => true }),
    coverage: counts,
  });
  const outcome = await runToOutcome(definition, parseJson(JSON.stringify(argument)), deps, new AbortController().signal);
  return outcome.state === 'FAILED' ? `FAILED ${outcome.raised.message}` : outcome.state;
}

const paths = (counts: CoverageCounts): Record<string, number> => {
  const out: Record<string, number> = {};
  for (const b of counts.model.branches) b.paths.forEach((p, i) => (out[`${b.step} ${p.label}`] = counts.paths[b.first + i]!));
  return out;
};

const Counts = suite('coverage counts');

Counts('the model lists every step of every routine and every branch path, once each (docs/coverage.md#what-is-counted)', () => {
  const c = new CoverageCounts({ name: 'f', sourceContents: source }, definition);
  assert.equal(
    c.model.steps.map((s) => `${s.routine}.${s.name}`),
    ['main.start', 'main.pick', 'main.note_b', 'main.skipped', 'main.double', 'main.sum', 'main.add', 'main.guarded', 'main.risky',
      'main.recover', 'main.fan', 'main.l1', 'main.r1', 'main.done', 'always.yes', 'twice.calc', 'unused.never'],
  );
  assert.equal(Object.keys(paths(c)), [
    'pick condition 1', 'pick condition 2', 'pick no condition true', 'sum zero iterations', 'sum one or more iterations',
    'guarded no error', 'guarded except', 'guarded retried', 'risky condition 1', 'risky no condition true',
    'fan branch left', 'fan branch right',
  ]);
  assert.equal(c.model.routines.map((r) => r.name), ['main', 'always', 'twice', 'unused']);
});

Counts('one run counts the steps it started and the paths it took, and nothing else', async () => {
  const c = new CoverageCounts({ name: 'f', sourceContents: source }, definition);
  assert.is(await run(c, { mode: 'a', items: [1, 2], fail: false }), 'SUCCEEDED');
  const s = summarize(c);
  // Skipped by the jump: note_b, skipped; the except block and the retry predicate never ran; `unused` never called.
  assert.equal(s.uncoveredSteps.map((u) => u.step), ['note_b', 'skipped', 'recover', 'yes', 'never']);
  assert.equal(s.steps, { covered: 12, total: 17, percent: 70.58 });
  assert.equal(paths(c), {
    'pick condition 1': 1, 'pick condition 2': 0, 'pick no condition true': 0, 'sum zero iterations': 0,
    'sum one or more iterations': 2, 'guarded no error': 1, 'guarded except': 0, 'guarded retried': 0,
    'risky condition 1': 0, 'risky no condition true': 1, 'fan branch left': 1, 'fan branch right': 1,
  });
  assert.equal(s.branches, { covered: 6, total: 12, percent: 50 });
  assert.equal(s.routines, { covered: 2, total: 4, percent: 50 });
  assert.equal(s.uncoveredLines, [[13, 16], [49, 49], [70, 70], [79, 79]]);
});

Counts('counts add up over executions: every branch kind taken, whichever history the execution keeps', async () => {
  const c = new CoverageCounts({ name: 'f', sourceContents: source }, definition);
  assert.is(await run(c, { mode: 'a', items: [1], fail: false }), 'SUCCEEDED');
  assert.is(await run(c, { mode: 'b', items: [], fail: true }, 'none'), 'SUCCEEDED');
  assert.is(await run(c, { mode: 'c', items: [3], fail: false }), 'SUCCEEDED');
  assert.is(c.executions, 3);
  assert.equal(paths(c), {
    'pick condition 1': 1, 'pick condition 2': 1, 'pick no condition true': 1, 'sum zero iterations': 1,
    'sum one or more iterations': 2, 'guarded no error': 2, 'guarded except': 1, 'guarded retried': 1,
    'risky condition 1': 2, 'risky no condition true': 2, 'fan branch left': 3, 'fan branch right': 3,
  });
  const s = summarize(c);
  assert.equal(s.uncoveredSteps.map((u) => u.step), ['never']);
  assert.equal(s.branches, { covered: 12, total: 12, percent: 100 });
  c.reset();
  assert.equal(summarize(c).steps.covered, 0);
});

Counts.run();

const WRAPPED = readFileSync(new URL('../fixtures/coverage/wrapped.yaml', import.meta.url), 'utf8');
const wrapped = compileDefinition(WRAPPED, DEFINITION_LIBRARY);

/** Runs `wrapped.yaml` with http.get answering 503 and then 200 (mocked). */
async function runWrapped(counts: CoverageCounts, argument: unknown): Promise<string> {
  const clock = createVirtualTime();
  const mocks = parseMocks('http:\n  - match: {url: "https://example.com/flaky"}\n    respond: [{status: 503}, {status: 200, body: ok}]\n', 'mocks');
  const { deps } = prepareExecution({
    ids: { project: 'p', location: 'l', workflowId: 'w', revisionId: 'r', executionId: 'e' },
    clock,
    fetch,
    library: DEFINITION_LIBRARY,
    mocks,
    history: 'basic',
    log: () => {},
    callbacks: new CallbackRegistry('http://localhost', clock).hubFor({ executionName: 'x', isActive: () => true }),
    coverage: counts,
  });
  const outcome = await runToOutcome(wrapped, parseJson(JSON.stringify(argument)), deps, new AbortController().signal);
  return outcome.state;
}

const Wrapped = suite('coverage counts: steps that run at another step\'s position');

Wrapped('a try\'s single step, a condition\'s inline step with next, a try around a switch: each counted once, no path taken by mistake', async () => {
  const c = new CoverageCounts({ name: 'f', sourceContents: WRAPPED }, wrapped);
  assert.equal(c.model.steps.map((s) => s.name), ['fetch', 'route', 'middle', 'fan', 'each', 'checked', 'done']);
  assert.is(await runWrapped(c, { go: true, items: [] }), 'SUCCEEDED');
  const counts = Object.fromEntries(c.model.steps.map((s, i) => [s.name, c.steps[i]]));
  // One start each, though the try's call ran twice (a retry) and the switch's inline step ran at its position.
  assert.equal(counts, { fetch: 1, route: 1, middle: 0, fan: 1, each: 0, checked: 1, done: 0 });
  assert.equal(paths(c), {
    'fetch no error': 1, 'fetch retried': 1, 'route condition 1': 1, 'route no condition true': 0,
    'fan zero iterations': 1, 'fan one or more iterations': 0, 'checked no error': 1, 'checked condition 1': 1,
  });
  assert.is(await runWrapped(c, { go: false, items: [1, 2] }), 'SUCCEEDED');
  assert.equal(summarize(c).uncoveredBranches, []);
  assert.equal(summarize(c).uncoveredSteps, []);
});

Wrapped.run();
