// Executions dropped by --max-executions stay dropped across a restart (docs/persistence.md#limits): the
// data directory holds what memory holds, so a restart with a higher limit (after SIGKILL, reading the journal;
// and after a compaction, reading the snapshot) answers 404 for a dropped execution as before it. Black-box: the
// built bundle. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, until, type EmulatorProcess } from '../../support/emulator.ts';

const TRIVIAL = 'main:\n  steps:\n    - done:\n        return: 1\n';

const s = suite<{ dir: string }>('--max-executions: dropped executions stay dropped (docs/persistence.md#limits)');

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-dropped-'));
});
s.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** Runs `n` executions of `w` one after another to SUCCEEDED; their names, oldest first. */
async function runMany(emu: EmulatorProcess, n: number): Promise<string[]> {
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const name = (await emu.request('POST', '/workflows/w/executions', {})).body.name as string;
    await until(async () => {
      const r = await emu.request('GET', `/v1/${name}`);
      return r.status === 404 || r.body.state !== 'ACTIVE' ? true : undefined;
    }, 'the execution to end');
    names.push(name);
  }
  return names;
}

/** The status of GET on each execution name. */
async function statuses(emu: EmulatorProcess, names: readonly string[]): Promise<number[]> {
  return Promise.all(names.map(async (n) => (await emu.request('GET', `/v1/${n}`)).status));
}

s('an execution dropped by --max-executions is still 404 after a SIGKILL and a restart with a higher limit (docs/persistence.md#limits)', async (ctx) => {
  const data = join(ctx.dir, 'data');
  const first = await startEmulator({ workflowsDir: false, args: ['--data-dir', data, '--max-executions', '4'] });
  let names: string[];
  let before: number[];
  try {
    await first.request('POST', '/workflows?workflowId=w', { sourceContents: TRIVIAL });
    names = await runMany(first, 8);
    before = await statuses(first, names);
    assert.ok(before.includes(404), `some were dropped: ${before.join(' ')}`);
  } finally {
    first.child.kill('SIGKILL');
    await first.close();
  }
  const second = await startEmulator({ workflowsDir: false, args: ['--data-dir', data, '--max-executions', '100'] });
  try {
    assert.equal(await statuses(second, names), before);
    const listed = (await second.request('GET', '/workflows/w/executions?pageSize=100')).body.executions as { name: string }[];
    assert.is(listed.length, before.filter((x) => x === 200).length);
  } finally {
    await second.close();
  }
});

s('an execution dropped by --max-executions is still 404 after an import made durable as a snapshot (docs/persistence.md#limits)', async (ctx) => {
  const data = join(ctx.dir, 'data');
  const exported = join(ctx.dir, 'export');
  const first = await startEmulator({ workflowsDir: false, args: ['--data-dir', data, '--max-executions', '3'] });
  let names: string[];
  let before: number[];
  try {
    await first.request('POST', '/workflows?workflowId=w', { sourceContents: TRIVIAL });
    names = await runMany(first, 6);
    before = await statuses(first, names);
    assert.is((await first.request('POST', '/emulator/v1:export', { directory: exported })).status, 200);
  } finally {
    await first.close();
  }
  const other = join(ctx.dir, 'other');
  const second = await startEmulator({ workflowsDir: false, args: ['--data-dir', other, '--import', exported, '--max-executions', '100'] });
  try {
    assert.equal(await statuses(second, names), before);
  } finally {
    await second.close();
  }
});

s.run();
