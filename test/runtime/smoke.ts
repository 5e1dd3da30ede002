/**
 * The runtime smoke suite (docs/cli.md#one-file-on-node-deno-and-bun: it runs the same under Node, Deno and Bun): starts the built
 * bundle under one runtime on free loopback ports with a temporary workflows directory and checks, against
 * the running process, REST create and execute, an http.* call to a local node:http server, a callback round
 * trip, a hot reload, gRPC through Google's client (@google-cloud/workflows with @grpc/grpc-js, insecure), the
 * web UI, the one-shot `run` command, the `test` command, a data directory across a SIGKILL with export and
 * import (docs/persistence.md), and a clean SIGTERM exit. node.test.ts, deno.test.ts and bun.test.ts
 * each run it with their command line.
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { ExecutionsClient, WorkflowsClient } from '@google-cloud/workflows';
import { EMULATOR_JS, startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';
import { startTestServer, type TestServer } from '../support/http-servers.ts';
import { noAuth as auth } from '../support/google-clients.ts';

/** Deno and Bun, as scripts/runtimes.mjs installs them (`npm run test:runtimes` runs it first). */
const BIN = new URL('../../.cache/runtimes/node_modules/.bin/', import.meta.url).pathname;

/** The command lines that run the bundle, by runtime (Deno and Bun from .cache/runtimes). */
export const RUNTIMES = {
  node: [process.execPath],
  deno: [BIN + 'deno', 'run', '-A'],
  bun: [BIN + 'bun'],
} as const;

/** A runtime's name. */
export type Runtime = keyof typeof RUNTIMES;

const ADD = 'main:\n  params: [args]\n  steps:\n    - add:\n        return: ${args.x + 1}\n';
const FETCH =
  'main:\n  params: [args]\n  steps:\n    - call:\n        call: http.post\n        args:\n          url: ${args.url}\n          body: {hello: runtime}\n        result: r\n    - done:\n        return: ${[r.code, json.decode(r.body.body)]}\n';
const CALLBACK =
  'main:\n  steps:\n    - create:\n        call: events.create_callback_endpoint\n        result: cb\n    - wait:\n        call: events.await_callback\n        args:\n          callback: ${cb}\n          timeout: 60\n        result: req\n    - done:\n        return: ${req.http_request.body}\n';
const reloadSource = (n: number) => `main:\n  steps:\n    - done:\n        return: ${n}\n`;

