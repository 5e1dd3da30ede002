// The one file copied out of this package (docs/cli.md#one-file-on-node-deno-and-bun, README.md's "the one
// file"): as `emulator.mjs` in a folder with no package.json, it is the command line (`--version`, a one-shot
// `run`) and, imported, the JS API, with nothing beside it. Run `npm run build` first (npm test does).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EMULATOR_JS } from '../support/emulator.ts';

const pkg = (await import('../../package.json', { with: { type: 'json' } })).default as { version: string };

interface Ctx {
  dir: string;
}
const s = suite<Ctx>('dist: the one file copied as emulator.mjs, with nothing beside it', {} as Ctx);

s.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-copied-'));
  copyFileSync(EMULATOR_JS, join(ctx.dir, 'emulator.mjs'));
  writeFileSync(join(ctx.dir, 'hello.yaml'), 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${"Hello, " + args.name}\n');
});
s.after((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

/** Node in `dir` with `args`; no package.json in `dir` or above it decides how the file is read. */
function node(ctx: Ctx, args: string[]): { status: number | null; stdout: string; stderr: string } {
  for (let d = ctx.dir; d !== dirname(d); d = dirname(d)) assert.not.ok(existsSync(join(d, 'package.json')), `${d} holds a package.json`);
  return spawnSync(process.execPath, args, { cwd: ctx.dir, encoding: 'utf8', timeout: 30_000 });
}

s('node emulator.mjs is the command line: --version and a one-shot run', (ctx) => {
  const version = node(ctx, ['emulator.mjs', '--version']);
  assert.is(version.status, 0, version.stderr);
  assert.is(version.stdout, `${pkg.version}\n`);
  const run = node(ctx, ['emulator.mjs', 'run', 'hello.yaml', '--data', '{"name": "Ada"}']);
  assert.is(run.status, 0, run.stderr);
  assert.is(run.stdout, '"Hello, Ada"\n');
  assert.is(run.stderr, '');
});

s('imported by a script beside it, emulator.mjs is the JS API (runWorkflow)', (ctx) => {
  writeFileSync(
    join(ctx.dir, 'use.mjs'),
    "import { runWorkflow } from './emulator.mjs';\n" +
      "const run = await runWorkflow({ file: 'hello.yaml', argument: { name: 'Grace' } });\n" +
      'console.log(JSON.stringify([run.state, run.result]));\n',
  );
  const r = node(ctx, ['use.mjs']);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, '["SUCCEEDED","Hello, Grace"]\n');
});

s.run();
