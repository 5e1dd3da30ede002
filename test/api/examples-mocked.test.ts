// The order saga with the shop mocked and no example services (docs/mocks-and-clock.md#mocks): the server on
// examples/workflows with `--mocks examples/tests/mocks/shop.yaml --clock virtual`, driven over REST and the
// callback URL, as a user would drive it in CI.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const s = suite('examples: order saga with mocks and no services (black-box)');
const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;

let emu: EmulatorProcess;
s.before(async () => {
  emu = await startEmulator({
    workflowsDir: EXAMPLES + 'workflows',
    args: ['--mocks', EXAMPLES + 'tests/mocks/shop.yaml', '--clock', 'virtual'],
  });
});
s.after(async () => {
  await emu.close();
});

async function finished(name: string): Promise<any> {
  return until(async () => {
    const g = await emu.request('GET', `/v1/${name}`);
    return g.body.state === 'ACTIVE' ? undefined : g.body;
  }, `${name} to end`);
}

s('a large order waits for approval, is approved over its callback URL, and ships; every shop call was mocked', async () => {
  const r = await emu.request('POST', '/workflows/order-saga/executions', {
    argument: JSON.stringify({ orderId: 'ord-9', items: [{ sku: 'sku-coffee', qty: 10 }], address: '9 Main St' }),
  });
  assert.is(r.status, 200, r.text);
  const cb = await until(async () => (await emu.request('GET', `/v1/${r.body.name}/callbacks`)).body.callbacks?.[0], 'the approval callback');
  const sent = await fetch(cb.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ approved: true, approver: 'ada' }) });
  assert.is(sent.status, 200);
  const ex = await finished(r.body.name);
  assert.is(ex.state, 'SUCCEEDED', ex.error?.payload);
  assert.is(JSON.parse(ex.result).status, 'SHIPPED');
  const calls = (await emu.request('GET', `/emulator/v1/${ex.name}/calls`)).body.calls;
  assert.ok(calls.length >= 4);
  assert.ok(calls.every((c: any) => c.mocked), JSON.stringify(calls.filter((c: any) => !c.mocked).map((c: any) => c.url)));
  // The flaky charge answered 503 once and was retried.
  assert.ok(calls.some((c: any) => c.error?.code === 503 && c.step === 'charge'));
});

s.run();
