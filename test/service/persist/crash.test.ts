// A data directory survives SIGKILL (docs/persistence.md#the-journal, docs/persistence.md#recovery): the built
// bundle is killed in the middle of a load of workflow creates, executions and callback deliveries, started again
// on the same directory, and every write it acknowledged is found; executions ACTIVE at the kill end FAILED saying
// the emulator stopped, or run again with --resume and take the callback requests acknowledged to them.
// Black-box: the real server over REST. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as grpc from '@grpc/grpc-js';
import { ExecutionsClient, WorkflowsClient } from '@google-cloud/workflows';
import { startEmulator, until, type EmulatorProcess } from '../../support/emulator.ts';
import { noAuth as auth } from '../../support/google-clients.ts';

const TRIVIAL = 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args.n}\n';
const CALLBACK =
  'main:\n  steps:\n    - create:\n        call: events.create_callback_endpoint\n        result: cb\n    - wait:\n        call: events.await_callback\n        args:\n          callback: ${cb}\n          timeout: 600\n        result: req\n    - done:\n        return: ${req.http_request.body}\n';

const s = suite<{ dir: string }>('data directory: nothing acknowledged is lost to SIGKILL (docs/persistence.md#recovery)');

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-data-'));
});
s.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** Starts the bundle on `dir` with no workflows directory. */
function start(dir: string, extra: string[] = []): Promise<EmulatorProcess> {
  return startEmulator({ workflowsDir: false, args: ['--data-dir', dir, ...extra] });
}

/** SIGKILL, and wait for the process to be gone. */
async function kill(emu: EmulatorProcess): Promise<void> {
  const gone = new Promise((r) => emu.child.once('exit', r));
  emu.child.kill('SIGKILL');
  await gone;
  await emu.close();
}

/** What the load got acknowledged: workflows created, executions created, callback bodies delivered per execution. */
interface Acked {
  workflows: string[];
  executions: string[];
  delivered: Map<string, unknown>;
}

