import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WorkflowsClient, ExecutionsClient } from '@google-cloud/workflows';
import { startServer, type RunningServer } from '../../src/server.ts';
import { ADD_ONE_SOURCE as SOURCE, createWorkflow, noAuth as auth, PARENT, rejects, untilDone } from '../support/google-clients.ts';

// docs/grpc.md#the-grpc-api and docs/rest-api.md#endpoints: Google's client library on its REST transport (`fallback`), which calls
// the REST paths with `$alt=json;enum-encoding=int` and expects the gRPC API's messages as proto3 JSON (done
// operations for create/update/delete, enums as integers), for every RPC; plain REST keeps the spec's shapes.
const s = suite<{ server: RunningServer; workflows: WorkflowsClient; executions: ExecutionsClient }>('api grpc-rest (Google client over REST)');

const SLEEPY = 'main:\n  steps:\n    - wait:\n        call: sys.sleep\n        args:\n          seconds: 60\n';
const ALT = '$alt=json%3Benum-encoding=int';

s.before(async (ctx) => {
  ctx.server = await startServer({ host: '127.0.0.1', port: 0, grpcPort: 0, service: { log: () => {} } });
  const options = { servicePath: '127.0.0.1', port: ctx.server.port, protocol: 'http', fallback: true, auth };
  ctx.workflows = new WorkflowsClient(options as never);
  ctx.executions = new ExecutionsClient(options as never);
});

s.after(async (ctx) => {
  await ctx.workflows.close();
  await ctx.executions.close();
  await ctx.server.close();
});

// What the gRPC API does is pinned over gRPC in grpc.test.ts; these tests pin that every RPC also travels over
// the REST transport (the google.api.http paths, proto3 JSON, int enums), one pass over each service.

s('every Workflows RPC over REST: create, get, list, update (snake_case update_mask), list revisions, delete and get operation (Google\'s workflows REST reference)', async (ctx) => {
  const [operation] = await ctx.workflows.createWorkflow({
    parent: PARENT,
    workflowId: 'rest-workflow',
    workflow: { sourceContents: SOURCE, description: 'over rest' },
  });
  assert.ok(operation.done);
  const [created, createMetadata] = await operation.promise();
  assert.is(created.name, `${PARENT}/workflows/rest-workflow`);
  assert.is(created.sourceContents, SOURCE);
  assert.is(created.state, 1);
  assert.match(created.revisionId!, /^\d{6}-[0-9a-f]{3}$/);
  assert.is(createMetadata.verb, 'create');
  const polled = await ctx.workflows.checkCreateWorkflowProgress(operation.name!);
  assert.ok(polled.done);
  assert.is((polled.result as { name?: string }).name, created.name);

  const [got] = await ctx.workflows.getWorkflow({ name: created.name });
  assert.is(got.state, 'ACTIVE');
  assert.is(got.revisionId, created.revisionId);
  assert.is(got.description, 'over rest');
  const [workflows] = await ctx.workflows.listWorkflows({ parent: PARENT });
  assert.ok(workflows.some((w) => w.name === created.name));

  const [updating] = await ctx.workflows.updateWorkflow({
    workflow: { name: created.name, description: 'ignored', sourceContents: SLEEPY },
    updateMask: { paths: ['source_contents'] },
  });
  assert.ok(updating.done);
  const [updated, updateMetadata] = await updating.promise();
  assert.is(updateMetadata.verb, 'update');
  assert.is(updated.sourceContents, SLEEPY);
  assert.is(updated.description, 'over rest');
  assert.is.not(updated.revisionId, created.revisionId);
  const [revisions] = await ctx.workflows.listWorkflowRevisions({ name: created.name }, { autoPaginate: false });
  assert.equal(revisions.map((w) => w.revisionId), [updated.revisionId, created.revisionId]);
  assert.is(revisions[1]!.sourceContents, SOURCE);

  const [deleting] = await ctx.workflows.deleteWorkflow({ name: created.name });
  assert.ok(deleting.done);
  const [, deleteMetadata] = await deleting.promise();
  assert.is(deleteMetadata.verb, 'delete');
  assert.is((await rejects(ctx.workflows.getWorkflow({ name: created.name }))).code, 5);
  const res = await fetch(`${ctx.server.url}/v1/${PARENT}/operations/operation-1-00`);
  assert.is(res.status, 404);
  assert.is((await res.json()).error.status, 'NOT_FOUND');
});

