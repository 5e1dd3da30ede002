// The JS API's in-process run (docs/testing.md#runworkflow): runWorkflow() with a source or a file, an
// argument, mocks (object or file), callbacks, env and the virtual clock, resolving to the result or error,
// the steps, the calls and the logs; bad input rejected with code INVALID_ARGUMENT and file:line:col. Checked
// on the built package entry (dist/emulator.js, `npm run build` first), as users import it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { rejection as rejectionOf } from '../support/rejection.ts';
import type * as Api from '../../src/index.ts';

const s = suite<{ api: typeof Api; dir: string }>('dist: JS API runWorkflow (docs/testing.md#runworkflow)');
const rejection = (p: Promise<unknown>) => rejectionOf<Error & { code?: string }>(p);

const FLOW = `main:
  params: [args]
  steps:
    - get:
        call: http.get
        args:
          url: https://api.example.com/items
        result: r
    - wait_a_day:
        call: sys.sleep
        args:
          seconds: 86400
    - ask:
        call: events.create_callback_endpoint
        result: cb
    - answer:
        call: events.await_callback
        args:
          callback: \${cb}
          timeout: 600
        result: req
    - log:
        call: sys.log
        args:
          text: \${"region " + sys.get_env("REGION")}
    - done:
        return:
          count: \${len(r.body)}
          approved: \${req.http_request.body.approved}
          x: \${args.x * 2}
`;

s.before(async (ctx) => {
  ctx.api = (await import(pathToFileURL(join(process.cwd(), 'dist/emulator.js')).href)) as typeof Api;
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfe-runwf-'));
});
s.after((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

s('runs a source with mocks, callbacks, env and a virtual day of sleep; says what it did', async ({ api }) => {
  const started = Date.now();
  const run = await api.runWorkflow({
    source: FLOW,
    argument: { x: 21 },
    mocks: { http: [{ match: { method: 'GET', url: 'https://api.example.com/items' }, respond: { status: 200, body: [1, 2, 3] } }] },
    callbacks: [{ body: { approved: true } }],
    env: { REGION: 'eu' },
  });
  assert.ok(Date.now() - started < 20_000);
  assert.is(run.state, 'SUCCEEDED');
  assert.equal(run.result, { count: 3, approved: true, x: 42 });
  assert.equal(run.steps, ['get', 'wait_a_day', 'ask', 'answer', 'log', 'done']);
  assert.is(run.calls.length, 1);
  assert.is(run.calls[0]!.method, 'GET');
  assert.is(run.calls[0]!.url, 'https://api.example.com/items');
  assert.is(run.calls[0]!.step, 'get');
  assert.is(run.calls[0]!.mocked, true);
  assert.equal((run.calls[0]!.response as { body: unknown }).body, [1, 2, 3]);
  assert.equal(run.logs, ['region eu']);
  assert.is(run.callbacksCreated, 1);
});

s('a failed run resolves with the error map and the failing step', async ({ api, dir }) => {
  const file = join(dir, 'flow.yaml');
  writeFileSync(file, FLOW);
  const mocks = join(dir, 'mocks.yaml');
  writeFileSync(mocks, 'http:\n  - match: {url: "https://api.example.com/*"}\n    respond: {status: 503, body: {error: down}}\n');
  const run = await api.runWorkflow({ file, mocks, argument: { x: 1 } });
  assert.is(run.state, 'FAILED');
  assert.is(run.failedStep, 'get');
  assert.is(run.error!.code, 503);
  assert.equal(run.error!.tags, ['HttpError']);
  assert.equal(run.error!.body, { error: 'down' });
  assert.is(run.result, undefined);
  assert.equal(run.steps, ['get']);
});

s('without a callback to deliver, the wait times out at once on the virtual clock', async ({ api }) => {
  const run = await api.runWorkflow({ source: FLOW, argument: { x: 1 }, mocks: { http: [{ match: { url: 'https://api.example.com/items' }, respond: { status: 200, body: [] } }] } });
  assert.is(run.state, 'FAILED');
  assert.is(run.failedStep, 'answer');
  assert.equal(run.error!.tags, ['TimeoutError']);
});

s('a run reads the server defaults as its project and location: my-project, us-central1', async ({ api }) => {
  const source = 'main:\n  steps:\n    - where:\n        return: ${[sys.get_env("GOOGLE_CLOUD_PROJECT_ID"), sys.get_env("GOOGLE_CLOUD_LOCATION")]}\n';
  const run = await api.runWorkflow({ source });
  assert.is(run.state, 'SUCCEEDED', JSON.stringify(run.error));
  assert.equal(run.result, ['my-project', 'us-central1']);
});

s('bad input is rejected with INVALID_ARGUMENT, naming file, line and column', async ({ api, dir }) => {
  let e = await rejection(api.runWorkflow({ source: 'main:\n  steps:\n    - a:\n        retrun: 1\n' }));
  assert.is(e.code, 'INVALID_ARGUMENT');
  assert.match(e.message, /^source:4:9: invalid workflow definition: /);
  e = await rejection(api.runWorkflow({}));
  assert.match(e.message, /exactly one of `source` and `file`/);
  e = await rejection(api.runWorkflow({ file: join(dir, 'nope.yaml') }));
  assert.match(e.message, /cannot read .*nope\.yaml: ENOENT/);
  e = await rejection(api.runWorkflow({ source: FLOW, mocks: { http: [{ match: { url: 'x' }, respnd: {} }] } }));
  assert.is(e.code, 'INVALID_ARGUMENT');
  assert.match(e.message, /^invalid mocks: mocks option:\d+:\d+: unknown key 'respnd'/);
});

s.run();
