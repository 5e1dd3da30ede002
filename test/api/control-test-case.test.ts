// A run becomes a test, round trip (docs/recording.md): executions of every example workflow against the
// example services (examples/services.mjs), and of workflows that run child workflows, read the time, draw
// UUIDs and read the environment, are saved with `GET /emulator/v1/{execution}:testCase`; with the services
// stopped, `workflows-emulator test` runs every saved case and each passes, with no network. Black-box: the
// built bundle and the services as child processes. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMULATOR_JS, startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const s = suite('control API: an execution saved as a test case passes with no network (docs/recording.md)');

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;
let emu: EmulatorProcess;
let services: ChildProcess | undefined;
let servicesUrl = '';
let dir = '';
/** Test files written, by name: each must pass once the services are gone. */
const saved: string[] = [];

// A parent that runs a child workflow through the Workflow Executions connector
// (https://cloud.google.com/workflows/docs/reference/googleapis/workflowexecutions/Overview), and a workflow
// whose result holds the time, a UUID and an environment variable it read.
const FILES: Record<string, string> = {
  'child.yaml': `main:
  params: [args]
  steps:
    - double:
        return: \${args.n * 2}
`,
  'parent.yaml': `main:
  params: [args]
  steps:
    - run_child:
        call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.run
        args:
          workflow_id: child
          argument:
            n: \${args.n}
        result: doubled
    - done:
        return:
          doubled: \${doubled}
`,
  'sleeper.yaml': `main:
  steps:
    - nap:
        call: sys.sleep
        args: {seconds: 600}
`,
  'stamp.yaml': `main:
  steps:
    - read:
        assign:
          - at: \${sys.now()}
          - id: \${uuid.generate()}
          - region: \${sys.get_env("SHOP_REGION")}
          - later: \${time.format(sys.now())}
    - done:
        return:
          at: \${at}
          id: \${id}
          region: \${region}
          later: \${later}
`,
};

s.before(async () => {
  services = spawn(process.execPath, [`${EXAMPLES}services.mjs`, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  servicesUrl = await new Promise<string>((res, rej) => {
    let out = '';
    services!.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) res(m[1]!);
    });
    services!.on('exit', (code) => rej(new Error(`services exited with ${code}`)));
  });
  dir = mkdtempSync(join(tmpdir(), 'test-case-'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, name), text);
  emu = await startEmulator({ workflowsDir: `${EXAMPLES}workflows` });
  for (const [name, text] of Object.entries(FILES)) {
    const userEnvVars = name === 'stamp.yaml' ? { SHOP_REGION: 'eu-west' } : undefined;
    const r = await emu.request('POST', `/workflows?workflowId=${name.slice(0, -5)}`, { sourceContents: text, ...(userEnvVars ? { userEnvVars } : {}) });
    assert.is(r.status, 200, r.text);
  }
});

s.after(async () => {
  await emu.close();
  services?.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
});

async function runToEnd(id: string, argument?: unknown, whileActive?: (name: string) => Promise<void>): Promise<any> {
  const r = await emu.request('POST', `/workflows/${id}/executions`, argument === undefined ? {} : { argument: JSON.stringify(argument) });
  assert.is(r.status, 200, r.text);
  if (whileActive) await whileActive(r.body.name);
  return until(async () => {
    const g = await emu.request('GET', `/v1/${r.body.name}`);
    return g.body.state === 'ACTIVE' ? undefined : g.body;
  }, `${r.body.name} to end`, 20_000);
}

/** Saves the execution as a test file in `dir`, its workflow named relative to it; returns the YAML. */
async function save(execution: any, workflowPath: string, file: string): Promise<string> {
  const r = await fetch(`${emu.url}/emulator/v1/${execution.name}:testCase?workflow=${encodeURIComponent(workflowPath)}`);
  const text = await r.text();
  assert.is(r.status, 200, text);
  assert.match(r.headers.get('content-type') ?? '', /yaml/);
  writeFileSync(join(dir, file), text);
  saved.push(file);
  return text;
}

const example = (id: string) => `${EXAMPLES}workflows/${id}.yaml`;

s('hello and invoice (subworkflows): the argument and the result are saved', async () => {
  const hello = await runToEnd('hello', { name: 'Ada' });
  assert.match(await save(hello, example('hello'), 'hello.test.yaml'), /result: Hello, Ada!/);
  const invoice = await runToEnd('invoice', { customer: 'acme', lines: [{ item: 'widget', qty: 3, unit_price: 2.5 }], discount_pct: 10 });
  assert.is(invoice.state, 'SUCCEEDED');
  await save(invoice, example('invoice'), 'invoice.test.yaml');
});

s('fan-out-totals: the calls of a parallel for are mocked from the record', async () => {
  const ex = await runToEnd('fan-out-totals', { skus: ['sku-apple', 'sku-coffee', 'sku-unknown'], services_url: servicesUrl });
  assert.is(ex.state, 'SUCCEEDED', JSON.stringify(ex));
  const text = await save(ex, example('fan-out-totals'), 'fan-out.test.yaml');
  assert.match(text, /unmatched: \{http: error\}/);
  assert.match(text, /status: 404/, 'the unknown SKU answered 404 and is mocked as one');
});

