// Callback registrations live only as long as their execution (docs/limits.md "Callbacks"; Google lists
// only an execution's active callbacks:
// https://cloud.google.com/workflows/docs/reference/executions/rest/v1/projects.locations.workflows.executions.callbacks/list):
// an ended execution's callbacks are forgotten with the requests they hold, and reset forgets them all.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServiceCore } from '../../../src/service/core.ts';
import type { Execution, ServiceCore } from '../../../src/service/model.ts';
import { until } from '../../support/emulator.ts';

const s = suite('callback lifetime (docs/limits.md "Callbacks")');

const MANY = `main:
  steps:
    - init:
        assign:
          - cb: null
    - loop:
        for:
          value: i
          range: [1, 2000]
          steps:
            - c:
                call: events.create_callback_endpoint
                args: {http_callback_method: POST}
                result: cb
    - done:
        return: \${cb.url}
`;
const WAIT = `main:
  steps:
    - c:
        call: events.create_callback_endpoint
        args: {http_callback_method: POST}
        result: cb
    - w:
        call: events.await_callback
        args:
          callback: \${cb}
          timeout: 3600
`;

function core(): ServiceCore & { close(): void; reset(): void } {
  return createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {} });
}

/** The execution once it has ended. */
function settled(c: ServiceCore, wf: string, id: string): Promise<Execution> {
  return until(() => {
    const ex = c.getExecution(wf, id);
    return ex.state === 'ACTIVE' ? undefined : ex;
  }, `${id} to end`);
}

const post = { method: 'POST', headers: {}, query: {}, body: new Uint8Array() };
const idOf = (url: string): string => url.slice(url.lastIndexOf('/') + 1);

s('2,000 callbacks of an execution are forgotten when it ends: none listed, a late delivery is 400', async () => {
  const c = core();
  c.createWorkflow('many', { sourceContents: MANY });
  const ex = c.createExecution('many', {});
  const id = ex.name.split('/').at(-1)!;
  const done = await settled(c, 'many', id);
  assert.is(done.state, 'SUCCEEDED', JSON.stringify(done.error));
  assert.equal(c.listCallbacks('many', id), []);
  assert.is(c.deliverCallback(idOf(JSON.parse(done.result!) as string), post).status, 400, 'a late delivery: 400');
  c.close();
});

s('reset forgets the callbacks of the executions it cancels', async () => {
  const c = core();
  c.createWorkflow('wait', { sourceContents: WAIT });
  const ex = c.createExecution('wait', {});
  const id = ex.name.split('/').at(-1)!;
  const cbs = await until(() => {
    const listed = c.listCallbacks('wait', id);
    return listed.length > 0 ? listed : undefined;
  }, 'the callback');
  assert.is(cbs.length, 1);
  c.reset();
  assert.is(c.deliverCallback(idOf(cbs[0]!.url), post).status, 404);
  c.close();
});

s.run();
