// The service core in process (docs/api-resources.md#resources-and-their-fields, docs/api-resources.md#states-and-transitions and docs/rest-api.md#endpoints,
// docs/api-resources.md#events, docs/api-resources.md#versioning): workflows and revisions, executions pinned to a revision, cancel, callbacks,
// sys.log and the execution environment, through createServiceCore with no transport.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServiceCore, MAX_ARGUMENT_BYTES } from '../../src/service/core.ts';
import { ApiError } from '../../src/service/errors.ts';
import type { Execution, ServiceCore, ServiceEvent } from '../../src/service/model.ts';
import { createVirtualTime } from '../../src/engine/virtual-time.ts';

const s = suite('service core');

const RETURN_ARG = `main:
  params: [args]
  steps:
    - done:
        return: \${args}
`;
const NO_PARAMS = `main:
  steps:
    - done:
        return: 7
`;
const SLEEPY = (seconds: number, value: string) => `main:
  steps:
    - wait:
        call: sys.sleep
        args:
          seconds: ${seconds}
    - done:
        return: "${value}"
`;

let logLines: string[] = [];
function core(): ServiceCore & { close(): void } {
  logLines = [];
  return createServiceCore({
    project: 'p1',
    location: 'l1',
    callbackBaseUrl: 'http://localhost:9999/',
    log: (line) => logLines.push(line),
  });
}

function apiError(f: () => unknown, code: ApiError['code'], message?: RegExp): ApiError {
  try {
    f();
  } catch (e) {
    assert.instance(e, ApiError, String(e));
    assert.is((e as ApiError).code, code, (e as Error).message);
    if (message) assert.match((e as Error).message, message);
    return e as ApiError;
  }
  throw new assert.Assertion({ message: `expected ApiError ${code}`, operator: 'throws' } as never);
}

