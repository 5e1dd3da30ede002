// Google's list filters and orderings (AIP-160, AIP-132; the Workflows list methods' `filter` and `orderBy`
// parameters, e.g. https://cloud.google.com/workflows/docs/reference/executions/rest/v1/projects.locations.workflows.executions.stepEntries/list):
// every field kind, the operators, precedence, and a 400 that names the problem.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseFilter, parseOrderBy, type ListFields } from '../../../src/service/lists/list-filter.ts';
import { ApiError } from '../../../src/service/errors.ts';

interface Item {
  id: number;
  step: string;
  state: string;
  time: string;
  duration?: number;
  done: boolean;
  labels?: Record<string, string>;
}

const fields: ListFields<Item> = {
  entryId: { kind: 'int', get: (i) => i.id },
  step: { kind: 'string', get: (i) => i.step },
  state: { kind: 'enum', get: (i) => i.state, values: ['STATE_SUCCEEDED', 'STATE_FAILED', 'STATE_IN_PROGRESS'], prefix: 'STATE_' },
  createTime: { kind: 'timestamp', get: (i) => i.time },
  duration: { kind: 'duration', get: (i) => i.duration },
  done: { kind: 'bool', get: (i) => i.done },
  labels: { kind: 'map', get: (i) => i.labels, orderable: false },
};

const items: Item[] = [
  { id: 1, step: 'init', state: 'STATE_SUCCEEDED', time: '2023-07-31T23:59:59.000Z', duration: 0.5, done: true, labels: { env: 'prod' } },
  { id: 2, step: 'check_input', state: 'STATE_FAILED', time: '2023-08-01T00:00:00.000Z', duration: 2, done: true, labels: { env: 'dev', team: 'a' } },
  { id: 3, step: 'check_output', state: 'STATE_IN_PROGRESS', time: '2023-08-02T10:00:00.000Z', done: false },
];

function ids(filter: string): number[] {
  const p = parseFilter(filter, fields);
  return items.filter(p).map((i) => i.id);
}

function rejects(filter: string, pattern: RegExp): void {
  try {
    parseFilter(filter, fields);
  } catch (e) {
    assert.instance(e, ApiError);
    assert.is((e as ApiError).code, 'INVALID_ARGUMENT');
    assert.match((e as ApiError).message, /^invalid filter: /);
    assert.match((e as ApiError).message, pattern);
    return;
  }
  assert.unreachable(`"${filter}" was accepted`);
}

const s = suite('list filter (AIP-160)');

s('an empty or blank filter matches every item', () => {
  assert.equal(ids(''), [1, 2, 3]);
  assert.equal(ids('   '), [1, 2, 3]);
});

s('int fields take every comparator', () => {
  assert.equal(ids('entryId=2'), [2]);
  assert.equal(ids('entryId!=2'), [1, 3]);
  assert.equal(ids('entryId>1'), [2, 3]);
  assert.equal(ids('entryId >= 2'), [2, 3]);
  assert.equal(ids('entryId<2'), [1]);
  assert.equal(ids('entryId<=2'), [1, 2]);
});

s('string fields: exact match, * wildcards, and ":" for a substring', () => {
  assert.equal(ids('step="init"'), [1]);
  assert.equal(ids('step=check*'), [2, 3]);
  assert.equal(ids('step="*_output"'), [3]);
  assert.equal(ids('step="c*k_i*t"'), [2]);
  assert.equal(ids('step:"put"'), [2, 3]);
  assert.equal(ids("step='check_input'"), [2]);
  assert.equal(ids('step!="init"'), [2, 3]);
});

s('enum fields accept the name with or without its prefix, as Google\'s example state="SUCCEEDED"', () => {
  assert.equal(ids('state="SUCCEEDED"'), [1]);
  assert.equal(ids('state=STATE_FAILED'), [2]);
  assert.equal(ids('state!=FAILED'), [1, 3]);
});

s('timestamps compare as instants; a plain date is midnight UTC', () => {
  assert.equal(ids('createTime>"2023-08-01"'), [3]);
  assert.equal(ids('createTime>="2023-08-01"'), [2, 3]);
  assert.equal(ids('createTime<"2023-08-01T00:00:00Z"'), [1]);
});

s('durations compare in seconds; an item without one matches no comparison', () => {
  assert.equal(ids('duration>"1s"'), [2]);
  assert.equal(ids('duration<=1.5'), [1]);
});

s('booleans and labels', () => {
  assert.equal(ids('done=false'), [3]);
  assert.equal(ids('labels.env="prod"'), [1]);
  assert.equal(ids('labels.env!="prod"'), [2, 3]);
  assert.equal(ids('labels:team'), [2]);
});

