// The step history observer and the stepEntries resource (docs/rest-api.md#step-history; Google's REST reference
// projects.locations.workflows.executions.stepEntries, Execution.Status.currentSteps, Execution.Error.stackTrace),
// in process: enter/leave are called as the engine calls them (src/engine/hooks.ts), and the entries are read
// back as Google's StepEntry resources.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { StepEvent, StepType } from '../../../src/engine/hooks.ts';
import { WorkflowError } from '../../../src/lang/errors.ts';
import type { Value } from '../../../src/lang/value.ts';
import { ApiError } from '../../../src/service/errors.ts';
import { StepHistory } from '../../../src/service/history/step-history.ts';
import type { HistoryEntry } from '../../../src/service/history/step-ring.ts';
import { getStepEntry, listStepEntries } from '../../../src/service/history/step-entries.ts';

const EXEC = 'projects/p/locations/l/workflows/w/executions/e1';

function event(step: string, stepType: StepType, more: Partial<StepEvent> & { vars?: Record<string, Value> } = {}): StepEvent {
  const vars = new Map<string, Value>(Object.entries(more.vars ?? {}));
  return {
    routine: 'main',
    step,
    stepType,
    pos: { line: 3, col: 7 },
    threadId: '',
    callDepth: 0,
    ...more,
    variables: () => vars,
  };
}

function clock(): () => number {
  let t = Date.parse('2026-01-01T00:00:00.000Z');
  return () => (t += 1000);
}

const s = suite('step history: the observer');

const settle = () => new Promise((r) => setTimeout(r, 0));

s('entries get IDs 1, 2, 3... in the order entered, with create and update times from the clock when steps wait', async () => {
  const h = new StepHistory({ detailed: false, now: clock() });
  const a = h.enter(event('init', 'STEP_ASSIGN'), undefined);
  await settle();
  h.leave(a, { state: 'succeeded' });
  await settle();
  const b = h.enter(event('done', 'STEP_RETURN'), undefined);
  h.leave(b, { state: 'succeeded' });
  const list = listStepEntries(h, EXEC, {});
  assert.equal(list.stepEntries.map((e) => [e.entryId, e.step, e.stepType, e.state]), [
    ['1', 'init', 'STEP_ASSIGN', 'STATE_SUCCEEDED'],
    ['2', 'done', 'STEP_RETURN', 'STATE_SUCCEEDED'],
  ]);
  const first = list.stepEntries[0]!;
  assert.is(first.name, `${EXEC}/stepEntries/1`);
  assert.is(first.createTime, '2026-01-01T00:00:01.000Z');
  assert.is(first.updateTime, '2026-01-01T00:00:02.000Z');
  assert.equal(first.navigationInfo, { next: '2' });
  assert.equal(list.stepEntries[1]!.navigationInfo, { previous: '1' });
  assert.is(list.totalSize, 2);
  assert.is(list.nextPageToken, undefined);
});

s('a for loop\'s expected iteration count is given at the detailed level only, in progress and ended (https://cloud.google.com/workflows/docs/debug-steps#execution-history-level)', () => {
  for (const detailed of [false, true]) {
    const h = new StepHistory({ detailed, now: clock() });
    const loop = h.enter(event('loop', 'STEP_FOR', { expectedIterations: 3 }), undefined);
    const running = listStepEntries(h, EXEC, {}).stepEntries[0]!.stepEntryMetadata;
    h.leave(loop, { state: 'succeeded' });
    const ended = listStepEntries(h, EXEC, {}).stepEntries[0]!.stepEntryMetadata;
    for (const m of [running, ended]) assert.is(m?.expectedIteration, detailed ? '3' : undefined, `detailed: ${detailed}`);
  }
});

s('within one synchronous run the clock is read at most once per 64 entries (steps that do not wait share readings)', () => {
  let reads = 0;
  const h = new StepHistory({ detailed: false, now: () => (reads++, 1_700_000_000_000) });
  for (let i = 0; i < 320; i++) h.leave(h.enter(event(`s${i}`, 'STEP_ASSIGN'), undefined), { state: 'succeeded' });
  assert.ok(reads >= 10 && reads <= 11, `${reads} clock reads for 640 enter/leave calls`);
});

