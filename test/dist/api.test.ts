// The JS API for test suites (docs/testing.md#the-js-api): startEmulator() in process on free
// loopback ports, deploy/run/start/wait/callbacks/cancel/close, the workflows directory, REST and gRPC on the
// reported addresses; and the built package entry (dist/emulator.js, `npm run build` first) exporting the same.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rejection as rejectionOf } from '../support/rejection.ts';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as grpc from '@grpc/grpc-js';
import { ExecutionsClient } from '@google-cloud/workflows';
import { startEmulator, type Emulator } from '../../src/index.ts';
import { noAuth as auth } from '../support/google-clients.ts';
import { until } from '../support/emulator.ts';

const s = suite<{ emulator: Emulator; logs: string[] }>('dist: JS API startEmulator (docs/testing.md#the-js-api)');

const ADD = 'main:\n  params: [args]\n  steps:\n    - log:\n        call: sys.log\n        args:\n          json: ${args}\n          severity: INFO\n    - add:\n        return: ${args.x + 1}\n';
const FAILING = 'main:\n  steps:\n    - explode:\n        raise:\n          message: boom\n          code: 7\n          tags: [Custom]\n';
const CALLBACK =
  'main:\n  steps:\n    - create:\n        call: events.create_callback_endpoint\n        result: cb\n    - wait:\n        call: events.await_callback\n        args:\n          callback: ${cb}\n        result: req\n    - done:\n        return: ${req.http_request.body}\n';
const SLEEPY = 'main:\n  steps:\n    - wait:\n        call: sys.sleep\n        args:\n          seconds: 60\n';

const rejection = (p: Promise<unknown>) => rejectionOf<Error & { code?: string }>(p);

s.before(async (ctx) => {
  ctx.logs = [];
  ctx.emulator = await startEmulator({ env: { GREETING: 'hi' }, onLog: (line) => ctx.logs.push(line) });
});
s.after(async (ctx) => {
  await ctx.emulator.close();
});

s('starts on free loopback ports and reports url, grpcAddress and parent (docs/testing.md#the-js-api)', (ctx) => {
  const e = ctx.emulator;
  assert.match(e.url, /^http:\/\/127\.0\.0\.1:\d+$/);
  assert.match(e.grpcAddress, /^127\.0\.0\.1:\d+$/);
  assert.is(e.grpcAddress, `127.0.0.1:${e.grpcPort}`);
  assert.is.not(e.port, e.grpcPort);
  assert.is(e.parent, 'projects/my-project/locations/us-central1');
});

s('deploy then run resolves with the finished execution: SUCCEEDED, result decoded, logs kept (docs/testing.md#the-js-api)', async (ctx) => {
  const workflow = await ctx.emulator.deploy('add', ADD);
  assert.is(workflow.name, `${ctx.emulator.parent}/workflows/add`);
  const done = await ctx.emulator.run('add', { x: 41 });
  assert.is(done.state, 'SUCCEEDED');
  assert.is(done.result, 42);
  assert.is(done.workflowId, 'add');
  assert.ok(done.name.endsWith(`/executions/${done.executionId}`));
  assert.is(done.resource.result, '42');
  assert.is(done.resource.argument, '{"x":41}');
  assert.equal(done.logs.map((l) => [l.severity, l.payload]), [['INFO', { x: 41 }]]);
  assert.ok(ctx.logs.some((l) => JSON.parse(l).jsonPayload?.x === 41), 'onLog receives the sys.log line');
});

s('a FAILED execution resolves too, with the decoded error payload and context (docs/api-resources.md#error-map)', async (ctx) => {
  await ctx.emulator.deploy('failing', FAILING);
  const done = await ctx.emulator.run('failing');
  assert.is(done.state, 'FAILED');
  assert.is(done.result, undefined);
  assert.equal(done.error, { payload: { message: 'boom', code: 7, tags: ['Custom'] }, context: 'step: explode' });
});

s('stepEntries: the history of a run, filtered, with the stack trace on the resource (docs/rest-api.md#step-history)', async (ctx) => {
  await ctx.emulator.deploy('history-failing', FAILING);
  const execution = await ctx.emulator.run('history-failing');
  const entries = await ctx.emulator.stepEntries(execution);
  assert.equal(entries.map((e) => [e.entryId, e.step, e.stepType, e.state]), [['1', 'explode', 'STEP_RAISE', 'STATE_FAILED']]);
  assert.equal(JSON.parse(entries[0]!.exception!.payload).tags, ['Custom']);
  assert.equal(execution.resource.error?.stackTrace?.elements.map((e) => [e.step, e.position.line]), [['explode', '3']]);
  await ctx.emulator.deploy('history-add', ADD);
  const ok = await ctx.emulator.run('history-add', { x: 1 });
  assert.equal((await ctx.emulator.stepEntries(ok.name, { filter: 'stepType=STEP_RETURN' })).map((e) => e.step), ['add']);
  const bad = await rejection(ctx.emulator.stepEntries(ok, { filter: 'nope=1' }));
  assert.is(bad.code, 'INVALID_ARGUMENT');
});