async function settled(c: ServiceCore, workflowId: string, executionId: string, timeoutMs = 10_000): Promise<Execution> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const ex = c.getExecution(workflowId, executionId);
    if (ex.state !== 'ACTIVE') return ex;
    if (Date.now() > deadline) throw new Error(`execution ${executionId} still ACTIVE`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function until<T>(f: () => T | undefined, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const idOf = (ex: Execution): string => ex.name.slice(ex.name.lastIndexOf('/') + 1);
const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/;

s('a created workflow has exactly the spec fields, a revision like 000001-a4f and RFC 3339 times (docs/api-resources.md#workflow)', () => {
  const c = core();
  const wf = c.createWorkflow('hello', { sourceContents: RETURN_ARG });
  assert.equal(Object.keys(wf).sort(), ['createTime', 'description', 'name', 'revisionCreateTime', 'revisionId', 'sourceContents', 'state', 'updateTime']);
  assert.is(wf.name, 'projects/p1/locations/l1/workflows/hello');
  assert.is(wf.state, 'ACTIVE');
  assert.match(wf.revisionId, /^000001-[0-9a-f]{3}$/);
  assert.is(wf.description, '');
  assert.match(wf.createTime, RFC3339);
  assert.is(wf.updateTime, wf.createTime);
  assert.equal(c.getWorkflow('hello'), wf);
  c.close();
});

s('create rejects duplicates (409), bad IDs, empty and invalid sources, 128 KB sources and long descriptions (docs/api-resources.md#errors)', () => {
  const c = core();
  c.createWorkflow('a', { sourceContents: NO_PARAMS });
  apiError(() => c.createWorkflow('a', { sourceContents: NO_PARAMS }), 'ALREADY_EXISTS', /already exists/);
  apiError(() => c.createWorkflow('Bad', { sourceContents: NO_PARAMS }), 'INVALID_ARGUMENT', /workflow ID/);
  apiError(() => c.createWorkflow('1x', { sourceContents: NO_PARAMS }), 'INVALID_ARGUMENT');
  apiError(() => c.createWorkflow('x'.repeat(129), { sourceContents: NO_PARAMS }), 'INVALID_ARGUMENT');
  apiError(() => c.createWorkflow('e', { sourceContents: '' }), 'INVALID_ARGUMENT', /empty/);
  const e = apiError(
    () => c.createWorkflow('bad', { sourceContents: 'main:\n  steps:\n    - first:\n        nxt: x\n' }),
    'INVALID_ARGUMENT',
    /invalid workflow definition/,
  );
  assert.match(e.message, /first/);
  assert.match(e.message, /line 4/);
  apiError(() => c.createWorkflow('yaml', { sourceContents: 'main: [\n' }), 'INVALID_ARGUMENT', /line/);
  const big = NO_PARAMS + '#' + 'x'.repeat(128 * 1024) + '\n';
  apiError(() => c.createWorkflow('big', { sourceContents: big }), 'INVALID_ARGUMENT', /128 KB/);
  apiError(() => c.createWorkflow('d', { sourceContents: NO_PARAMS, description: 'd'.repeat(1001) }), 'INVALID_ARGUMENT', /1000/);
  assert.is(c.createWorkflow('d', { sourceContents: NO_PARAMS, description: 'd'.repeat(1000) }).description.length, 1000);
  assert.equal(c.listWorkflows().map((w) => w.name.split('/').pop()), ['d', 'a']);
  c.close();
});

s('get, update and delete of an unknown workflow are NOT_FOUND (docs/rest-api.md#endpoints)', () => {
  const c = core();
  apiError(() => c.getWorkflow('nope'), 'NOT_FOUND', /nope/);
  apiError(() => c.updateWorkflow('nope', { description: 'x' }), 'NOT_FOUND');
  apiError(() => c.deleteWorkflow('nope'), 'NOT_FOUND');
  apiError(() => c.createExecution('nope', {}), 'NOT_FOUND');
  apiError(() => c.getExecution('nope', 'x'), 'NOT_FOUND');
  c.close();
});

s('a new revision only when the source changes; description updates keep it; updateMask limits fields (docs/api-resources.md#versioning)', async () => {
  const c = core();
  const v1 = c.createWorkflow('w', { sourceContents: NO_PARAMS, description: 'one' });
  const same = c.updateWorkflow('w', { sourceContents: NO_PARAMS });
  assert.is(same.revisionId, v1.revisionId);
  assert.is(same.updateTime, v1.updateTime);
  await new Promise((r) => setTimeout(r, 3));
  const d = c.updateWorkflow('w', { description: 'two' });
  assert.is(d.revisionId, v1.revisionId);
  assert.is(d.description, 'two');
  assert.ok(d.updateTime > v1.updateTime);
  const v2 = c.updateWorkflow('w', { sourceContents: RETURN_ARG });
  assert.match(v2.revisionId, /^000002-[0-9a-f]{3}$/);
  assert.is(v2.createTime, v1.createTime);
  const masked = c.updateWorkflow('w', { sourceContents: NO_PARAMS, description: 'three' }, ['description']);
  assert.is(masked.revisionId, v2.revisionId);
  assert.is(masked.description, 'three');
  apiError(() => c.updateWorkflow('w', { description: 'x' }, ['state']), 'INVALID_ARGUMENT', /state/);
  apiError(() => c.updateWorkflow('w', { sourceContents: 'main: [' }), 'INVALID_ARGUMENT', /invalid workflow definition/);
  assert.is(c.getWorkflow('w').revisionId, v2.revisionId);
  c.close();
});

s('an execution runs asynchronously: created ACTIVE, then SUCCEEDED with the JSON result and endTime (docs/api-resources.md#states-and-transitions)', async () => {
  const c = core();
  const wf = c.createWorkflow('w', { sourceContents: RETURN_ARG });
  const ex = c.createExecution('w', { argument: '{"a": 1, "big": 9007199254740993, "d": 2.0}' });
  assert.is(ex.state, 'ACTIVE');
  assert.equal(Object.keys(ex).sort(), ['argument', 'createTime', 'name', 'startTime', 'state', 'workflowRevisionId']);
  assert.match(ex.name, /^projects\/p1\/locations\/l1\/workflows\/w\/executions\/[0-9a-f-]{36}$/);
  assert.is(ex.workflowRevisionId, wf.revisionId);
  const done = await settled(c, 'w', idOf(ex));
  assert.is(done.state, 'SUCCEEDED');
  assert.is(done.result, '{"a":1,"big":9007199254740993,"d":2.0}');
  assert.match(done.endTime!, RFC3339);
  assert.is(done.error, undefined);
  c.close();
});

s('an omitted argument reaches a main with params as null, and leaves `argument` out (docs/language.md#definitions)', async () => {
  const c = core();
  c.createWorkflow('w', { sourceContents: RETURN_ARG });
  const ex = c.createExecution('w', {});
  assert.not.ok('argument' in ex);
  assert.is((await settled(c, 'w', idOf(ex))).result, 'null');
  c.close();
});

s('a non-null argument to a main without params is accepted and ignored, as Google documents (docs/api-resources.md#errors: not shown)', async () => {
  const c = core();
  c.createWorkflow('w', { sourceContents: NO_PARAMS });
  const ex = c.createExecution('w', { argument: '{"x": 1}' });
  const done = await settled(c, 'w', idOf(ex));
  assert.is(done.state, 'SUCCEEDED');
  assert.is(done.result, '7');
  assert.is(done.argument, '{"x": 1}');
  c.close();
});

s('argument must be valid JSON of at most 32 KB (docs/api-resources.md#execution)', () => {
  const c = core();
  c.createWorkflow('w', { sourceContents: RETURN_ARG });
  apiError(() => c.createExecution('w', { argument: '{nope' }), 'INVALID_ARGUMENT', /not valid JSON/);
  const big = JSON.stringify('x'.repeat(MAX_ARGUMENT_BYTES));
  apiError(() => c.createExecution('w', { argument: big }), 'INVALID_ARGUMENT', /32 KB/);
  assert.is(c.createExecution('w', { argument: JSON.stringify('x'.repeat(MAX_ARGUMENT_BYTES - 2)) }).state, 'ACTIVE');
  assert.is(c.listExecutions('w').length, 1);
  c.close();
});

s('`__proto__` in an argument is an ordinary key (security)', async () => {
  const c = core();
  c.createWorkflow('w', { sourceContents: RETURN_ARG });
  const ex = c.createExecution('w', { argument: '{"__proto__": {"polluted": true}, "constructor": 1}' });
  const done = await settled(c, 'w', idOf(ex));
  assert.is(done.result, '{"__proto__":{"polluted":true},"constructor":1}');
  assert.is(({} as Record<string, unknown>)['polluted'], undefined);
  c.close();
});

s('an unhandled error makes the execution FAILED with the error map in payload and `step: <name>` in context (docs/api-resources.md#execution)', async () => {
  const c = core();
  c.createWorkflow('w', {
    sourceContents: `main:
  steps:
    - fine:
        assign:
          - x: 1
    - boom:
        raise:
          code: 42
          message: broken
          tags: [Custom]
`,
  });
  const ex = c.createExecution('w', {});
  const done = await settled(c, 'w', idOf(ex));
  assert.is(done.state, 'FAILED');
  assert.equal(JSON.parse(done.error!.payload), { code: 42, message: 'broken', tags: ['Custom'] });
  assert.is(done.error!.context, 'step: boom');
  assert.is(done.result, undefined);
  assert.ok(done.endTime);
  c.close();
});

s('an execution keeps the revision it started with when the workflow is updated (docs/cli.md#directory-watching rule 6, docs/api-resources.md#versioning)', async () => {
  const c = core();
  const v1 = c.createWorkflow('w', { sourceContents: SLEEPY(0.2, 'old') });
  const first = c.createExecution('w', {});
  const v2 = c.updateWorkflow('w', { sourceContents: SLEEPY(0, 'new') });
  assert.is.not(v2.revisionId, v1.revisionId);
  const second = c.createExecution('w', {});
  const a = await settled(c, 'w', idOf(first));
  const b = await settled(c, 'w', idOf(second));
  assert.is(a.result, '"old"');
  assert.is(a.workflowRevisionId, v1.revisionId);
  assert.is(b.result, '"new"');
  assert.is(b.workflowRevisionId, v2.revisionId);
  c.close();
});

s('cancel moves an ACTIVE execution in sys.sleep to CANCELLED at once; nothing changes afterwards (docs/api-resources.md#states-and-transitions)', async () => {
  const c = core();
  c.createWorkflow('w', { sourceContents: SLEEPY(5, 'late') });
  // With step history, status.currentSteps names the step running: cancel only once it is the sleep.
  const ex = c.createExecution('w', { executionHistoryLevel: 'EXECUTION_HISTORY_BASIC' });
  await until(() => {
    const now = c.getExecution('w', idOf(ex));
    assert.is(now.state, 'ACTIVE');
    return now.status?.currentSteps[0]?.step === 'wait' ? true : undefined;
  });
  const cancelled = c.cancelExecution('w', idOf(ex));
  assert.is(cancelled.state, 'CANCELLED');
  assert.match(cancelled.endTime!, RFC3339);
  apiError(() => c.cancelExecution('w', idOf(ex)), 'FAILED_PRECONDITION', /CANCELLED/);
  // The aborted sleep settles at once; whatever the engine does with it must not change the state.
  await new Promise((r) => setTimeout(r, 100));
  const after = c.getExecution('w', idOf(ex));
  assert.equal(after, cancelled);
  assert.is(after.result, undefined);
  c.close();
});

s('cancel of a terminal execution is FAILED_PRECONDITION and changes nothing; unknown is NOT_FOUND (docs/api-resources.md#errors)', async () => {
  const c = core();
  c.createWorkflow('w', { sourceContents: NO_PARAMS });
  const ex = c.createExecution('w', {});
  const done = await settled(c, 'w', idOf(ex));
  apiError(() => c.cancelExecution('w', idOf(ex)), 'FAILED_PRECONDITION', /SUCCEEDED/);
  assert.equal(c.getExecution('w', idOf(ex)), done);
  apiError(() => c.cancelExecution('w', 'no-such-id'), 'NOT_FOUND');
  c.close();
});

s('executions list newest first, per workflow and across workflows (docs/rest-api.md#endpoints)', async () => {
  const c = core();
  c.createWorkflow('a', { sourceContents: NO_PARAMS });
  c.createWorkflow('b', { sourceContents: NO_PARAMS });
  const e1 = c.createExecution('a', {});
  const e2 = c.createExecution('b', {});
  const e3 = c.createExecution('a', {});
  assert.equal(c.listExecutions('a').map((e) => e.name), [e3.name, e1.name]);
  assert.equal(c.listExecutions().map((e) => e.name), [e3.name, e2.name, e1.name]);
  assert.equal(c.listExecutions('nobody'), []);
  apiError(() => c.getExecution('b', idOf(e1)), 'NOT_FOUND');
  c.close();
});

s('deleting a workflow keeps its executions, which finish with their revision; a re-created ID continues the revision counter', async () => {
  const c = core();
  const v1 = c.createWorkflow('w', { sourceContents: SLEEPY(0.1, 'kept') });
  const ex = c.createExecution('w', {});
  c.deleteWorkflow('w');
  apiError(() => c.getWorkflow('w'), 'NOT_FOUND');
  apiError(() => c.createExecution('w', {}), 'NOT_FOUND');
  assert.equal(c.listWorkflows(), []);
  const done = await settled(c, 'w', idOf(ex));
  assert.is(done.result, '"kept"');
  assert.is(c.listExecutions('w').length, 1);
  const again = c.createWorkflow('w', { sourceContents: NO_PARAMS });
  assert.match(again.revisionId, /^000002-/);
  assert.is.not(again.revisionId, v1.revisionId);
  c.close();
});

s('executions read CLOUD_* and GOOGLE_CLOUD_* values of their own (docs/standard-library.md#sys)', async () => {
  const c = core();
  const wf = c.createWorkflow('envy', {
    sourceContents: `main:
  steps:
    - read:
        return:
          - \${sys.get_env("CLOUD_PROJECT_ID")}
          - \${sys.get_env("CLOUD_LOCATION")}
          - \${sys.get_env("CLOUD_WORKFLOW_ID")}
          - \${sys.get_env("CLOUD_WORKFLOW_REVISION_ID")}
          - \${sys.get_env("CLOUD_WORKFLOW_EXECUTION_ID")}
          - \${sys.get_env("GOOGLE_CLOUD_WORKFLOW_EXECUTION_ID")}
`,
  });
  const ex = c.createExecution('envy', {});
  const done = await settled(c, 'envy', idOf(ex));
  assert.equal(JSON.parse(done.result!), ['p1', 'l1', 'envy', wf.revisionId, idOf(ex), idOf(ex)]);
  c.close();
});

s('sys.log prints one JSON line per entry with the execution ID and keeps the entries (docs/standard-library.md#sys)', async () => {
  const c = core();
  c.createWorkflow('logger', {
    sourceContents: `main:
  steps:
    - one:
        call: sys.log
        args:
          text: hello
          severity: WARNING
    - two:
        call: sys.log
        args:
          json: {"n": 2}
    - three:
        call: sys.log
        args:
          data: [1, {"m": 3}]
`,
  });
  const ex = c.createExecution('logger', {});
  await settled(c, 'logger', idOf(ex));
  assert.is(logLines.length, 3);
  assert.equal(JSON.parse(logLines[2]!).jsonPayload, [1, { m: 3 }], 'a list given as data is a jsonPayload');
  const first = JSON.parse(logLines[0]!);
  assert.is(first.executionId, idOf(ex));
  assert.is(first.workflowId, 'logger');
  assert.is(first.severity, 'WARNING');
  assert.is(first.textPayload, 'hello');
  assert.equal(JSON.parse(logLines[1]!).jsonPayload, { n: 2 });
  const entries = c.executionLogs('logger', idOf(ex));
  assert.is(entries.length, 3);
  assert.is(entries[0]!.payload, 'hello');
  c.close();
});

const CALLBACK_WF = (pauseSec: number, timeoutSec = 10): string => `main:
  steps:
    - make:
        call: events.create_callback_endpoint
        args:
          http_callback_method: PUT
        result: cb
    - pause:
        call: sys.sleep
        args:
          seconds: ${pauseSec}
    - wait:
        call: events.await_callback
        args:
          callback: \${cb}
          timeout: ${timeoutSec}
        result: got
    - done:
        return: \${got}
`;

s('callbacks: created with an unguessable URL, listed, delivered with body, headers, method, query (docs/api-resources.md#events)', async () => {
  const c = core();
  c.createWorkflow('cb', { sourceContents: CALLBACK_WF(0) });
  const ex = c.createExecution('cb', {});
  const id = idOf(ex);
  const [callback] = await until(() => {
    const l = c.listCallbacks('cb', id);
    return l.length ? l : undefined;
  });
  assert.equal(Object.keys(callback!).sort(), ['createTime', 'method', 'name', 'url']);
  assert.is(callback!.method, 'PUT');
  assert.match(callback!.url, /^http:\/\/localhost:9999\/callbacks\/[0-9a-f]{32}$/);
  assert.is(callback!.name, `${ex.name}/callbacks/${callback!.url.split('/').pop()}`);
  const callbackId = callback!.url.split('/').pop()!;
  assert.is(c.deliverCallback('nope', { method: 'PUT', headers: {}, query: {}, body: new Uint8Array() }).status, 404);
  assert.is(c.deliverCallback(callbackId, { method: 'POST', headers: {}, query: {}, body: new Uint8Array() }).status, 405);
  const r = c.deliverCallback(callbackId, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', 'x-k': 'v' },
    query: { q: '1' },
    body: new TextEncoder().encode('{"ok": true, "n": 3}'),
  });
  assert.is(r.status, 200);
  const done = await settled(c, 'cb', id);
  const v = JSON.parse(done.result!);
  assert.equal(v.http_request.body, { ok: true, n: 3 });
  assert.is(v.http_request.method, 'PUT');
  assert.is(v.http_request.headers['x-k'], 'v');
  assert.equal(v.http_request.query, { q: '1' });
  assert.is(v.type, 'HTTP');
  assert.match(v.received_time, RFC3339);
  // Ended execution: an error answer, nothing changes.
  const late = c.deliverCallback(callbackId, { method: 'PUT', headers: {}, query: {}, body: new Uint8Array() });
  assert.is(late.status, 400);
  assert.equal(c.getExecution('cb', id), done);
  c.close();
});

s('a callback request that arrives before await_callback is kept and delivered when the workflow waits (docs/api-resources.md#events)', async () => {
  const c = core();
  c.createWorkflow('cb', { sourceContents: CALLBACK_WF(0.5) });
  const ex = c.createExecution('cb', {});
  const [callback] = await until(() => {
    const l = c.listCallbacks('cb', idOf(ex));
    return l.length ? l : undefined;
  });
  const r = c.deliverCallback(callback!.url.split('/').pop()!, {
    method: 'PUT',
    headers: { 'content-type': 'text/plain' },
    query: {},
    body: new TextEncoder().encode('early bird'),
  });
  assert.is(r.status, 200);
  assert.is(c.getExecution('cb', idOf(ex)).state, 'ACTIVE');
  const done = await settled(c, 'cb', idOf(ex));
  assert.is(done.state, 'SUCCEEDED', JSON.stringify(done));
  assert.is(JSON.parse(done.result!).http_request.body, 'early bird');
  c.close();
});

s('await_callback times out with TimeoutError (docs/api-resources.md#events)', async () => {
  const c = core();
  c.createWorkflow('cb', { sourceContents: CALLBACK_WF(0, 0.05) });
  const ex = c.createExecution('cb', {});
  const done = await settled(c, 'cb', idOf(ex));
  assert.is(done.state, 'FAILED');
  assert.ok(JSON.parse(done.error!.payload).tags.includes('TimeoutError'));
  assert.is(done.error!.context, 'step: wait');
  c.close();
});

s('cancel interrupts a callback wait (docs/api-resources.md#states-and-transitions)', async () => {
  const c = core();
  c.createWorkflow('cb', { sourceContents: CALLBACK_WF(0) });
  const ex = c.createExecution('cb', {});
  const [callback] = await until(() => {
    const l = c.listCallbacks('cb', idOf(ex));
    return l.length ? l : undefined;
  });
  assert.is(c.cancelExecution('cb', idOf(ex)).state, 'CANCELLED');
  const r = c.deliverCallback(callback!.url.split('/').pop()!, { method: 'PUT', headers: {}, query: {}, body: new Uint8Array() });
  assert.is(r.status, 400);
  assert.is(c.getExecution('cb', idOf(ex)).state, 'CANCELLED');
  c.close();
});

s('subscribers hear of workflow and execution changes (used by the UI)', async () => {
  const c = core();
  const events: ServiceEvent[] = [];
  const off = c.subscribe((e) => events.push(e));
  c.subscribe(() => {
    throw new Error('a broken listener does not break the service');
  });
  c.createWorkflow('w', { sourceContents: NO_PARAMS });
  const ex = c.createExecution('w', {});
  await settled(c, 'w', idOf(ex));
  off();
  c.deleteWorkflow('w');
  assert.equal(events[0], { type: 'workflow', workflowId: 'w' });
  assert.ok(events.filter((e) => e.type === 'execution').length >= 2);
  assert.not.ok(events.some((e, i) => i > 0 && e.type === 'workflow'));
  c.close();
});

s('beyond the retention limit the oldest terminal executions are forgotten, never ACTIVE ones', async () => {
  const c = createServiceCore({ project: 'p1', location: 'l1', callbackBaseUrl: 'http://x', log: () => {}, maxRetainedExecutions: 10 });
  c.createWorkflow('slow', { sourceContents: SLEEPY(30, 'x') });
  c.createWorkflow('fast', { sourceContents: NO_PARAMS });
  const active = c.createExecution('slow', {});
  const names: string[] = [];
  for (let i = 0; i < 12; i++) {
    const ex = c.createExecution('fast', {});
    await settled(c, 'fast', idOf(ex));
    names.push(ex.name);
  }
  const all = c.listExecutions().map((e) => e.name);
  assert.ok(all.length <= 11, String(all.length));
  assert.ok(all.includes(active.name), 'the ACTIVE execution stays');
  assert.ok(all.includes(names[11]!), 'the newest stays');
  assert.not.ok(all.includes(names[0]!), 'the oldest terminal one went');
  apiError(() => c.getExecution('fast', idOf({ name: names[0]! } as Execution)), 'NOT_FOUND');
  assert.equal(c.listExecutions('fast').map((e) => e.name), all.filter((n) => n.includes('/fast/')));
  c.close();
});

s('duration is endTime - startTime in Google\'s seconds form with 0 or 3 fractional digits ("1.250s", "0.004s", "2s") (Google: Execution.duration; proto3 JSON mapping of Duration: 0, 3, 6 or 9 digits)', async () => {
  for (const [seconds, duration] of [[1.25, '1.250s'], [0.004, '0.004s'], [0.05, '0.050s'], [2, '2s'], [61.5, '61.500s'], [0, '0s']] as const) {
    const clock = createVirtualTime(Date.UTC(2026, 0, 1, 0, 0, 0, 7));
    const c = createServiceCore({ project: 'p1', location: 'l1', callbackBaseUrl: 'http://localhost:9999', log: () => {}, clock });
    c.createWorkflow('w', { sourceContents: SLEEPY(seconds, 'ok') });
    const done = await settled(c, 'w', idOf(c.createExecution('w', {})));
    assert.is(done.state, 'SUCCEEDED');
    assert.is(done.duration, duration);
    assert.is(Date.parse(done.endTime!) - Date.parse(done.startTime), Math.round(seconds * 1000));
    c.close();
  }
});

s('step entries read the same once the run has ended, for short and long histories, and a cancelled one ends CANCELLED (docs/rest-api.md#step-history)', async () => {
  const c = core();
  const loop = (n: number) => `main:\n  steps:\n    - each:\n        for:\n          value: i\n          range: [1, ${n}]\n          steps:\n            - one:\n                assign:\n                  - x: \${i}\n    - done:\n        return: 1\n`;
  for (const n of [1, 3, 40]) {
    c.createWorkflow(`loop${n}`, { sourceContents: loop(n) });
    const ex = c.createExecution(`loop${n}`, {});
    await settled(c, `loop${n}`, idOf(ex));
    await new Promise((r) => setImmediate(r));
    const page = c.listStepEntries(`loop${n}`, idOf(ex), {});
    // each, n iterations with one step each, done.
    assert.is(page.totalSize, 2 + 2 * n);
    assert.equal(page.stepEntries.map((e) => e.entryId), page.stepEntries.map((_, i) => String(i + 1)));
    assert.ok(page.stepEntries.every((e) => e.state === 'STATE_SUCCEEDED'));
    const last = c.getStepEntry(`loop${n}`, idOf(ex), String(2 + 2 * n));
    assert.is(last.step, 'done');
    assert.equal(last.navigationInfo?.previous, '1');
    apiError(() => c.getStepEntry(`loop${n}`, idOf(ex), String(3 + 2 * n)), 'NOT_FOUND');
  }
  c.createWorkflow('w', { sourceContents: SLEEPY(30, 'never') });
  const ex = c.createExecution('w', {});
  await until(() => (c.listStepEntries('w', idOf(ex), {}).stepEntries.length > 0 ? true : undefined));
  c.cancelExecution('w', idOf(ex));
  const entries = await until(() => {
    const all = c.listStepEntries('w', idOf(ex), {}).stepEntries;
    return all.every((e) => e.state !== 'STATE_IN_PROGRESS') ? all : undefined;
  });
  assert.equal(entries.map((e) => [e.step, e.state]), [['wait', 'STATE_CANCELLED']]);
  c.close();
});

s('close() cancels ACTIVE executions', async () => {
  const c = core();
  c.createWorkflow('w', { sourceContents: SLEEPY(30, 'never') });
  const ex = c.createExecution('w', {});
  await new Promise((r) => setTimeout(r, 10));
  c.close();
  assert.is(c.getExecution('w', idOf(ex)).state, 'CANCELLED');
});

s.run();
