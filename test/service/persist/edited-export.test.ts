// An export edited by hand that cannot be loaded stops start-up with exit 2 naming the file
// (docs/persistence.md#import-and-export): a workflow source that no longer compiles names its `.yaml`; an execution
// file without its resource names that file; an execution whose saved step history is malformed names the export
// and the execution. Never an internal error with exit 1. Black-box: the built bundle. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runToExit, startEmulator, until } from '../../support/emulator.ts';

const TRIVIAL = 'main:\n  steps:\n    - done:\n        return: 1\n';

const s = suite<{ dir: string; exported: string }>('import: exports edited by hand (docs/persistence.md#import-and-export)');

s.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-edited-'));
  ctx.exported = join(ctx.dir, 'export');
  const emu = await startEmulator({ workflowsDir: false });
  try {
    await emu.request('POST', '/workflows?workflowId=w', { sourceContents: TRIVIAL });
    const name = (await emu.request('POST', '/workflows/w/executions', {})).body.name as string;
    await until(async () => ((await emu.request('GET', `/v1/${name}`)).body.state === 'SUCCEEDED' ? true : undefined), 'the execution to end');
    assert.is((await emu.request('POST', '/emulator/v1:export', { directory: ctx.exported })).status, 200);
  } finally {
    await emu.close();
  }
});
s.after((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** A copy of the export, changed by `edit` (given the copy's path); the copy's path. */
function edited(ctx: { dir: string; exported: string }, name: string, edit: (copy: string) => void): string {
  const copy = join(ctx.dir, name);
  cpSync(ctx.exported, copy, { recursive: true });
  edit(copy);
  return copy;
}

/** The one file of `dir` ending in `suffix` (other than workflow.json). */
function only(dir: string, suffix: string): string {
  const files = readdirSync(dir).filter((f) => f.endsWith(suffix) && f !== 'workflow.json');
  assert.is(files.length, 1, files.join(' '));
  return join(dir, files[0]!);
}

s('a workflow source edited so that it no longer compiles stops start-up with exit 2 naming its .yaml (docs/persistence.md#import-and-export)', async (ctx) => {
  let yaml = '';
  const copy = edited(ctx, 'bad-source', (c) => {
    yaml = only(join(c, 'workflows', 'w'), '.yaml');
    writeFileSync(yaml, 'main:\n  steps:\n    - done:\n        nonsense: 1\n');
  });
  const r = await runToExit(['--import', copy]);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, `${yaml}: workflow w (revision 000001-`);
  assert.match(r.stderr, 'nonsense');
});

s('an execution file without its resource stops start-up with exit 2 naming the file (docs/persistence.md#import-and-export)', async (ctx) => {
  let file = '';
  const copy = edited(ctx, 'no-resource', (c) => {
    file = only(join(c, 'executions', 'w'), '.json');
    writeFileSync(file, '{}\n');
  });
  const r = await runToExit(['--import', copy]);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, `${file}: an execution needs "res"`);
});

s('an execution whose step history was edited out of shape stops start-up with exit 2 naming the export and the execution (docs/persistence.md#import-and-export)', async (ctx) => {
  let id = '';
  const copy = edited(ctx, 'bad-history', (c) => {
    const file = only(join(c, 'executions', 'w'), '.json');
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    id = saved.id as string;
    writeFileSync(file, JSON.stringify({ ...saved, h: { n: 1, dr: 0, e: [[1]] } }));
  });
  const r = await runToExit(['--import', copy]);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, `${copy}: execution w/${id} cannot be loaded`);
});

s.run();
