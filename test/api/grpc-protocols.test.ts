import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { Workflows } from '../../gen/google/cloud/workflows/v1/workflows_pb.ts';
import { Executions, ExecutionView, Execution_State } from '../../gen/google/cloud/workflows/executions/v1/executions_pb.ts';
import { Operations } from '../../gen/google/longrunning/operations_pb.ts';
import type { GrpcServer } from '../../src/api/grpc.ts';
import { minimalGrpcMessage, toConnectError } from '../../src/api/grpc-routes.ts';
import { executionToMessage, timestampFromRfc3339, workflowUpdateMask } from '../../src/api/convert.ts';
import { parseName } from '../../src/service/names.ts';
import { handleGoogleRest } from '../../src/api/rest-google.ts';
import { API_CODES, ApiError, type ApiCode } from '../../src/service/errors.ts';
import type { ServiceCore } from '../../src/service/model.ts';
import { connectTransports, startInProcessGrpc, type InProcessGrpc } from '../support/connect-clients.ts';
import { until } from '../support/emulator.ts';

// docs/grpc.md#the-grpc-api: the router's three protocols (gRPC, gRPC-Web, Connect) over h2c with Connect clients,
// the error mapping, the conversions between resources and messages, and Google's REST transport in process.
const s = suite<{ grpc: InProcessGrpc; core: ServiceCore & { close(): void }; server: GrpcServer }>('api grpc-protocols (router, conversions)');

const PARENT = 'projects/my-project/locations/us-central1';
const SOURCE = 'main:\n  steps:\n    - done:\n        return: 7\n';

s.before(async (ctx) => {
  ctx.grpc = await startInProcessGrpc();
  ctx.core = ctx.grpc.core;
  ctx.server = ctx.grpc.server;
});

s.after((ctx) => ctx.grpc.close());

const transports = connectTransports;

for (const [protocol, make] of Object.entries(transports)) {
  s(`the router answers ${protocol} clients over h2c on the gRPC port (docs/grpc.md#the-grpc-api)`, async (ctx) => {
    const transport = make({ baseUrl: `http://127.0.0.1:${ctx.server.port}`, httpVersion: '2' });
    const workflows = createClient(Workflows, transport);
    const id = `via-${protocol.toLowerCase().replace(/[^a-z]/g, '')}`;
    const operation = await workflows.createWorkflow({ parent: PARENT, workflowId: id, workflow: { sourceCode: { case: 'sourceContents', value: SOURCE } } });
    assert.ok(operation.done);
    const got = await workflows.getWorkflow({ name: `${PARENT}/workflows/${id}` });
    assert.is(got.sourceCode.value, SOURCE);
    const polled = await createClient(Operations, transport).getOperation({ name: operation.name });
    assert.is(polled.name, operation.name);
    try {
      await workflows.getWorkflow({ name: `${PARENT}/workflows/absent/` });
      assert.unreachable();
    } catch (e) {
      assert.instance(e, ConnectError);
      assert.is((e as ConnectError).code, Code.InvalidArgument);
    }
    try {
      await workflows.getWorkflow({ name: `${PARENT}/workflows/absent` });
      assert.unreachable();
    } catch (e) {
      assert.is((e as ConnectError).code, Code.NotFound);
      assert.is((e as ConnectError).rawMessage, 'workflow "projects/my-project/locations/us-central1/workflows/absent" not found');
    }
  });
}

s('Operations methods other than GetOperation and WaitOperation answer UNIMPLEMENTED (docs/grpc.md#the-grpc-api)', async (ctx) => {
  const operations = createClient(Operations, createGrpcTransport({ baseUrl: `http://127.0.0.1:${ctx.server.port}` }));
  try {
    await operations.listOperations({ name: PARENT });
    assert.unreachable();
  } catch (e) {
    assert.is((e as ConnectError).code, Code.Unimplemented);
  }
});

s('an execution started over gRPC reaches SUCCEEDED with its result (docs/api-resources.md#states-and-transitions)', async (ctx) => {
  const transport = createGrpcTransport({ baseUrl: `http://127.0.0.1:${ctx.server.port}` });
  await createClient(Workflows, transport).createWorkflow({
    parent: PARENT,
    workflowId: 'seven',
    workflow: { sourceCode: { case: 'sourceContents', value: SOURCE } },
  });
  const executions = createClient(Executions, transport);
  const created = await executions.createExecution({ parent: `${PARENT}/workflows/seven`, execution: {} });
  assert.is(created.state, Execution_State.ACTIVE);
  const got = await until(async () => {
    const now = await executions.getExecution({ name: created.name });
    return now.state === Execution_State.ACTIVE ? undefined : now;
  }, 'the execution to end');
  assert.is(got.state, Execution_State.SUCCEEDED);
  assert.is(got.result, '7');
});

s('ApiError codes map to the gRPC codes of the same name (Google API design guide "Errors")', () => {
  for (const code of Object.keys(API_CODES) as ApiCode[]) {
    const error = toConnectError(new ApiError(code, `the ${code} message`));
    assert.is(error.code as number, API_CODES[code].grpc);
    assert.is(error.rawMessage, `the ${code} message`);
  }
  assert.is(toConnectError(new Error('oops')).code, Code.Internal);
});

s('grpc-message escapes only what the gRPC spec requires, so grpc-js reads `/` and `:` (docs/grpc.md#the-grpc-api)', () => {
  assert.is(minimalGrpcMessage(encodeURIComponent('workflow "projects/p/workflows/x" not found: a,b')), 'workflow "projects/p/workflows/x" not found: a,b');
  assert.is(minimalGrpcMessage(encodeURIComponent('100% é\n')), '100%25 %C3%A9%0A');
  assert.is(minimalGrpcMessage('%E0%A4%A'), '%E0%A4%A');
});