s('navigationInfo: children under their parent, siblings linked per parent, parent set', () => {
  const h = new StepHistory({ detailed: false, now: clock() });
  const loop = h.enter(event('loop', 'STEP_FOR', { expectedIterations: 2 }), undefined);
  for (let i = 1; i <= 2; i++) {
    const it = h.enter(event('loop', 'STEP_FOR_ITERATION', { iteration: i }), loop);
    const inner = h.enter(event('add', 'STEP_ASSIGN'), it);
    h.leave(inner, { state: 'succeeded' });
    h.leave(it, { state: 'succeeded' });
  }
  h.leave(loop, { state: 'succeeded' });
  const after = h.enter(event('done', 'STEP_RETURN'), undefined);
  h.leave(after, { state: 'succeeded' });
  const byId = new Map(listStepEntries(h, EXEC, {}).stepEntries.map((e) => [e.entryId, e]));
  assert.equal(byId.get('1')!.navigationInfo, { children: ['2', '4'], next: '6' });
  assert.equal(byId.get('1')!.stepEntryMetadata, { progressType: 'PROGRESS_TYPE_FOR' });
  assert.equal(byId.get('2')!.navigationInfo, { children: ['3'], parent: '1', next: '4' });
  assert.equal(byId.get('4')!.navigationInfo, { children: ['5'], parent: '1', previous: '2' });
  assert.equal(byId.get('4')!.stepEntryMetadata, { progressType: 'PROGRESS_TYPE_FOR', progressNumber: '2' });
  assert.equal(byId.get('5')!.navigationInfo, { parent: '4' });
  assert.equal(byId.get('6')!.navigationInfo, { previous: '1' });
});

s('stepEntryMetadata: retries, switch conditions and parallel threads', () => {
  const h = new StepHistory({ detailed: false, now: clock() });
  const par = h.enter(event('fan', 'STEP_PARALLEL_BRANCH'), undefined);
  const b1 = h.enter(event('fan', 'STEP_PARALLEL_BRANCH_ENTRY', { threadId: '1', branch: 'left' }), par);
  const b2 = h.enter(event('fan', 'STEP_PARALLEL_BRANCH_ENTRY', { threadId: '2', branch: 'right' }), par);
  const r = h.enter(event('call_api', 'STEP_RETRY', { threadId: '2', retryAttempt: 2 }), b2);
  const c = h.enter(event('pick', 'STEP_CONDITION', { threadId: '1' }), b1);
  const pf = h.enter(event('each', 'STEP_PARALLEL_BRANCH_ENTRY', { threadId: '1.3', iteration: 3 }), c);
  for (const e of [pf, c, r, b1, b2, par]) h.leave(e, { state: 'succeeded' });
  const meta = listStepEntries(h, EXEC, {}).stepEntries.map((e) => e.stepEntryMetadata);
  assert.equal(meta, [
    { progressType: 'PROGRESS_TYPE_PARALLEL_BRANCH' },
    { progressType: 'PROGRESS_TYPE_PARALLEL_BRANCH', threadId: '1' },
    { progressType: 'PROGRESS_TYPE_PARALLEL_BRANCH', threadId: '2' },
    { progressType: 'PROGRESS_TYPE_RETRY', progressNumber: '2', threadId: '2' },
    { progressType: 'PROGRESS_TYPE_SWITCH', threadId: '1' },
    { progressType: 'PROGRESS_TYPE_PARALLEL_FOR', progressNumber: '3', threadId: '1.3' },
  ]);
});

s('a failed entry carries the error payload; a cancelled one its state only', () => {
  const h = new StepHistory({ detailed: false, now: clock() });
  const err = WorkflowError.of('ValueError', 'bad input');
  const a = h.enter(event('check', 'STEP_RAISE'), undefined);
  h.leave(a, { state: 'failed', error: err });
  const b = h.enter(event('wait', 'STEP_STD_LIB_CALL'), undefined);
  h.leave(b, { state: 'cancelled', error: new Error('cancelled') });
  const [failed, cancelled] = listStepEntries(h, EXEC, {}).stepEntries;
  assert.is(failed!.state, 'STATE_FAILED');
  assert.equal(JSON.parse(failed!.exception!.payload), { message: 'bad input', code: 0, tags: ['ValueError'] });
  assert.is(cancelled!.state, 'STATE_CANCELLED');
  assert.is(cancelled!.exception, undefined);
  // Another history starts with nothing of this one's (its rare parts live in maps of its own).
  const other = new StepHistory({ detailed: false, now: clock() });
  other.leave(other.enter(event('check', 'STEP_RAISE'), undefined), { state: 'succeeded' });
  assert.is(listStepEntries(other, EXEC, {}).stepEntries[0]!.exception, undefined);
});

