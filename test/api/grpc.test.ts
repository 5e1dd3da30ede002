import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as grpc from '@grpc/grpc-js';
import { WorkflowsClient, ExecutionsClient } from '@google-cloud/workflows';
import { startServer, type RunningServer } from '../../src/server.ts';
import { ADD_ONE_SOURCE as SOURCE, createWorkflow, noAuth as auth, PARENT, rejects, untilDone } from '../support/google-clients.ts';

// docs/grpc.md#the-grpc-api: Google's own client library (@google-cloud/workflows 4.x) over gRPC against the running
// emulator, on an insecure channel with no credentials, for every RPC; plus REST and gRPC sharing one store.
const s = suite<{ server: RunningServer; workflows: WorkflowsClient; executions: ExecutionsClient }>('api grpc (Google client over gRPC)');

const SLEEPY = 'main:\n  steps:\n    - wait:\n        call: sys.sleep\n        args:\n          seconds: 60\n    - done:\n        return: "late"\n';
const FAILING = 'main:\n  steps:\n    - first:\n        assign:\n          - a: 1\n    - explode:\n        raise: "boom"\n';

const seconds = (t: { seconds?: unknown } | null | undefined) => Number(String(t?.seconds ?? 'NaN'));

async function restJson(server: RunningServer, method: string, path: string, body?: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${server.url}/v1/${PARENT}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

s.before(async (ctx) => {
  ctx.server = await startServer({ host: '127.0.0.1', port: 0, grpcPort: 0, service: { log: () => {} } });
  const options = { servicePath: '127.0.0.1', port: ctx.server.grpcPort, sslCreds: grpc.credentials.createInsecure(), auth };
  ctx.workflows = new WorkflowsClient(options as never);
  ctx.executions = new ExecutionsClient(options as never);
});

s.after(async (ctx) => {
  await ctx.workflows.close();
  await ctx.executions.close();
  await ctx.server.close();
});

s('the emulator serves gRPC on its own port (docs/cli.md#configuration: GRPC_PORT)', (ctx) => {
  assert.type(ctx.server.grpcPort, 'number');
  assert.is.not(ctx.server.grpcPort, ctx.server.port);
});

s('CreateWorkflow returns a done operation whose promise() gives the workflow and OperationMetadata (docs/grpc.md#the-grpc-api)', async (ctx) => {
  const [operation] = await ctx.workflows.createWorkflow({
    parent: PARENT,
    workflowId: 'create-me',
    workflow: { sourceContents: SOURCE, description: 'adds one' },
  });
  assert.ok(operation.done);
  assert.match(operation.name!, new RegExp(`^${PARENT}/operations/operation-\\d+-[0-9a-f]+$`));
  const [workflow, metadata, raw] = await operation.promise();
  assert.is(workflow.name, `${PARENT}/workflows/create-me`);
  assert.is(workflow.sourceContents, SOURCE);
  assert.is(workflow.description, 'adds one');
  assert.is(workflow.state, 1); // ACTIVE
  assert.match(workflow.revisionId!, /^\d{6}-[0-9a-f]{3}$/);
  assert.ok(seconds(workflow.createTime) > 0);
  assert.is(seconds(workflow.updateTime), seconds(workflow.createTime));
  assert.is(metadata.verb, 'create');
  assert.is(metadata.target, `${PARENT}/workflows/create-me`);
  assert.is(metadata.apiVersion, 'v1');
  assert.ok(seconds(metadata.endTime) > 0);
  assert.is((raw as { response?: { type_url?: string } }).response?.type_url, 'type.googleapis.com/google.cloud.workflows.v1.Workflow');
});

s('GetWorkflow returns every field of the workflow resource (docs/api-resources.md#workflow)', async (ctx) => {
  const created = await createWorkflow(ctx, 'get-me', SOURCE, 'desc');
  const [workflow] = await ctx.workflows.getWorkflow({ name: `${PARENT}/workflows/get-me` });
  assert.is(workflow.name, created.name);
  assert.is(workflow.state, 'ACTIVE');
  assert.is(workflow.revisionId, created.revisionId);
  assert.is(workflow.sourceContents, SOURCE);
  assert.is(workflow.description, 'desc');
  assert.is(seconds(workflow.createTime), seconds(created.createTime));
  assert.is(workflow.createTime!.nanos, created.createTime!.nanos);
});

s('GetWorkflow with the current revision_id answers; another revision is NOT_FOUND (docs/api-resources.md#versioning)', async (ctx) => {
  const created = await createWorkflow(ctx, 'get-revision');
  const [workflow] = await ctx.workflows.getWorkflow({ name: created.name, revisionId: created.revisionId });
  assert.is(workflow.revisionId, created.revisionId);
  const error = await rejects(ctx.workflows.getWorkflow({ name: created.name, revisionId: '999999-fff' }));
  assert.is(error.code, grpc.status.NOT_FOUND);
});

s('ListWorkflows pages with page_size and page_token; listWorkflowsAsync iterates every page (Google\'s ListWorkflows)', async (ctx) => {
  await createWorkflow(ctx, 'listed-a');
  await createWorkflow(ctx, 'listed-b');
  const [workflows, nextRequest] = await ctx.workflows.listWorkflows({ parent: PARENT, pageSize: 1 }, { autoPaginate: false });
  assert.is(workflows.length, 1);
  assert.ok(nextRequest?.pageToken, 'a next page');
  const names: string[] = [];
  for await (const w of ctx.workflows.listWorkflowsAsync({ parent: PARENT, pageSize: 1 })) names.push(w.name!);
  assert.ok(names.includes(`${PARENT}/workflows/listed-a`));
  assert.ok(names.includes(`${PARENT}/workflows/listed-b`));
  assert.is(new Set(names).size, names.length, 'no workflow twice');
  const [filtered] = await ctx.workflows.listWorkflows({ parent: PARENT, filter: 'name="listed-a"' }, { autoPaginate: false });
  assert.equal(filtered.map((w) => w.name), [`${PARENT}/workflows/listed-a`]);
  assert.is(filtered[0]!.sourceContents, SOURCE);
  const bad = await rejects(ctx.workflows.listWorkflows({ parent: PARENT, filter: 'colour="red"' }));
  assert.is(bad.code, 3);
  assert.match(bad.message, /invalid filter/);
});

s('UpdateWorkflow honours update_mask: only the masked fields change (docs/grpc.md#the-grpc-api)', async (ctx) => {
  const created = await createWorkflow(ctx, 'masked', SOURCE, 'before');
  const [operation] = await ctx.workflows.updateWorkflow({
    workflow: { name: created.name, description: 'after', sourceContents: SLEEPY },
    updateMask: { paths: ['description'] },
  });
  assert.ok(operation.done);
  const [workflow, metadata] = await operation.promise();
  assert.is(workflow.description, 'after');
  assert.is(workflow.sourceContents, SOURCE);
  assert.is(workflow.revisionId, created.revisionId);
  assert.is(metadata.verb, 'update');
  const [sourceOnly] = await ctx.workflows.updateWorkflow({
    workflow: { name: created.name, description: 'ignored', sourceContents: SLEEPY },
    updateMask: { paths: ['source_contents'] },
  });
  const [updated] = await sourceOnly.promise();
  assert.is(updated.sourceContents, SLEEPY);
  assert.is(updated.description, 'after');
  assert.is.not(updated.revisionId, created.revisionId);
});

s('UpdateWorkflow without update_mask replaces every updatable field (Google: "the entire workflow will be updated")', async (ctx) => {
  const created = await createWorkflow(ctx, 'unmasked', SOURCE, 'will be cleared');
  const [operation] = await ctx.workflows.updateWorkflow({ workflow: { name: created.name, sourceContents: SLEEPY } });
  const [workflow] = await operation.promise();
  assert.is(workflow.sourceContents, SLEEPY);
  assert.is(workflow.description, '');
});

s('UpdateWorkflow with a mask naming a field that cannot be updated is INVALID_ARGUMENT (docs/api-resources.md#errors)', async (ctx) => {
  const created = await createWorkflow(ctx, 'bad-mask');
  const state = await rejects(ctx.workflows.updateWorkflow({ workflow: { name: created.name }, updateMask: { paths: ['state'] } }));
  assert.is(state.code, grpc.status.INVALID_ARGUMENT);
  const unknown = await rejects(ctx.workflows.updateWorkflow({ workflow: { name: created.name }, updateMask: { paths: ['no_such_field'] } }));
  assert.is(unknown.code, grpc.status.INVALID_ARGUMENT);
  assert.match(unknown.details, /no_such_field/);
});

s('UpdateWorkflow of an unknown workflow is NOT_FOUND (docs/rest-api.md#endpoints: PATCH 404)', async (ctx) => {
  const error = await rejects(
    ctx.workflows.updateWorkflow({ workflow: { name: `${PARENT}/workflows/ghost`, description: 'x' }, updateMask: { paths: ['description'] } }),
  );
  assert.is(error.code, grpc.status.NOT_FOUND);
});

s('DeleteWorkflow returns a done operation with an empty response; the workflow is gone (docs/rest-api.md#endpoints)', async (ctx) => {
  const created = await createWorkflow(ctx, 'delete-me');
  const [operation] = await ctx.workflows.deleteWorkflow({ name: created.name });
  assert.ok(operation.done);
  const [, metadata, raw] = await operation.promise();
  assert.is(metadata.verb, 'delete');
  assert.is(metadata.target, created.name);
  assert.is((raw as { response?: { type_url?: string } }).response?.type_url, 'type.googleapis.com/google.protobuf.Empty');
  const error = await rejects(ctx.workflows.getWorkflow({ name: created.name }));
  assert.is(error.code, grpc.status.NOT_FOUND);
  const again = await rejects(ctx.workflows.deleteWorkflow({ name: created.name }));
  assert.is(again.code, grpc.status.NOT_FOUND);
});

s('GetOperation returns a returned operation again, done, by name (google.longrunning.Operations)', async (ctx) => {
  const [operation] = await ctx.workflows.createWorkflow({ parent: PARENT, workflowId: 'polled', workflow: { sourceContents: SOURCE } });
  const polled = await ctx.workflows.checkCreateWorkflowProgress(operation.name!);
  assert.ok(polled.done);
  assert.is((polled.result as { name?: string }).name, `${PARENT}/workflows/polled`);
  const [raw] = await ctx.workflows.operationsClient.getOperation({ name: operation.name! } as never);
  assert.is(raw.name, operation.name);
  assert.ok(raw.done);
  const error = await rejects(ctx.workflows.operationsClient.getOperation({ name: `${PARENT}/operations/operation-1-00` } as never));
  assert.is(error.code, grpc.status.NOT_FOUND);
});

s('revisions: every one kept; ListWorkflowRevisions newest first, GetWorkflow with revision_id returns that one (Google\'s ListWorkflowRevisions)', async (ctx) => {
  const created = await createWorkflow(ctx, 'with-history');
  const ids = [created.revisionId!];
  for (let i = 2; i <= 4; i++) {
    const [op] = await ctx.workflows.updateWorkflow({ workflow: { name: created.name, sourceContents: `main:\n  steps:\n    - r:\n        return: ${i}\n` }, updateMask: { paths: ['source_contents'] } });
    ids.push((await op.promise())[0].revisionId!);
  }
  assert.is(new Set(ids).size, 4);
  const listed: string[] = [];
  for await (const w of ctx.workflows.listWorkflowRevisionsAsync({ name: created.name, pageSize: 3 })) listed.push(w.revisionId!);
  assert.equal(listed, ids.slice().reverse());
  const [second] = await ctx.workflows.getWorkflow({ name: created.name, revisionId: ids[1] });
  assert.is(second.sourceContents, 'main:\n  steps:\n    - r:\n        return: 2\n');
  assert.is(second.revisionId, ids[1]);
  const missing = await rejects(ctx.workflows.getWorkflow({ name: created.name, revisionId: '000099-abc' }));
  assert.is(missing.code, grpc.status.NOT_FOUND);
});

s('labels, userEnvVars, callLogLevel, serviceAccount and cryptoKeyName are stored, validated and returned; executions inherit labels (Google\'s Workflow, Execution)', async (ctx) => {
  const [op] = await ctx.workflows.createWorkflow({
    parent: PARENT,
    workflowId: 'settings',
    workflow: {
      sourceContents: 'main:\n  steps:\n    - r:\n        return: ${sys.get_env("GREETING")}\n',
      labels: { team: 'data', env: 'dev' },
      userEnvVars: { GREETING: 'hello' },
      callLogLevel: 'LOG_ERRORS_ONLY',
      serviceAccount: 'projects/my-project/serviceAccounts/runner@my-project.iam.gserviceaccount.com',
      cryptoKeyName: 'projects/my-project/locations/us-central1/keyRings/r/cryptoKeys/k',
    },
  });
  const [wf] = await op.promise();
  assert.equal({ ...wf.labels }, { env: 'dev', team: 'data' });
  assert.equal({ ...wf.userEnvVars }, { GREETING: 'hello' });
  assert.ok(['LOG_ERRORS_ONLY', 2].includes(wf.callLogLevel as never), `callLogLevel ${wf.callLogLevel}`);
  assert.is(wf.serviceAccount, 'projects/my-project/serviceAccounts/runner@my-project.iam.gserviceaccount.com');
  assert.ok(wf.revisionCreateTime?.seconds);
  const [ex] = await ctx.executions.createExecution({ parent: wf.name, execution: { labels: { env: 'prod', run: 'a1' }, callLogLevel: 'LOG_ALL_CALLS' } });
  assert.equal({ ...ex.labels }, { env: 'prod', run: 'a1', team: 'data' });
  assert.ok(['LOG_ALL_CALLS', 1].includes(ex.callLogLevel as never), `callLogLevel ${ex.callLogLevel}`);
  const done = await untilDone(ctx, ex.name!);
  assert.is(done.result, '"hello"', 'sys.get_env reads userEnvVars');
  const [byLabel] = await ctx.executions.listExecutions({ parent: wf.name, filter: 'labels.run="a1"' });
  assert.equal(byLabel.map((e) => e.name), [ex.name]);
  const bad = await rejects(ctx.workflows.createWorkflow({ parent: PARENT, workflowId: 'bad-labels', workflow: { sourceContents: SOURCE, labels: { Team: 'x' } } }));
  assert.is(bad.code, grpc.status.INVALID_ARGUMENT);
  assert.match(bad.details, /labels: key "Team"/);
  const reserved = await rejects(ctx.workflows.createWorkflow({ parent: PARENT, workflowId: 'bad-env', workflow: { sourceContents: SOURCE, userEnvVars: { GOOGLE_X: '1' } } }));
  assert.match(reserved.details, /reserved/);
  // A userEnvVars change makes a new revision; a labels change does not.
  const [labelOp] = await ctx.workflows.updateWorkflow({ workflow: { name: wf.name, labels: { team: 'ops' } }, updateMask: { paths: ['labels'] } });
  const [relabelled] = await labelOp.promise();
  assert.is(relabelled.revisionId, wf.revisionId);
  assert.equal({ ...relabelled.userEnvVars }, { GREETING: 'hello' }, 'fields outside the mask stay');
  const [envOp] = await ctx.workflows.updateWorkflow({ workflow: { name: wf.name, userEnvVars: { GREETING: 'hi' } }, updateMask: { paths: ['user_env_vars'] } });
  const [reenv] = await envOp.promise();
  assert.is.not(reenv.revisionId, wf.revisionId);
});

s('errors keep the REST message with the gRPC code: NOT_FOUND (docs/api-resources.md#errors: 404)', async (ctx) => {
  const error = await rejects(ctx.workflows.getWorkflow({ name: `${PARENT}/workflows/missing` }));
  assert.is(error.code, grpc.status.NOT_FOUND);
  const rest = await restJson(ctx.server, 'GET', '/workflows/missing');
  assert.is(rest.status, 404);
  assert.is(error.details, rest.json.error.message);
});

s('CreateWorkflow with an existing ID is ALREADY_EXISTS (docs/api-resources.md#errors: 409)', async (ctx) => {
  await createWorkflow(ctx, 'twice');
  const error = await rejects(ctx.workflows.createWorkflow({ parent: PARENT, workflowId: 'twice', workflow: { sourceContents: SOURCE } }));
  assert.is(error.code, grpc.status.ALREADY_EXISTS);
  const rest = await restJson(ctx.server, 'POST', '/workflows?workflowId=twice', { sourceContents: SOURCE });
  assert.is(rest.status, 409);
  assert.is(error.details, rest.json.error.message);
});

s('CreateWorkflow with an invalid definition, an empty source or no ID is INVALID_ARGUMENT (docs/api-resources.md#errors: 400)', async (ctx) => {
  const invalid = await rejects(
    ctx.workflows.createWorkflow({ parent: PARENT, workflowId: 'broken', workflow: { sourceContents: 'main:\n  steps: [' } }),
  );
  assert.is(invalid.code, grpc.status.INVALID_ARGUMENT);
  assert.match(invalid.details, /invalid workflow definition/i);
  const empty = await rejects(ctx.workflows.createWorkflow({ parent: PARENT, workflowId: 'empty', workflow: { sourceContents: '' } }));
  assert.is(empty.code, grpc.status.INVALID_ARGUMENT);
  const noId = await rejects(ctx.workflows.createWorkflow({ parent: PARENT, workflowId: '', workflow: { sourceContents: SOURCE } }));
  assert.is(noId.code, grpc.status.INVALID_ARGUMENT);
});

s('names of another project are NOT_FOUND, malformed names INVALID_ARGUMENT (docs/rest-api.md#endpoints: {prefix})', async (ctx) => {
  const other = await rejects(ctx.workflows.getWorkflow({ name: 'projects/other/locations/us-central1/workflows/x' }));
  assert.is(other.code, grpc.status.NOT_FOUND);
  const malformed = await rejects(ctx.executions.getExecution({ name: `${PARENT}/workflows/x` }));
  assert.is(malformed.code, grpc.status.INVALID_ARGUMENT);
  assert.match(malformed.details, /projects\/\{project\}\/locations\/\{location\}\/workflows\/\{workflow\}\/executions\/\{execution\}/);
});

s('an execution created over gRPC finishes with the expected result, every field set (docs/api-resources.md#execution)', async (ctx) => {
  const workflow = await createWorkflow(ctx, 'adder');
  const [created] = await ctx.executions.createExecution({ parent: workflow.name, execution: { argument: '{"x":41}' } });
  assert.is(created.state, 'ACTIVE');
  assert.match(created.name!, new RegExp(`^${workflow.name}/executions/[^/]+$`));
  assert.is(created.argument, '{"x":41}');
  assert.is(created.workflowRevisionId, workflow.revisionId);
  assert.ok(seconds(created.startTime) > 0);
  const done = await untilDone(ctx, created.name!);
  assert.is(done.state, 'SUCCEEDED');
  assert.is(done.result, '42');
  assert.is(done.argument, '{"x":41}');
  assert.is(done.error, null);
  assert.ok(seconds(done.endTime) >= seconds(done.startTime));
  assert.ok(done.duration !== null && done.duration !== undefined);
  assert.is(done.workflowRevisionId, workflow.revisionId);
});

s('a failed execution carries error.payload (JSON error map) and error.context (docs/api-resources.md#states-and-transitions)', async (ctx) => {
  const workflow = await createWorkflow(ctx, 'failing', FAILING);
  const [created] = await ctx.executions.createExecution({ parent: workflow.name, execution: {} });
  const done = await untilDone(ctx, created.name!);
  assert.is(done.state, 'FAILED');
  assert.is(done.result, '');
  assert.is(JSON.parse(done.error!.payload!).message, 'boom');
  assert.is(done.error!.context, 'step: explode');
});

s('CreateExecution for an unknown workflow is NOT_FOUND (docs/rest-api.md#endpoints: 404)', async (ctx) => {
  const error = await rejects(ctx.executions.createExecution({ parent: `${PARENT}/workflows/nobody`, execution: {} }));
  assert.is(error.code, grpc.status.NOT_FOUND);
  const rest = await restJson(ctx.server, 'POST', '/workflows/nobody/executions', {});
  assert.is(error.details, rest.json.error.message);
});

s('CancelExecution moves an ACTIVE execution to CANCELLED; again is FAILED_PRECONDITION (docs/api-resources.md#states-and-transitions)', async (ctx) => {
  const workflow = await createWorkflow(ctx, 'sleeper', SLEEPY);
  const [created] = await ctx.executions.createExecution({ parent: workflow.name, execution: {} });
  const [running] = await ctx.executions.getExecution({ name: created.name });
  assert.is(running.state, 'ACTIVE');
  const [cancelled] = await ctx.executions.cancelExecution({ name: created.name });
  assert.is(cancelled.state, 'CANCELLED');
  assert.ok(seconds(cancelled.endTime) > 0);
  const error = await rejects(ctx.executions.cancelExecution({ name: created.name }));
  assert.is(error.code, grpc.status.FAILED_PRECONDITION);
  const rest = await restJson(ctx.server, 'POST', `/workflows/sleeper/executions/${created.name!.split('/').pop()}:cancel`);
  assert.is(rest.status, 400);
  assert.is(error.details, rest.json.error.message);
  const missing = await rejects(ctx.executions.cancelExecution({ name: `${workflow.name}/executions/nope` }));
  assert.is(missing.code, grpc.status.NOT_FOUND);
});

s('GetExecution of an unknown execution is NOT_FOUND (docs/rest-api.md#endpoints: 404)', async (ctx) => {
  const workflow = await createWorkflow(ctx, 'lonely');
  const error = await rejects(ctx.executions.getExecution({ name: `${workflow.name}/executions/nope` }));
  assert.is(error.code, grpc.status.NOT_FOUND);
});

s('ListExecutions returns every execution; view BASIC leaves out argument and result (Google ExecutionView)', async (ctx) => {
  const workflow = await createWorkflow(ctx, 'many');
  const [a] = await ctx.executions.createExecution({ parent: workflow.name, execution: { argument: '{"x":1}' } });
  const [b] = await ctx.executions.createExecution({ parent: workflow.name, execution: { argument: '{"x":2}' } });
  await untilDone(ctx, a.name!);
  await untilDone(ctx, b.name!);
  const [full] = await ctx.executions.listExecutions({ parent: workflow.name });
  assert.equal(full.map((e) => e.name).sort(), [a.name, b.name].sort());
  assert.equal(full.map((e) => e.result).sort(), ['2', '3']);
  const [basic] = await ctx.executions.listExecutions({ parent: workflow.name, view: 'BASIC' });
  assert.is(basic.length, 2);
  assert.ok(basic.every((e) => e.state === 'SUCCEEDED' && e.argument === '' && e.result === '' && e.workflowRevisionId === workflow.revisionId));
});

s('listExecutionsAsync iterates every page newest first; filter and orderBy as Google documents them (Google\'s ListExecutions)', async (ctx) => {
  const workflow = await createWorkflow(ctx, 'paged');
  const names: string[] = [];
  for (let i = 0; i < 7; i++) {
    const [e] = await ctx.executions.createExecution({ parent: workflow.name, execution: { argument: `{"x":${i}}` } });
    names.push(e.name!);
  }
  for (const n of names) await untilDone(ctx, n);
  const seen: string[] = [];
  for await (const e of ctx.executions.listExecutionsAsync({ parent: workflow.name, pageSize: 3 })) seen.push(e.name!);
  assert.equal(seen, names.slice().reverse(), 'every execution once, newest first, across three pages');
  const [page, next] = await ctx.executions.listExecutions({ parent: workflow.name, pageSize: 3 }, { autoPaginate: false });
  assert.is(page.length, 3);
  assert.ok(next?.pageToken);
  const [oldest] = await ctx.executions.listExecutions({ parent: workflow.name, orderBy: 'startTime', pageSize: 1 }, { autoPaginate: false });
  assert.equal(oldest.map((e) => e.name), [names[0]]);
  const id = names[4]!.split('/').pop()!;
  const [one] = await ctx.executions.listExecutions({ parent: workflow.name, filter: `executionId="${id}" AND state="SUCCEEDED"` });
  assert.equal(one.map((e) => e.name), [names[4]]);
  const [none] = await ctx.executions.listExecutions({ parent: workflow.name, filter: 'state="FAILED" OR duration>"3600s"' });
  assert.is(none.length, 0);
  const bad = await rejects(ctx.executions.listExecutions({ parent: workflow.name, filter: 'state="SLEEPING"' }));
  assert.is(bad.code, 3);
  assert.match(bad.message, /invalid filter/);
});

s('REST and gRPC share one store: each sees, runs and cancels what the other created (docs/grpc.md#the-grpc-api)', async (ctx) => {
  const rest = await restJson(ctx.server, 'POST', '/workflows?workflowId=from-rest', { sourceContents: SLEEPY });
  assert.is(rest.status, 200);
  assert.is(rest.json.name, `${PARENT}/workflows/from-rest`); // plain REST keeps the spec's shape
  const [workflow] = await ctx.workflows.getWorkflow({ name: rest.json.name });
  assert.is(workflow.revisionId, rest.json.revisionId);
  const [execution] = await ctx.executions.createExecution({ parent: workflow.name, execution: {} });
  const id = execution.name!.split('/').pop();
  const cancelled = await restJson(ctx.server, 'POST', `/workflows/from-rest/executions/${id}:cancel`);
  assert.is(cancelled.json.state, 'CANCELLED');
  const [seen] = await ctx.executions.getExecution({ name: execution.name });
  assert.is(seen.state, 'CANCELLED');
  const viaRest = await restJson(ctx.server, 'POST', '/workflows/from-rest/executions', {});
  const [cancelledOverGrpc] = await ctx.executions.cancelExecution({ name: viaRest.json.name });
  assert.is(cancelledOverGrpc.state, 'CANCELLED');
  const after = await restJson(ctx.server, 'GET', `/workflows/from-rest/executions/${viaRest.json.name.split('/').pop()}`);
  assert.is(after.json.state, 'CANCELLED');
});

s.run();
