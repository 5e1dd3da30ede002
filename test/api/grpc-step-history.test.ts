// The Execution fields docs/rest-api.md#step-history adds, over gRPC with Google's own client (@google-cloud/workflows), as the
// published proto has them: error.stack_trace (StackTraceElement with step, routine, position line/column/
// length), status.current_steps while ACTIVE (one per running parallel branch), duration; and the workflow's
// execution_history_level.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as grpc from '@grpc/grpc-js';
import { WorkflowsClient, ExecutionsClient } from '@google-cloud/workflows';
import { startServer, type RunningServer } from '../../src/server.ts';
import { createWorkflow, noAuth as auth, PARENT, untilDone } from '../support/google-clients.ts';

const s = suite<{ server: RunningServer; workflows: WorkflowsClient; executions: ExecutionsClient }>('api grpc: step history fields of Execution (docs/rest-api.md#step-history)');

s.before(async (ctx) => {
  ctx.server = await startServer({ host: '127.0.0.1', port: 0, grpcPort: 0, service: { log: () => {} }, printExecutionEnd: () => {} });
  const options = { servicePath: '127.0.0.1', port: ctx.server.grpcPort, sslCreds: grpc.credentials.createInsecure(), auth };
  ctx.workflows = new WorkflowsClient(options as never);
  ctx.executions = new ExecutionsClient(options as never);
});

s.after(async (ctx) => {
  await ctx.workflows.close();
  await ctx.executions.close();
  await ctx.server.close();
});

const RAISES = 'main:\n  steps:\n    - go:\n        call: inner\n        result: r\ninner:\n  steps:\n    - explode:\n        raise: "boom"\n';
const SLEEPS =
  'main:\n  steps:\n    - both:\n        parallel:\n          branches:\n            - a:\n                steps:\n                  - nap_a:\n                      call: sys.sleep\n                      args:\n                        seconds: 30\n            - b:\n                steps:\n                  - nap_b:\n                      call: sys.sleep\n                      args:\n                        seconds: 30\n';

s('GetExecution of a FAILED execution carries error.stack_trace, innermost first, with positions', async (ctx) => {
  await createWorkflow(ctx, 'grpc-raises', RAISES);
  const [created] = await ctx.executions.createExecution({ parent: `${PARENT}/workflows/grpc-raises`, execution: {} });
  const done = await untilDone(ctx, created.name!);
  assert.is(done.state, 'FAILED');
  const elements = done.error!.stackTrace!.elements!.map((e) => [e.step, e.routine, String(e.position!.line), String(e.position!.column), String(e.position!.length)]);
  assert.equal(elements, [
    ['explode', 'inner', '8', '7', '7'],
    ['go', 'main', '3', '7', '2'],
  ]);
  assert.ok(done.duration, 'duration is set once ended');
});

s('status.current_steps names each sleeping branch while ACTIVE', async (ctx) => {
  await createWorkflow(ctx, 'grpc-sleeps', SLEEPS);
  const [created] = await ctx.executions.createExecution({ parent: `${PARENT}/workflows/grpc-sleeps`, execution: {} });
  let steps: string[] = [];
  for (let i = 0; i < 200 && steps.length < 2; i++) {
    const [e] = await ctx.executions.getExecution({ name: created.name! });
    steps = (e.status?.currentSteps ?? []).map((c) => `${c.routine}/${c.step}`).sort();
    if (steps.length < 2) await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal(steps, ['main/nap_a', 'main/nap_b']);
  await ctx.executions.cancelExecution({ name: created.name! });
});

s('execution_history_level is stored on the workflow and returned', async (ctx) => {
  const [operation] = await ctx.workflows.createWorkflow({
    parent: PARENT,
    workflowId: 'grpc-detailed',
    workflow: { sourceContents: RAISES, executionHistoryLevel: 'EXECUTION_HISTORY_DETAILED' },
  });
  const [workflow] = await operation.promise();
  // The operation's response is a packed Any, which the client decodes with enums as numbers.
  assert.ok(workflow.executionHistoryLevel === 2 || workflow.executionHistoryLevel === 'EXECUTION_HISTORY_DETAILED');
  const [got] = await ctx.workflows.getWorkflow({ name: workflow.name! });
  assert.is(got.executionHistoryLevel, 'EXECUTION_HISTORY_DETAILED');
});

s.run();
