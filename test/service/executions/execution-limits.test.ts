// Executions that cannot run away (docs/limits.md "Executions"): a cap on ACTIVE executions (Google's
// "Concurrent executions" quota, https://cloud.google.com/workflows/quotas) answered with RESOURCE_EXHAUSTED,
// and a bound on how deep child executions nest, so a workflow that runs itself stops with an HttpError 429.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServiceCore, MAX_CHILD_DEPTH } from '../../../src/service/core.ts';
import { ApiError } from '../../../src/service/errors.ts';
import type { Execution, ServiceCore } from '../../../src/service/model.ts';
import { until } from '../../support/emulator.ts';

const s = suite('execution limits (docs/limits.md "Executions")');

const SLEEPER = 'main:\n  steps:\n    - s:\n        call: sys.sleep\n        args: {seconds: 3600}\n';
const SELF = `main:
  steps:
    - again:
        call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.run
        args:
          workflow_id: self
        result: r
    - done:
        return: \${r}
`;

/** The execution once it has ended. */
function settled(c: ServiceCore, wf: string, id: string): Promise<Execution> {
  return until(() => {
    const ex = c.getExecution(wf, id);
    return ex.state === 'ACTIVE' ? undefined : ex;
  }, `${id} to end`);
}

s('over the cap of ACTIVE executions a new one is RESOURCE_EXHAUSTED (429); once one ends there is room again', () => {
  const c = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {}, maxActiveExecutions: 3 });
  c.createWorkflow('sleeper', { sourceContents: SLEEPER });
  const started = [0, 1, 2].map(() => c.createExecution('sleeper', {}));
  try {
    c.createExecution('sleeper', {});
    assert.unreachable('a fourth ACTIVE execution was started');
  } catch (e) {
    assert.instance(e, ApiError);
    assert.is((e as ApiError).code, 'RESOURCE_EXHAUSTED');
    assert.is((e as ApiError).httpStatus, 429);
    assert.match((e as Error).message, /3 executions are ACTIVE/);
  }
  // Reads go on answering at the cap.
  assert.is(c.listExecutions('sleeper').length, 3);
  c.cancelExecution('sleeper', started[0]!.name.split('/').at(-1)!);
  assert.is(c.createExecution('sleeper', {}).state, 'ACTIVE');
  c.close();
});

s(`a workflow that runs itself stops at ${MAX_CHILD_DEPTH} nested children with an HttpError 429; every execution ends`, async () => {
  const c = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {} });
  c.createWorkflow('self', { sourceContents: SELF });
  const top = c.createExecution('self', {});
  const done = await settled(c, 'self', top.name.split('/').at(-1)!);
  assert.is(done.state, 'FAILED');
  const all = c.listExecutions('self');
  assert.is(all.length, MAX_CHILD_DEPTH + 1);
  assert.ok(all.every((e) => e.state === 'FAILED'));
  const deepest = all[0]!; // newest first
  const payload = JSON.parse(deepest.error!.payload) as { tags: string[]; code: number; message: string };
  assert.equal(payload.tags, ['HttpError']);
  assert.is(payload.code, 429);
  assert.match(payload.message, /nest at most 10 deep/);
  c.close();
});

s('pruning keeps the newest terminal executions and every ACTIVE one, per workflow and in total', async () => {
  const c = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {}, maxRetainedExecutions: 10 });
  c.createWorkflow('sleeper', { sourceContents: SLEEPER });
  c.createWorkflow('quick', { sourceContents: 'main:\n  steps:\n    - r:\n        return: 1\n' });
  const sleepers = [0, 1].map(() => c.createExecution('sleeper', {}).name);
  const quick: string[] = [];
  for (let i = 0; i < 40; i++) {
    const ex = c.createExecution(i % 2 ? 'quick' : 'sleeper', {});
    if (i % 2) quick.push(ex.name);
    else c.cancelExecution('sleeper', ex.name.split('/').at(-1)!);
    await new Promise((r) => setImmediate(r));
  }
  const all = c.listExecutions();
  assert.ok(all.length <= 11, `${all.length} kept`);
  for (const name of sleepers) assert.ok(all.some((e) => e.name === name && e.state === 'ACTIVE'), 'an ACTIVE one was dropped');
  assert.ok(all.some((e) => e.name === quick.at(-1)), 'the newest was dropped');
  const byWorkflow = c.listExecutions('quick').length + c.listExecutions('sleeper').length;
  assert.is(byWorkflow, all.length);
  c.close();
});

s('detailed history: once finished executions keep more variables than the budget, the oldest ones lose theirs first (docs/limits.md "Step history")', async () => {
  const c = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {}, maxDetailedHistoryBytes: 1_000_000 });
  const BIG = `main:
  steps:
    - init:
        assign:
          - s: "${'x'.repeat(10_000)}"
    - loop:
        for:
          value: i
          range: [1, 20]
          steps:
            - touch:
                assign:
                  - n: \${i}
    - done:
        return: 1
`;
  c.createWorkflow('big', { sourceContents: BIG });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const ex = c.createExecution('big', { executionHistoryLevel: 'EXECUTION_HISTORY_DETAILED' });
    const id = ex.name.split('/').at(-1)!;
    await settled(c, 'big', id);
    ids.push(id);
  }
  const withVariables = (id: string): number => c.listStepEntries('big', id, {}).stepEntries.filter((e) => e.variableData !== undefined).length;
  assert.is(withVariables(ids[0]!), 0, 'the oldest lost its variables');
  assert.ok(withVariables(ids[2]!) > 10, 'the newest keeps them');
  assert.ok(c.listStepEntries('big', ids[0]!, {}).stepEntries.length > 20, 'the entries themselves stay');
  c.close();
});

s.run();
