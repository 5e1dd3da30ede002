// The examples end to end (docs/rest-api.md#endpoints, "The main job, on real input"): the emulator on examples/workflows and the
// local services of examples/services.mjs, both as child processes, driven over REST and the callback URL
// the way docs/rest-api.md#a-worked-example-the-order-saga shows.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const s = suite('examples end to end (black-box)');

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;
let emu: EmulatorProcess;
let services: ChildProcess;
let servicesUrl = '';

s.before(async () => {
  services = spawn(process.execPath, [`${EXAMPLES}services.mjs`, '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  servicesUrl = await new Promise<string>((res, rej) => {
    let out = '';
    services.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) res(m[1]!);
    });
    services.on('exit', (code) => rej(new Error(`services exited with ${code}`)));
  });
  emu = await startEmulator({ workflowsDir: `${EXAMPLES}workflows` });
});

s.after(async () => {
  await emu.close();
  services.kill('SIGTERM');
});

async function execute(id: string, argument: unknown): Promise<any> {
  const r = await emu.request('POST', `/workflows/${id}/executions`, { argument: JSON.stringify(argument) });
  assert.is(r.status, 200, r.text);
  return r.body;
}

async function finished(name: string): Promise<any> {
  return until(async () => {
    const r = await emu.request('GET', `/v1/${name}`);
    return r.body.state === 'ACTIVE' ? undefined : r.body;
  }, `${name} to finish`, 20_000);
}

const resultOf = async (id: string, argument: unknown) => {
  const done = await finished((await execute(id, argument)).name);
  assert.is(done.state, 'SUCCEEDED', JSON.stringify(done));
  return JSON.parse(done.result);
};

s('every example workflow deploys from examples/workflows', async () => {
  const files = readdirSync(`${EXAMPLES}workflows`).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort();
  const listed = (await emu.request('GET', '/workflows')).body.workflows.map((w: any) => w.name.split('/').pop()).sort();
  assert.equal(listed, files);
  assert.ok(files.length >= 5);
});

s('hello greets by name', async () => {
  assert.is(await resultOf('hello', { name: 'Ada' }), 'Hello, Ada!');
});

s('invoice: subworkflows with named and positional arguments, defaults and recursion', async () => {
  const r = await resultOf('invoice', {
    customer: 'acme',
    lines: [
      { item: 'widget', qty: 3, unit_price: 2.5 },
      { item: 'gadget', qty: 1, unit_price: 10 },
    ],
    discount_pct: 10,
  });
  assert.equal(r, { invoice: 'INV-ACME-2', subtotal: 17.5, discount: 1.75, total: 18.9, lines: 2, checksum: 55 });
});

s('fan-out-totals: a parallel for with shared totals over the catalog service', async () => {
  const r = await resultOf('fan-out-totals', { skus: ['sku-apple', 'sku-coffee', 'sku-tea', 'sku-honey', 'sku-unknown'], services_url: servicesUrl });
  assert.is(r.total, 1.25 + 12.5 + 8 + 6.4);
  assert.is(r.in_stock, 3);
  assert.equal(r.missing, ['sku-unknown']);
  assert.equal(Object.keys(r.prices).sort(), ['sku-apple', 'sku-coffee', 'sku-honey', 'sku-tea']);
});

s('error-handling: a custom retry predicate retries 503s until the service recovers', async () => {
  const r = await resultOf('error-handling', { key: `ok-${Date.now()}`, failures: 2, services_url: servicesUrl });
  assert.is(r.ok, true);
  assert.is(r.attempts, 3);
});

s('error-handling: a 400 is not retried and is turned into a result', async () => {
  const r = await resultOf('error-handling', { key: `bad-${Date.now()}`, failures: 1, status: 400, services_url: servicesUrl });
  assert.equal(r, { ok: false, status: 400, attempts: 1, reason: 'failure 1 of 1' });
});

