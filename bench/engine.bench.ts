// Engine benchmarks (issue 3): CPU-bound step throughput, heap held per execution suspended in sys.sleep, and
// wall time of a parallel for whose iterations sleep at the same time.
// Usage: node --expose-gc --import tsx bench/engine.bench.ts   (or: npm run bench -- engine)
import { compileDefinition } from '../src/lang/definition/compile.ts';
import { systemClock } from '../src/engine/clock.ts';
import { createMemoryCallbackHub } from '../src/engine/memory-callbacks.ts';
import { runExecution } from '../src/engine/run.ts';
import type { ExecutionDeps } from '../src/engine/types.ts';
import { report } from './report.ts';

const deps: ExecutionDeps = {
  clock: systemClock,
  fetch: globalThis.fetch,
  env: new Map([['CLOUD_PROJECT_ID', 'bench']]),
  log: () => {},
  callbacks: createMemoryCallbackHub('http://localhost:8787'),
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
`);
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
}

// 2. 10,000 executions held at once in sys.sleep: heap per suspended execution.
{
  const n = 10_000;
  const def = compileDefinition(`
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
`);
  const ctrls: AbortController[] = [];
  gc();
  gc();
  const before = process.memoryUsage().heapUsed;
  const running: Promise<unknown>[] = [];
  for (let i = 0; i < n; i++) {
    ctrls.push(new AbortController()); // one per execution, as the service holds it: counted in the heap
    running.push(runExecution(def, new Map([['id', BigInt(i)]]), deps, ctrls[i]!.signal).catch(() => null));
  }
  await new Promise((r) => setTimeout(r, 50));
  gc();
  gc();
  const after = process.memoryUsage().heapUsed;
  report('engine: heap per execution suspended in sys.sleep (10,000 at once)', (after - before) / n / 1024, 'KB', {
    value: 10,
    higherIsBetter: false,
  });
  const t0 = performance.now();
  for (const c of ctrls) c.abort(new Error('bench over'));
  await Promise.all(running);
  report('engine: cancelling 10,000 sleeping executions', performance.now() - t0, 'ms');
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
`);
  let best = Infinity;
  for (let round = 0; round < 3; round++) {
    const t0 = performance.now();
    await runExecution(def, null, deps, new AbortController().signal);
    best = Math.min(best, performance.now() - t0);
  }
  report('engine: parallel for of 20 iterations sleeping 100 ms each', best, 'ms', { value: 150, higherIsBetter: false });
}
