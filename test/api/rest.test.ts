// The REST API over a real socket, against the built bundle (docs/rest-api.md#endpoints and docs/api-resources.md#errors,
// docs/api-resources.md#resources-and-their-fields, docs/api-resources.md#states-and-transitions): every endpoint with its errors in Google's JSON error shape, revision
// pinning across an update, cancel during sleep, HTTP waits, sys.log on stdout.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const s = suite('REST API (black-box)');

let emu: EmulatorProcess;
let slow: Server;
let slowUrl = '';
/** How many requests the slow service has received. */
let slowRequests = 0;

s.before(async () => {
  emu = await startEmulator({ workflowsDir: false });
  // A local service that answers after ?ms= milliseconds (docs/standard-library.md#http: http.* steps issue real HTTP requests).
  slow = createServer((req, res) => {
    slowRequests++;
    const ms = Number(new URL(req.url!, 'http://x').searchParams.get('ms') ?? '0');
    setTimeout(() => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ waited: ms }));
    }, ms);
  });
  await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
  slowUrl = `http://127.0.0.1:${(slow.address() as { port: number }).port}`;
});

s.after(async () => {
  const code = await emu.close();
  assert.is(code, 0, 'SIGTERM ends the emulator with exit code 0');
  slow.closeAllConnections();
  await new Promise((r) => slow.close(r));
});

const RETURN_ARG = 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args}\n';
const SLEEP_THEN = (sec: number, v: string) =>
  `main:\n  steps:\n    - wait:\n        call: sys.sleep\n        args:\n          seconds: ${sec}\n    - done:\n        return: "${v}"\n`;

function isGoogleError(body: any, code: number, status: string): void {
  assert.type(body, 'object');
  assert.equal(Object.keys(body), ['error']);
  assert.is(body.error.code, code);
  assert.is(body.error.status, status);
  assert.type(body.error.message, 'string');
  assert.ok(body.error.message.length > 5);
}

async function create(id: string, sourceContents: string, description?: string) {
  const r = await emu.request('POST', `/workflows?workflowId=${id}`, { sourceContents, ...(description ? { description } : {}) });
  assert.is(r.status, 200, r.text);
  return r.body;
}

async function run(id: string, argument?: unknown) {
  const r = await emu.request('POST', `/workflows/${id}/executions`, argument === undefined ? {} : { argument: JSON.stringify(argument) });
  assert.is(r.status, 200, r.text);
  return r.body;
}

async function runRaw(id: string, argument: string) {
  const r = await emu.request('POST', `/workflows/${id}/executions`, { argument });
  assert.is(r.status, 200, r.text);
  return r.body;
}

async function finished(name: string) {
  return until(async () => {
    const r = await emu.request('GET', `/v1/${name}`);
    return r.body.state === 'ACTIVE' ? undefined : r.body;
  }, `execution ${name} to finish`);
}

s('POST {prefix}/workflows?workflowId= creates and returns the workflow with the spec fields (docs/rest-api.md#endpoints)', async () => {
  const wf = await create('echo', RETURN_ARG, 'returns its argument');
  assert.equal(Object.keys(wf).sort(), ['createTime', 'description', 'name', 'revisionCreateTime', 'revisionId', 'sourceContents', 'state', 'updateTime']);
  assert.is(wf.name, 'projects/my-project/locations/us-central1/workflows/echo');
  assert.is(wf.state, 'ACTIVE');
  assert.match(wf.revisionId, /^000001-[0-9a-f]{3}$/);
  assert.is(wf.sourceContents, RETURN_ARG);
  assert.is(wf.description, 'returns its argument');
  assert.match(wf.createTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+Z$/);
  const got = await emu.request('GET', '/workflows/echo');
  assert.is(got.status, 200);
  assert.equal(got.body, wf);
  assert.match(got.headers.get('content-type')!, /application\/json/);
});

