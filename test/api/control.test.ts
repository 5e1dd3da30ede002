// Mocks, the virtual clock, child workflows and the control API end to end, against the built bundle over
// real sockets (docs/mocks-and-clock.md#mocks): `--mocks FILE` and `--clock virtual` at start-up, `/emulator/v1/*`, the calls
// each execution made, and the Workflow Executions connector running children in the emulator (Google's
// connector reference: googleapis/workflowexecutions).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { EMULATOR_JS, startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const s = suite('mocks, virtual clock, child workflows and the control API (black-box)');

const dir = mkdtempSync(join(tmpdir(), 'wfemu-mocks-'));
const MOCKS = `
http:
  - match: {method: POST, url: "https://pay.test/charge"}
    respond: [{status: 503}, {status: 200, body: {charged: true}}]
  - match: {url: "https://catalog.test/items/*"}
    respond: {body: {price: 5}}
connectors:
  - call: googleapis.bigquery.v2.jobs.query
    args: {projectId: p1}
    result: {rows: [1, 2]}
  - call: googleapis.pubsub.v1.projects.topics.publish
    raise: {code: 403, message: "denied", tags: [HttpError]}
`;
writeFileSync(join(dir, 'mocks.yaml'), MOCKS);

let emu: EmulatorProcess;
s.before(async () => {
  emu = await startEmulator({ workflowsDir: false, args: ['--mocks', join(dir, 'mocks.yaml'), '--clock', 'virtual'] });
});
s.after(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
});

async function deploy(id: string, source: string): Promise<void> {
  const r = await emu.request('POST', `/workflows?workflowId=${id}`, { sourceContents: source });
  if (r.status === 409) {
    const u = await emu.request('PATCH', `/workflows/${id}`, { sourceContents: source });
    assert.is(u.status, 200, u.text);
    return;
  }
  assert.is(r.status, 200, r.text);
}

async function runToEnd(id: string, argument?: unknown): Promise<any> {
  const r = await emu.request('POST', `/workflows/${id}/executions`, argument === undefined ? {} : { argument: JSON.stringify(argument) });
  assert.is(r.status, 200, r.text);
  return finished(r.body.name);
}

async function finished(name: string): Promise<any> {
  return until(async () => {
    const g = await emu.request('GET', `/v1/${name}`);
    return g.body.state === 'ACTIVE' ? undefined : g.body;
  }, `${name} to end`);
}

const SAGA = `main:
  steps:
    - t0:
        assign:
          - t0: \${sys.now()}
    - price:
        call: http.get
        args: {url: "https://catalog.test/items/sku-1"}
        result: item
    - nap:
        call: sys.sleep
        args: {seconds: 3600}
    - charge:
        try:
          call: http.post
          args:
            url: https://pay.test/charge
            body:
              amount: \${item.body.price}
          result: paid
        retry: \${http.default_retry}
    - query:
        call: googleapis.bigquery.v2.jobs.query
        args: {projectId: p1}
        result: q
    - done:
        return:
          paid: \${paid.body.charged}
          rows: \${q.rows}
          rowsInExpr: \${googleapis.bigquery.v2.jobs.query("p1").rows}
          elapsed: \${sys.now() - t0}
`;

s('a mock file at start-up answers http.* and connectors; a mocked 503 is retried by http.default_retry; an hour of sleep takes no time', async () => {
  await deploy('saga', SAGA.replace('googleapis.bigquery.v2.jobs.query("p1")', 'googleapis.bigquery.v2.jobs.query("p1", {})'));
  // A connector inside an expression binds its arguments as arg0, arg1: a mock matching on `args` misses it,
  // so the expression form is covered by an args-free mock below.
  const put = await emu.request('PUT', '/emulator/v1/mocks', MOCKS.replace('connectors:', 'connectors:\n  - call: googleapis.bigquery.v2.jobs.query\n    args: {arg0: p1}\n    result: {rows: [9]}'));
  assert.is(put.status, 200, put.text);
  const ex = await runToEnd('saga');
  assert.is(ex.state, 'SUCCEEDED', JSON.stringify(ex.error));
  const result = JSON.parse(ex.result);
  assert.equal(result, { paid: true, rows: [1, 2], rowsInExpr: [9], elapsed: 3601.0 });
  // Resource timestamps follow the virtual clock: the execution lasted a virtual hour and a second.
  assert.is(Date.parse(ex.endTime) - Date.parse(ex.startTime), 3601_000);
});