s('detailed history records the variables the step left, read at leave time; basic records none', () => {
  const vars = new Map<string, Value>([['x', 1n]]);
  const ev: StepEvent = { ...event('set', 'STEP_ASSIGN'), variables: () => vars };
  const detailed = new StepHistory({ detailed: true, now: clock() });
  const d = detailed.enter(ev, undefined);
  vars.set('y', new Map<string, Value>([['k', 'v']]));
  detailed.leave(d, { state: 'succeeded' });
  const basic = new StepHistory({ detailed: false, now: clock() });
  basic.leave(basic.enter(ev, undefined), { state: 'succeeded' });
  assert.equal(listStepEntries(detailed, EXEC, {}).stepEntries[0]!.variableData, { variables: { x: 1, y: { k: 'v' } } });
  assert.is(listStepEntries(detailed, EXEC, { view: 'EXECUTION_ENTRY_VIEW_BASIC' }).stepEntries[0]!.variableData, undefined);
  assert.is(listStepEntries(basic, EXEC, {}).stepEntries[0]!.variableData, undefined);
});

s('variables over the byte cap are left out and the history says so', () => {
  const h = new StepHistory({ detailed: true, now: clock(), maxVariableBytes: 40 });
  for (let i = 0; i < 3; i++) h.leave(h.enter(event(`s${i}`, 'STEP_ASSIGN', { vars: { text: 'abcdefghij' } }), undefined), { state: 'succeeded' });
  const entries = listStepEntries(h, EXEC, {}).stepEntries;
  assert.ok(entries[0]!.variableData);
  assert.is(entries[2]!.variableData, undefined);
  assert.ok(h.variablesTruncated);
  assert.ok(h.variableBytes <= 40);
});

s('detailed history: variables of entries dropped by the entry cap stop counting against the byte cap at once', () => {
  // Each entry's variables JSON is 21 bytes: the 10 kept entries fit in 300 bytes, the 100 recorded would not.
  const h = new StepHistory({ detailed: true, now: clock(), maxEntries: 10, maxVariableBytes: 300 });
  for (let i = 0; i < 100; i++) h.leave(h.enter(event(`s${i}`, 'STEP_ASSIGN', { vars: { text: 'abcdefghij' } }), undefined), { state: 'succeeded' });
  const entries = listStepEntries(h, EXEC, {}).stepEntries;
  assert.is(entries.length, 10);
  assert.ok(entries.every((e) => e.variableData !== undefined), 'every kept entry has its variables');
  assert.not.ok(h.variablesTruncated);
  assert.is(h.variableBytes, 10 * JSON.stringify({ text: 'abcdefghij' }).length);
});

s('the entry cap keeps the newest entries plus those still in progress, drops the oldest finished ones, and counts them', () => {
  const h = new StepHistory({ detailed: false, now: clock(), maxEntries: 10 });
  const loop = h.enter(event('loop', 'STEP_FOR'), undefined);
  for (let i = 1; i <= 25; i++) {
    const it = h.enter(event('loop', 'STEP_FOR_ITERATION', { iteration: i }), loop);
    h.leave(it, { state: 'succeeded' });
  }
  const list = listStepEntries(h, EXEC, {});
  assert.equal(list.stepEntries.map((e) => e.entryId), ['1', '17', '18', '19', '20', '21', '22', '23', '24', '25', '26']);
  assert.equal(list.stepEntries[0]!.navigationInfo.children, ['17', '18', '19', '20', '21', '22', '23', '24', '25', '26']);
  h.leave(loop, { state: 'succeeded' });
  const after = listStepEntries(h, EXEC, {});
  assert.is(after.stepEntries[0]!.entryId, '17', 'an entry past the cap is dropped as it ends, pinned or not');
  assert.is(after.droppedEntries, 16);
  assert.is(list.stepEntries[0]!.entryId, '1');
  assert.is(list.stepEntries[0]!.state, 'STATE_IN_PROGRESS');
  assert.is(list.stepEntries.at(-1)!.entryId, '26');
  assert.is(list.droppedEntries, 26 - list.stepEntries.length);
  try {
    getStepEntry(h, EXEC, '2');
    assert.unreachable();
  } catch (e) {
    assert.is((e as ApiError).code, 'NOT_FOUND');
    assert.match((e as ApiError).message, /dropped by the cap/);
  }
});