s('create errors: 400 missing workflowId, empty or invalid source, bad JSON, wrong field types; 409 duplicate (docs/api-resources.md#errors)', async () => {
  isGoogleError((await emu.request('POST', '/workflows', { sourceContents: RETURN_ARG })).body, 400, 'INVALID_ARGUMENT');
  isGoogleError((await emu.request('POST', '/workflows?workflowId=e1', { sourceContents: '' })).body, 400, 'INVALID_ARGUMENT');
  isGoogleError((await emu.request('POST', '/workflows?workflowId=e1', {})).body, 400, 'INVALID_ARGUMENT');
  const invalid = await emu.request('POST', '/workflows?workflowId=e1', { sourceContents: 'main:\n  steps:\n    - s1:\n        call: no.such_function\n' });
  isGoogleError(invalid.body, 400, 'INVALID_ARGUMENT');
  assert.match(invalid.body.error.message, /invalid workflow definition/);
  assert.match(invalid.body.error.message, /s1/);
  assert.match(invalid.body.error.message, /line 4/);
  const yaml = await emu.request('POST', '/workflows?workflowId=e1', { sourceContents: 'main:\n  steps: [\n' });
  isGoogleError(yaml.body, 400, 'INVALID_ARGUMENT');
  isGoogleError((await emu.request('POST', '/workflows?workflowId=e1', '{"sourceContents": ')).body, 400, 'INVALID_ARGUMENT');
  isGoogleError((await emu.request('POST', '/workflows?workflowId=e1', '[1,2]')).body, 400, 'INVALID_ARGUMENT');
  const wrongType = await emu.request('POST', '/workflows?workflowId=e1', { sourceContents: 42 });
  isGoogleError(wrongType.body, 400, 'INVALID_ARGUMENT');
  assert.match(wrongType.body.error.message, /sourceContents/);
  isGoogleError((await emu.request('POST', '/workflows?workflowId=e1', { sourceContents: RETURN_ARG, description: ['x'] })).body, 400, 'INVALID_ARGUMENT');
  isGoogleError((await emu.request('POST', '/workflows?workflowId=Upper', { sourceContents: RETURN_ARG })).body, 400, 'INVALID_ARGUMENT');
  const big = RETURN_ARG + '#' + 'x'.repeat(130 * 1024) + '\n';
  isGoogleError((await emu.request('POST', '/workflows?workflowId=e1', { sourceContents: big })).body, 400, 'INVALID_ARGUMENT');
  await create('dup', RETURN_ARG);
  const dup = await emu.request('POST', '/workflows?workflowId=dup', { sourceContents: RETURN_ARG });
  assert.is(dup.status, 409);
  isGoogleError(dup.body, 409, 'ALREADY_EXISTS');
  assert.is((await emu.request('GET', '/workflows/e1')).status, 404);
});