s('every outbound call is recorded with its step, request, response or error, and whether a mock answered', async () => {
  const ex = await runToEnd('saga');
  const r = await emu.request('GET', `/emulator/v1/${ex.name}/calls`);
  assert.is(r.status, 200, r.text);
  const calls = r.body.calls;
  assert.equal(
    calls.map((c: any) => [c.kind, c.name, c.step, c.mocked]),
    [
      ['http', 'http.get', 'price', true],
      ['http', 'http.post', 'charge', true],
      ['http', 'http.post', 'charge', true],
      ['connector', 'googleapis.bigquery.v2.jobs.query', 'query', true],
      ['connector', 'googleapis.bigquery.v2.jobs.query', 'done', true],
    ],
  );
  assert.is(calls[1].method, 'POST');
  assert.is(calls[1].url, 'https://pay.test/charge');
  assert.equal(calls[1].requestBody, { amount: 5 });
  assert.is(calls[1].error.code, 503);
  assert.equal(calls[1].error.tags, ['HttpError']);
  assert.is(calls[2].response.code, 200);
  assert.equal(calls[3].args, { projectId: 'p1' });
  assert.equal(calls[3].response, { rows: [1, 2] });
  assert.match(calls[0].mock, /request body:\d+:\d+/);
  // The UI's execution page lists them.
  const [, wf, id] = /workflows\/([^/]+)\/executions\/([^/]+)$/.exec(ex.name)!;
  const page = await emu.request('GET', `/ui/executions/${wf}/${id}`);
  assert.is(page.status, 200);
  assert.match(page.text, 'Outbound calls');
  assert.match(page.text, 'https://pay.test/charge');
  assert.match(page.text, 'googleapis.bigquery.v2.jobs.query');
  assert.is(page.text.match(/<tr class="call">/g)?.length, 5);
  const missing = await emu.request('GET', `/emulator/v1/${ex.name.replace(/executions\/.*/, 'executions/nope')}/calls`);
  assert.is(missing.status, 404);
});

s('a mocked connector raise is what the workflow sees; an unmocked connector says how to mock it', async () => {
  await deploy(
    'pub',
    `main:
  steps:
    - pub:
        try:
          call: googleapis.pubsub.v1.projects.topics.publish
          args: {topic: t}
        except:
          as: e
          steps:
            - back:
                return: \${e}
`,
  );
  const ex = await runToEnd('pub');
  assert.equal(JSON.parse(ex.result), { message: 'denied', code: 403, tags: ['HttpError'] });
  await deploy('unmocked', 'main:\n  steps:\n    - get:\n        call: googleapis.storage.v1.objects.get\n        args: {bucket: b, object: o}\n');
  const failed = await runToEnd('unmocked');
  assert.is(failed.state, 'FAILED');
  const payload = JSON.parse(failed.error.payload);
  assert.equal(payload.tags, ['SystemError']);
  assert.match(payload.message, 'googleapis.storage.v1.objects.get: connectors are not emulated');
  assert.match(payload.message, '--mocks FILE, an entry {call: googleapis.storage.v1.objects.get, result: ...} under "connectors"');
});

s('PUT /emulator/v1/mocks with a bad file is a 400 naming line and column, and the current mocks stay', async () => {
  const before = await emu.request('GET', '/emulator/v1/mocks');
  const bad = await emu.request('PUT', '/emulator/v1/mocks', 'http:\n  - match: {url: "/a(/"}\n    respond: {}\n');
  assert.is(bad.status, 400);
  assert.is(bad.body.error.status, 'INVALID_ARGUMENT');
  assert.match(bad.body.error.message, /request body:2:18: match\.url: '\/a\(\/' is not a valid RE2 regular expression/);
  const after = await emu.request('GET', '/emulator/v1/mocks');
  assert.equal(after.body, before.body);
  const notJson = await emu.request('PUT', '/emulator/v1/mocks', '{"http": [');
  assert.is(notJson.status, 400);
});

s('unmatched.http: error fails an unmocked call naming method, URL and the nearest mock; DELETE clears the mocks', async () => {
  const put = await emu.request('PUT', '/emulator/v1/mocks', {
    unmatched: { http: 'error' },
    http: [{ match: { method: 'GET', url: 'https://catalog.test/items/*' }, respond: { body: 1 } }],
  });
  assert.is(put.status, 200, put.text);
  await deploy('stray', 'main:\n  steps:\n    - out:\n        call: http.get\n        args: {url: "https://catalog.test/other"}\n');
  const ex = await runToEnd('stray');
  assert.is(ex.state, 'FAILED');
  const payload = JSON.parse(ex.error.payload);
  assert.match(payload.message, 'no http mock matches GET https://catalog.test/other');
  assert.match(payload.message, 'did not match: url "https://catalog.test/other" does not match "https://catalog.test/items/*"');
  assert.is(ex.error.context, 'step: out');
  const del = await emu.request('DELETE', '/emulator/v1/mocks');
  assert.equal(del.body, { http: [], connectors: [] });
});

