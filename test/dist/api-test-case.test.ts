// The JS API's testCase (docs/recording.md "From the JS API"): an ended execution as a test file's YAML, or
// appended to a test file with the workflow named relative to it; the case, run by `workflows-emulator test`,
// passes with its mocked call and its played-back time and UUID; replay runs it again from its recording.
// An ACTIVE execution is refused.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type Emulator } from '../../src/index.ts';
import { EMULATOR_JS } from '../support/emulator.ts';
import { rejection } from '../support/rejection.ts';

const s = suite<{ emulator: Emulator; dir: string }>('dist: the JS API turns an execution into a test case');

const STAMP = `main:
  steps:
    - price:
        call: http.get
        args:
          url: https://shop.test/price
        result: p
    - stamp:
        return:
          id: \${uuid.generate()}
          at: \${sys.now()}
          amount: \${p.body.amount}
`;

s.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'api-test-case-'));
  writeFileSync(join(ctx.dir, 'stamp.yaml'), STAMP);
  ctx.emulator = await startEmulator({
    mocks: { http: [{ match: { url: 'https://shop.test/price' }, respond: { status: 200, body: { amount: 4.0 } } }] },
  });
  await ctx.emulator.deploy('stamp', STAMP);
  await ctx.emulator.deploy('waits', 'main:\n  steps:\n    - nap:\n        call: sys.sleep\n        args:\n          seconds: 600\n');
});

s.after(async (ctx) => {
  await ctx.emulator.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

s('testCase gives the YAML, and with a file appends the case there; `test` passes it', async (ctx) => {
  const ex = await ctx.emulator.run('stamp');
  assert.is(ex.state, 'SUCCEEDED');
  const yaml = await ctx.emulator.testCase(ex, { workflow: 'stamp.yaml' });
  assert.match(yaml, /^workflow: stamp\.yaml\ncases:\n {2}- name: execution /);
  const file = join(ctx.dir, 'cases', 'stamp.test.yaml');
  await ctx.emulator.testCase(ex, { workflow: join(ctx.dir, 'stamp.yaml'), file });
  const again = await ctx.emulator.testCase(ex.name, { workflow: join(ctx.dir, 'stamp.yaml'), file });
  assert.is(again, readFileSync(file, 'utf8'));
  assert.match(again, /^workflow: \.\.\/stamp\.yaml$/m);
  assert.match(again, /- name: execution \S+ \(2\)/, 'a second case of the same execution gets its own name');
  assert.match(again, new RegExp(`uuids: \\[${(ex.result as { id: string }).id}\\]`));
  const r = spawnSync(process.execPath, [EMULATOR_JS, 'test', ctx.dir], { encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  assert.is(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /2 passed/);
});

s('replay runs a new execution with the same UUID, time and answer; the mocks replaced meanwhile play no part', async (ctx) => {
  const ex = await ctx.emulator.run('stamp');
  await ctx.emulator.setMocks({ http: [{ match: { url: 'https://shop.test/price' }, respond: { status: 500 } }] });
  const replayed = await ctx.emulator.replay(ex);
  assert.is(replayed.labels?.['replay-of'], ex.executionId);
  const done = await ctx.emulator.wait(replayed);
  assert.is(done.state, 'SUCCEEDED', JSON.stringify(done.error));
  assert.equal(done.result, ex.result);
  await ctx.emulator.setMocks(null);
});

s('an ACTIVE execution is refused with FAILED_PRECONDITION', async (ctx) => {
  const ex = await ctx.emulator.start('waits');
  const e = await rejection(ctx.emulator.testCase(ex, { workflow: 'waits.yaml' }));
  assert.is((e as { code?: string }).code, 'FAILED_PRECONDITION');
  await ctx.emulator.cancel(ex);
});

s.run();