s('deploy of an existing ID updates it: a new revision, new executions use it (docs/api-resources.md#versioning)', async (ctx) => {
  const first = await ctx.emulator.deploy('versioned', 'main:\n  steps:\n    - done:\n        return: 1\n');
  const second = await ctx.emulator.deploy('versioned', 'main:\n  steps:\n    - done:\n        return: 2\n', { description: 'two' });
  assert.is.not(second.revisionId, first.revisionId);
  assert.is(second.description, 'two');
  assert.is((await ctx.emulator.run('versioned')).result, 2);
});

s('deploy of an invalid definition rejects with INVALID_ARGUMENT naming step, line and column (docs/api-resources.md#errors)', async (ctx) => {
  const e = await rejection(ctx.emulator.deploy('broken', 'main:\n  steps:\n    - a:\n        retrun: 1\n'));
  assert.is(e.code, 'INVALID_ARGUMENT');
  assert.match(e.message, /step "a" \(line 4, column 9\)/);
  const id = await rejection(ctx.emulator.deploy('Bad.Id', ADD));
  assert.is(id.code, 'INVALID_ARGUMENT');
});

s('run of an unknown workflow rejects with NOT_FOUND (docs/rest-api.md#endpoints)', async (ctx) => {
  const e = await rejection(ctx.emulator.run('no-such-workflow'));
  assert.is(e.code, 'NOT_FOUND');
});

s('env values are readable with sys.get_env (docs/testing.md#the-js-api)', async (ctx) => {
  await ctx.emulator.deploy('env', 'main:\n  steps:\n    - done:\n        return: ${sys.get_env("GREETING")}\n');
  assert.is((await ctx.emulator.run('env')).result, 'hi');
});

s('callbacks: start, list the callback, send a request to its URL, wait for the result (docs/api-resources.md#events)', async (ctx) => {
  await ctx.emulator.deploy('callback', CALLBACK);
  const execution = await ctx.emulator.start('callback');
  assert.is(execution.state, 'ACTIVE');
  const callbacks = await until(async () => {
    const listed = await ctx.emulator.callbacks(execution);
    return listed.length > 0 ? listed : undefined;
  }, 'the callback');
  assert.is(callbacks.length, 1);
  assert.ok(callbacks[0]!.url.startsWith(`${ctx.emulator.url}/callbacks/`));
  const r = await fetch(callbacks[0]!.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"approved": true}' });
  assert.is(r.status, 200);
  const done = await ctx.emulator.wait(execution.name);
  assert.equal(done.result, { approved: true });
});

s('cancel ends an ACTIVE execution as CANCELLED; wait with timeoutMs rejects while it runs (docs/api-resources.md#states-and-transitions)', async (ctx) => {
  await ctx.emulator.deploy('sleepy', SLEEPY);
  const execution = await ctx.emulator.start('sleepy');
  const late = await rejection(ctx.emulator.wait(execution, { timeoutMs: 20 }));
  assert.match(late.message, /did not end within 20 ms/);
  await ctx.emulator.cancel(execution);
  const done = await ctx.emulator.wait(execution);
  assert.is(done.state, 'CANCELLED');
  const again = await rejection(ctx.emulator.cancel(execution));
  assert.is(again.code, 'FAILED_PRECONDITION');
});

s('REST on url and gRPC on grpcAddress serve the same workflows (docs/rest-api.md#endpoints and docs/grpc.md#the-grpc-api)', async (ctx) => {
  const e = ctx.emulator;
  const list = await (await fetch(`${e.url}/v1/${e.parent}/workflows`)).json();
  assert.ok(list.workflows.some((w: { name: string }) => w.name.endsWith('/workflows/add')));
  const [host, port] = e.grpcAddress.split(':');
  const client = new ExecutionsClient({ servicePath: host, port: Number(port), sslCreds: grpc.credentials.createInsecure(), auth } as never);
  try {
    const [execution] = await client.createExecution({ parent: `${e.parent}/workflows/add`, execution: { argument: '{"x": 1}' } });
    const done = await e.wait(execution.name!);
    assert.is(done.result, 2);
  } finally {
    await client.close();
  }
});

s('workflowsDir: its files are deployed at start; two emulators run side by side; close twice is safe (docs/testing.md#the-js-api)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-api-'));
  try {
    writeFileSync(join(dir, 'from-file.yaml'), 'main:\n  steps:\n    - done:\n        return: "from file"\n');
    const a = await startEmulator({ workflowsDir: dir, project: 'p1', location: 'europe-west1' });
    const b = await startEmulator({ workflowsDir: dir });
    try {
      assert.is.not(a.port, b.port);
      assert.is(a.parent, 'projects/p1/locations/europe-west1');
      assert.is((await a.run('from-file')).result, 'from file');
      assert.is((await b.run('from-file')).result, 'from file');
    } finally {
      await a.close();
      await a.close();
      await b.close();
    }
    const refused = await rejection(fetch(`${a.url}/ui`));
    assert.ok(refused instanceof Error, 'the port is closed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('the built package entry dist/emulator.js exports startEmulator, which works the same (docs/testing.md#the-js-api)', async () => {
  const mod = (await import(pathToFileURL(new URL('../../dist/emulator.js', import.meta.url).pathname).href)) as typeof import('../../src/index.ts');
  const e = await mod.startEmulator();
  try {
    await e.deploy('hello', 'main:\n  steps:\n    - done:\n        return: {ok: true}\n');
    assert.equal((await e.run('hello')).result, { ok: true });
  } finally {
    await e.close();
  }
});

s.run();