s('virtual clock: parallel branches sleeping different times end in order of their sleeps; sleep_until and backoff follow it', async () => {
  await deploy(
    'par',
    `main:
  steps:
    - init:
        assign:
          - order: []
          - t0: \${sys.now()}
    - both:
        parallel:
          shared: [order]
          branches:
            - long:
                steps:
                  - s1:
                      call: sys.sleep
                      args: {seconds: 7200}
                  - a1:
                      assign:
                        - order: \${list.concat(order, "long")}
            - short:
                steps:
                  - s2:
                      call: sys.sleep
                      args: {seconds: 60}
                  - a2:
                      assign:
                        - order: \${list.concat(order, "short")}
    - until:
        call: sys.sleep_until
        args:
          time: \${time.format(t0 + 10000)}
    - done:
        return: \${[order, sys.now() - t0]}
`,
  );
  const ex = await runToEnd('par');
  assert.equal(JSON.parse(ex.result), [['short', 'long'], 10000.0]);
});

s('virtual clock: a callback wait does not time out by itself; clock:advance fires its timeout', async () => {
  await deploy(
    'cb',
    `main:
  steps:
    - make:
        call: events.create_callback_endpoint
        result: cb
    - wait:
        try:
          call: events.await_callback
          args:
            callback: \${cb}
            timeout: 600
          result: got
        except:
          as: e
          steps:
            - late:
                return: \${e.tags}
    - done:
        return: \${got.http_request.body}
`,
  );
  // Delivered in time: the wait gets the request even though nothing else runs.
  const a = await emu.request('POST', '/workflows/cb/executions', {});
  const cb = await until(async () => {
    const r = await emu.request('GET', `/v1/${a.body.name}/callbacks`);
    return r.body.callbacks?.[0];
  }, 'a callback');
  const pending = await emu.request('GET', '/emulator/v1/clock');
  assert.is(pending.body.mode, 'virtual');
  assert.ok(pending.body.pendingDeadlines >= 1);
  const sent = await fetch(cb.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"ok": 1}' });
  assert.is(sent.status, 200);
  assert.equal(JSON.parse((await finished(a.body.name)).result), { ok: 1 });
  // Never delivered: advancing the clock past the timeout raises TimeoutError.
  const b = await emu.request('POST', '/workflows/cb/executions', {});
  await until(async () => ((await emu.request('GET', `/v1/${b.body.name}/callbacks`)).body.callbacks?.length ? true : undefined), 'a callback');
  const t0 = Date.parse((await emu.request('GET', '/emulator/v1/clock')).body.now);
  const adv = await emu.request('POST', '/emulator/v1/clock:advance', { seconds: 601 });
  assert.is(adv.status, 200, adv.text);
  assert.is(Date.parse(adv.body.now) - t0, 601_000);
  assert.equal(JSON.parse((await finished(b.body.name)).result), ['TimeoutError']);
  const bad = await emu.request('POST', '/emulator/v1/clock:advance', { seconds: -1 });
  assert.is(bad.status, 400);
});

s('child workflows: run returns the decoded result, create/get return Execution resources, a failing child raises OperationError', async () => {
  await deploy('child', 'main:\n  params: [args]\n  steps:\n    - check:\n        switch:\n          - condition: ${args.n < 0}\n            raise: {message: negative, code: 7, tags: [ValueError]}\n    - done:\n        return: ${args.n * 2}\n');
  await deploy(
    'parent',
    `main:
  params: [args]
  steps:
    - run:
        call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.run
        args:
          workflow_id: child
          project_id: \${sys.get_env("GOOGLE_CLOUD_PROJECT_ID")}
          location: us-central1
          argument:
            n: \${args.n}
        result: doubled
    - create:
        call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.create
        args:
          parent: \${"projects/any/locations/anywhere/workflows/child"}
          body:
            argument: '{"n": 5}'
        result: created
    - get:
        call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.get
        args:
          name: \${created.name}
        result: fetched
    - done:
        return: \${[doubled, created.state, created.result, fetched.name == created.name]}
`,
  );
  const ok = await runToEnd('parent', { n: 21 });
  assert.is(ok.state, 'SUCCEEDED', ok.error?.payload);
  assert.equal(JSON.parse(ok.result), [42, 'SUCCEEDED', '10', true]);
  // The children are ordinary executions of `child`; the UI links each to its parent.
  const list = await emu.request('GET', '/workflows/child/executions');
  assert.ok(list.body.executions.length >= 2);
  const childId = list.body.executions[0].name.split('/').pop();
  const childPage = await emu.request('GET', `/ui/executions/child/${childId}`);
  assert.match(childPage.text, 'Started by');
  assert.match(childPage.text, ok.name);
  const bad = await runToEnd('parent', { n: -1 });
  assert.is(bad.state, 'FAILED');
  const payload = JSON.parse(bad.error.payload);
  assert.equal(payload.tags, ['OperationError']);
  assert.is(payload.message, 'Execution failed or cancelled.');
  assert.is(payload.operation.state, 'FAILED');
  assert.equal(JSON.parse(payload.operation.error.payload).tags, ['ValueError']);
  assert.is(bad.error.context, 'step: run');
  await deploy('orphan', 'main:\n  steps:\n    - run:\n        call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.run\n        args: {workflow_id: nope}\n');
  const nf = JSON.parse((await runToEnd('orphan')).error.payload);
  assert.equal(nf.tags, ['HttpError']);
  assert.is(nf.code, 404);
});

