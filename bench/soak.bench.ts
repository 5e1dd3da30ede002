// Soak (docs/limits.md): 100,000 short executions and 1,000 executions at EXECUTION_HISTORY_DETAILED over REST
// against one emulator, then `POST /emulator/v1/reset`: the process's RSS must come back within 20% of where
// it was before the load (after the same reset), so nothing the executions left behind (records, history,
// logs, callbacks, timers) outlives them. Reports the executions per second, the peak RSS and the RSS after
// the reset against the RSS before.
// Then, in process, pruning (docs/limits.md "Executions"): 120,000 short executions against one service core,
// past its retention of 100,000; the time per execution of 20,000 once pruning runs (from 110,000, 10,000 at a
// time) against the 20,000 before the store was full (proportional to what is pruned: about 1).
// Usage: node --expose-gc --import tsx bench/soak.bench.ts   (or: npm run bench -- soak)
import { startServer } from '../src/server.ts';
import { createServiceCore } from '../src/service/core.ts';
import { MAX_RETAINED_EXECUTIONS } from '../src/service/service-core-options.ts';
import { report } from './report.ts';

const SHORT = 100_000;
const DETAILED = 1_000;
/** Requests in flight at once. */
const CONCURRENCY = 32;

const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

const server = await startServer({ host: '127.0.0.1', port: 0, grpcPort: 0, service: { log: () => {} }, printExecutionEnd: () => {} });
const api = `${server.url}/v1/projects/my-project/locations/us-central1`;

async function post(path: string, body: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(path.startsWith('http') ? path : api + path, { method: 'POST', body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}

const short = 'main:\n  steps:\n    - done:\n        return: 1\n';
// A 15-line workflow whose every step leaves variables for the detailed history to hold.
const detailed = `main:
  params: [args]
  steps:
    - init:
        assign:
          - items: []
          - text: "${'x'.repeat(200)}"
    - fill:
        for:
          value: i
          range: [1, 40]
          steps:
            - add:
                assign:
                  - items: \${list.concat(items, text + string(i))}
    - done:
        return: \${len(items)}
`;

async function deploy(): Promise<void> {
  for (const [id, source] of [['short', short], ['detailed', detailed]] as const) {
    const r = await post(`/workflows?workflowId=${id}`, { sourceContents: source });
    if (r.status !== 200) throw new Error(`deploy ${id}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** Starts `n` executions of `workflow`, CONCURRENCY at a time, each waited on until it ends. */
async function run(workflow: string, n: number, body: unknown): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < n) {
      next++;
      const r = await post(`/workflows/${workflow}/executions`, body);
      if (r.status !== 200) throw new Error(`create ${workflow}: ${r.status} ${JSON.stringify(r.body)}`);
      let state = r.body.state as string;
      while (state === 'ACTIVE') {
        await new Promise((resolve) => setImmediate(resolve));
        state = ((await (await fetch(`${server.url}/v1/${r.body.name}`)).json()) as { state: string }).state;
      }
      if (state !== 'SUCCEEDED') throw new Error(`${workflow} ended ${state}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

async function settledRss(): Promise<number> {
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((r) => setTimeout(r, 200));
  }
  return process.memoryUsage().rss;
}

async function reset(): Promise<void> {
  const r = await post(`${server.url}/emulator/v1/reset`, {});
  if (r.status !== 200) throw new Error(`reset: ${r.status}`);
  await deploy();
}

// Warm up (JIT, connection pool, the server's first allocations), then reset: the baseline.
await deploy();
await run('short', 2_000, {});
await run('detailed', 50, { executionHistoryLevel: 'EXECUTION_HISTORY_DETAILED' });
await reset();
const before = await settledRss();

const t0 = performance.now();
await run('short', SHORT, {});
const shortSeconds = (performance.now() - t0) / 1000;
await run('detailed', DETAILED, { executionHistoryLevel: 'EXECUTION_HISTORY_DETAILED' });
const peak = await settledRss();
await reset();
const after = await settledRss();
await server.close();

report(`${SHORT.toLocaleString('en-US')} short executions over REST (${CONCURRENCY} in flight)`, SHORT / shortSeconds, 'executions/s');
report('RSS before the load (after a reset)', before / 1e6, 'MB');
report(`RSS after ${SHORT.toLocaleString('en-US')} short and ${DETAILED.toLocaleString('en-US')} detailed executions`, peak / 1e6, 'MB');
report('RSS after the reset', after / 1e6, 'MB');
report('RSS after the reset / before the load', after / before, 'x', { value: 1.2, higherIsBetter: false });

// Pruning: the time per execution created, before the store is full and once it prunes.
{
  const core = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {} });
  core.createWorkflow('short', { sourceContents: short });
  /** Seconds per execution for `n` more, each allowed to end (ACTIVE ones are never pruned). */
  const batch = async (n: number): Promise<number> => {
    const t = performance.now();
    for (let i = 0; i < n; i++) {
      core.createExecution('short', {});
      if (i % 500 === 499) await new Promise((r) => setImmediate(r));
    }
    await new Promise((r) => setImmediate(r));
    return (performance.now() - t) / n;
  };
  // Before the store is full: the 20,000 up to the retention limit (the heap already holds 80,000).
  await batch(MAX_RETAINED_EXECUTIONS - 20_000);
  const full = await batch(20_000);
  // Past it, the store prunes 10,000 at a time: 10,000 to reach the first prune, then two prunes' worth.
  await batch(MAX_RETAINED_EXECUTIONS * 0.1 + 1);
  const pruning = await batch(20_000);
  core.close();
  report(`creating an execution, the 20,000 up to ${MAX_RETAINED_EXECUTIONS.toLocaleString('en-US')}`, full * 1000, 'µs');
  report(`creating an execution past ${(MAX_RETAINED_EXECUTIONS * 1.1).toLocaleString('en-US')} (pruned 10,000 at a time)`, pruning * 1000, 'µs');
  // A prune forgets 10,000 executions in some 50 ms (and their garbage is collected later); a scan of every
  // execution per creation, as before, made each creation cost over 0.5 s at this size.
  report('creating an execution, pruning / before', pruning / full, 'x (proportional: about 1; noisy with GC)', { value: 3, higherIsBetter: false });
}
