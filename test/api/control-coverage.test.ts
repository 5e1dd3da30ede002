// Coverage over the control API and the JS API (docs/coverage.md#coverage-of-a-running-emulator): GET
// /emulator/v1/coverage counts every execution since start or the last reset, per workflow revision;
// DELETE /emulator/v1/coverage and POST /emulator/v1/reset start it again; startEmulator's handle answers the same.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator as startInProcess } from '../../src/index.ts';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const s = suite('control API: coverage (black-box)');
const SOURCE = readFileSync(new URL('../fixtures/coverage/every-branch.yaml', import.meta.url), 'utf8');
const HELLO = 'main:\n  steps:\n    - hi:\n        return: hello\n';

let emu: EmulatorProcess;
s.before(async () => {
  emu = await startEmulator({ workflowsDir: false, args: ['--clock', 'virtual'] });
});
s.after(async () => {
  await emu.close();
});

async function deploy(id: string, source: string): Promise<void> {
  const r = await emu.request('POST', `/workflows?workflowId=${id}`, { sourceContents: source });
  assert.is(r.status, 200, r.text);
}

async function runToEnd(id: string, argument: unknown): Promise<string> {
  const r = await emu.request('POST', `/workflows/${id}/executions`, { argument: JSON.stringify(argument) });
  assert.is(r.status, 200, r.text);
  const done = await until(async () => {
    const g = await emu.request('GET', `/v1/${r.body.name}`);
    return g.body.state === 'ACTIVE' ? undefined : g.body;
  }, 'the execution to end');
  return done.state;
}

async function coverageOf(id: string): Promise<any> {
  const r = await emu.request('GET', '/emulator/v1/coverage');
  assert.is(r.status, 200, r.text);
  return r.body.coverage.find((c: any) => c.name === id);
}

s('a deployed workflow not yet run is listed at 0%; each execution adds its steps and branches (docs/coverage.md)', async () => {
  await deploy('branches', SOURCE);
  let c = await coverageOf('branches');
  assert.equal([c.executions, c.steps, c.branches], [0, { covered: 0, total: 17, percent: 0 }, { covered: 0, total: 12, percent: 0 }]);
  assert.is(await runToEnd('branches', { mode: 'a', items: [1], fail: false }), 'SUCCEEDED');
  c = await coverageOf('branches');
  assert.equal(c.steps, { covered: 12, total: 17, percent: 70.58 });
  assert.equal(c.routines, { covered: 2, total: 4, percent: 50 });
  assert.equal(c.uncoveredLines, [[13, 16], [49, 49], [70, 70], [79, 79]]);
  assert.equal(c.uncoveredBranches.find((b: any) => b.kind === 'try' && b.path === 'except'), {
    routine: 'main', step: 'guarded', kind: 'try', path: 'except', line: 49, col: 15,
  });
  await runToEnd('branches', { mode: 'b', items: [], fail: true });
  await runToEnd('branches', { mode: 'c', items: [3], fail: false });
  c = await coverageOf('branches');
  assert.equal([c.executions, c.steps.covered, c.branches], [3, 16, { covered: 12, total: 12, percent: 100 }]);
  assert.equal(c.uncoveredSteps, [{ routine: 'unused', step: 'never', line: 79, col: 7 }]);
});

s('a new revision is counted apart from the old one', async () => {
  const r = await emu.request('PATCH', '/workflows/branches', { sourceContents: HELLO });
  assert.is(r.status, 200, r.text);
  await runToEnd('branches', {});
  const all = (await emu.request('GET', '/emulator/v1/coverage')).body.coverage.filter((c: any) => c.name === 'branches');
  assert.equal(all.map((c: any) => [c.revisionId.split('-')[0], c.executions, c.steps.total]), [['000001', 3, 17], ['000002', 1, 1]]);
});

s('DELETE /emulator/v1/coverage sets the counts to zero; POST /emulator/v1/reset forgets them', async () => {
  const d = await emu.request('DELETE', '/emulator/v1/coverage');
  assert.is(d.status, 200, d.text);
  assert.ok(d.body.coverage.every((c: any) => c.executions === 0 && c.steps.covered === 0));
  assert.is((await emu.request('POST', '/emulator/v1/reset')).status, 200);
  assert.equal((await emu.request('GET', '/emulator/v1/coverage')).body, { coverage: [] });
  assert.is((await emu.request('PUT', '/emulator/v1/coverage')).status, 404);
});

s('the JS API: coverage() and resetCoverage() on the handle of startEmulator', async () => {
  const e = await startInProcess({ clock: 'virtual' });
  try {
    await e.deploy('branches', SOURCE);
    await e.run('branches', { mode: 'b', items: [], fail: true });
    const [c] = await e.coverage();
    assert.equal([c!.name, c!.executions, c!.steps.covered, c!.branches.covered], ['branches', 1, 15, 7]);
    await e.resetCoverage();
    assert.is((await e.coverage())[0]!.steps.covered, 0);
  } finally {
    await e.close();
  }
});

s.run();