s('error-handling: a retried call is one mock answering in order; a failed execution expects its error', async () => {
  const ok = await runToEnd('error-handling', { key: `ok-${Date.now()}`, failures: 2, services_url: servicesUrl });
  assert.is(ok.state, 'SUCCEEDED');
  const text = await save(ok, example('error-handling'), 'retried.test.yaml');
  assert.is(text.match(/match:/g)?.length, 1, 'one request, answered three times');
  assert.match(text, /respond:\n\s+- status: 503/);
  const down = await runToEnd('error-handling', { key: `down-${Date.now()}`, failures: 10, services_url: servicesUrl });
  assert.is(down.state, 'FAILED');
  assert.match(await save(down, example('error-handling'), 'failed.test.yaml'), /error:\n\s+code: 503\n\s+message: still unavailable after 4 attempts/);
  const bad = await runToEnd('error-handling', { key: `bad-${Date.now()}`, failures: 1, status: 400, services_url: servicesUrl });
  await save(bad, example('error-handling'), 'bad-request.test.yaml');
});

s('order-saga: a retried charge, a callback approved through the service, a refusal and a rejection', async () => {
  const small = await runToEnd('order-saga', { orderId: `ord-s-${Date.now()}`, items: [{ sku: 'sku-apple', qty: 2 }], address: '1 Main St', services_url: servicesUrl });
  assert.is(small.state, 'SUCCEEDED');
  await save(small, example('order-saga'), 'saga-small.test.yaml');
  const orderId = `ord-b-${Date.now()}`;
  const big = await runToEnd('order-saga', { orderId, items: [{ sku: 'sku-coffee', qty: 10 }], address: '2 Main St', services_url: servicesUrl }, async () => {
    await until(async () => {
      const r = (await (await fetch(`${servicesUrl}/approvals`)).json()) as { pending: { orderId: string }[] };
      return r.pending.find((p) => p.orderId === orderId);
    }, 'the approval request');
    await fetch(`${servicesUrl}/approvals/${orderId}/decide`, { method: 'POST', body: JSON.stringify({ approved: true, approver: 'ada' }) });
  });
  assert.is(big.state, 'SUCCEEDED', JSON.stringify(big));
  const text = await save(big, example('order-saga'), 'saga-approved.test.yaml');
  assert.match(text, /callbacks:\n\s+- method: POST\n(.|\n)*approver: ada/);
  assert.ok(/playback:\n(\s+times: .*\n)?\s+callbacks: \["?http:\/\/[\w.]+:\d+\/callbacks\/[0-9a-f]{32}"?\]/.test(text), text);
  const refused = await runToEnd('order-saga', { orderId: `ord-r-${Date.now()}`, items: [{ sku: 'sku-honey', qty: 20 }], address: '3 Main St', services_url: servicesUrl }, async (name) => {
    const cb = await until(async () => (await emu.request('GET', `/v1/${name}/callbacks`)).body.callbacks?.[0], 'the callback');
    await fetch(cb.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"approved": false, "approver": "bob"}' });
  });
  await save(refused, example('order-saga'), 'saga-refused.test.yaml');
  const tea = await runToEnd('order-saga', { orderId: `ord-t-${Date.now()}`, items: [{ sku: 'sku-tea', qty: 1 }], address: 'x', services_url: servicesUrl });
  await save(tea, example('order-saga'), 'saga-rejected.test.yaml');
});

s('a child workflow run through the connector is mocked by its result', async () => {
  const ex = await runToEnd('parent', { n: 21 });
  assert.is(ex.state, 'SUCCEEDED', JSON.stringify(ex));
  const text = await save(ex, './parent.yaml', 'parent.test.yaml');
  assert.match(text, /call: googleapis\.workflowexecutions\.v1\.projects\.locations\.workflows\.executions\.run/);
});

s('times read, UUIDs drawn and environment read are saved and played back', async () => {
  const ex = await runToEnd('stamp');
  assert.is(ex.state, 'SUCCEEDED', JSON.stringify(ex));
  const text = await save(ex, './stamp.yaml', 'stamp.test.yaml');
  assert.match(text, /env: \{SHOP_REGION: eu-west\}/);
  assert.match(text, /playback:\n\s+times: \[[\d.]+, [\d.]+\]\n\s+uuids: \[[0-9a-f-]{36}\]/);
});

s('an ACTIVE execution is refused, an unknown one is 404', async () => {
  const started = await emu.request('POST', '/workflows/sleeper/executions', {});
  const r = await fetch(`${emu.url}/emulator/v1/${started.body.name}:testCase`);
  assert.is(r.status, 400, await r.text());
  await emu.request('POST', `/v1/${started.body.name}:cancel`, {});
  const none = await fetch(`${emu.url}/emulator/v1/projects/my-project/locations/us-central1/workflows/hello/executions/nope:testCase`);
  assert.is(none.status, 404);
});

s('with the services stopped, `test` passes every saved case', async () => {
  services!.kill('SIGTERM');
  await new Promise((r) => services!.once('exit', r));
  services = undefined;
  const r = spawnSync(process.execPath, [EMULATOR_JS, 'test', dir], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  assert.is(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, new RegExp(`${saved.length} passed`));
  assert.ok(saved.length >= 12, String(saved.length));
});

s.run();
