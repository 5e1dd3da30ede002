// The executions the service core keeps (docs/rest-api.md; Google's executions resource,
// https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.workflows.executions): found
// by ID and by full name, listed per workflow oldest first, and pruned oldest terminal first past the
// retention limit, never an ACTIVE one.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ExecutionStore, type ExecutionRecord } from '../../../src/service/executions/execution-store.ts';
import { ApiError } from '../../../src/service/errors.ts';
import type { Execution } from '../../../src/service/model.ts';

const PARENT = 'projects/p/locations/l';

function record(workflowId: string, executionId: string, state: Execution['state']): ExecutionRecord {
  const name = `${PARENT}/workflows/${workflowId}/executions/${executionId}`;
  return {
    workflowId,
    executionId,
    name,
    resource: { name, state } as Execution,
    startMs: 0,
    abort: undefined,
    depth: 0,
    historyLevel: 'basic',
    recording: undefined,
    history: undefined,
    callLogLevel: undefined,
    parent: undefined,
    onEnd: undefined,
  };
}

const test = suite('execution store');

test('finds an execution by workflow and ID and by full name; another workflow, parent or ID is NOT_FOUND', () => {
  const store = new ExecutionStore(PARENT, 10, () => {});
  const ex = record('w', 'e1', 'ACTIVE');
  store.add(ex);
  assert.is(store.find('w', 'e1'), ex);
  assert.is(store.byName(ex.name), ex);
  for (const bad of [() => store.find('other', 'e1'), () => store.find('w', 'e2'), () => store.byName('projects/x/locations/l/workflows/w/executions/e1')]) {
    try {
      bad();
      assert.unreachable('expected NOT_FOUND');
    } catch (e) {
      assert.ok(e instanceof ApiError);
      assert.is(e.code, 'NOT_FOUND');
    }
  }
});

test('lists per workflow and in all, oldest first', () => {
  const store = new ExecutionStore(PARENT, 10, () => {});
  for (const [w, e] of [['a', '1'], ['b', '2'], ['a', '3']] as const) store.add(record(w, e, 'SUCCEEDED'));
  assert.equal([...store.list('a')].map((x) => x.executionId), ['1', '3']);
  assert.equal([...store.list()].map((x) => x.executionId), ['1', '2', '3']);
  assert.equal([...store.list('none')], []);
});

test('past the limit plus a tenth, the oldest terminal executions are forgotten down to the limit, ACTIVE ones kept', () => {
  const forgotten: string[] = [];
  const store = new ExecutionStore(PARENT, 10, (ex) => forgotten.push(ex.executionId));
  store.add(record('w', 'active-0', 'ACTIVE'));
  for (let i = 1; i <= 10; i++) store.add(record('w', `done-${i}`, 'SUCCEEDED'));
  assert.equal(forgotten, [], 'at 11 of 10 the store waits for the tenth more');
  store.add(record('w', 'done-11', 'FAILED'));
  assert.equal(forgotten, ['done-1', 'done-2']);
  const kept = [...store.list('w')].map((x) => x.executionId);
  assert.is(kept.length, 10);
  assert.is(kept[0], 'active-0');
  assert.throws(() => store.find('w', 'done-1'));
});

test.run();
