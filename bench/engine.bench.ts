// Engine benchmarks (docs/language.md#running): CPU-bound step throughput, heap held per execution suspended in sys.sleep, and
// wall time of a parallel for whose iterations sleep at the same time.
// Usage: node --expose-gc --import tsx bench/engine.bench.ts   (or: npm run bench -- engine)
import { compileDefinition } from '../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../src/stdlib/index.ts';
import { systemClock } from '../src/engine/system-clock.ts';
import { CallbackRegistry } from '../src/service/callbacks/callback-registry.ts';
import { runExecution } from '../src/engine/run.ts';
import type { ExecutionDeps } from '../src/engine/types.ts';
import { report } from './report.ts';
import { StepHistory } from '../src/service/history/step-history.ts';
import { DebugSession } from '../src/debug/session.ts';
import { Cancellation } from '../src/platform/cancellation.ts';

const deps: ExecutionDeps = {
  clock: systemClock,
  fetch: globalThis.fetch,
  env: new Map([['CLOUD_PROJECT_ID', 'bench']]),
  log: () => {},
  callbacks: new CallbackRegistry('http://localhost:8787', systemClock).hubFor({ executionName: 'bench', isActive: () => true }),
  library: DEFINITION_LIBRARY,
};
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

// 1. CPU-bound: a range loop with one assign per iteration, just under the 100,000-step limit.
{
  const iterations = 99_990;
  const def = compileDefinition(`
main:
  steps:
    - init:
        assign:
          - total: 0
    - loop:
        for:
          value: i
          range: [1, ${iterations}]
          steps:
            - add:
                assign:
                  - total: \${total + i}
    - done:
        return: \${total}
`, DEFINITION_LIBRARY);
  const steps = iterations + 3;
  let best = Infinity;
  for (let round = 0; round < 15; round++) {
    const t0 = performance.now();
    await runExecution(def, null, deps, new AbortController().signal);
    best = Math.min(best, performance.now() - t0);
  }
  report('engine: CPU-bound 100,000-step workflow', steps / (best / 1000), 'steps/s', {
    value: 1_000_000,
    higherIsBetter: true,
  });
  // The same with a no-op step observer attached (src/engine/hooks.ts): the cost of building step entries.
  const observed: ExecutionDeps = { ...deps, hooks: { observer: { enter: () => undefined, leave: () => {} } } };
  best = Infinity;
  for (let round = 0; round < 15; round++) {
    const t0 = performance.now();
    await runExecution(def, null, observed, new AbortController().signal);
    best = Math.min(best, performance.now() - t0);
  }
  report('engine: CPU-bound 100,000-step workflow, no-op step observer attached', steps / (best / 1000), 'steps/s');

  // Step history (docs/architecture.md#step-history-and-call-logs-the-cost-per-step), side by side with no history in the same rounds, so machine load hits both alike:
  // basic history must keep >= 50% of the steps/s without it.
  const withHistory = (detailed: boolean): ExecutionDeps => ({
    ...deps,
    hooks: { observer: new StepHistory({ detailed, now: Date.now }) },
  });
  let bestOff = Infinity;
  let bestBasic = Infinity;
  for (let round = 0; round < 15; round++) {
    let t0 = performance.now();
    await runExecution(def, null, deps, new AbortController().signal);
    bestOff = Math.min(bestOff, performance.now() - t0);
    const d = withHistory(false);
    t0 = performance.now();
    await runExecution(def, null, d, new AbortController().signal);
    bestBasic = Math.min(bestBasic, performance.now() - t0);
  }
  report('engine: CPU-bound 100,000-step workflow, history off (same rounds as basic)', steps / (bestOff / 1000), 'steps/s');
  report('engine: CPU-bound 100,000-step workflow, basic step history', steps / (bestBasic / 1000), 'steps/s');
  report('engine: basic step history throughput, % of history off', (100 * bestOff) / bestBasic, '%', { value: 50, higherIsBetter: true });

  // A debugger attached with no breakpoint set (docs/debugging.md), side by side with none in the same rounds:
  // it must keep >= 50% of the steps/s without it.
  const debugged = (): ExecutionDeps => {
    const session = new DebugSession(def, 20, { stopped: () => {}, threadStarted: () => {}, threadExited: () => {}, output: () => {} });
    return { ...deps, hooks: { observer: session, gate: session } };
  };
  let bestPlain = Infinity;
  let bestDebugged = Infinity;
  for (let round = 0; round < 15; round++) {
    let t0 = performance.now();
    await runExecution(def, null, deps, new AbortController().signal);
    bestPlain = Math.min(bestPlain, performance.now() - t0);
    const d = debugged();
    t0 = performance.now();
    await runExecution(def, null, d, new AbortController().signal);
    bestDebugged = Math.min(bestDebugged, performance.now() - t0);
  }
  report('engine: CPU-bound 100,000-step workflow, debugger attached, no breakpoints', steps / (bestDebugged / 1000), 'steps/s');
  report('engine: debugger attached throughput, % of none', (100 * bestPlain) / bestDebugged, '%', { value: 50, higherIsBetter: true });
  best = Infinity;
  for (let round = 0; round < 5; round++) {
    const t0 = performance.now();
    await runExecution(def, null, withHistory(true), new AbortController().signal);
    best = Math.min(best, performance.now() - t0);
  }
  report('engine: CPU-bound 100,000-step workflow, detailed step history', steps / (best / 1000), 'steps/s');
}

