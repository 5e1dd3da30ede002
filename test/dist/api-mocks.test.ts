// The JS API's mocks and virtual clock (docs/mocks-and-clock.md#mocks): the `mocks` and `clock` options of startEmulator,
// setMocks (a bad one rejects naming line and column and leaves the current ones), calls per execution,
// advanceClock for a callback's timeout, and reset between test cases.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator, type Emulator } from '../../src/index.ts';
import { rejection } from '../support/rejection.ts';
import { until } from '../support/emulator.ts';

const s = suite<{ emulator: Emulator }>('dist: JS API mocks and virtual clock (docs/mocks-and-clock.md#mocks)');

const PAY = `main:
  steps:
    - charge:
        try:
          call: http.post
          args:
            url: https://pay.test/charge
            body: {amount: 5}
          result: r
        retry: \${http.default_retry}
    - nap:
        call: sys.sleep
        args: {seconds: 86400}
    - done:
        return: \${r.body}
`;

s.before(async (ctx) => {
  ctx.emulator = await startEmulator({
    clock: 'virtual',
    mocks: { http: [{ match: { url: 'https://pay.test/charge' }, respond: [{ status: 503 }, { status: 200, body: { ok: true } }] }] },
  });
});
s.after(async (ctx) => {
  await ctx.emulator.close();
});

s('inline mocks answer, a mocked 503 is retried, a day of sleep is virtual, and the calls are on the execution', async ({ emulator }) => {
  await emulator.deploy('pay', PAY);
  const t0 = emulator.now();
  const run = await emulator.run('pay', undefined, { timeoutMs: 10_000 });
  assert.is(run.state, 'SUCCEEDED');
  assert.equal(run.result, { ok: true });
  assert.ok(emulator.now() - t0 >= 86_401_000, 'the virtual clock moved a day and the backoff');
  assert.equal(
    run.calls.map((c) => [c.name, c.step, c.mocked, (c.response as { code?: number } | undefined)?.code ?? (c.error as { code: number }).code]),
    [
      ['http.post', 'charge', true, 503],
      ['http.post', 'charge', true, 200],
    ],
  );
  assert.equal((await emulator.calls(run)).length, 2);
});

s('setMocks replaces the mocks; an invalid set rejects naming line and column and changes nothing', async ({ emulator }) => {
  const err = await rejection<Error>(emulator.setMocks({ http: [{ match: { url: 'https://pay.test/charge' }, respond: { status: 99 } }] }));
  assert.match(err.message, /^mocks option:\d+:\d+: respond\.status 99 can never be produced/);
  assert.equal((await emulator.run('pay')).result, { ok: true });
  await emulator.setMocks({ http: [{ match: { url: 'https://pay.test/*' }, respond: { body: 'other' } }] });
  assert.equal((await emulator.run('pay')).result, 'other');
});

s('advanceClock moves the virtual clock past a callback timeout; reset forgets workflows and brings back the start-up mocks', async ({ emulator }) => {
  await emulator.deploy(
    'wait',
    'main:\n  steps:\n    - cb:\n        call: events.create_callback_endpoint\n        result: cb\n    - w:\n        call: events.await_callback\n        args:\n          callback: ${cb}\n          timeout: 300\n',
  );
  const ex = await emulator.start('wait');
  // The clock moves only once the execution waits at step w (its timeout counts from then).
  await until(async () => ((await emulator.stepEntries(ex)).some((e) => e.step === 'w') ? true : undefined), 'the execution to wait at step w');
  await emulator.advanceClock(301);
  const done = await emulator.wait(ex, { timeoutMs: 10_000 });
  assert.is(done.state, 'FAILED');
  assert.equal(done.error?.payload.tags, ['TimeoutError']);
  await emulator.reset();
  assert.is((await rejection<{ code: string }>(emulator.run('pay'))).code, 'NOT_FOUND');
  await emulator.deploy('pay', PAY);
  assert.equal((await emulator.run('pay')).result, { ok: true });
});

s.run();
