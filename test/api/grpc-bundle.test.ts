import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { WorkflowsClient, ExecutionsClient } from '@google-cloud/workflows';
import { startEmulator } from '../support/emulator.ts';

// SPEC.md "gRPC API" and "Configuration": the built one-file bundle (dist/emulator.js) serves gRPC on
// GRPC_PORT under Node, Deno and Bun, and its start-up line names both addresses; Google's client drives it.
const s = suite('api grpc-bundle (dist/emulator.js under node, deno, bun)');

const PARENT = 'projects/my-project/locations/us-central1';
const bin = (name: string) => resolve(new URL(`../../node_modules/.bin/${name}`, import.meta.url).pathname);
const auth = {
  getClient: async () => ({ getRequestHeaders: async () => new Headers() }),
  getUniverseDomain: async () => 'googleapis.com',
  getProjectId: async () => 'my-project',
};

const runtimes: [string, string[]][] = [
  ['node', [process.execPath]],
  ['deno', [bin('deno'), 'run', '-A']],
  ['bun', [bin('bun')]],
];

for (const [runtime, command] of runtimes) {
  s(`under ${runtime}, the bundle prints both addresses and answers Google's client over gRPC (spec "gRPC API")`, async () => {
    if (!existsSync(command[0]!)) {
      console.warn(`  (${runtime} is not installed: skipped)`);
      return;
    }
    const emulator = await startEmulator({ workflowsDir: false, command, startTimeoutMs: 30_000 });
    const options = { servicePath: '127.0.0.1', port: emulator.grpcPort, sslCreds: grpc.credentials.createInsecure(), auth };
    const workflows = new WorkflowsClient(options as never);
    const executions = new ExecutionsClient(options as never);
    try {
      assert.match(emulator.stdout(), new RegExp(`gRPC on [^ ;)]+:${emulator.grpcPort}`));
      const [operation] = await workflows.createWorkflow({
        parent: PARENT,
        workflowId: 'bundled',
        workflow: { sourceContents: 'main:\n  steps:\n    - done:\n        return: "hi"\n' },
      });
      const [workflow] = await operation.promise();
      const [created] = await executions.createExecution({ parent: workflow.name, execution: {} });
      let execution = created;
      for (let i = 0; i < 200 && execution.state === 'ACTIVE'; i++) {
        await new Promise((r) => setTimeout(r, 10));
        [execution] = await executions.getExecution({ name: created.name });
      }
      assert.is(execution.state, 'SUCCEEDED');
      assert.is(execution.result, '"hi"');
    } finally {
      await workflows.close();
      await executions.close();
      await emulator.close();
    }
  });
}

s.run();