s('currentSteps: the innermost entry in progress on each thread; after the end, the last step entered', () => {
  const h = new StepHistory({ detailed: false, now: clock() });
  const par = h.enter(event('fan', 'STEP_PARALLEL_FOR'), undefined);
  const t1 = h.enter(event('fan', 'STEP_PARALLEL_BRANCH_ENTRY', { threadId: '1', iteration: 1 }), par);
  const t2 = h.enter(event('fan', 'STEP_PARALLEL_BRANCH_ENTRY', { threadId: '2', iteration: 2 }), par);
  const call = h.enter(event('work', 'STEP_SUBWORKFLOW_CALL', { threadId: '1' }), t1);
  const sleep1 = h.enter(event('nap', 'STEP_STD_LIB_CALL', { threadId: '1', routine: 'worker', callDepth: 1 }), call);
  const sleep2 = h.enter(event('wait', 'STEP_STD_LIB_CALL', { threadId: '2' }), t2);
  assert.equal(h.currentSteps(), [{ routine: 'worker', step: 'nap' }, { routine: 'main', step: 'wait' }]);
  for (const e of [sleep1, call, t1]) h.leave(e, { state: 'succeeded' });
  assert.equal(h.currentSteps(), [{ routine: 'main', step: 'wait' }]);
  for (const e of [sleep2, t2, par]) h.leave(e, { state: 'succeeded' });
  assert.equal(h.currentSteps(), [{ routine: 'main', step: 'wait' }]);
});

s('failurePath: the innermost failing entry first, then each subworkflow call it came through', () => {
  const h = new StepHistory({ detailed: false, now: clock() });
  const err = WorkflowError.of('KeyError', 'no such key');
  const tryStep = h.enter(event('guarded', 'STEP_TRY'), undefined);
  const outer = h.enter(event('call_a', 'STEP_SUBWORKFLOW_CALL'), tryStep);
  const inA = h.enter(event('call_b', 'STEP_SUBWORKFLOW_CALL', { routine: 'a', callDepth: 1, pos: { line: 12, col: 7 } }), outer);
  const loop = h.enter(event('loop', 'STEP_FOR', { routine: 'b', callDepth: 2 }), inA);
  const bad = h.enter(event('lookup', 'STEP_ASSIGN', { routine: 'b', callDepth: 2, pos: { line: 20, col: 11 } }), loop);
  for (const e of [bad, loop, inA, outer, tryStep]) h.leave(e, { state: 'failed', error: err });
  assert.equal(h.failurePath().map((e: HistoryEntry) => [e.routine, e.step, e.pos.line]), [
    ['b', 'lookup', 20],
    ['a', 'call_b', 12],
    ['main', 'call_a', 3],
  ]);
});

s('failurePath follows the error that failed last: a caught error is forgotten once another fails', () => {
  const h = new StepHistory({ detailed: false, now: clock() });
  const first = h.enter(event('risky', 'STEP_CALL'), undefined);
  h.leave(first, { state: 'failed', error: WorkflowError.of('HttpError', 'caught') });
  const second = h.enter(event('fatal', 'STEP_RAISE'), undefined);
  h.leave(second, { state: 'failed', error: WorkflowError.of('ValueError', 'not caught') });
  assert.equal(h.failurePath().map((e) => e.step), ['fatal']);
});

const l = suite('stepEntries.list and get');

function history(n: number): StepHistory {
  const h = new StepHistory({ detailed: false, now: clock() });
  for (let i = 1; i <= n; i++) {
    const e = h.enter(event(i % 2 ? `odd${i}` : `even${i}`, i % 3 ? 'STEP_ASSIGN' : 'STEP_RETURN'), undefined);
    h.leave(e, i === n ? { state: 'failed', error: WorkflowError.of('ValueError', 'x') } : { state: 'succeeded' });
  }
  return h;
}