s('GET {prefix}/workflows lists newest first, pages with pageSize/pageToken, filters and orders; a bad filter is a 400 (Google\'s workflows.list)', async () => {
  await create('list-a', RETURN_ARG, 'first');
  await create('list-b', RETURN_ARG, 'second');
  const all = (await emu.request('GET', '/workflows')).body.workflows.map((w: any) => w.name.split('/').pop());
  assert.ok(all.indexOf('list-b') < all.indexOf('list-a'), 'newest first');
  const seen: string[] = [];
  let token = '';
  do {
    const r = await emu.request('GET', `/workflows?pageSize=1${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
    assert.is(r.status, 200, r.text);
    assert.is(r.body.workflows.length, 1);
    seen.push(r.body.workflows[0].name.split('/').pop());
    token = r.body.nextPageToken ?? '';
  } while (token);
  assert.equal(seen, all, 'every page in order, nothing repeated');
  const f = await emu.request('GET', `/workflows?filter=${encodeURIComponent('name="list-*" AND description="second"')}`);
  assert.equal(f.body.workflows.map((w: any) => w.name.split('/').pop()), ['list-b']);
  const o = await emu.request('GET', `/workflows?filter=${encodeURIComponent('name:list')}&orderBy=name`);
  assert.equal(o.body.workflows.map((w: any) => w.name.split('/').pop()), ['list-a', 'list-b']);
  const bad = await emu.request('GET', '/workflows?filter=x');
  assert.is(bad.status, 400);
  assert.match(bad.body.error.message, /invalid filter/);
  const badOrder = await emu.request('GET', '/workflows?orderBy=colour');
  assert.is(badOrder.status, 400);
  assert.match(badOrder.body.error.message, /invalid orderBy: "colour"/);
});

s('GET of an unknown workflow is 404 NOT_FOUND (docs/api-resources.md#errors)', async () => {
  const r = await emu.request('GET', '/workflows/missing');
  assert.is(r.status, 404);
  isGoogleError(r.body, 404, 'NOT_FOUND');
  assert.match(r.body.error.message, /missing/);
});

s('PATCH answers a done operation with the updated workflow; a new revision only when the source changes (docs/rest-api.md#endpoints and docs/api-resources.md#versioning)', async () => {
  const v1 = await create('patchy', RETURN_ARG);
  const d = await emu.request('PATCH', '/workflows/patchy', { description: 'new words' });
  assert.is(d.status, 200, d.text);
  assert.is(d.body.done, true);
  assert.is(d.body.response.description, 'new words');
  assert.is(d.body.response.revisionId, v1.revisionId);
  const same = await emu.request('PATCH', '/workflows/patchy', { sourceContents: RETURN_ARG });
  assert.is(same.body.response.revisionId, v1.revisionId);
  const v2 = await emu.request('PATCH', '/workflows/patchy?updateMask=sourceContents', { sourceContents: SLEEP_THEN(0, 'v2'), description: 'ignored' });
  assert.is(v2.status, 200);
  assert.match(v2.body.response.revisionId, /^000002-/);
  assert.is(v2.body.response.description, 'new words');
  const got = await emu.request('GET', '/workflows/patchy');
  assert.is(got.body.revisionId, v2.body.response.revisionId);
  assert.is(got.body.sourceContents, SLEEP_THEN(0, 'v2'));
  isGoogleError((await emu.request('PATCH', '/workflows/nope', { description: 'x' })).body, 404, 'NOT_FOUND');
  isGoogleError((await emu.request('PATCH', '/workflows/patchy', { sourceContents: 'main: [' })).body, 400, 'INVALID_ARGUMENT');
  isGoogleError((await emu.request('PATCH', '/workflows/patchy', { sourceContents: '' })).body, 400, 'INVALID_ARGUMENT');
  isGoogleError((await emu.request('PATCH', '/workflows/patchy', '{oops')).body, 400, 'INVALID_ARGUMENT');
});

s('DELETE answers a done operation; the workflow is gone, its executions stay readable (docs/rest-api.md#endpoints)', async () => {
  await create('doomed', RETURN_ARG);
  const ex = await run('doomed', { k: 1 });
  await finished(ex.name);
  const r = await emu.request('DELETE', '/workflows/doomed');
  assert.is(r.status, 200);
  assert.is(r.body.done, true);
  assert.is((await emu.request('GET', '/workflows/doomed')).status, 404);
  isGoogleError((await emu.request('DELETE', '/workflows/doomed')).body, 404, 'NOT_FOUND');
  isGoogleError((await emu.request('POST', '/workflows/doomed/executions', {})).body, 404, 'NOT_FOUND');
  const kept = await emu.request('GET', `/v1/${ex.name}`);
  assert.is(kept.status, 200);
  assert.is(kept.body.state, 'SUCCEEDED');
  assert.is((await emu.request('GET', '/workflows/doomed/executions')).body.executions.length, 1);
});

s('POST executions returns it ACTIVE; GET by name appended to /v1/ shows SUCCEEDED with the JSON result (docs/rest-api.md#endpoints)', async () => {
  const ex = await runRaw('echo', '{"n": 9007199254740993, "d": 1.0, "s": "x"}');
  assert.is(ex.state, 'ACTIVE');
  assert.equal(Object.keys(ex).sort(), ['argument', 'createTime', 'name', 'startTime', 'state', 'workflowRevisionId']);
  assert.match(ex.name, /^projects\/my-project\/locations\/us-central1\/workflows\/echo\/executions\/[0-9a-f-]{36}$/);
  const done = await finished(ex.name);
  assert.is(done.state, 'SUCCEEDED');
  assert.is(done.result, '{"n":9007199254740993,"d":1.0,"s":"x"}');
  assert.ok(done.endTime >= done.startTime);
  const listed = await emu.request('GET', '/workflows/echo/executions');
  assert.is(listed.body.executions[0].name, ex.name);
});

s('execution errors: 404 unknown workflow or execution; 400 for argument not JSON, not a string, or over 32 KB (docs/api-resources.md#errors)', async () => {
  isGoogleError((await emu.request('POST', '/workflows/nobody/executions', {})).body, 404, 'NOT_FOUND');
  isGoogleError((await emu.request('GET', '/workflows/echo/executions/00000000-0000-0000-0000-000000000000')).body, 404, 'NOT_FOUND');
  isGoogleError((await emu.request('POST', '/workflows/echo/executions', { argument: '{not json' })).body, 400, 'INVALID_ARGUMENT');
  isGoogleError((await emu.request('POST', '/workflows/echo/executions', { argument: { a: 1 } })).body, 400, 'INVALID_ARGUMENT');
  isGoogleError((await emu.request('POST', '/workflows/echo/executions', { argument: JSON.stringify('x'.repeat(33 * 1024)) })).body, 400, 'INVALID_ARGUMENT');
  isGoogleError((await emu.request('POST', '/workflows/echo/executions', 'nope')).body, 400, 'INVALID_ARGUMENT');
});

s('lists of executions come newest first in pages whose tokens stay valid while executions are created (Google\'s executions.list)', async () => {
  await create('many', RETURN_ARG);
  const names: string[] = [];
  for (let i = 0; i < 3; i++) names.push((await run('many', i)).name);
  const first = await emu.request('GET', '/workflows/many/executions?pageSize=2');
  assert.equal(first.body.executions.map((e: any) => e.name), [names[2], names[1]]);
  assert.type(first.body.nextPageToken, 'string');
  await run('many', 3); // a new execution comes first in the order: the next page must not shift
  const second = await emu.request('GET', `/workflows/many/executions?pageSize=2&pageToken=${first.body.nextPageToken}`);
  assert.equal(second.body.executions.map((e: any) => e.name), [names[0]]);
  assert.not.ok('nextPageToken' in second.body);
  const other = await emu.request('GET', `/workflows/many/executions?pageSize=2&filter=state%3DACTIVE&pageToken=${first.body.nextPageToken}`);
  assert.is(other.status, 400, 'a token used with another filter');
  assert.match(other.body.error.message, /another filter/);
  assert.equal((await emu.request('GET', '/workflows/never-existed/executions')).body, { executions: [] });
});

s('an unhandled error gives FAILED with error.payload (JSON error map) and error.context `step: <name>` (docs/api-resources.md#execution)', async () => {
  await create('fails', 'main:\n  steps:\n    - divide:\n        assign:\n          - x: ${1 / 0}\n');
  const done = await finished((await run('fails')).name);
  assert.is(done.state, 'FAILED');
  const payload = JSON.parse(done.error.payload);
  assert.ok(payload.tags.includes('ZeroDivisionError'));
  assert.is(payload.code, 0);
  assert.is(done.error.context, 'step: divide');
});

s('an execution stays on its revision when the workflow is updated while it runs (docs/api-resources.md#versioning)', async () => {
  const v1 = await create('pinned', SLEEP_THEN(0.3, 'first'));
  const ex = await run('pinned');
  const upd = await emu.request('PATCH', '/workflows/pinned', { sourceContents: SLEEP_THEN(0, 'second') });
  const ex2 = await run('pinned');
  const a = await finished(ex.name);
  const b = await finished(ex2.name);
  assert.is(a.result, '"first"');
  assert.is(a.workflowRevisionId, v1.revisionId);
  assert.is(b.result, '"second"');
  assert.is(b.workflowRevisionId, upd.body.response.revisionId);
});

s('cancel during sys.sleep: CANCELLED at once with endTime; again is 400 FAILED_PRECONDITION; unknown is 404 (docs/api-resources.md#states-and-transitions)', async () => {
  await create('sleeper', SLEEP_THEN(60, 'never'));
  // With step history, status.currentSteps names the step running: cancel only once it is the sleep.
  const started = await emu.request('POST', '/workflows/sleeper/executions', { executionHistoryLevel: 'EXECUTION_HISTORY_BASIC' });
  assert.is(started.status, 200, started.text);
  const ex = started.body;
  const id = ex.name.split('/').pop();
  await until(async () => {
    const r = await emu.request('GET', `/v1/${ex.name}`);
    assert.is(r.body.state, 'ACTIVE');
    return r.body.status?.currentSteps?.[0]?.step === 'wait' ? true : undefined;
  }, 'the execution to be in its sys.sleep step');
  const c = await emu.request('POST', `/workflows/sleeper/executions/${id}:cancel`, {});
  assert.is(c.status, 200, c.text);
  assert.is(c.body.state, 'CANCELLED');
  assert.ok(c.body.endTime);
  const again = await emu.request('POST', `/workflows/sleeper/executions/${id}:cancel`);
  assert.is(again.status, 400);
  isGoogleError(again.body, 400, 'FAILED_PRECONDITION');
  isGoogleError((await emu.request('POST', '/workflows/sleeper/executions/nope:cancel')).body, 404, 'NOT_FOUND');
  assert.equal((await emu.request('GET', `/v1/${ex.name}`)).body, c.body);
});

s('an execution waiting on a slow HTTP call stays ACTIVE, then succeeds with the response (docs/api-resources.md#states-and-transitions)', async () => {
  await create(
    'slowcall',
    `main:\n  steps:\n    - get:\n        call: http.get\n        args:\n          url: ${slowUrl}/?ms=1000\n        result: r\n    - done:\n        return: \${r.body.waited}\n`,
  );
  const ex = await run('slowcall');
  assert.is((await emu.request('GET', `/v1/${ex.name}`)).body.state, 'ACTIVE');
  const done = await finished(ex.name);
  assert.is(done.state, 'SUCCEEDED');
  assert.is(done.result, '1000');
});

s('cancel interrupts a slow HTTP call (docs/api-resources.md#states-and-transitions)', async () => {
  await create(
    'slowcancel',
    `main:\n  steps:\n    - get:\n        call: http.get\n        args:\n          url: ${slowUrl}/?ms=5000\n`,
  );
  const before = slowRequests;
  const ex = await run('slowcancel');
  // Cancel only once the request has reached the service (it answers after 5 s): the call is in flight.
  await until(() => (slowRequests > before ? true : undefined), 'the HTTP call to reach the slow service');
  assert.is((await emu.request('GET', `/v1/${ex.name}`)).body.state, 'ACTIVE');
  const c = await emu.request('POST', `/v1/${ex.name}:cancel`);
  assert.is(c.body.state, 'CANCELLED');
});

s('GET .../callbacks lists an execution\'s callbacks; empty for none; 404 for an unknown execution (docs/rest-api.md#endpoints)', async () => {
  const ex = await run('echo', 1);
  await finished(ex.name);
  assert.equal((await emu.request('GET', `/v1/${ex.name}/callbacks`)).body, { callbacks: [] });
  isGoogleError((await emu.request('GET', '/workflows/echo/executions/nope/callbacks')).body, 404, 'NOT_FOUND');
});

s('sys.log writes one JSON line on stdout with the execution ID (docs/standard-library.md#sys)', async () => {
  await create('logs', 'main:\n  steps:\n    - say:\n        call: sys.log\n        args:\n          text: hello from a workflow\n');
  const ex = await run('logs');
  await finished(ex.name);
  const id = ex.name.split('/').pop();
  await emu.waitForOutput(new RegExp(`"executionId":"${id}"`));
  const line = emu.stdout().split('\n').find((l) => l.includes(id))!;
  const entry = JSON.parse(line);
  assert.is(entry.textPayload, 'hello from a workflow');
  assert.is(entry.workflowId, 'logs');
});

s('unknown paths, wrong methods, other projects and locations: 404 in Google\'s error shape, never a crash (docs/rest-api.md#endpoints)', async () => {
  for (const [method, path] of [
    ['GET', '/v1/nothing'],
    ['GET', '/nothing'],
    ['GET', '/v1/projects/other/locations/us-central1/workflows'],
    ['GET', '/v1/projects/my-project/locations/elsewhere/workflows'],
    ['GET', '/v1/projects/my-project/locations/us-central1/things'],
    ['PUT', '/workflows/echo'],
    ['DELETE', '/workflows'],
    ['GET', '/workflows/echo/executions/x/y/z'],
    ['GET', '/workflows/echo/executions/x:cancel'],
  ] as const) {
    const r = await emu.request(method, path);
    assert.is(r.status, 404, `${method} ${path}`);
    isGoogleError(r.body, 404, 'NOT_FOUND');
  }
  const bad = await emu.request('GET', '/workflows/%E0%A4%A');
  assert.ok(bad.status === 400 || bad.status === 404);
  assert.is((await emu.request('GET', '/workflows/echo')).status, 200, 'still serving');
});

s('hostile bodies (deep nesting, 5 MB, __proto__, cut short) get 400s and harm nothing (security)', async () => {
  const deep = '{"sourceContents":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
  isGoogleError((await emu.request('POST', '/workflows?workflowId=deep', deep)).body, 400, 'INVALID_ARGUMENT');
  const huge = JSON.stringify({ sourceContents: 'x'.repeat(5 * 1024 * 1024) });
  const r = await emu.request('POST', '/workflows?workflowId=huge', huge);
  assert.is(r.status, 400);
  const proto = await emu.request('POST', '/workflows?workflowId=proto', '{"__proto__": {"sourceContents": "main:\\n  steps: []"}, "constructor": 1}');
  isGoogleError(proto.body, 400, 'INVALID_ARGUMENT');
  // A body cut short: the client promises more bytes than it sends, then goes away.
  const { connect } = await import('node:net');
  await new Promise<void>((resolve) => {
    const sock = connect(emu.port, '127.0.0.1', () => {
      sock.write('POST /v1/projects/my-project/locations/us-central1/workflows?workflowId=cut HTTP/1.1\r\nhost: x\r\ncontent-length: 1000\r\n\r\n{"sourceCon');
      setTimeout(() => sock.destroy(), 50);
    });
    sock.on('close', () => resolve());
    sock.on('error', () => resolve());
  });
  // Garbage instead of HTTP.
  await new Promise<void>((resolve) => {
    const sock = connect(emu.port, '127.0.0.1', () => sock.write('\x00\x01 not http at all\r\n\r\n'));
    sock.on('data', () => sock.destroy());
    sock.on('close', () => resolve());
    sock.on('error', () => resolve());
  });
  assert.is((await emu.request('GET', '/workflows/echo')).status, 200, 'still serving');
  assert.is((await emu.request('GET', '/workflows/cut')).status, 404);
});

s('a client that closes its connection mid-body is logged as one quiet line, not as an internal error (docs/api-resources.md#limits)', async () => {
  const { connect } = await import('node:net');
  const before = emu.stderr().length;
  for (const path of ['/v1/projects/my-project/locations/us-central1/workflows?workflowId=gone', '/callbacks/0123456789abcdef0123456789abcdef']) {
    await new Promise<void>((resolve) => {
      const sock = connect(emu.port, '127.0.0.1', () => {
        sock.write(`POST ${path} HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"sourceCon`);
        setTimeout(() => sock.destroy(), 50);
      });
      sock.on('close', () => resolve());
      sock.on('error', () => resolve());
    });
  }
  const lines = await until(async () => {
    const got = emu.stderr().slice(before).split('\n').filter((l) => l !== '');
    return got.length >= 2 ? got : undefined;
  }, 'two log lines');
  assert.equal(lines, [
    'workflows-emulator: POST /v1/projects/my-project/locations/us-central1/workflows: the client closed the connection before its request body was complete',
    'workflows-emulator: POST /callbacks/0123456789abcdef0123456789abcdef: the client closed the connection before its request body was complete',
  ]);
  assert.is((await emu.request('GET', '/workflows/gone')).status, 404);
});

s('the web UI paths are handed to the UI, not the API (docs/web-ui.md#pages)', async () => {
  const r = await emu.request('GET', '/ui');
  assert.is.not(r.status, 404);
  assert.not.match(r.text, /"NOT_FOUND"/);
});

s('keep-alive clients get many answers on one connection (REST hot path)', async () => {
  const ex = await run('echo', 'ka');
  await finished(ex.name);
  const results = await Promise.all(Array.from({ length: 50 }, () => emu.request('GET', `/v1/${ex.name}`)));
  assert.ok(results.every((r) => r.status === 200 && r.body.state === 'SUCCEEDED'));
});

s.run();
