import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { transform } from 'esbuild';
import { typeCheck } from '../support/typecheck.ts';
import { startServer, type RunningServer } from '../../src/server.ts';

// docs/grpc.md#googles-client-libraries: the Node example runs as written (ports swapped for the test's free
// ones), over gRPC and over Google's REST transport (docs/grpc.md#the-grpc-api).
const s = suite<{ server: RunningServer }>('api grpc-readme (the Node example of docs/grpc.md runs)');

const root = new URL('../../', import.meta.url).pathname;
const page = readFileSync(join(root, 'docs', 'grpc.md'), 'utf8');
const section = page.slice(page.indexOf("\n## Google's client libraries\n"));
const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';

s.before(async (ctx) => {
  ctx.server = await startServer({ host: '127.0.0.1', port: 0, grpcPort: 0, service: { log: () => {} } });
});

s.after(async (ctx) => {
  await ctx.server.close();
});

async function run(ctx: { server: RunningServer }, transport: 'grpc' | 'rest'): Promise<string> {
  let code = example.replace("port: 8788", `port: ${ctx.server.grpcPort}`);
  if (transport === 'rest') code = code.replace('new WorkflowsClient(grpcOptions)', 'new WorkflowsClient(restOptions)').replace('new ExecutionsClient(grpcOptions)', 'new ExecutionsClient(restOptions)');
  code += '\nawait workflows.close();\nawait executions.close();\n';
  const dir = join(root, '.tmp');
  mkdirSync(dir, { recursive: true });
  // The TypeScript runs as tsx would run it (esbuild strips the types), without tsx's loader in the child:
  // that loader would see every module of Google's client library go by (0.3 s of CPU a run).
  const file = join(dir, `grpc-readme-${process.pid}-${transport}.mjs`);
  writeFileSync(file, (await transform(code, { loader: 'ts', format: 'esm', target: 'node20' })).code);
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [file], {
      cwd: root,
      env: { ...process.env, WORKFLOWS_EMULATOR_HOST: ctx.server.url.replace('localhost', '127.0.0.1') },
    });
    return stdout.trim();
  } finally {
    rmSync(file, { force: true });
  }
}

s('docs/grpc.md has a Node example using an insecure channel and no credentials', () => {
  assert.match(example, /grpc\.credentials\.createInsecure\(\)/);
  assert.match(example, /operation\.promise\(\)/);
});

s('the Node example deploys and starts an execution over gRPC, and works twice (docs/grpc.md#the-grpc-api)', async (ctx) => {
  for (let i = 0; i < 2; i++) {
    const name = await run(ctx, 'grpc');
    assert.match(name, /^projects\/my-project\/locations\/us-central1\/workflows\/from-client\/executions\/.+/);
  }
});

s("the Node example works on Google's REST transport with WORKFLOWS_EMULATOR_HOST, twice (docs/cli.md#configuration)", async (ctx) => {
  for (let i = 0; i < 2; i++) {
    const name = await run(ctx, 'rest');
    assert.match(name, /^projects\/my-project\/locations\/us-central1\/workflows\/from-client\/executions\/.+/);
  }
});

s('the Node example type-checks as TypeScript under strict', () => {
  const dir = join(root, '.tmp');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `grpc-readme-${process.pid}-typecheck.ts`);
  writeFileSync(file, example + '\nexport {};\n');
  try {
    assert.equal(typeCheck([file], { types: ['node'], skipLibCheck: true }).messages, []);
  } finally {
    rmSync(file, { force: true });
  }
});

s.run();
