// Benchmarks of recording and of runs turned into tests (docs/recording.md), in process:
//   - what recording costs: a `for` loop of 20,000 mocked http.get calls, each reading sys.now, built by
//     prepareExecution (recorded) against the same dependencies without the recording, steps/s, the median of 5
//     (target: the recorded run keeps >= 90% of the steps/s);
//   - a recorded execution of 1,000 steps (500 mocked calls) replayed by the service (POST :replay), and saved
//     as a test case and run from it by the `test` command's runner (target <= 50 ms);
//   - `test --update` over a file of 1,000 failing cases (target <= 3 s).
// Usage: node --expose-gc --import tsx bench/recording.bench.ts
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileDefinition } from '../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../src/stdlib/index.ts';
import { createVirtualTime } from '../src/engine/virtual-time.ts';
import { runExecution } from '../src/engine/run.ts';
import { CallbackRegistry } from '../src/service/callbacks/callback-registry.ts';
import { prepareExecution } from '../src/service/executions/prepare-execution.ts';
import { createServiceCore } from '../src/service/core.ts';
import { appendTestCase, testCaseOf } from '../src/service/recording/test-case.ts';
import { parseMocks } from '../src/mocks/mock-file.ts';
import { mockExecution } from '../src/mocks/mock-interceptor.ts';
import { executionEnv } from '../src/stdlib/sys.ts';
import { parseTestFile } from '../src/service/recording/test-file.ts';
import { prepareFile, runCase } from '../src/cli/test-command/run-case.ts';
import { testCommand } from '../src/cli/test-command/test-command.ts';
import { report } from './report.ts';

const loop = (n: number): string => `main:
  steps:
    - init:
        assign:
          - r: null
    - loop:
        for:
          value: i
          range: [1, ${n}]
          steps:
            - get:
                call: http.get
                args:
                  url: https://api.test/items/1
                result: r
            - stamp:
                assign:
                  - t: \${sys.now()}
    - done:
        return: \${r.body.id}
`;
const MOCKS = parseMocks('http:\n  - match: {method: GET, url: "https://api.test/items/*"}\n    respond: {body: {id: 1, name: x}}\n', 'bench.yaml');
const noNetwork = (): Promise<Response> => Promise.reject(new Error('no network'));

/** Steps per second of the loop of `n` calls, recorded (prepareExecution) or not (the same parts, unwrapped). */
async function stepsPerSecond(n: number, recorded: boolean): Promise<number> {
  const def = compileDefinition(loop(n), DEFINITION_LIBRARY);
  const clock = createVirtualTime();
  const registry = new CallbackRegistry('http://localhost:1', clock);
  const callbacks = registry.hubFor({ executionName: 'x', isActive: () => true });
  const ids = { project: 'p', location: 'l', workflowId: 'w', revisionId: 'r', executionId: 'e' };
  let deps;
  if (recorded) {
    deps = prepareExecution({ ids, clock, fetch: noNetwork, library: DEFINITION_LIBRARY, mocks: MOCKS, history: 'none', log: () => {}, callbacks }).deps;
  } else {
    const m = mockExecution(MOCKS, { realFetch: noNetwork, clock });
    deps = { clock, fetch: m.fetch, env: executionEnv(ids), log: () => {}, callbacks, library: DEFINITION_LIBRARY, hooks: { interceptor: m.interceptor } };
  }
  const t0 = performance.now();
  const v = await runExecution(def, null, deps, new AbortController().signal);
  const ms = performance.now() - t0;
  if (v !== 1n) throw new Error(`unexpected result ${String(v)}`);
  // init, loop, and per iteration: the iteration, get, stamp; done.
  return ((3 + 3 * n) / ms) * 1000;
}

const median = (xs: number[]): number => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