l('pages of pageSize follow each other with nextPageToken until the last page', () => {
  const h = history(25);
  const seen: string[] = [];
  let token: string | undefined;
  let pages = 0;
  do {
    const page = listStepEntries(h, EXEC, { pageSize: 10, ...(token ? { pageToken: token } : {}) });
    assert.is(page.totalSize, 25);
    seen.push(...page.stepEntries.map((e) => e.entryId));
    token = page.nextPageToken;
    pages++;
  } while (token);
  assert.is(pages, 3);
  assert.equal(seen, Array.from({ length: 25 }, (_, i) => String(i + 1)));
});

l('pageSize above 1000 is coerced down; a negative one is INVALID_ARGUMENT', () => {
  const h = history(1005);
  assert.is(listStepEntries(h, EXEC, { pageSize: 5000 }).stepEntries.length, 1000);
  assert.is(listStepEntries(h, EXEC, {}).stepEntries.length, 1000);
  assert.throws(() => listStepEntries(h, EXEC, { pageSize: -1 }), /pageSize must be a non-negative integer/);
});

l('skip skips entries after the page token position', () => {
  const h = history(10);
  const first = listStepEntries(h, EXEC, { pageSize: 3 });
  const next = listStepEntries(h, EXEC, { pageSize: 3, pageToken: first.nextPageToken!, skip: 2 });
  assert.equal(next.stepEntries.map((e) => e.entryId), ['6', '7', '8']);
});

l('filter and orderBy select and sort; totalSize counts the matches', () => {
  const h = history(12);
  const returns = listStepEntries(h, EXEC, { filter: 'stepType=STEP_RETURN', orderBy: 'entryId desc' });
  assert.equal(returns.stepEntries.map((e) => e.entryId), ['12', '9', '6', '3']);
  assert.is(returns.totalSize, 4);
  assert.equal(listStepEntries(h, EXEC, { filter: 'state="FAILED"' }).stepEntries.map((e) => e.step), ['even12']);
  assert.equal(listStepEntries(h, EXEC, { filter: 'step="odd*" AND entryId>=7' }).stepEntries.map((e) => e.entryId), ['7', '9', '11']);
  assert.equal(listStepEntries(h, EXEC, { filter: 'routine="main"', orderBy: 'step' }).stepEntries[0]!.step, 'even10');
});

l('a page token used with another filter, or one that does not decode, is INVALID_ARGUMENT', () => {
  const h = history(10);
  const token = listStepEntries(h, EXEC, { pageSize: 2, filter: 'entryId>1' }).nextPageToken!;
  assert.throws(() => listStepEntries(h, EXEC, { pageSize: 2, pageToken: token }), /another filter or orderBy/);
  assert.throws(() => listStepEntries(h, EXEC, { pageToken: 'garbage' }), /invalid pageToken/);
});

l('a bad filter, orderBy or view is INVALID_ARGUMENT naming it', () => {
  const h = history(2);
  assert.throws(() => listStepEntries(h, EXEC, { filter: 'color=red' }), /unknown field "color"/);
  assert.throws(() => listStepEntries(h, EXEC, { filter: 'stepType=STEP_DANCE' }), /"STEP_DANCE" is not a value of field "stepType"/);
  assert.throws(() => listStepEntries(h, EXEC, { orderBy: 'parent' }), /"parent" is not a field to order by/);
  assert.throws(() => listStepEntries(h, EXEC, { view: 'FULL' }), /invalid view "FULL"/);
});

l('get returns one entry with its children; an unknown or malformed ID is NOT_FOUND or INVALID_ARGUMENT', () => {
  const h = new StepHistory({ detailed: false, now: clock() });
  const sw = h.enter(event('pick', 'STEP_SWITCH'), undefined);
  h.leave(h.enter(event('pick', 'STEP_CONDITION'), sw), { state: 'succeeded' });
  h.leave(sw, { state: 'succeeded' });
  const e = getStepEntry(h, EXEC, '1');
  assert.equal(e.navigationInfo, { children: ['2'] });
  assert.equal(e.stepEntryMetadata, { progressType: 'PROGRESS_TYPE_SWITCH' });
  assert.throws(() => getStepEntry(h, EXEC, '3'), (err: unknown) => err instanceof ApiError && err.code === 'NOT_FOUND');
  assert.throws(() => getStepEntry(h, EXEC, 'abc'), (err: unknown) => err instanceof ApiError && err.code === 'INVALID_ARGUMENT');
});

s.run();
l.run();
