// Benchmark (docs/rest-api.md#lists): one page of a list of 100,000 executions (default order, a filter, a deep page token,
// an orderBy), as REST and gRPC compute it (service/lists/list-page.ts); target <= 20 ms each ("in milliseconds").
// Usage: node --expose-gc --import tsx bench/lists.bench.ts
import { EXECUTION_FIELDS, executionPageSizes, listPage, type ListRequest } from '../src/service/lists/list-page.ts';
import type { Execution } from '../src/service/model.ts';
import { report } from './report.ts';

const N = 100_000;
const states = ['SUCCEEDED', 'FAILED', 'CANCELLED', 'ACTIVE'] as const;
const t0 = Date.parse('2026-01-01T00:00:00Z');
const executions: Execution[] = [];
for (let i = N - 1; i >= 0; i--) {
  const start = new Date(t0 + i * 1000).toISOString();
  executions.push({
    name: `projects/p/locations/l/workflows/w/executions/${i.toString(16).padStart(8, '0')}`,
    state: states[i % states.length]!,
    createTime: start,
    argument: '{}',
    result: '1',
    startTime: start,
    endTime: new Date(t0 + i * 1000 + (i % 7) * 100).toISOString(),
    duration: `${((i % 7) / 10).toFixed(1)}s`,
    workflowRevisionId: `00000${i % 3}-abc`,
  });
}
const sizes = executionPageSizes('FULL');
const page = (r: ListRequest) => listPage(executions, r, EXECUTION_FIELDS, sizes, (e) => e.name);

/** Median time of `f` (a filtered list answers a promise: it gives the event loop turns between slices). */
async function median(f: () => unknown): Promise<number> {
  for (let i = 0; i < 5; i++) await f();
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    const s = performance.now();
    await f();
    times.push(performance.now() - s);
  }
  times.sort((a, b) => a - b);
  return times[10]!;
}

// A token from deep in the list: page 500 of 100.
let token = '';
for (let i = 0; i < 500; i++) token = (await page({ pageSize: 100, ...(token ? { pageToken: token } : {}) })).nextPageToken;
const target = { value: 20, higherIsBetter: false };
report('list 100,000 executions: first page (default order)', await median(() => page({})), 'ms', target);
report('list 100,000 executions: a filtered page (state="FAILED" AND duration>"0.3s")', await median(() => page({ filter: 'state="FAILED" AND duration>"0.3s"' })), 'ms', target);
report('list 100,000 executions: the page after 50,000 (page token)', await median(() => page({ pageSize: 100, pageToken: token })), 'ms', target);
report('list 100,000 executions: first page ordered by startTime', await median(() => page({ orderBy: 'startTime' })), 'ms', target);
