// The REST port's one route table (src/api/rest-routes.ts) over real HTTP: plain REST and Google's REST
// transport (`$alt=json;enum-encoding=int`) are served from the same google.api.http rules, every operation
// either returns can be polled (https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.operations/get),
// and the Connect protocol (https://connectrpc.com/docs/protocol/) answers on the REST port too, behind the
// browser guard (docs/ "Safe by default": no other web origin may drive the emulator).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startServer, type RunningServer } from '../../src/server.ts';
import { ADD_ONE_SOURCE as SOURCE, PARENT } from '../support/google-clients.ts';
import { getOption } from '@bufbuild/protobuf';
import { http as httpOption } from '../../gen/google/api/annotations_pb.ts';
import { allRpcs } from '../../src/api/grpc-services.ts';
import { RPC_HTTP_RULES } from '../../src/api/rest-routes.ts';
import type { ServiceCore } from '../../src/service/model.ts';

const s = suite<{ server: RunningServer; base: string }>('api rest-routes (one route table, operations, Connect on the REST port)');

const ALT = '$alt=json%3Benum-encoding=int';
const SLEEPY = 'main:\n  steps:\n    - wait:\n        call: sys.sleep\n        args:\n          seconds: 60\n';

s.before(async (ctx) => {
  ctx.server = await startServer({ host: '127.0.0.1', port: 0, grpcPort: 0, service: { log: () => {} } });
  ctx.base = `http://127.0.0.1:${ctx.server.port}`;
});

s.after(async (ctx) => {
  await ctx.server.close();
});

/** A JSON request to the REST port; `path` under `/v1/{PARENT}` when it starts with `/workflows` or `/operations`. */
async function call(ctx: { base: string }, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const url = /^\/(workflows|operations)/.test(path) ? `${ctx.base}/v1/${PARENT}${path}` : path.startsWith('/v1/') || path.startsWith('/google.') ? `${ctx.base}${path}` : path;
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text), text };
}

s('an operation returned by plain-REST update can be polled: GET of its name answers it done, with the workflow and metadata verb "update"', async (ctx) => {
  assert.is((await call(ctx, 'POST', '/workflows?workflowId=poll-update', { sourceContents: SOURCE })).status, 200);
  const updated = await call(ctx, 'PATCH', '/workflows/poll-update?updateMask=description', { description: 'after' });
  assert.is(updated.status, 200, updated.text);
  assert.match(updated.body.name, new RegExp(`^${PARENT}/operations/operation-\\d+-[0-9a-f]+$`));
  const polled = await call(ctx, 'GET', `/v1/${updated.body.name}`);
  assert.is(polled.status, 200, polled.text);
  assert.is(polled.body.name, updated.body.name);
  assert.is(polled.body.done, true);
  assert.is(polled.body.metadata.verb, 'update');
  assert.is(polled.body.metadata.target, `${PARENT}/workflows/poll-update`);
  assert.is(polled.body.response['@type'], 'type.googleapis.com/google.cloud.workflows.v1.Workflow');
  assert.is(polled.body.response.description, 'after');
  assert.is(polled.body.response.revisionId, updated.body.response.revisionId);
});

s('an operation returned by plain-REST delete can be polled: done, metadata verb "delete", response google.protobuf.Empty', async (ctx) => {
  assert.is((await call(ctx, 'POST', '/workflows?workflowId=poll-delete', { sourceContents: SOURCE })).status, 200);
  const deleted = await call(ctx, 'DELETE', '/workflows/poll-delete');
  assert.is(deleted.status, 200, deleted.text);
  const polled = await call(ctx, 'GET', `/v1/${deleted.body.name}`);
  assert.is(polled.status, 200, polled.text);
  assert.equal([polled.body.done, polled.body.metadata.verb, polled.body.metadata.target], [true, 'delete', `${PARENT}/workflows/poll-delete`]);
  assert.equal(polled.body.response, { '@type': 'type.googleapis.com/google.protobuf.Empty' });
  // Over Google's REST transport too.
  const again = await call(ctx, 'GET', `/v1/${deleted.body.name}?${ALT}`);
  assert.equal([again.status, again.body.name, again.body.done], [200, deleted.body.name, true]);
  // A name never returned is NOT_FOUND.
  const unknown = await call(ctx, 'GET', `/operations/operation-1-00`);
  assert.is(unknown.status, 404, unknown.text);
});