/** Defines and runs the smoke suite for `runtime`. */
export function runtimeSuite(runtime: Runtime): void {
  const command = RUNTIMES[runtime];
  const s = suite<{ emu: EmulatorProcess; http: TestServer }>(`runtime ${runtime}: the bundle under ${runtime} (docs/cli.md#one-file-on-node-deno-and-bun)`);

  async function execute(emu: EmulatorProcess, workflowId: string, argument?: unknown): Promise<any> {
    const created = await emu.request('POST', `/workflows/${workflowId}/executions`, argument === undefined ? {} : { argument: JSON.stringify(argument) });
    assert.is(created.status, 200, created.text);
    return until(async () => {
      const r = await emu.request('GET', `/v1/${created.body.name}`);
      return r.body.state === 'ACTIVE' ? undefined : r.body;
    }, `${workflowId} to end under ${runtime}`);
  }

  s.before(async (ctx) => {
    assert.ok(existsSync(command[0]), `${command[0]} is installed (node scripts/runtimes.mjs installs it)`);
    ctx.http = await startTestServer();
    ctx.emu = await startEmulator({ command, files: { 'reload.yaml': reloadSource(1) }, startTimeoutMs: 30_000 });
  });
  s.after(async (ctx) => {
    await ctx.emu?.close();
    await ctx.http?.close();
  });

  s('starts and prints its listening line with REST, the UI and gRPC (docs/cli.md#configuration)', (ctx) => {
    assert.match(ctx.emu.stdout(), /workflows-emulator listening on http:\/\/127\.0\.0\.1:\d+ \(REST API; web UI at .*\/ui; gRPC on 127\.0\.0\.1:\d+; 1 workflow\(s\) from /);
    assert.type(ctx.emu.grpcPort, 'number');
  });

  s('start-up prints nothing on stderr: no runtime warning with the documented command line (docs/cli.md#one-file-on-node-deno-and-bun)', (ctx) => {
    assert.is(ctx.emu.stderr(), '');
  });

  if (runtime === 'deno') {
    s('without its permissions, Deno is told at start-up which flags the emulator needs (docs/cli.md#one-file-on-node-deno-and-bun)', async () => {
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn(command[0], ['run', EMULATOR_JS, '--version'], { stdio: ['ignore', 'ignore', 'pipe'], env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
        child.on('exit', (code) => resolve({ code, stderr }));
      });
      assert.match(r.stderr.split('\n')[0]!, /^workflows-emulator: under Deno the emulator needs --allow-net, --allow-read, --allow-env \(or -A\)/);
    });
  }

  s('REST: create a workflow and execute it to SUCCEEDED (docs/rest-api.md#endpoints)', async (ctx) => {
    const created = await ctx.emu.request('POST', '/workflows?workflowId=add', { sourceContents: ADD });
    assert.is(created.status, 200, created.text);
    const done = await execute(ctx.emu, 'add', { x: 41 });
    assert.is(done.state, 'SUCCEEDED');
    assert.is(done.result, '42');
  });

  s('http.*: a call to a local node:http server (docs/standard-library.md#http)', async (ctx) => {
    await ctx.emu.request('POST', '/workflows?workflowId=fetch', { sourceContents: FETCH });
    const done = await execute(ctx.emu, 'fetch', { url: `${ctx.http.url}/echo` });
    assert.is(done.state, 'SUCCEEDED', JSON.stringify(done));
    assert.equal(JSON.parse(done.result), [200, { hello: 'runtime' }]);
  });

  s('callbacks: create, await, deliver over HTTP, resume (docs/api-resources.md#events)', async (ctx) => {
    await ctx.emu.request('POST', '/workflows?workflowId=callback', { sourceContents: CALLBACK });
    const created = await ctx.emu.request('POST', '/workflows/callback/executions', {});
    const name = created.body.name as string;
    const url = await until(async () => (await ctx.emu.request('GET', `/v1/${name}/callbacks`)).body.callbacks?.[0]?.url as string | undefined, 'the callback');
    const delivered = await ctx.emu.request('POST', url, { approved: true });
    assert.is(delivered.status, 200, delivered.text);
    const done = await until(async () => {
      const r = await ctx.emu.request('GET', `/v1/${name}`);
      return r.body.state === 'ACTIVE' ? undefined : r.body;
    }, 'the callback execution');
    assert.is(done.state, 'SUCCEEDED');
    assert.equal(JSON.parse(done.result), { approved: true });
  });

  s('hot reload: a changed workflow file is redeployed and new executions use it (docs/cli.md#directory-watching)', async (ctx) => {
    const before = await ctx.emu.request('GET', '/workflows/reload');
    assert.is(before.status, 200);
    assert.is((await execute(ctx.emu, 'reload')).result, '1');
    writeFileSync(join(ctx.emu.workflowsDir!, 'reload.yaml'), reloadSource(2));
    await until(async () => {
      const r = await ctx.emu.request('GET', '/workflows/reload');
      return r.body.revisionId !== before.body.revisionId ? true : undefined;
    }, 'the new revision');
    assert.is((await execute(ctx.emu, 'reload')).result, '2');
    writeFileSync(join(ctx.emu.workflowsDir!, 'added.yaml'), reloadSource(3));
    await until(async () => ((await ctx.emu.request('GET', '/workflows/added')).status === 200 ? true : undefined), 'the added file');
  });

  s('gRPC: Google\'s client creates a workflow and runs an execution, insecure, no credentials (docs/grpc.md#the-grpc-api)', async (ctx) => {
    const options = { servicePath: '127.0.0.1', port: ctx.emu.grpcPort, sslCreds: grpc.credentials.createInsecure(), auth };
    const workflows = new WorkflowsClient(options as never);
    const executions = new ExecutionsClient(options as never);
    try {
      const parent = 'projects/my-project/locations/us-central1';
      const [operation] = await workflows.createWorkflow({ parent, workflowId: 'grpc-add', workflow: { sourceContents: ADD } });
      const [workflow] = await operation.promise();
      assert.is(workflow.name, `${parent}/workflows/grpc-add`);
      const [execution] = await executions.createExecution({ parent: workflow.name!, execution: { argument: '{"x": 1}' } });
      const done = await until(async () => {
        const [e] = await executions.getExecution({ name: execution.name! });
        return e.state === 'ACTIVE' ? undefined : e;
      }, 'the gRPC execution');
      assert.is(done.state, 'SUCCEEDED');
      assert.is(done.result, '2');
      const [list] = await workflows.listWorkflows({ parent });
      assert.ok(list.some((w) => w.name === `${parent}/workflows/reload`));
    } finally {
      await workflows.close();
      await executions.close();
    }
  });

  s('web UI: the dashboard, a workflow page and an asset are served (docs/web-ui.md#pages)', async (ctx) => {
    const root = await ctx.emu.request('GET', '/');
    assert.ok(root.status >= 300 && root.status < 400, `/ redirects (${root.status})`);
    const dashboard = await ctx.emu.request('GET', '/ui');
    assert.is(dashboard.status, 200);
    assert.match(dashboard.headers.get('content-type') ?? '', /text\/html/);
    assert.match(dashboard.text, /reload/);
    const page = await ctx.emu.request('GET', '/ui/workflows/add');
    assert.is(page.status, 200);
    assert.match(page.text, /args\.x \+ 1/);
    const asset = await ctx.emu.request('GET', '/ui/assets/htmx.min.js');
    assert.is(asset.status, 200);
    assert.ok(asset.text.length > 10_000);
  });

  s('one-shot run: result on stdout with exit 0, payload on stderr with exit 1, file:line:col with exit 2 (docs/cli.md#one-shot-runs)', async () => {
    const dir = mkdtempSync(join(tmpdir(), `wfemu-${runtime}-run-`));
    try {
      const ok = join(dir, 'ok.yaml');
      writeFileSync(ok, ADD);
      const failing = join(dir, 'failing.yaml');
      writeFileSync(failing, 'main:\n  steps:\n    - explode:\n        raise: boom\n');
      const bad = join(dir, 'bad.yaml');
      writeFileSync(bad, 'main:\n  steps:\n    - a:\n        retrun: 1\n');
      const r1 = await runOnce(command, [ok, '--data', '{"x": 9007199254740992}']);
      assert.is(r1.code, 0, r1.stderr);
      assert.is(r1.stdout, '9007199254740993\n');
      const r2 = await runOnce(command, [failing]);
      assert.is(r2.code, 1, r2.stderr);
      assert.is(r2.stdout, '');
      assert.equal(JSON.parse(r2.stderr.trim().split('\n').at(-1)!), { message: 'boom', code: 0, tags: [] });
      const r3 = await runOnce(command, [bad]);
      assert.is(r3.code, 2);
      assert.ok(r3.stderr.includes(`${bad}:4:9: invalid workflow definition`), r3.stderr);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  s('one-shot run: a callback round trip on a free port (docs/cli.md#one-shot-runs)', async () => {
    const dir = mkdtempSync(join(tmpdir(), `wfemu-${runtime}-cb-`));
    try {
      const file = join(dir, 'cb.yaml');
      writeFileSync(file, CALLBACK);
      const child = spawn(command[0], [...command.slice(1), EMULATOR_JS, 'run', file, '--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
      const url = await until(() => /waiting for a callback: POST (\S+)/.exec(stderr)?.[1], 'the callback URL on stderr', 20_000);
      const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"n": 1}' });
      assert.is(r.status, 200);
      assert.is(await exited, 0, stderr);
      assert.is(stdout, '{"n":1}\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  s('the JS API, imported from dist/emulator.js, starts no command line, and starts, deploys, runs and closes in process under this runtime (docs/testing.md#the-js-api)', async () => {
    const dir = mkdtempSync(join(tmpdir(), `wfemu-${runtime}-api-`));
    try {
      const script = join(dir, 'api.mjs');
      const api = new URL('../../dist/emulator.js', import.meta.url).href;
      writeFileSync(
        script,
        `import { startEmulator } from ${JSON.stringify(api)};\n` +
          `const emulator = await startEmulator();\n` +
          `await emulator.deploy('add', ${JSON.stringify(ADD)});\n` +
          `const done = await emulator.run('add', { x: 1 });\n` +
          `await emulator.close();\n` +
          `console.log(JSON.stringify([done.state, done.result, emulator.url.startsWith('http://127.0.0.1:')]));\n`,
      );
      const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(command[0], [...command.slice(1), script], { stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
        child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
        // A command line started by the import would keep listening: the script would never exit.
        const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
        child.on('exit', (code) => {
          clearTimeout(timer);
          resolve({ code, out });
        });
      });
      assert.is(r.code, 0, r.out);
      assert.is(r.out, '["SUCCEEDED",2,true]\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  s('SIGTERM stops the emulator with exit code 0 (docs/cli.md#configuration)', async (ctx) => {
    assert.is(await ctx.emu.close(), 0);
  });

  s('a data directory: SIGKILL, start again, every acknowledged workflow, execution and callback delivery is there; export and import round-trip (docs/persistence.md)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wfemu-rt-data-'));
    const start = (args: string[]) => startEmulator({ command, workflowsDir: false, args, startTimeoutMs: 30_000 });
    try {
      let emu = await start(['--data-dir', join(dir, 'data')]);
      assert.is((await emu.request('POST', '/workflows?workflowId=add', { sourceContents: ADD })).status, 200);
      assert.is((await emu.request('POST', '/workflows?workflowId=cb', { sourceContents: CALLBACK })).status, 200);
      const done = await execute(emu, 'add', { x: 4 });
      const waiting = await emu.request('POST', '/workflows/cb/executions', {});
      const cb = await until(async () => (await emu.request('GET', `/v1/${waiting.body.name}/callbacks`)).body?.callbacks?.[0], 'the callback');
      assert.is((await emu.request('POST', new URL(cb.url).pathname, { kept: 1 })).status, 200);
      const gone = new Promise((r) => emu.child.once('exit', r));
      emu.child.kill('SIGKILL');
      await gone;
      await emu.close();
      emu = await start(['--data-dir', join(dir, 'data'), '--resume']);
      try {
        assert.is((await emu.request('GET', `/v1/${done.name}`)).body.result, '5');
        const resumed = await until(async () => {
          const r = await emu.request('GET', `/v1/${waiting.body.name}`);
          return r.body.state === 'ACTIVE' ? undefined : r.body;
        }, `the execution waiting at the kill to run again under ${runtime}`);
        assert.equal([resumed.state, JSON.parse(resumed.result ?? 'null')], ['SUCCEEDED', { kept: 1 }]);
        assert.is((await emu.request('POST', '/emulator/v1:export', { directory: join(dir, 'export') })).status, 200);
      } finally {
        await emu.close();
      }
      emu = await start(['--import', join(dir, 'export')]);
      try {
        assert.is((await emu.request('GET', `/v1/${done.name}`)).body.result, '5');
        assert.is((await emu.request('GET', `/v1/${waiting.body.name}`)).body.state, 'SUCCEEDED');
      } finally {
        await emu.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  s('the test command: the example tests pass with mocks and the virtual clock; JUnit written (docs/testing.md#the-test-command)', async () => {
    const examples = new URL('../../examples/tests', import.meta.url).pathname;
    const dir = mkdtempSync(join(tmpdir(), 'wfemu-rt-test-'));
    try {
      const r = await runOnce(command, [examples, '--reporter', 'junit', '--output', join(dir, 'junit.xml')], 'test');
      assert.is(r.code, 0, r.stdout + r.stderr);
      assert.match(r.stdout, /^\d+ passed, 0 failed \(junit report in /);
      assert.ok(existsSync(join(dir, 'junit.xml')));
      const failing = join(dir, 'f.test.yaml');
      writeFileSync(join(dir, 'w.yaml'), ADD);
      writeFileSync(failing, 'workflow: w.yaml\ncases:\n  - name: off by one\n    argument: {x: 1}\n    expect: {result: 3}\n');
      const f = await runOnce(command, [failing], 'test');
      assert.is(f.code, 1, f.stdout + f.stderr);
      assert.match(f.stdout, /✗ off by one .*\n {6}result:\n {8}result: expected 3, got 2/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  s.run();
}

/** Runs `workflows-emulator run ...args` (or `test ...args`) under the runtime and collects its output and exit code. */
function runOnce(command: readonly string[], args: string[], subcommand: 'run' | 'test' = 'run'): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command[0]!, [...command.slice(1), EMULATOR_JS, subcommand, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}
