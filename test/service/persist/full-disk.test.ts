// A full disk (docs/persistence.md#a-full-disk): writes are answered 503 UNAVAILABLE, reads go on, and once
// there is room again writes are taken again; nothing acknowledged is lost across a SIGKILL. The data directory
// is on a 1 MB tmpfs (mounting needs root; without it the case is skipped, saying why, and the in-process test of
// journal.ts with a failing file system, journal.test.ts, pins the same behaviour). Black-box: the built bundle.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, until, type EmulatorProcess } from '../../support/emulator.ts';

const s = suite('data directory on a full disk: 503 for writes, reads go on, nothing acknowledged lost (docs/persistence.md#a-full-disk)');

/** Mounts a 1 MB tmpfs on a new directory; undefined (with the reason printed) when this machine does not allow it. */
function mountSmallDisk(): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-full-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' });
    return dir;
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    process.stdout.write(`\n  skipped: cannot mount a tmpfs to fill (${(e as Error).message.split('\n')[0]}); journal.test.ts pins ENOSPC in-process\n`);
    return undefined;
  }
}

/** A valid definition of about 60 KB (a long comment). */
function bigSource(i: number): string {
  return `# ${'x'.repeat(60_000)}\nmain:\n  steps:\n    - done:\n        return: ${i}\n`;
}

s('writes get 503 UNAVAILABLE while the disk is full and reads still answer; with room again writes are taken; a SIGKILL loses nothing acknowledged', async () => {
  const disk = mountSmallDisk();
  if (!disk) return;
  const data = join(disk, 'data');
  mkdirSync(data);
  writeFileSync(join(disk, 'ballast'), Buffer.alloc(256 * 1024, 1));
  let emu: EmulatorProcess | undefined;
  try {
    emu = await startEmulator({ workflowsDir: false, args: ['--data-dir', data] });
    const acked: string[] = [];
    let refused: { status: number; body: any } | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const r = await emu.request('POST', `/workflows?workflowId=big-${i}`, { sourceContents: bigSource(i) });
      if (r.status === 200) acked.push(`big-${i}`);
      else refused = r;
    }
    assert.ok(refused, 'the disk filled up');
    assert.is(refused!.status, 503, JSON.stringify(refused!.body));
    assert.is(refused!.body.error.status, 'UNAVAILABLE');
    assert.match(refused!.body.error.message, /ENOSPC/);
    // Reads answer; further writes are refused up front.
    const listed = await emu.request('GET', '/workflows?pageSize=100');
    assert.is(listed.status, 200);
    assert.is((await emu.request('GET', `/workflows/${acked[0]}`)).status, 200);
    assert.is((await emu.request('POST', '/workflows?workflowId=small', { sourceContents: bigSource(-1).slice(60_004) })).status, 503);
    assert.match(emu.stderr(), /cannot write the journal .*ENOSPC/);
    // Room again: the journal tries again within a second, and writes are taken.
    rmSync(join(disk, 'ballast'));
    await until(async () => ((await emu!.request('POST', '/workflows?workflowId=after', { sourceContents: bigSource(99) })).status === 200 ? true : undefined), 'a write to be taken again', 10_000, 200);
    acked.push('after');
    const gone = new Promise((r) => emu!.child.once('exit', r));
    emu.child.kill('SIGKILL');
    await gone;
    await emu.close();
    emu = await startEmulator({ workflowsDir: false, args: ['--data-dir', data] });
    for (const id of acked) assert.is((await emu.request('GET', `/workflows/${id}`)).status, 200, `acknowledged ${id} is kept`);
  } finally {
    await emu?.close();
    execFileSync('umount', [disk]);
    rmSync(disk, { recursive: true, force: true });
  }
});

s.run();