/** Runs creates, executions and callback deliveries from 8 clients until `stop` is set. */
async function load(emu: EmulatorProcess, acked: Acked, stop: { now: boolean }): Promise<void> {
  let n = 0;
  const client = async (k: number): Promise<void> => {
    while (!stop.now) {
      const i = n++;
      try {
        if (k % 3 === 0) {
          const r = await emu.request('POST', `/workflows?workflowId=load-${i}`, { sourceContents: TRIVIAL });
          if (r.status === 200) acked.workflows.push(`load-${i}`);
        } else if (k % 3 === 1) {
          const r = await emu.request('POST', '/workflows/trivial/executions', { argument: JSON.stringify({ n: i }) });
          if (r.status === 200) acked.executions.push(r.body.name);
        } else {
          const r = await emu.request('POST', '/workflows/callback/executions', {});
          if (r.status !== 200) continue;
          acked.executions.push(r.body.name);
          const cbs = await until(async () => (await emu.request('GET', `/v1/${r.body.name}/callbacks`)).body?.callbacks?.[0], 'a callback');
          const d = await emu.request('POST', cbs.url, { delivery: i });
          if (d.status === 200) acked.delivered.set(r.body.name, { delivery: i });
        }
      } catch {
        return; // the process is gone
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, (_, k) => client(k)));
}

s('a SIGKILL during creates, executions and callbacks loses no acknowledged write; --resume runs the ACTIVE ones again with their callbacks', async (ctx) => {
  let emu = await start(ctx.dir);
  assert.is((await emu.request('POST', '/workflows?workflowId=trivial', { sourceContents: TRIVIAL })).status, 200);
  assert.is((await emu.request('POST', '/workflows?workflowId=callback', { sourceContents: CALLBACK })).status, 200);
  const acked: Acked = { workflows: ['trivial', 'callback'], executions: [], delivered: new Map() };
  const stop = { now: false };
  const running = load(emu, acked, stop);
  await until(() => (acked.executions.length > 60 && acked.delivered.size > 5 ? true : undefined), 'load under way', 30_000);
  await kill(emu);
  stop.now = true;
  await running;

  emu = await start(ctx.dir, ['--resume']);
  try {
    const listed = new Set<string>((await emu.request('GET', '/workflows?pageSize=1000')).body.workflows.map((w: { name: string }) => w.name.split('/').pop()));
    for (const id of acked.workflows) assert.ok(listed.has(id), `acknowledged workflow ${id} is kept`);
    for (const name of acked.executions) {
      const ex = await until(async () => {
        const r = await emu.request('GET', `/v1/${name}`);
        assert.is(r.status, 200, `acknowledged execution ${name} is kept: ${r.text}`);
        return r.body.state === 'ACTIVE' && !name.includes('/callback/') ? undefined : r.body;
      }, `${name} to end after --resume`);
      if (!name.includes('/callback/')) assert.is(ex.state, 'SUCCEEDED', JSON.stringify(ex));
    }
    for (const [name, body] of acked.delivered) {
      const ex = await until(async () => {
        const r = await emu.request('GET', `/v1/${name}`);
        return r.body.state === 'ACTIVE' ? undefined : r.body;
      }, `${name} to take its acknowledged callback request`);
      assert.is(ex.state, 'SUCCEEDED', JSON.stringify(ex));
      assert.equal(JSON.parse(ex.result), body);
    }
  } finally {
    await emu.close();
  }
});

s('an execution ACTIVE when the emulator was killed comes back FAILED: "the emulator stopped during the run"', async (ctx) => {
  let emu = await start(ctx.dir);
  await emu.request('POST', '/workflows?workflowId=callback', { sourceContents: CALLBACK });
  const created = await emu.request('POST', '/workflows/callback/executions', {});
  await until(async () => (await emu.request('GET', `/v1/${created.body.name}/callbacks`)).body?.callbacks?.[0], 'the callback');
  await kill(emu);
  emu = await start(ctx.dir);
  try {
    const ex = (await emu.request('GET', `/v1/${created.body.name}`)).body;
    assert.is(ex.state, 'FAILED');
    assert.match(JSON.parse(ex.error.payload).message, /the emulator stopped during the run/);
    assert.ok(ex.endTime, 'it has an end time');
  } finally {
    await emu.close();
  }
  // The FAILED state was written: a third start finds it unchanged.
  const again = await start(ctx.dir);
  try {
    const ex = (await again.request('GET', `/v1/${created.body.name}`)).body;
    assert.is(ex.state, 'FAILED');
  } finally {
    await again.close();
  }
});

s('a SIGTERM keeps ACTIVE executions ACTIVE on disk (not CANCELLED): the next start ends them FAILED, or runs them with --resume', async (ctx) => {
  let emu = await start(ctx.dir);
  await emu.request('POST', '/workflows?workflowId=callback', { sourceContents: CALLBACK });
  const created = await emu.request('POST', '/workflows/callback/executions', {});
  const cb = await until(async () => (await emu.request('GET', `/v1/${created.body.name}/callbacks`)).body?.callbacks?.[0], 'the callback');
  assert.is(await emu.close(), 0);
  emu = await start(ctx.dir, ['--resume']);
  try {
    // The run again creates the same callback ID, so a client holding its URL reaches the execution (the test's
    // ports are picked afresh at each start, so the path is sent to the new port).
    const path = new URL(cb.url).pathname;
    const d = await until(async () => {
      const r = await emu.request('POST', path, { late: true });
      return r.status === 200 ? r : undefined;
    }, 'the callback URL to be served again');
    assert.is(d.status, 200);
    const ex = await until(async () => {
      const r = await emu.request('GET', `/v1/${created.body.name}`);
      return r.body.state === 'ACTIVE' ? undefined : r.body;
    }, 'the resumed execution to end');
    assert.equal(JSON.parse(ex.result), { late: true });
  } finally {
    await emu.close();
  }
});

s('writes acknowledged over gRPC (Google\'s client) and the Connect protocol are on disk: a SIGKILL right after the answers loses none (docs/grpc.md#the-grpc-api)', async (ctx) => {
  let emu = await start(ctx.dir);
  const options = { servicePath: '127.0.0.1', port: emu.grpcPort, sslCreds: grpc.credentials.createInsecure(), auth };
  const workflows = new WorkflowsClient(options as never);
  const executions = new ExecutionsClient(options as never);
  const parent = 'projects/my-project/locations/us-central1';
  const names: string[] = [];
  try {
    const [operation] = await workflows.createWorkflow({ parent, workflowId: 'by-grpc', workflow: { sourceContents: CALLBACK } });
    await operation.promise();
    for (let i = 0; i < 5; i++) names.push((await executions.createExecution({ parent: `${parent}/workflows/by-grpc`, execution: {} }))[0].name!);
  } finally {
    await workflows.close();
    await executions.close();
  }
  // The Connect protocol on the REST port (docs/rest-routes.md#the-connect-protocol-on-the-rest-port).
  const connect = await emu.request('POST', `${emu.url}/google.cloud.workflows.v1.Workflows/CreateWorkflow`, { parent, workflowId: 'by-connect', workflow: { sourceContents: CALLBACK } });
  assert.is(connect.status, 200, connect.text);
  assert.match(connect.body.name, /operations\//);
  await kill(emu);
  emu = await start(ctx.dir);
  try {
    assert.is((await emu.request('GET', '/workflows/by-grpc')).status, 200);
    assert.is((await emu.request('GET', '/workflows/by-connect')).status, 200);
    for (const name of names) assert.is((await emu.request('GET', `/v1/${name}`)).body.state, 'FAILED', `${name} is kept`);
  } finally {
    await emu.close();
  }
});

s.run();
