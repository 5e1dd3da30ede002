import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { WorkflowError } from '../../src/lang/errors.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { type Value, type WMap } from '../../src/lang/value.ts';
import { toJson } from '../../src/lang/json.ts';
import { recordingVirtualTime } from '../support/virtual-time.ts';
import { runExecution } from '../../src/engine/run.ts';
import { harness } from '../engine/helpers.ts';

// docs/api-resources.md#events: create_callback_endpoint and await_callback, through whole executions with the product's
// callback registry (src/service/callbacks/callback-registry.ts).
const s = suite('stdlib events.*');

const workflow = (method: string) => `
main:
  steps:
    - create:
        call: events.create_callback_endpoint
        args:
          ${method ? `http_callback_method: ${method}` : ''}
        result: cb
    - wait:
        call: events.await_callback
        args:
          callback: \${cb}
        result: ev
    - r:
        return: \${[ev.http_request.body, ev.http_request.method, ev.type, ev.http_request.headers["x-k"]]}
`;

async function waitForCallback(list: () => { id: string; method: string }[]): Promise<{ id: string; method: string }> {
  for (let i = 0; i < 100; i++) {
    const cbs = list();
    if (cbs.length > 0) return cbs[0]!;
    await new Promise((r) => setImmediate(r));
  }
  throw new Error('no callback created');
}

s('a request to the callback resumes the execution with its body, method and type HTTP (docs/api-resources.md#events)', async () => {
  const h = harness();
  const p = runExecution(compileDefinition(workflow('PUT'), DEFINITION_LIBRARY), null, h.deps, new AbortController().signal);
  const cb = await waitForCallback(() => h.callbacks.list());
  assert.is(cb.method, 'PUT');
  h.callbacks.deliver(cb.id, { method: 'PUT', headers: { 'X-K': 'v' }, body: new Map([['n', 1n]]) as WMap });
  assert.is(toJson(await p), '[{"n":1},"PUT","HTTP","v"]');
});

s('the default callback method is POST (docs/api-resources.md#events)', async () => {
  const h = harness();
  const p = runExecution(compileDefinition(workflow(''), DEFINITION_LIBRARY), null, h.deps, new AbortController().signal);
  const cb = await waitForCallback(() => h.callbacks.list());
  assert.is(cb.method, 'POST');
  h.callbacks.deliver(cb.id, { method: 'POST', headers: { 'x-k': 'w' }, body: 'x' });
  assert.is(toJson(await p), '["x","POST","HTTP","w"]');
});

s('await_callback waits 43200 s by default, then raises TimeoutError (docs/api-resources.md#events)', async () => {
  const clock = recordingVirtualTime();
  const h = harness(clock);
  const p = runExecution(compileDefinition(workflow(''), DEFINITION_LIBRARY), null, h.deps, new AbortController().signal).then(
    () => undefined,
    (e: unknown) => e,
  );
  // No request comes: time carried past the wait's deadline ends it (src/engine/virtual-time.ts).
  await clock.advance(43_200_000);
  const e = await p;
  assert.ok(e instanceof WorkflowError && e.hasTag('TimeoutError'));
  assert.match(e.message, /within 43200 s/);
  assert.equal(clock.sleepsMs, [43_200_000]);
});

s('every allowed method is accepted, in any case (docs/api-resources.md#events)', async () => {
  for (const m of ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'patch']) {
    const h = harness();
    const def = compileDefinition(`
main:
  steps:
    - r:
        return: \${events.create_callback_endpoint("${m}").url}
`, DEFINITION_LIBRARY);
    const url = (await runExecution(def, null, h.deps, new AbortController().signal)) as Value;
    assert.type(url, 'string');
    assert.is(h.callbacks.list()[0]!.method, m.toUpperCase());
  }
});

s('two parallel branches awaiting the same callback each get one request, in the order they waited (docs/api-resources.md#events)', async () => {
  const h = harness();
  const def = compileDefinition(`
main:
  steps:
    - create:
        call: events.create_callback_endpoint
        result: cb
    - init:
        assign:
          - got: {}
    - both:
        parallel:
          shared: [got]
          branches:
            - first:
                steps:
                  - w1:
                      call: events.await_callback
                      args:
                        callback: \${cb}
                      result: ev
                  - k1:
                      assign:
                        - got.first: \${ev.http_request.body}
            - second:
                steps:
                  - w2:
                      call: events.await_callback
                      args:
                        callback: \${cb}
                      result: ev
                  - k2:
                      assign:
                        - got.second: \${ev.http_request.body}
    - r:
        return: \${got}
`, DEFINITION_LIBRARY);
  const p = runExecution(def, null, h.deps, new AbortController().signal);
  const cb = await waitForCallback(() => h.callbacks.list());
  // Both branches are waiting now (each ran up to its await): deliver one request for each.
  await new Promise((r) => setImmediate(r));
  assert.is(h.callbacks.deliver(cb.id, { method: 'POST', body: 'one' }).status, 200);
  assert.is(h.callbacks.deliver(cb.id, { method: 'POST', body: 'two' }).status, 200);
  assert.is(toJson(await p), '{"first":"one","second":"two"}');
});

s.run();
