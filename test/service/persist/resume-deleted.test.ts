// `--resume` of executions whose workflow changed while the emulator was down
// (docs/persistence.md#executions-running-when-the-emulator-stopped): an execution whose workflow was deleted ends
// FAILED saying the workflow was deleted; one whose workflow has another revision ends FAILED naming its revision.
// Black-box: the built bundle, stopped with SIGTERM (ACTIVE executions stay ACTIVE on disk). Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, until, type EmulatorProcess } from '../../support/emulator.ts';

const SLEEPY = 'main:\n  steps:\n    - nap:\n        call: sys.sleep\n        args:\n          seconds: 3600\n';

const s = suite<{ dir: string }>('--resume: workflows deleted or changed meanwhile (docs/persistence.md)');

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-resume-'));
});
s.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** Starts an execution of `workflowId` and waits until it is asleep in its step. */
async function startSleeping(emu: EmulatorProcess, workflowId: string): Promise<string> {
  const name = (await emu.request('POST', `/workflows/${workflowId}/executions`, {})).body.name as string;
  await until(async () => ((await emu.request('GET', `/v1/${name}`)).body.status?.currentSteps?.[0]?.step === 'nap' ? true : undefined), 'the execution to sleep');
  return name;
}

/** The error message of an ended execution. */
async function errorMessage(emu: EmulatorProcess, name: string): Promise<string> {
  const ex = await until(async () => {
    const r = (await emu.request('GET', `/v1/${name}`)).body;
    return r.state === 'ACTIVE' ? undefined : r;
  }, 'the execution to end');
  assert.is(ex.state, 'FAILED');
  return JSON.parse(ex.error.payload).message as string;
}

s('an execution whose workflow was deleted while it ran ends FAILED on --resume saying the workflow was deleted (docs/persistence.md#executions-running-when-the-emulator-stopped)', async (ctx) => {
  const data = join(ctx.dir, 'data');
  const first = await startEmulator({ workflowsDir: false, args: ['--data-dir', data] });
  let gone: string;
  let changed: string;
  try {
    await first.request('POST', '/workflows?workflowId=gone', { sourceContents: SLEEPY });
    await first.request('POST', '/workflows?workflowId=changed', { sourceContents: SLEEPY });
    gone = await startSleeping(first, 'gone');
    changed = await startSleeping(first, 'changed');
    assert.is((await first.request('DELETE', '/workflows/gone')).status, 200);
    assert.is((await first.request('PATCH', '/workflows/changed', { sourceContents: SLEEPY.replace('3600', '3599') })).status, 200);
  } finally {
    await first.close();
  }
  const second = await startEmulator({ workflowsDir: false, args: ['--data-dir', data, '--resume'] });
  try {
    const goneMessage = await errorMessage(second, gone);
    assert.match(goneMessage, 'cannot run again: its workflow gone has been deleted');
    const changedMessage = await errorMessage(second, changed);
    assert.match(changedMessage, /cannot run again: its revision 000001-\w+ is not the workflow's current one/);
  } finally {
    await second.close();
  }
});

s.run();