// 1b. Detailed history: heap held per 1,000 steps (entries with the variables JSON of a loop's scope).
{
  const def = compileDefinition(`
main:
  steps:
    - init:
        assign:
          - total: 0
          - name: "a workflow variable"
    - loop:
        for:
          value: i
          range: [1, 333]
          steps:
            - add:
                assign:
                  - total: \${total + i}
    - done:
        return: \${total}
`, DEFINITION_LIBRARY);
  const histories: StepHistory[] = [];
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  let entries = 0;
  for (let i = 0; i < 100; i++) {
    const h = new StepHistory({ detailed: true, now: Date.now });
    histories.push(h);
    await runExecution(def, null, { ...deps, hooks: { observer: h } }, new AbortController().signal);
    entries += h.recorded;
  }
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  report('engine: detailed step history, heap per 1,000 step entries', ((after - before) / entries) * 1000 / 1024, 'KB');
  histories.length = 0;
}

// 2. 10,000 executions held at once in sys.sleep: heap per suspended execution, without step history and (2b)
// with basic step history, the history included (docs/architecture.md#step-history-and-call-logs-the-cost-per-step: <= 10 KB).
const SLEEPER = compileDefinition(`
main:
  params: [args]
  steps:
    - init:
        assign:
          - id: \${args.id}
          - label: waiting
    - wait:
        call: sys.sleep
        args:
          seconds: 3600
    - done:
        return: \${id}
`, DEFINITION_LIBRARY);

/**
 * Starts `n` executions of SLEEPER (each with the deps `depsOf` gives, made inside the measured window so what
 * they hold counts), measures the heap they hold once all sleep, and returns the KB per execution, with a
 * function that cancels them all and resolves when they have ended.
 */
async function heapPerSleeper(n: number, depsOf: () => ExecutionDeps): Promise<{ kb: number; cancel: () => Promise<unknown> }> {
  const ctrls: Cancellation[] = [];
  const held: ExecutionDeps[] = [];
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const running: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    ctrls.push(new Cancellation()); // one per execution, as the service holds it: counted in the heap
    held.push(depsOf());
    running.push(runExecution(SLEEPER, new Map([['id', BigInt(i)]]), held[i]!, ctrls[i]!.signal).catch(() => null));
  }
  await new Promise((r) => setTimeout(r, 50));
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  const cancel = () => {
    for (const c of ctrls) c.abort(new Error('bench over'));
    return Promise.all(running);
  };
  return { kb: (after - before) / n / 1024, cancel };
}

{
  const plain = await heapPerSleeper(10_000, () => deps);
  report('engine: heap per execution suspended in sys.sleep (10,000 at once)', plain.kb, 'KB', { value: 10, higherIsBetter: false });
  const t0 = performance.now();
  await plain.cancel();
  report('engine: cancelling 10,000 sleeping executions', performance.now() - t0, 'ms');
  const basic = await heapPerSleeper(10_000, () => ({ ...deps, hooks: { observer: new StepHistory({ detailed: false, now: Date.now }) } }));
  report('engine: heap per execution suspended in sys.sleep with basic step history (10,000 at once)', basic.kb, 'KB', {
    value: 10,
    higherIsBetter: false,
  });
  await basic.cancel();
}

// 3. A parallel for of 20 iterations that each sleep 100 ms.
{
  const def = compileDefinition(`
main:
  steps:
    - p:
        parallel:
          for:
            value: i
            range: [1, 20]
            steps:
              - wait:
                  call: sys.sleep
                  args:
                    seconds: 0.1
    - done:
        return: ok
`, DEFINITION_LIBRARY);
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    await runExecution(def, null, deps, new AbortController().signal);
    best = Math.min(best, performance.now() - t0);
  }
  report('engine: parallel for of 20 iterations sleeping 100 ms each', best, 'ms', { value: 150, higherIsBetter: false });
}
