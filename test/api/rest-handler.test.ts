// The REST handler in process (docs/architecture.md#layers-and-where-things-are): createRestHandler on a real node:http server in
// this process, over a real service core, so a failure points at code rather than at a subprocess. The
// black-box suites (rest.test.ts and others) run the same API through the built bundle.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Code } from '@connectrpc/connect';
import { createRestHandler } from '../../src/api/rest.ts';
import { toConnectError } from '../../src/api/grpc-routes.ts';
import { createServiceCore } from '../../src/service/core.ts';
import type { ServiceCore } from '../../src/service/model.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { createUi } from '../../src/ui/routes.ts';
import { until } from '../support/emulator.ts';

const HELLO = 'main:\n  params: [args]\n  steps:\n    - greet:\n        return: ${"Hello, " + args.name}\n';

interface Api {
  readonly base: string;
  readonly prefix: string;
  readonly core: ServiceCore & { close(): void };
  close(): Promise<void>;
}

async function start(options: { withUi?: boolean; core?: Parameters<typeof createServiceCore>[0] } = {}): Promise<Api> {
  const core = createServiceCore(options.core ?? { project: 'p', location: 'l', callbackBaseUrl: 'http://localhost', log: () => {} });
  const handler = createRestHandler(core, options.withUi ? { ui: createUi(core) } : {});
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    prefix: `${base}/v1/projects/${core.project}/locations/${core.location}`,
    core,
    close: () => {
      core.close();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

async function call(url: string, method = 'GET', body?: unknown): Promise<{ status: number; json: any; text: string }> {
  const res = await fetch(url, {
    method,
    ...(body !== undefined ? { body: typeof body === 'string' ? body : JSON.stringify(body), headers: { 'content-type': 'application/json' } } : {}),
  });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, text };
}

const test = suite('REST handler in process');

test('deploy, run and read an execution: the result is JSON text (docs/rest-api.md#endpoints and docs/api-resources.md#execution)', async () => {
  const api = await start();
  try {
    const created = await call(`${api.prefix}/workflows?workflowId=hello`, 'POST', { sourceContents: HELLO });
    assert.is(created.status, 200);
    assert.is(created.json.name, 'projects/p/locations/l/workflows/hello');
    const ex = await call(`${api.prefix}/workflows/hello/executions`, 'POST', { argument: '{"name": "Ada"}' });
    assert.is(ex.status, 200);
    assert.is(ex.json.state, 'ACTIVE');
    const got = await until(async () => {
      const now = (await call(`${api.base}/v1/${ex.json.name}`)).json;
      return now.state === 'ACTIVE' ? undefined : now;
    }, 'the execution to end');
    assert.is(got.state, 'SUCCEEDED');
    assert.is(got.result, '"Hello, Ada"');
  } finally {
    await api.close();
  }
});

test('an execution carries createTime, the same as startTime for one that starts at once, ACTIVE and ended (https://cloud.google.com/workflows/docs/reference/executions/rest/v1/projects.locations.workflows.executions)', async () => {
  const api = await start();
  try {
    await call(`${api.prefix}/workflows?workflowId=hello`, 'POST', { sourceContents: HELLO });
    const ex = await call(`${api.prefix}/workflows/hello/executions`, 'POST', { argument: '{"name": "Ada"}' });
    assert.match(ex.json.createTime, /^\d{4}-\d\d-\d\dT/);
    assert.is(ex.json.createTime, ex.json.startTime);
    const got = await until(async () => {
      const now = (await call(`${api.base}/v1/${ex.json.name}`)).json;
      return now.state === 'ACTIVE' ? undefined : now;
    }, 'the execution to end');
    assert.equal([got.state, got.createTime], ['SUCCEEDED', ex.json.startTime]);
    const listed = await call(`${api.prefix}/workflows/hello/executions`);
    assert.is(listed.json.executions[0].createTime, ex.json.startTime);
  } finally {
    await api.close();
  }
});

test('an invalid definition is a 400 naming step, line and column (docs/api-resources.md#errors)', async () => {
  const api = await start();
  try {
    const bad = 'main:\n  steps:\n    - check:\n        nxt: end\n';
    const r = await call(`${api.prefix}/workflows?workflowId=bad`, 'POST', { sourceContents: bad });
    assert.is(r.status, 400);
    assert.is(r.json.error.status, 'INVALID_ARGUMENT');
    assert.match(r.json.error.message, /^invalid workflow definition: step "check" \(line 4, column 9\): unknown field 'nxt'/);
  } finally {
    await api.close();
  }
});

test('an internal error while compiling is a 500 INTERNAL saying it is a bug of the emulator, not "invalid workflow definition" (REST and gRPC)', async () => {
  const broken = { ...DEFINITION_LIBRARY, hasFunction: (): boolean => { throw new TypeError('table is broken'); } };
  const api = await start({ core: { project: 'p', location: 'l', callbackBaseUrl: 'http://localhost', log: () => {}, library: broken } });
  const stderr = process.stderr.write;
  process.stderr.write = () => true; // the stack trace the core prints
  try {
    const source = 'main:\n  steps:\n    - s:\n        return: ${len([1])}\n';
    const r = await call(`${api.prefix}/workflows?workflowId=w`, 'POST', { sourceContents: source });
    assert.is(r.status, 500);
    assert.is(r.json.error.status, 'INTERNAL');
    assert.match(r.json.error.message, /bug in the emulator, not in the workflow/);
    assert.match(r.json.error.message, /table is broken/);
    assert.not.match(r.json.error.message, /invalid workflow definition/);
    // gRPC answers the same ApiError with code INTERNAL (13).
    let thrown: unknown;
    try {
      api.core.createWorkflow('w2', { sourceContents: source });
    } catch (e) {
      thrown = e;
    }
    assert.is(toConnectError(thrown).code, Code.Internal);
    assert.equal(api.core.listWorkflows(), []);
  } finally {
    process.stderr.write = stderr;
    await api.close();
  }
});

test('unknown workflow is 404, a duplicate 409, a malformed body 400 (docs/api-resources.md#errors)', async () => {
  const api = await start();
  try {
    assert.is((await call(`${api.prefix}/workflows/nope`)).status, 404);
    assert.is((await call(`${api.prefix}/workflows?workflowId=hello`, 'POST', { sourceContents: HELLO })).status, 200);
    const dup = await call(`${api.prefix}/workflows?workflowId=hello`, 'POST', { sourceContents: HELLO });
    assert.is(dup.status, 409);
    assert.is(dup.json.error.status, 'ALREADY_EXISTS');
    const malformed = await call(`${api.prefix}/workflows?workflowId=x`, 'POST', '{"sourceContents": ');
    assert.is(malformed.status, 400);
  } finally {
    await api.close();
  }
});

test('the web UI is served only when the server hands the handler one; /callbacks of an unknown ID is 404', async () => {
  const bare = await start();
  const withUi = await start({ withUi: true });
  try {
    assert.is((await call(`${bare.base}/ui`)).status, 404);
    const page = await call(`${withUi.base}/ui`);
    assert.is(page.status, 200);
    assert.match(page.text, /<html/i);
    const cb = await call(`${withUi.base}/callbacks/unknown-id`, 'POST', {});
    assert.is(cb.status, 404);
  } finally {
    await bare.close();
    await withUi.close();
  }
});

test.run();
