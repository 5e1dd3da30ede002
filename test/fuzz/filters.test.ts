// Fuzz: list filters (AIP-160, https://google.aip.dev/160; docs/limits.md "List filters"): any text, nested
// or repeated at any size, compiles to a predicate or is an ApiError INVALID_ARGUMENT, never a stack overflow
// or any other throw, and a compiled filter runs over items without throwing. Likewise any orderBy, and a
// long list filtered and ordered a slice at a time gives what one filter and one stable sort give.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { anyString } from './values.ts';
import { parseFilter, parseOrderBy } from '../../src/service/lists/list-filter.ts';
import { EXECUTION_FIELDS, executionPageSizes, listPage } from '../../src/service/lists/list-page.ts';
import { ApiError } from '../../src/service/errors.ts';
import type { Execution } from '../../src/service/model.ts';
import { params, FUZZ_SEED } from './config.ts';

const s = suite(`fuzz: list filters (seed ${FUZZ_SEED})`);

const restriction = fc.constantFrom(
  'state="FAILED"',
  'createTime>"2026-01-01"',
  'duration>=1.5s',
  'executionId="a*b*"',
  'labels.env=prod',
  'labels:env',
  'workflowRevisionId:"000"',
  'stepName="x"',
  'nope=1',
  'state<1',
);
const piece = fc.oneof(restriction, fc.constantFrom(' AND ', ' OR ', ' ', 'NOT ', '-', '(', ')', '"', "'", '\\', '!', '=', '*'));
const filter = fc.oneof(
  fc.array(piece, { maxLength: 40 }).map((p) => p.join('')),
  fc.tuple(fc.integer({ min: 1, max: 5000 }), restriction).map(([d, r]) => '('.repeat(d) + r + ')'.repeat(d)),
  fc.tuple(fc.integer({ min: 1, max: 3000 }), restriction, fc.constantFrom(' OR ', ' AND ', ' ')).map(([n, r, j]) => Array(n).fill(r).join(j)),
  anyString({ maxLength: 60 }),
);

const items = [
  { name: 'projects/p/locations/l/workflows/w/executions/ab', state: 'FAILED', startTime: '2026-02-01T00:00:00.000Z', duration: '2s', workflowRevisionId: '000001-a', labels: { env: 'prod' } },
  { name: 'projects/p/locations/l/workflows/w/executions/c', state: 'ACTIVE', startTime: '2025-02-01T00:00:00Z', workflowRevisionId: '000002-b' },
] as unknown as Execution[];

s('any filter compiles or is INVALID_ARGUMENT; a compiled one runs', () => {
  fc.assert(
    fc.property(filter, (f) => {
      let p: ((e: Execution) => boolean) | undefined;
      try {
        p = parseFilter(f, EXECUTION_FIELDS);
      } catch (e) {
        assert.instance(e, ApiError, String(e));
        assert.is((e as ApiError).code, 'INVALID_ARGUMENT');
        assert.match((e as Error).message, /^invalid filter: /);
        return;
      }
      for (const it of items) assert.type(p(it), 'boolean');
    }),
    params(300, [['('.repeat(2000) + 'state="FAILED"' + ')'.repeat(2000)] as [string]]),
  );
});

const field = fc.constantFrom('state', 'startTime', 'duration', 'executionId', 'workflowRevisionId', 'createTime', 'labels', 'nope', '');
const orderBy = fc.oneof(
  fc.array(fc.tuple(field, fc.constantFrom('', ' asc', ' desc', ' up')), { maxLength: 12 }).map((p) => p.map(([f, d]) => f + d).join(',')),
  fc.tuple(fc.integer({ min: 1, max: 3000 }), field).map(([n, f]) => Array(n).fill(f).join(',')),
);

/** `n` executions with few distinct values, so orderings have many ties. */
function many(n: number): Execution[] {
  return Array.from({ length: n }, (_, i) => ({
    name: `projects/p/locations/l/workflows/w/executions/${(i * 7919) % n}`,
    state: ['FAILED', 'SUCCEEDED', 'ACTIVE'][i % 3],
    startTime: `2026-01-0${1 + (i % 5)}T00:00:00.000Z`,
    duration: i % 4 === 0 ? undefined : `${i % 6}s`,
    workflowRevisionId: `00000${i % 2}-x`,
  })) as unknown as Execution[];
}

s('any orderBy compiles or is INVALID_ARGUMENT; over 3,000 items in slices it orders as one stable sort', async () => {
  const list = many(3000);
  await fc.assert(
    fc.asyncProperty(orderBy, fc.constantFrom('', 'state="FAILED" OR duration>2s', 'NOT state="ACTIVE"'), async (o, f) => {
      let compare: ((a: Execution, b: Execution) => number) | undefined;
      try {
        compare = parseOrderBy(o, EXECUTION_FIELDS);
      } catch (e) {
        assert.instance(e, ApiError, String(e));
        assert.match((e as Error).message, /^invalid orderBy: /);
        return;
      }
      const page = await listPage(list, { orderBy: o, filter: f, pageSize: 1000 }, EXECUTION_FIELDS, executionPageSizes('BASIC'), (e) => e.name);
      const matching = f === '' ? list.slice() : list.filter(parseFilter(f, EXECUTION_FIELDS));
      const want = compare ? matching.sort(compare) : matching;
      assert.equal(page.items.map((e) => e.name), want.slice(0, 1000).map((e) => e.name), `orderBy ${o.slice(0, 80)} filter ${f}`);
    }),
    params(60),
  );
});

s.run();
