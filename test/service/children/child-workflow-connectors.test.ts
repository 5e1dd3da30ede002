// The child-workflow connector (googleapis.workflowexecutions.v1...executions.run/create) in-process: what the
// black-box tests cannot see, the listeners it leaves on the calling run's abort signal (none once the wait is
// over, whatever ended it: the run holds its signal until it ends) and how a cancel of the caller ends the wait.
import { getEventListeners } from 'node:events';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { childWorkflowConnectors, type ChildHost } from '../../../src/service/children/child-workflow-connectors.ts';
import type { OutboundCall } from '../../../src/engine/hooks.ts';
import type { Execution } from '../../../src/service/model.ts';
import { systemClock } from '../../../src/engine/system-clock.ts';
import type { Value } from '../../../src/lang/value.ts';

const s = suite('service/child-workflows (executions connector)');
const RUN = 'googleapis.workflowexecutions.v1.projects.locations.workflows.executions.run';

function host(ended: Promise<Execution>): ChildHost {
  const child = { name: 'projects/p/locations/l/workflows/child/executions/c1', state: 'ACTIVE' } as Execution;
  return {
    project: 'p',
    location: 'l',
    clock: systemClock,
    start: () => child,
    get: () => child,
    whenEnded: () => ended,
    cancel: () => child,
  };
}

function call(signal: AbortSignal): OutboundCall {
  const args = new Map<string, Value>([['workflow_id', 'child']]);
  return { kind: 'connector', name: RUN, args, routine: 'main', step: 'run_child', threadId: '', signal };
}

s('executions.run leaves no listener on the caller\'s abort signal once the child has ended (Google: executions connector run)', async () => {
  const done = { name: 'projects/p/locations/l/workflows/child/executions/c1', state: 'SUCCEEDED', result: '{"ok":true}' } as Execution;
  const run = childWorkflowConnectors(host(Promise.resolve(done))).connectorsFor('parent').get(RUN)!;
  const signal = new AbortController().signal;
  const result = await run(call(signal));
  assert.equal([...(result as Map<string, Value>)], [['ok', true]]);
  assert.is(getEventListeners(signal, 'abort').length, 0);
});

s('executions.run ends with the cancellation reason when the caller is cancelled while it waits, and leaves no listener', async () => {
  const controller = new AbortController();
  const run = childWorkflowConnectors(host(new Promise<Execution>(() => {}))).connectorsFor('parent').get(RUN)!;
  const pending = run(call(controller.signal));
  const reason = new Error('cancelled');
  controller.abort(reason);
  try {
    await pending;
    assert.unreachable('the wait should end');
  } catch (e) {
    assert.is(e, reason);
  }
  assert.is(getEventListeners(controller.signal, 'abort').length, 0);
});

s("executions.run with connector_params.skip_polling returns null at once while the child runs on (https://cloud.google.com/workflows/docs/reference/googleapis/workflowexecutions/v1/projects.locations.workflows.executions/run: \"run() doesn't return anything\")", async () => {
  let started = 0;
  const h = host(new Promise<Execution>(() => {}));
  const run = childWorkflowConnectors({ ...h, start: (...a) => (started++, h.start(...a)) }).connectorsFor('parent').get(RUN)!;
  const signal = new AbortController().signal;
  const c = call(signal);
  c.args.set('connector_params', new Map<string, Value>([['skip_polling', true]]));
  // The child never ends: without skip_polling this would wait forever.
  assert.is(await run(c), null);
  assert.is(started, 1);
  assert.is(getEventListeners(signal, 'abort').length, 0);
});

s('cancelling the caller cancels the child it waits on (Google: executions connector run waits on the child)', async () => {
  const cancelled: string[] = [];
  const h = { ...host(new Promise<Execution>(() => {})), cancel: (name: string) => (cancelled.push(name), { name, state: 'CANCELLED' } as Execution) };
  const controller = new AbortController();
  const pending = childWorkflowConnectors(h).connectorsFor('parent').get(RUN)!(call(controller.signal));
  controller.abort(new Error('cancelled'));
  await (pending as Promise<Value>).catch(() => undefined);
  assert.equal(cancelled, ['projects/p/locations/l/workflows/child/executions/c1']);
});

s('connector_params.timeout: above 0 and at most 31536000 s, as Google documents; anything else raises before a child starts', async () => {
  // https://cloud.google.com/workflows/docs/reference/googleapis/workflowexecutions/v1/projects.locations.workflows.executions/create
  let started = 0;
  const h = { ...host(Promise.resolve({ name: 'c', state: 'SUCCEEDED', result: '1' } as Execution)), start: () => (started++, { name: 'c', state: 'ACTIVE' } as Execution) };
  const run = childWorkflowConnectors(h).connectorsFor('parent').get(RUN)!;
  const withTimeout = (t: Value): OutboundCall => {
    const c = call(new AbortController().signal);
    c.args.set('connector_params', new Map<string, Value>([['timeout', t]]));
    return c;
  };
  for (const [t, tag] of [[-5n, 'ValueError'], [0n, 'ValueError'], [1e300, 'ValueError'], [Infinity, 'ValueError'], [NaN, 'ValueError'], [31_536_001n, 'ValueError'], ['60', 'TypeError']] as [Value, string][]) {
    try {
      await run(withTimeout(t));
      assert.unreachable(`timeout ${String(t)} accepted`);
    } catch (e) {
      assert.equal(((e as { value: Map<string, Value> }).value).get('tags'), [tag], String(t));
    }
  }
  assert.is(started, 0);
  assert.is(await run(withTimeout(31_536_000n)), 1n);
  assert.is(await run(withTimeout(0.5)), 1n);
});

s.run();