s('grpc-message escapes a space at either end, which HTTP/2 forbids around a field value (RFC 9113 section 8.2.1)', () => {
  assert.is(minimalGrpcMessage(encodeURIComponent(' invalid value: ')), '%20invalid value:%20');
  assert.is(minimalGrpcMessage(encodeURIComponent(' ')), '%20');
});

s('timestamps keep every fractional digit, in UTC or with an offset (docs/api-resources.md#workflow: ISO 8601 UTC)', () => {
  const t = timestampFromRfc3339('2026-11-21T07:10:44.123456789Z');
  assert.is(t.seconds, BigInt(Date.UTC(2026, 10, 21, 7, 10, 44) / 1000));
  assert.is(t.nanos, 123456789);
  assert.is(timestampFromRfc3339('2026-11-21T08:10:44+01:00').seconds, t.seconds);
  assert.is(timestampFromRfc3339('2026-11-21T07:10:44.5Z').nanos, 500_000_000);
  assert.throws(() => timestampFromRfc3339('yesterday'), (e: ApiError) => e.code === 'INVALID_ARGUMENT');
});

s('resource names are parsed against the configured project and location (docs/rest-api.md#endpoints)', () => {
  const service = { project: 'my-project', location: 'us-central1' };
  assert.equal(parseName(service, `${PARENT}/workflows/w/executions/e`, ['workflows', 'executions']), ['w', 'e']);
  assert.equal(parseName(service, PARENT, []), []);
  assert.throws(() => parseName(service, `${PARENT}/workflows`, ['workflows']), (e: ApiError) => e.code === 'INVALID_ARGUMENT');
  assert.throws(() => parseName(service, `${PARENT}/things/w`, ['workflows']), (e: ApiError) => e.code === 'INVALID_ARGUMENT');
  assert.throws(() => parseName(service, 'projects/other/locations/us-central1/workflows/w', ['workflows']), (e: ApiError) => e.code === 'NOT_FOUND');
});

s('update masks name proto fields and become the resource field names (Google UpdateWorkflowRequest)', () => {
  assert.equal(workflowUpdateMask(['source_contents', 'description']), ['sourceContents', 'description']);
  assert.equal(workflowUpdateMask(['sourceContents']), ['sourceContents']);
  assert.equal(workflowUpdateMask(['labels']), ['labels']);
  assert.throws(() => workflowUpdateMask(['nope']), (e: ApiError) => e.code === 'INVALID_ARGUMENT');
});

s('executions convert with state, times, duration and payloads; BASIC omits argument, result and error (docs/api-resources.md#execution)', () => {
  const execution = {
    name: `${PARENT}/workflows/w/executions/e`,
    state: 'FAILED' as const,
    argument: '{"a":1}',
    error: { payload: '{"message":"boom"}', context: 'step: explode' },
    startTime: '2026-11-21T07:00:00.250Z',
    createTime: '2026-11-21T07:00:00.250Z',
    endTime: '2026-11-21T07:00:01.000Z',
    workflowRevisionId: '000001-abc',
  };
  const full = executionToMessage(execution);
  assert.is(full.state, Execution_State.FAILED);
  assert.is(full.argument, '{"a":1}');
  assert.is(full.error?.payload, '{"message":"boom"}');
  assert.is(full.error?.context, 'step: explode');
  assert.is(full.duration?.seconds, 0n);
  assert.is(full.duration?.nanos, 750_000_000);
  assert.is(full.workflowRevisionId, '000001-abc');
  const basic = executionToMessage(execution, ExecutionView.BASIC);
  assert.is(basic.argument, '');
  assert.is(basic.error, undefined);
  assert.is(basic.endTime?.seconds, full.endTime?.seconds);
  const active = executionToMessage({ ...execution, state: 'ACTIVE', endTime: undefined, error: undefined });
  assert.is(active.endTime, undefined);
  assert.is(active.duration, undefined);
});

s('Google REST transport in process: query enums by number, bad JSON is 400, unknown paths are left to REST (docs/rest-api.md#endpoints)', async (ctx) => {
  const url = (path: string) => `http://localhost/v1/${PARENT}${path}`;
  const created = await handleGoogleRest(
    ctx.core,
    new Request(url('/workflows?workflowId=inproc&$alt=json%3Benum-encoding=int'), { method: 'POST', body: JSON.stringify({ sourceContents: SOURCE }) }),
  );
  assert.is(created?.status, 200);
  const operation = (await created!.json()) as { done: boolean; response: { state: number } };
  assert.is(operation.done, true);
  assert.is(operation.response.state, 1);
  await handleGoogleRest(ctx.core, new Request(url('/workflows/inproc/executions?$alt=json'), { method: 'POST', body: '{"argument":"{}"}' }));
  const basic = await handleGoogleRest(ctx.core, new Request(url('/workflows/inproc/executions?view=1&$alt=json')));
  const listed = (await basic!.json()) as { executions: { state: string; argument?: string }[] };
  assert.is(listed.executions.length, 1);
  assert.is(listed.executions[0]!.argument, undefined);
  assert.type(listed.executions[0]!.state, 'string'); // without enum-encoding=int, enums are names
  const bad = await handleGoogleRest(ctx.core, new Request(url('/workflows?workflowId=x&$alt=json'), { method: 'POST', body: '{' }));
  assert.is(bad?.status, 400);
  assert.is(((await bad!.json()) as { error: { status: string } }).error.status, 'INVALID_ARGUMENT');
  assert.is(await handleGoogleRest(ctx.core, new Request(url('/workflows/inproc/executions/e/callbacks?$alt=json'))), undefined);
});

s.run();