s('health, clock, and reset back to empty', async () => {
  const h = await emu.request('GET', '/emulator/v1/health');
  assert.equal({ status: h.body.status, clock: h.body.clock }, { status: 'ok', clock: 'virtual' });
  const reset = await emu.request('POST', '/emulator/v1/reset');
  assert.is(reset.status, 200, reset.text);
  assert.equal((await emu.request('GET', '/workflows')).body.workflows, []);
  assert.equal((await emu.request('GET', '/v1/projects/my-project/locations/us-central1/workflows/-/executions')).status !== 500, true);
  // The mocks of --mocks are back.
  assert.is((await emu.request('GET', '/emulator/v1/mocks')).body.http.length, 2);
  assert.is((await emu.request('GET', '/emulator/v1/nope')).status, 404);
  assert.is((await emu.request('POST', '/emulator/v1/health')).status, 404);
});

s('the control API passes the browser guard: another web origin cannot reset or replace mocks (docs/cli.md#safe-by-default)', async () => {
  const r = await emu.request('POST', '/emulator/v1/reset', undefined, { origin: 'https://evil.example' });
  assert.is(r.status, 403);
  const m = await emu.request('PUT', '/emulator/v1/mocks', { http: [] }, { origin: 'https://evil.example' });
  assert.is(m.status, 403);
  assert.is((await emu.request('GET', '/emulator/v1/mocks')).body.http.length, 2);
});

s('a bad mock file or clock at start-up stops with exit code 2 and names file, line and column', () => {
  writeFileSync(join(dir, 'bad.yaml'), 'http:\n  - match: {url: "https://a.test/"}\n    respond: {status: 700}\n');
  const r = spawnSync(process.execPath, [EMULATOR_JS, '--port', '0', '--grpc-port', '0', '--mocks', join(dir, 'bad.yaml')], { encoding: 'utf8' });
  assert.is(r.status, 2);
  assert.match(r.stderr, /bad\.yaml:3:23: respond\.status 700 can never be produced/);
  const c = spawnSync(process.execPath, [EMULATOR_JS, '--clock', 'fast'], { encoding: 'utf8' });
  assert.is(c.status, 2);
  assert.match(c.stderr, /invalid clock/);
});

s('run --mocks --clock virtual: a mocked, retried call and an hour of sleep at once; a bad mock file exits 2', () => {
  writeFileSync(
    join(dir, 'once.yaml'),
    'main:\n  steps:\n    - t0:\n        assign:\n          - t0: ${sys.now()}\n    - s:\n        call: sys.sleep\n        args: {seconds: 3600}\n' +
      '    - charge:\n        try:\n          call: http.post\n          args: {url: "https://pay.test/charge"}\n          result: r\n        retry: ${http.default_retry}\n' +
      '    - done:\n        return: ${[r.body, sys.now() - t0]}\n',
  );
  const ok = spawnSync(process.execPath, [EMULATOR_JS, 'run', join(dir, 'once.yaml'), '--mocks', join(dir, 'mocks.yaml'), '--clock', 'virtual'], { encoding: 'utf8' });
  assert.is(ok.status, 0, ok.stderr);
  assert.is(ok.stdout.trim(), '[{"charged":true},3601.0]');
  writeFileSync(join(dir, 'bad-run.yaml'), 'connectors:\n  - call: googleapis.x.y\n    reslt: 1\n');
  const bad = spawnSync(process.execPath, [EMULATOR_JS, 'run', join(dir, 'once.yaml'), '--mocks', join(dir, 'bad-run.yaml')], { encoding: 'utf8' });
  assert.is(bad.status, 2);
  assert.match(bad.stderr, /bad-run\.yaml:3:5: unknown key 'reslt' in a connector mock/);
});

s.run();
