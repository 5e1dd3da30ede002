// The docs stay true (docs/testing.md#the-js-api shows a complete example test): the example test of that
// section is copied as is into a scratch project that depends on this package (node_modules/workflows-emulator
// links to the repository), run with `node --test` against the built dist/emulator.js, and type-checked as
// TypeScript against dist/index.d.ts. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { typeCheck } from '../support/typecheck.ts';

const ROOT = new URL('../..', import.meta.url).pathname;

const HEADING = '\n## The JS API\n';

/** The first ```js block of docs/testing.md's "The JS API" section. */
function docsExample(): string {
  const page = readFileSync(join(ROOT, 'docs', 'testing.md'), 'utf8');
  const start = page.indexOf(HEADING);
  const m = /```js\n([\s\S]*?)```/.exec(page.slice(start));
  if (!m || start < 0) throw new Error('docs/testing.md has no "The JS API" example');
  return m[1]!;
}

const s = suite<{ dir: string; example: string }>('dist: the JS API example test of docs/testing.md');

s.before((ctx) => {
  ctx.example = docsExample();
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-readme-'));
  mkdirSync(join(ctx.dir, 'node_modules'));
  // The scratch project depends on this package, as a user's project would.
  symlinkSync(ROOT, join(ctx.dir, 'node_modules', 'workflows-emulator'), 'dir');
  writeFileSync(join(ctx.dir, 'package.json'), '{"type": "module"}\n');
});
s.after((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

s('the example imports the package by name and is a node:test file', (ctx) => {
  assert.match(ctx.example, /from 'workflows-emulator'/);
  assert.match(ctx.example, /from 'node:test'/);
});

s('the docs example test passes with `node --test` against the built package', async (ctx) => {
  const file = join(ctx.dir, 'workflows.test.mjs');
  writeFileSync(file, ctx.example);
  const child = spawn(process.execPath, ['--test', '--test-reporter=tap', file], { cwd: ctx.dir, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  assert.is(code, 0, out);
  assert.match(out, /# pass 2\b/);
  assert.match(out, /# fail 0\b/);
});

s('the docs example type-checks as TypeScript (strict) against dist/index.d.ts', (ctx) => {
  const file = join(ctx.dir, 'workflows.test.ts');
  writeFileSync(file, ctx.example);
  const { messages, files } = typeCheck([file], { types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')], skipLibCheck: true });
  assert.equal(messages, []);
  const resolved = files.find((f) => f.endsWith('dist/index.d.ts'));
  assert.ok(resolved, 'workflows-emulator resolves to dist/index.d.ts');
});

s.run();