s('errors over REST reach the client with their codes: NOT_FOUND, ALREADY_EXISTS, INVALID_ARGUMENT, FAILED_PRECONDITION (Google API design guide "Errors")', async (ctx) => {
  const missing = await rejects(ctx.workflows.getWorkflow({ name: `${PARENT}/workflows/nothing` }));
  assert.is(missing.code, 5);
  const workflow = await createWorkflow(ctx, 'rest-twice');
  const twice = await rejects(ctx.workflows.createWorkflow({ parent: PARENT, workflowId: 'rest-twice', workflow: { sourceContents: SOURCE } }));
  assert.is(twice.code, 6);
  const invalid = await rejects(ctx.workflows.createWorkflow({ parent: PARENT, workflowId: 'rest-bad', workflow: { sourceContents: 'main: [' } }));
  assert.is(invalid.code, 3);
  const unknown = await rejects(ctx.executions.getExecution({ name: `${workflow.name}/executions/nope` }));
  assert.is(unknown.code, 5);
  const [ended] = await ctx.executions.createExecution({ parent: workflow.name, execution: { argument: '{"x":1}' } });
  await untilDone(ctx, ended.name!);
  assert.is((await rejects(ctx.executions.cancelExecution({ name: ended.name }))).code, 9);
});

s('every Executions RPC over REST: create, get until SUCCEEDED, list, cancel (Google\'s executions REST reference)', async (ctx) => {
  const workflow = await createWorkflow(ctx, 'rest-adder');
  const [created] = await ctx.executions.createExecution({ parent: workflow.name, execution: { argument: '{"x":1}' } });
  assert.is(created.state, 'ACTIVE');
  assert.is(created.workflowRevisionId, workflow.revisionId);
  const done = await untilDone(ctx, created.name!);
  assert.is(done.state, 'SUCCEEDED');
  assert.is(done.result, '2');
  assert.ok(done.endTime);
  const [list] = await ctx.executions.listExecutions({ parent: workflow.name });
  assert.equal(list.map((e) => e.name), [created.name]);
  const sleeper = await createWorkflow(ctx, 'rest-sleeper', SLEEPY);
  const [sleeping] = await ctx.executions.createExecution({ parent: sleeper.name, execution: {} });
  assert.is(sleeping.state, 'ACTIVE');
  const [cancelled] = await ctx.executions.cancelExecution({ name: sleeping.name });
  assert.is(cancelled.state, 'CANCELLED');
});

s('with $alt=json;enum-encoding=int create answers an operation with int enums; plain REST answers the workflow (docs/rest-api.md#endpoints)', async (ctx) => {
  const post = (query: string) =>
    fetch(`${ctx.server.url}/v1/${PARENT}/workflows?${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sourceContents: SOURCE }),
    });
  const google = await (await post(`workflowId=alt-shape&${ALT}`)).json();
  assert.is(google.done, true);
  assert.match(google.name, new RegExp(`^${PARENT}/operations/`));
  assert.is(google.response['@type'], 'type.googleapis.com/google.cloud.workflows.v1.Workflow');
  assert.is(google.response.state, 1);
  assert.is(google.metadata['@type'], 'type.googleapis.com/google.cloud.workflows.v1.OperationMetadata');
  const plain = await (await post('workflowId=plain-shape')).json();
  assert.is(plain.name, `${PARENT}/workflows/plain-shape`);
  assert.is(plain.state, 'ACTIVE');
  assert.is(plain.done, undefined);
  const get = await (await fetch(`${ctx.server.url}/v1/${PARENT}/workflows/plain-shape?${ALT}`)).json();
  assert.is(get.state, 1);
});

s.run();