s('error-handling: retries run out and a custom error is raised with its own tag', async () => {
  const done = await finished((await execute('error-handling', { key: `down-${Date.now()}`, failures: 10, services_url: servicesUrl })).name);
  assert.is(done.state, 'FAILED');
  const payload = JSON.parse(done.error.payload);
  assert.equal(payload.tags, ['ServiceUnavailable']);
  assert.is(payload.code, 503);
  assert.match(payload.message, /4 attempts/);
});

s('order-saga: a small order is priced, reserved, charged (after a retried 503) and shipped', async () => {
  const r = await resultOf('order-saga', {
    orderId: `ord-small-${Date.now()}`,
    items: [{ sku: 'sku-apple', qty: 2 }],
    address: '1 Main St',
    services_url: servicesUrl,
  });
  assert.is(r.status, 'SHIPPED');
  assert.is(r.amount, 2.5);
  assert.match(r.trackingNumber, /^TRK/);
});

s('order-saga: a large order waits for approval on a callback; the approval forwarded by the service ships it', async () => {
  const orderId = `ord-big-${Date.now()}`;
  const ex = await execute('order-saga', { orderId, items: [{ sku: 'sku-coffee', qty: 10 }], address: '2 Main St', services_url: servicesUrl });
  const pending = await until(async () => {
    const r = (await (await fetch(`${servicesUrl}/approvals`)).json()) as { pending: { orderId: string; callbackUrl: string }[] };
    return r.pending.find((p) => p.orderId === orderId);
  }, 'the approval request');
  assert.match(pending.callbackUrl, new RegExp(`^${emu.url}/callbacks/[0-9a-f]{32}$`));
  assert.is((await emu.request('GET', `/v1/${ex.name}`)).body.state, 'ACTIVE');
  const cbs = (await emu.request('GET', `/v1/${ex.name}/callbacks`)).body.callbacks;
  assert.is(cbs[0].url, pending.callbackUrl);
  const decide = await fetch(`${servicesUrl}/approvals/${orderId}/decide`, { method: 'POST', body: JSON.stringify({ approved: true, approver: 'ada' }) });
  assert.equal(await decide.json(), { forwarded: true, callbackStatus: 200 });
  const done = await finished(ex.name);
  assert.is(done.state, 'SUCCEEDED');
  const r = JSON.parse(done.result);
  assert.is(r.status, 'SHIPPED');
  assert.is(r.amount, 125.0);
  // The saga logged the wait with sys.log (one JSON line with the execution ID).
  assert.match(emu.stdout(), new RegExp(`"executionId":"${ex.name.split('/').pop()}".*waiting for approval`));
});

s('order-saga: a refused approval compensates (refund, release) and reports NOT_APPROVED', async () => {
  const orderId = `ord-refused-${Date.now()}`;
  const ex = await execute('order-saga', { orderId, items: [{ sku: 'sku-honey', qty: 20 }], address: '3 Main St', services_url: servicesUrl });
  const cb = await until(async () => {
    const l = (await emu.request('GET', `/v1/${ex.name}/callbacks`)).body.callbacks;
    return l.length ? l[0] : undefined;
  }, 'the callback');
  const r = await fetch(cb.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"approved": false, "approver": "bob"}' });
  assert.is(r.status, 200);
  const done = await finished(ex.name);
  assert.equal(JSON.parse(done.result), { orderId, status: 'NOT_APPROVED', approver: 'bob' });
  const stock = (await (await fetch(`${servicesUrl}/catalog/sku-honey`)).json()) as { stock: number };
  assert.is(stock.stock, 30, 'the reservation was released');
});

s('order-saga: an out-of-stock order is rejected without charging', async () => {
  const r = await resultOf('order-saga', { orderId: `ord-tea-${Date.now()}`, items: [{ sku: 'sku-tea', qty: 1 }], address: 'x', services_url: servicesUrl });
  assert.is(r.status, 'REJECTED');
  assert.match(r.reason, /out of stock/);
});

s.run();
