// Directories in the wrong place (docs/persistence.md#the-data-directory, docs/persistence.md#import-and-export):
// a data directory that cannot be made (under /proc, where Node's own recursive mkdir spins forever) stops
// start-up with exit 2 instead of hanging, and an export there answers 400 while the server keeps answering; an
// export given as --data-dir, or a data directory given as --import, is refused with exit 2 naming FORMAT.json and
// the option to use; the health endpoint keeps answering when the data directory is removed under the running
// emulator; an --export-on-exit directory that could not take the export stops start-up with exit 2 (rather than
// losing the state at exit).
// Black-box: the built bundle. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToExit, startEmulator } from '../../support/emulator.ts';

const TRIVIAL = 'main:\n  steps:\n    - done:\n        return: 1\n';
/** A path whose mkdir answers ENOENT although its parent exists (Linux's /proc). */
const UNMAKEABLE = '/proc/wfemu-no-such-directory';
const HAS_PROC = existsSync('/proc/self');

const s = suite<{ dir: string }>('data directory and export: wrong directories (docs/persistence.md)');

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-wrongdir-'));
});
s.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

s('a data directory that cannot be created stops start-up with exit 2 naming it, rather than hanging (docs/persistence.md#the-data-directory)', async () => {
  if (!HAS_PROC) return;
  const r = await runToExit(['--data-dir', UNMAKEABLE]);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, `${UNMAKEABLE}: cannot create the data directory`);
});

s('an export into a directory that cannot be created answers 400 and the server keeps answering (docs/persistence.md#import-and-export)', async () => {
  if (!HAS_PROC) return;
  const emu = await startEmulator({ workflowsDir: false });
  try {
    assert.is((await emu.request('POST', '/workflows?workflowId=w', { sourceContents: TRIVIAL })).status, 200);
    const r = await emu.request('POST', '/emulator/v1:export', { directory: `${UNMAKEABLE}/export` });
    assert.is(r.status, 400, r.text);
    assert.is(r.body.error.status, 'FAILED_PRECONDITION');
    assert.is((await emu.request('GET', '/workflows/w')).status, 200);
  } finally {
    await emu.close();
  }
});

s('an export given as --data-dir is refused with exit 2 pointing to --import, and left as it was (docs/persistence.md#import-and-export)', async (ctx) => {
  const exported = join(ctx.dir, 'export');
  const emu = await startEmulator({ workflowsDir: false });
  try {
    await emu.request('POST', '/workflows?workflowId=w', { sourceContents: TRIVIAL });
    assert.is((await emu.request('POST', '/emulator/v1:export', { directory: exported })).status, 200);
  } finally {
    await emu.close();
  }
  const r = await runToExit(['--data-dir', exported]);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, join(exported, 'FORMAT.json'));
  assert.match(r.stderr, '--import');
  assert.not.ok(existsSync(join(exported, 'journal-0.log')), 'no journal written into the export');
  // The export still loads.
  const back = await startEmulator({ workflowsDir: false, args: ['--import', exported] });
  try {
    assert.is((await back.request('GET', '/workflows/w')).status, 200);
  } finally {
    await back.close();
  }
});

s('a data directory given as --import is refused with exit 2 pointing to --data-dir (docs/persistence.md#import-and-export)', async (ctx) => {
  const data = join(ctx.dir, 'data');
  const emu = await startEmulator({ workflowsDir: false, args: ['--data-dir', data] });
  try {
    await emu.request('POST', '/workflows?workflowId=w', { sourceContents: TRIVIAL });
  } finally {
    await emu.close();
  }
  const r = await runToExit(['--import', data]);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, join(data, 'FORMAT.json'));
  assert.match(r.stderr, '--data-dir');
});

s('the health endpoint answers when the data directory was removed under the running emulator (docs/persistence.md#options)', async (ctx) => {
  const data = join(ctx.dir, 'data');
  const emu = await startEmulator({ workflowsDir: false, args: ['--data-dir', data] });
  try {
    rmSync(data, { recursive: true, force: true });
    const r = await emu.request('GET', '/emulator/v1/health');
    assert.is(r.status, 200, r.text);
    assert.is(r.body.storage.dataDir, data);
  } finally {
    await emu.close();
  }
});

s('an --export-on-exit directory that is neither empty nor an export stops start-up with exit 2, and is left as it was (docs/persistence.md#import-and-export)', async (ctx) => {
  const target = join(ctx.dir, 'notes');
  mkdirSync(target);
  writeFileSync(join(target, 'todo.txt'), 'mine\n');
  const r = await runToExit(['--export-on-exit', target]);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, `${target}: --export-on-exit`);
  assert.match(r.stderr, 'not empty and holds no export');
  assert.equal(readdirSync(target), ['todo.txt']);
  const underFile = await runToExit(['--export-on-exit', join(target, 'todo.txt', 'export')]);
  assert.is(underFile.code, 2, underFile.stderr);
});

s.run();