s('AND, OR, NOT, "-", juxtaposition and parentheses; OR binds tighter than AND (AIP-160)', () => {
  assert.equal(ids('createTime>"2023-08-01" AND state="FAILED"'), []);
  assert.equal(ids('entryId=1 OR entryId=3'), [1, 3]);
  assert.equal(ids('state=FAILED OR state=SUCCEEDED AND entryId>1'), [2]);
  assert.equal(ids('NOT state=FAILED'), [1, 3]);
  assert.equal(ids('-state=FAILED'), [1, 3]);
  assert.equal(ids('step:check entryId<3'), [2]);
  assert.equal(ids('(entryId=1 OR entryId=2) AND NOT (step="init")'), [2]);
});

s('a negative int value is a value, not a negation', () => {
  assert.equal(ids('entryId>-1'), [1, 2, 3]);
});

s('a bad filter is INVALID_ARGUMENT naming the problem', () => {
  rejects('bogus=1', /unknown field "bogus".*entryId, step, state/);
  rejects('state="DONE"', /"DONE" is not a value of field "state".*STATE_SUCCEEDED/);
  rejects('state<FAILED', /comparator "<" cannot be used with enum field "state"/);
  rejects('entryId=abc', /field "entryId" takes an integer, not "abc"/);
  rejects('createTime>"yesterday"', /RFC 3339/);
  rejects('duration>"soon"', /duration in seconds/);
  rejects('done=maybe', /true or false/);
  rejects('step="open', /not closed/);
  rejects('(entryId=1', /expected "\)" to close the "\(" at position 1/);
  rejects('entryId', /expected a comparator .* after "entryId"/);
  rejects('entryId=', /expected a value after "entryId="/);
  rejects('entryId=1 )', /unexpected "\)" at position 11/);
  rejects('step.x=1', /field "step" has no subfields/);
  rejects('labels=1', /"labels" is a map/);
  rejects('entryId ! 1', /did you mean "!="/);
});

s('__proto__ and constructor are unknown fields, not object members', () => {
  rejects('__proto__=1', /unknown field "__proto__"/);
  rejects('constructor=1', /unknown field "constructor"/);
});

const o = suite('list orderBy (AIP-132)');

function sorted(orderBy: string): number[] {
  const cmp = parseOrderBy(orderBy, fields);
  const copy = items.slice();
  if (cmp) copy.sort(cmp);
  return copy.map((i) => i.id);
}

o('an empty orderBy keeps the list order', () => {
  assert.is(parseOrderBy('', fields), undefined);
});

o('fields order ascending by default, desc reverses, later fields break ties', () => {
  assert.equal(sorted('entryId desc'), [3, 2, 1]);
  assert.equal(sorted('step'), [2, 3, 1]);
  assert.equal(sorted('createTime desc'), [3, 2, 1]);
  assert.equal(sorted('done, entryId desc'), [3, 2, 1]);
  assert.equal(sorted('done desc, entryId asc'), [1, 2, 3]);
});

o('an unknown or unorderable field or a bad direction is INVALID_ARGUMENT', () => {
  for (const [text, pattern] of [
    ['bogus', /"bogus" is not a field to order by; use entryId/],
    ['labels', /"labels" is not a field to order by/],
    ['entryId up', /may be followed only by asc or desc/],
    ['entryId,', /"" is not a field/],
  ] as const) {
    try {
      parseOrderBy(text, fields);
      assert.unreachable(text);
    } catch (e) {
      assert.instance(e, ApiError);
      assert.match((e as ApiError).message, /^invalid orderBy: /);
      assert.match((e as ApiError).message, pattern);
    }
  }
});

s('a filter is bounded: 2,000 nested parentheses, 10,000 OR terms or 5,000 characters are a 400 naming the bound (docs/limits.md "List filters")', () => {
  rejects('('.repeat(2000) + 'entryId=1' + ')'.repeat(2000), /invalid filter: parentheses are nested more than 16 deep at position 17/);
  rejects(Array.from({ length: 10_000 }, (_, i) => `entryId=${i}`).join(' OR '), /invalid filter: the filter is \d+ characters long, over the limit of 4096/);
  rejects(Array.from({ length: 33 }, (_, i) => `entryId=${i}`).join(' OR '), /invalid filter: more than 32 restrictions \(the one at position \d+ is one too many/);
  rejects(`step="${'x'.repeat(5000)}"`, /over the limit of 4096/);
  // Within the bounds: 16 levels and 32 restrictions are accepted.
  assert.equal(ids('('.repeat(16) + 'entryId=1' + ')'.repeat(16)), [1]);
  assert.equal(ids(Array.from({ length: 32 }, (_, i) => `entryId=${i}`).join(' OR ')), [1, 2, 3]);
});

s.run();
o.run();
