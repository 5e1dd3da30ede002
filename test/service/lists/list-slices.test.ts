// A list filter or orderBy over a long list is applied a slice at a time, with turns of the event loop between slices
// (docs/limits.md#list-filters), so one list request cannot hold the other requests and the executions:
// in process against listPage, and black-box over REST, where a GET sent after a long filtered list is
// answered before it. Google's list filters: https://google.aip.dev/160.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EXECUTION_FIELDS, executionPageSizes, listPage, type ListPage } from '../../../src/service/lists/list-page.ts';
import { parseFilter, parseOrderBy } from '../../../src/service/lists/list-filter.ts';
import { SLICE as FILTER_SLICE } from '../../../src/service/lists/in-slices.ts';
import type { Execution } from '../../../src/service/model.ts';
import { startServer } from '../../../src/server.ts';

const s = suite('list filters over long lists (slices)');

const STATES = ['SUCCEEDED', 'FAILED', 'CANCELLED'] as const;

/** `n` finished executions, newest first, as the service lists them. */
function executions(n: number): Execution[] {
  const out: Execution[] = [];
  const t0 = Date.parse('2026-01-01T00:00:00Z');
  for (let i = n - 1; i >= 0; i--) {
    const start = new Date(t0 + i * 1000).toISOString();
    out.push({
      name: `projects/p/locations/l/workflows/w/executions/${i.toString(16).padStart(8, '0')}`,
      state: STATES[i % STATES.length]!,
      createTime: start,
      startTime: start,
      endTime: start,
      duration: `${i % 7}s`,
      workflowRevisionId: `00000${i % 3}-abc`,
    } as Execution);
  }
  return out;
}

// 32 restrictions, the most a filter may have: every item is tested against most of them.
const FILTER = Array.from({ length: 31 }, (_, i) => `workflowRevisionId="x${i}"`).join(' OR ') + ' OR state="FAILED"';
const ITEMS = executions(40 * FILTER_SLICE);
const SIZES = executionPageSizes('BASIC');

/** Counts turns of the event loop until `p` settles. */
async function turnsWhile<T>(p: T | Promise<T>): Promise<{ value: T; turns: number }> {
  let turns = 0;
  let done = false;
  const tick = (): void => {
    turns++;
    if (!done) setImmediate(tick);
  };
  setImmediate(tick);
  const value = await p;
  done = true;
  return { value, turns };
}

s('a filter over 40 slices of items gives the event loop turns: an immediate set when the list starts runs before the page comes', async () => {
  const { value: page, turns } = await turnsWhile(listPage(ITEMS, { filter: FILTER, pageSize: 1000 }, EXECUTION_FIELDS, SIZES, (e) => e.name));
  // A turn at least every 8 slices (in-slices.ts), whatever the machine's speed; without slices, none.
  assert.ok(turns >= 3, `${turns} turns of the event loop while 40 slices were tested`);
  const want = ITEMS.filter(parseFilter(FILTER, EXECUTION_FIELDS));
  assert.is(page.items.length, 1000);
  assert.equal(page.items, want.slice(0, 1000));
});

s('an orderBy over 40 slices gives the event loop turns and orders as one stable sort does', async () => {
  for (const orderBy of ['state desc, duration', 'workflowRevisionId, startTime desc', 'executionId']) {
    const { value: page, turns } = await turnsWhile(listPage(ITEMS, { orderBy, pageSize: 1000 }, EXECUTION_FIELDS, SIZES, (e) => e.name));
    assert.ok(turns >= 3, `${orderBy}: ${turns} turns`);
    // Array.prototype.sort is stable (ECMAScript 2019): ties keep the list's order.
    const want = ITEMS.slice().sort(parseOrderBy(orderBy, EXECUTION_FIELDS)!);
    assert.equal(page.items.map((e) => e.name), want.slice(0, 1000).map((e) => e.name), orderBy);
  }
});

s('a field named again in an orderBy adds nothing: 2,000 mentions order as one', async () => {
  const long = await listPage(ITEMS, { orderBy: Array(2000).fill('state').join(',') + ',startTime desc', pageSize: 100 }, EXECUTION_FIELDS, SIZES, (e) => e.name);
  const short = await listPage(ITEMS, { orderBy: 'state, startTime desc', pageSize: 100 }, EXECUTION_FIELDS, SIZES, (e) => e.name);
  assert.equal(long.items, short.items);
});

s('a page token and an orderBy work the same when the filter is tested in slices', async () => {
  const all: string[] = [];
  let token = '';
  do {
    const page: ListPage<Execution> = await listPage(ITEMS, { filter: 'state="CANCELLED"', orderBy: 'startTime', pageSize: 1000, pageToken: token }, EXECUTION_FIELDS, SIZES, (e) => e.name);
    all.push(...page.items.map((e) => e.name));
    token = page.nextPageToken;
  } while (token !== '');
  const want = ITEMS.filter((e) => e.state === 'CANCELLED')
    .slice()
    .reverse()
    .map((e) => e.name);
  assert.equal(all, want);
});

s('a list of at most one slice answers at once, without a promise', () => {
  const page = listPage(ITEMS.slice(0, FILTER_SLICE), { filter: FILTER }, EXECUTION_FIELDS, SIZES, (e) => e.name);
  assert.not.instance(page, Promise);
});

s('a bad filter over a long list is still thrown at once (400), not a rejected promise', () => {
  assert.throws(() => listPage(ITEMS, { filter: 'state=' }, EXECUTION_FIELDS, SIZES, (e) => e.name), /invalid filter/);
});

s('over REST: a GET sent while a filtered list of 30,000 executions is being built is answered before the list', async () => {
  const server = await startServer({ host: '127.0.0.1', port: 0, grpcPort: 0, service: { log: () => {} }, printExecutionEnd: () => {} });
  try {
    const api = `${server.url}/v1/projects/my-project/locations/us-central1/workflows`;
    server.service.createWorkflow('quick', { sourceContents: 'main:\n  steps:\n    - done:\n        return: 1\n' });
    let last = '';
    for (let i = 0; i < 30_000; i++) {
      last = server.service.createExecution('quick', {}).name;
      // Let them finish: ACTIVE executions are capped.
      if (i % 500 === 499) await new Promise((r) => setImmediate(r));
    }
    // Two connections in the client's pool, so the GET below need not open one.
    await Promise.all([0, 1].map(() => fetch(`${server.url}/v1/${last}`).then((r) => r.text())));
    const order: string[] = [];
    // The GET is sent from inside the list request, once its list is taken and before its filter runs.
    let get: Promise<void> | undefined;
    const service = server.service as { listExecutions: (id: string) => Execution[] };
    const listExecutions = service.listExecutions;
    service.listExecutions = (id) => {
      get ??= fetch(`${server.url}/v1/${last}`).then(async (r) => {
        assert.is(r.status, 200);
        await r.json();
        order.push('get');
      });
      return listExecutions(id);
    };
    const filter = FILTER.replace('state="FAILED"', 'state="SUCCEEDED"');
    const list = fetch(`${api}/quick/executions?view=BASIC&pageSize=1000&filter=${encodeURIComponent(filter)}`).then(async (r) => {
      assert.is(r.status, 200, await r.clone().text());
      order.push(`list of ${((await r.json()) as { executions: unknown[] }).executions.length}`);
    });
    await list;
    await get;
    assert.equal(order, ['get', 'list of 1000']);
  } finally {
    await server.close();
  }
});

s.run();