await stepsPerSecond(2000, true);
await stepsPerSecond(2000, false);
const plain: number[] = [];
const rec: number[] = [];
for (let i = 0; i < 5; i++) {
  plain.push(await stepsPerSecond(20_000, false));
  rec.push(await stepsPerSecond(20_000, true));
}
const [p, r] = [median(plain), median(rec)];
report('http-mocked loop without recording', p, 'steps/s');
report('http-mocked loop, recorded', r, 'steps/s');
report('recorded / not recorded', (r / p) * 100, '% of steps/s', { value: 90, higherIsBetter: true });

// A recorded execution of about 1,000 steps, saved as a test case and run from it.
const dir = mkdtempSync(join(tmpdir(), 'recording-bench-'));
try {
  const source = loop(500);
  writeFileSync(join(dir, 'loop.yaml'), source);
  const core = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {}, mocks: MOCKS, fetch: noNetwork });
  core.createWorkflow('loop', { sourceContents: source });
  const started = core.createExecution('loop', {});
  const id = started.name.split('/').pop()!;
  while (core.getExecution('loop', id).state === 'ACTIVE') await new Promise((res) => setTimeout(res, 1));
  const recorded = core.executionRecording('loop', id);
  // Replayed by the service (POST :replay): from the call to its end.
  const replays: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    const r = core.replayExecution('loop', id, { latest: false, strict: false });
    const rid = r.name.split('/').pop()!;
    while (core.getExecution('loop', rid).state === 'ACTIVE') await new Promise((res) => setImmediate(res));
    replays.push(performance.now() - t0);
    if (core.getExecution('loop', rid).state !== 'SUCCEEDED') throw new Error('the replay did not succeed');
  }
  report(`replay of a recorded ${recorded.steps?.length ?? 0}-step execution by the service (median of 7)`, median(replays), 'ms', { value: 50, higherIsBetter: false });
  core.close();
  const text = appendTestCase(undefined, 'loop.yaml', testCaseOf(recorded, 'recorded'), 'loop.test.yaml');
  const file = parseTestFile('loop.test.yaml', text);
  const prepared = prepareFile(file, dir, new Set());
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    const res = await runCase(prepared, file.cases[0]!, { clock: 'virtual', file: 'loop.test.yaml' });
    times.push(performance.now() - t0);
    if (res.status !== 'passed') throw new Error(`the recorded case did not pass: ${JSON.stringify(res)}`);
  }
  report(`a recorded ${recorded.steps?.length ?? 0}-step execution run from its test case (median of 7)`, median(times), 'ms', { value: 50, higherIsBetter: false });

  // test --update over 1,000 failing cases.
  const cases = Array.from({ length: 1000 }, (_, i) => `  - name: case ${i}   # comment ${i}\n    argument: {n: ${i}}\n    expect:\n      result: {n: ${i + 1}}\n      steps: [done]\n`).join('');
  writeFileSync(join(dir, 'echo.yaml'), 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args}\n');
  writeFileSync(join(dir, 'many.test.yaml'), `# 1,000 stale cases\nworkflow: ./echo.yaml\ncases:\n${cases}`);
  let out = '';
  const t0 = performance.now();
  const code = await testCommand(['--update', join(dir, 'many.test.yaml')], { stdout: (t) => void (out += t), stderr: (t) => void (out += t), cwd: dir });
  const updateMs = performance.now() - t0;
  // The same run without --update (the file now passes): what the 1,000 cases cost to run alone.
  const t1 = performance.now();
  await testCommand([join(dir, 'many.test.yaml')], { stdout: () => {}, stderr: () => {}, cwd: dir });
  report('test over the same 1,000 cases, without --update', (performance.now() - t1) / 1000, 's');
  const updated = out.match(/^updated: /gm)?.length ?? 0;
  if (code !== 1 || updated !== 1000) throw new Error(`expected 1,000 updates, got ${updated} (exit ${code})`);
  report('test --update over 1,000 failing cases', updateMs / 1000, 's', { value: 3, higherIsBetter: false });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
