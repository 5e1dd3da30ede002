import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WorkflowsClient, ExecutionsClient } from '@google-cloud/workflows';
import { startServer, type RunningServer } from '../../src/server.ts';
import { ADD_ONE_SOURCE as SOURCE, createWorkflow, noAuth as auth, PARENT, rejects, untilDone } from '../support/google-clients.ts';

// SPEC.md "gRPC API" and "Endpoints": Google's client library on its REST transport (`fallback`), which calls
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

s('CreateWorkflow over REST returns a done operation; promise() gives the workflow (spec "gRPC API")', async (ctx) => {
  const [operation] = await ctx.workflows.createWorkflow({
    parent: PARENT,
    workflowId: 'rest-created',
    workflow: { sourceContents: SOURCE, description: 'over rest' },
  });
  assert.ok(operation.done);
  const [workflow, metadata] = await operation.promise();
  assert.is(workflow.name, `${PARENT}/workflows/rest-created`);
  assert.is(workflow.sourceContents, SOURCE);
  assert.is(workflow.description, 'over rest');
  assert.is(workflow.state, 1);
  assert.match(workflow.revisionId!, /^\d{6}-[0-9a-f]{3}$/);
  assert.is(metadata.verb, 'create');
});

s('GetWorkflow and ListWorkflows over REST (spec "Endpoints")', async (ctx) => {
  const created = await createWorkflow(ctx, 'rest-get', SOURCE, 'd');
  const [workflow] = await ctx.workflows.getWorkflow({ name: created.name });
  assert.is(workflow.state, 'ACTIVE');
  assert.is(workflow.revisionId, created.revisionId);
  assert.is(workflow.description, 'd');
  const [workflows] = await ctx.workflows.listWorkflows({ parent: PARENT });
  assert.ok(workflows.some((w) => w.name === created.name));
});

s('UpdateWorkflow over REST honours updateMask and returns a done operation (spec "gRPC API")', async (ctx) => {
  const created = await createWorkflow(ctx, 'rest-update', SOURCE, 'before');
  const [operation] = await ctx.workflows.updateWorkflow({
    workflow: { name: created.name, description: 'after', sourceContents: SLEEPY },
    updateMask: { paths: ['description'] },
  });
  assert.ok(operation.done);
  const [workflow, metadata] = await operation.promise();
  assert.is(workflow.description, 'after');
  assert.is(workflow.sourceContents, SOURCE);
  assert.is(metadata.verb, 'update');
});

s('DeleteWorkflow over REST returns a done operation; the workflow is gone (spec "Endpoints")', async (ctx) => {
  const created = await createWorkflow(ctx, 'rest-delete');
  const [operation] = await ctx.workflows.deleteWorkflow({ name: created.name });
  assert.ok(operation.done);
  const [, metadata] = await operation.promise();
  assert.is(metadata.verb, 'delete');
  const error = await rejects(ctx.workflows.getWorkflow({ name: created.name }));
  assert.is(error.code, 5);
});

s('GetOperation over REST returns the done operation by name (google.longrunning.Operations)', async (ctx) => {
  const [operation] = await ctx.workflows.createWorkflow({ parent: PARENT, workflowId: 'rest-polled', workflow: { sourceContents: SOURCE } });
  const polled = await ctx.workflows.checkCreateWorkflowProgress(operation.name!);
  assert.ok(polled.done);
  assert.is((polled.result as { name?: string }).name, `${PARENT}/workflows/rest-polled`);
  const res = await fetch(`${ctx.server.url}/v1/${PARENT}/operations/operation-1-00`);
  assert.is(res.status, 404);
  assert.is((await res.json()).error.status, 'NOT_FOUND');
});

s('UpdateWorkflow with a snake_case update_mask, then ListWorkflowRevisions newest first, over Google\'s REST transport (Google\'s workflows.listRevisions)', async (ctx) => {
  const created = await createWorkflow(ctx, 'rest-revisions');
  const [op] = await ctx.workflows.updateWorkflow({
    workflow: { name: created.name, sourceContents: 'main:\n  steps:\n    - r:\n        return: 2\n' },
    updateMask: { paths: ['source_contents'] },
  });
  const [updated] = await op.promise();
  assert.is.not(updated.revisionId, created.revisionId);
  const [revisions] = await ctx.workflows.listWorkflowRevisions({ name: created.name }, { autoPaginate: false });
  assert.equal(revisions.map((w) => w.revisionId), [updated.revisionId, created.revisionId]);
  assert.is(revisions[1]!.sourceContents, created.sourceContents);
});

s('errors over REST reach the client with their codes: NOT_FOUND, ALREADY_EXISTS, INVALID_ARGUMENT (spec "Errors")', async (ctx) => {
  const missing = await rejects(ctx.workflows.getWorkflow({ name: `${PARENT}/workflows/nothing` }));
  assert.is(missing.code, 5);
  await createWorkflow(ctx, 'rest-twice');
  const twice = await rejects(ctx.workflows.createWorkflow({ parent: PARENT, workflowId: 'rest-twice', workflow: { sourceContents: SOURCE } }));
  assert.is(twice.code, 6);
  const invalid = await rejects(ctx.workflows.createWorkflow({ parent: PARENT, workflowId: 'rest-bad', workflow: { sourceContents: 'main: [' } }));
  assert.is(invalid.code, 3);
});

s('Executions over REST: create, get until SUCCEEDED, list (spec "Execution")', async (ctx) => {
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
});

s('CancelExecution over REST: CANCELLED, then FAILED_PRECONDITION (spec "States and transitions")', async (ctx) => {
  const workflow = await createWorkflow(ctx, 'rest-sleeper', SLEEPY);
  const [created] = await ctx.executions.createExecution({ parent: workflow.name, execution: {} });
  const [cancelled] = await ctx.executions.cancelExecution({ name: created.name });
  assert.is(cancelled.state, 'CANCELLED');
  const error = await rejects(ctx.executions.cancelExecution({ name: created.name }));
  assert.is(error.code, 9);
  const unknown = await rejects(ctx.executions.getExecution({ name: `${workflow.name}/executions/nope` }));
  assert.is(unknown.code, 5);
});

s('with $alt=json;enum-encoding=int create answers an operation with int enums; plain REST answers the workflow (spec "Endpoints")', async (ctx) => {
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