s('the same URL is served for both transports: plain REST with enums as names, $alt=json;enum-encoding=int with the same resource in proto3 JSON', async (ctx) => {
  assert.is((await call(ctx, 'POST', '/workflows?workflowId=both', { sourceContents: SLEEPY })).status, 200);
  const started = await call(ctx, 'POST', '/workflows/both/executions', {});
  assert.is(started.status, 200, started.text);
  const executionPath = started.body.name.slice(PARENT.length);
  for (const path of ['/workflows/both', '/workflows/both:listRevisions', '/workflows/both/executions', executionPath]) {
    const plain = await call(ctx, 'GET', path);
    const google = await call(ctx, 'GET', `${path}?${ALT}`);
    assert.is(plain.status, 200, `${path}: ${plain.text}`);
    assert.is(google.status, 200, `${path}?$alt: ${google.text}`);
    const pick = (b: any) => b.name ?? (b.workflows ?? b.executions).map((r: any) => r.name);
    assert.equal(pick(google.body), pick(plain.body), path);
  }
  const plain = await call(ctx, 'GET', executionPath);
  const google = await call(ctx, 'GET', `${executionPath}?${ALT}`);
  assert.is(plain.body.state, 'ACTIVE');
  assert.is(google.body.state, 1);
  // Create differs as documented: plain REST answers the workflow, Google's REST transport a done operation.
  const created = await call(ctx, 'POST', `/workflows?workflowId=both-created&${ALT}`, { sourceContents: SOURCE });
  assert.equal([created.status, created.body.done, created.body.response.name], [200, true, `${PARENT}/workflows/both-created`]);
  assert.is((await call(ctx, 'GET', `/v1/${created.body.name}`)).body.name, created.body.name);
  // Cancel is one route for both.
  const cancelled = await call(ctx, 'POST', `${executionPath}:cancel?${ALT}`, {});
  assert.equal([cancelled.status, cancelled.body.state], [200, 4]);
});

s('a path or method no rule serves is the same 404 for both transports', async (ctx) => {
  for (const suffix of ['', `?${ALT}`]) {
    const unknown = await call(ctx, 'GET', `/workflows/w/things${suffix}`);
    assert.equal([unknown.status, unknown.body.error.status], [404, 'NOT_FOUND'], unknown.text);
    assert.match(unknown.body.error.message, 'no such path: GET');
    const wrongMethod = await call(ctx, 'PUT', `/workflows/w${suffix}`, {});
    assert.equal([wrongMethod.status, wrongMethod.body.error.status], [404, 'NOT_FOUND'], wrongMethod.text);
    assert.match(wrongMethod.body.error.message, 'method PUT is not served');
    const getOfCancel = await call(ctx, 'GET', `/workflows/w/executions/e:cancel${suffix}`);
    assert.match(getOfCancel.body.error.message, 'method GET is not served');
  }
});

s('the Connect protocol answers on the REST port: POST /google.cloud.workflows.v1.Workflows/ListWorkflows with application/json', async (ctx) => {
  assert.is((await call(ctx, 'POST', '/workflows?workflowId=over-connect', { sourceContents: SOURCE })).status, 200);
  const listed = await call(ctx, 'POST', '/google.cloud.workflows.v1.Workflows/ListWorkflows', { parent: PARENT });
  assert.is(listed.status, 200, listed.text);
  assert.ok(listed.body.workflows.some((w: any) => w.name === `${PARENT}/workflows/over-connect` && w.state === 'ACTIVE'));
  const got = await call(ctx, 'POST', '/google.cloud.workflows.v1.Workflows/GetWorkflow', { name: `${PARENT}/workflows/nope` });
  // Connect's error JSON: a 404 with the code as a name (https://connectrpc.com/docs/protocol/#error-end-stream).
  assert.equal([got.status, got.body.code], [404, 'not_found'], got.text);
  const unknownRpc = await call(ctx, 'POST', '/google.cloud.workflows.v1.Workflows/NoSuchMethod', {});
  assert.is(unknownRpc.status, 404, unknownRpc.text);
});

s('the Connect protocol on the REST port is behind the browser guard: another web origin gets 403 and changes nothing', async (ctx) => {
  const refused = await call(ctx, 'POST', '/google.cloud.workflows.v1.Workflows/CreateWorkflow',
    { parent: PARENT, workflowId: 'from-evil', workflow: { sourceContents: SOURCE } },
    { origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' });
  assert.is(refused.status, 403, refused.text);
  assert.is(refused.body.error.status, 'PERMISSION_DENIED');
  assert.is((await call(ctx, 'GET', '/workflows/from-evil')).status, 404);
  // The same request without a browser's headers goes through.
  const created = await call(ctx, 'POST', '/google.cloud.workflows.v1.Workflows/CreateWorkflow', { parent: PARENT, workflowId: 'from-cli', workflow: { sourceContents: SOURCE } });
  assert.equal([created.status, created.body.done], [200, true], created.text);
});

s('the route table holds the google.api.http rule of every implemented RPC as the compiled protos declare it (GetOperation under locations)', () => {
  const declared: { name: string; method: string; template: string; body: string }[] = [];
  for (const { service, rpcs } of allRpcs({ project: 'p', location: 'l' } as ServiceCore)) {
    for (const method of service.methods) {
      if (!(rpcs as Record<string, unknown>)[method.localName]) continue;
      const rule = getOption(method, httpOption);
      if (rule.pattern.case === undefined) continue; // WaitOperation: gRPC only
      const [kind, path] = rule.pattern.case === 'custom' ? [rule.pattern.value.kind, rule.pattern.value.path] : [rule.pattern.case, rule.pattern.value];
      // https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.operations/get
      const template = method.name === 'GetOperation' ? path.replace('{name=operations/**}', '{name=projects/*/locations/*/operations/*}') : path;
      declared.push({ name: method.name, method: kind.toUpperCase(), template, body: rule.body });
    }
  }
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  assert.equal([...RPC_HTTP_RULES].sort(byName), declared.sort(byName));
});

s.run();
