// The docs stay true (docs/testing.md shows one runWorkflow example per test framework it claims): the examples
// of its "The test command" and "runWorkflow" sections are copied as they are into a scratch project that
// depends on this package and run — the node:test one with `node --test`, the uvu one with `node` — against
// the built dist/emulator.js; its shell commands run twice from the repository root. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = new URL('../..', import.meta.url).pathname;
const PAGE = readFileSync(join(ROOT, 'docs', 'testing.md'), 'utf8');

/** The fenced blocks of one language in the sections of docs/testing.md with these headings. */
function blocks(lang: string, headings: readonly string[] = ['The test command', 'runWorkflow']): string[] {
  return headings.flatMap((heading) => {
    const start = PAGE.indexOf(`\n## ${heading}\n`);
    if (start < 0) throw new Error(`docs/testing.md has no "${heading}" section`);
    const end = PAGE.indexOf('\n## ', start + heading.length + 5);
    const section = PAGE.slice(start, end < 0 ? undefined : end);
    return [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]!);
  });
}

const s = suite<{ dir: string }>('dist: the examples of docs/testing.md (the test command, runWorkflow)');

s.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-readme-testing-'));
  mkdirSync(join(ctx.dir, 'node_modules'));
  symlinkSync(ROOT, join(ctx.dir, 'node_modules', 'workflows-emulator'), 'dir');
  symlinkSync(join(ROOT, 'node_modules', 'uvu'), join(ctx.dir, 'node_modules', 'uvu'), 'dir');
  writeFileSync(join(ctx.dir, 'package.json'), '{"type": "module"}\n');
});
s.after((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

s('the node:test example passes with `node --test`', ({ dir }) => {
  const example = blocks('js').find((b) => b.includes("from 'node:test'"));
  assert.ok(example, 'a node:test example');
  writeFileSync(join(dir, 'order.test.mjs'), example!);
  const r = spawnSync(process.execPath, ['--test', '--test-reporter=tap', 'order.test.mjs'], { cwd: dir, encoding: 'utf8' });
  assert.is(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /# pass 2\b/);
  assert.match(r.stdout, /# fail 0\b/);
});

s('the uvu example passes with `node`', ({ dir }) => {
  const example = blocks('js').find((b) => b.includes("from 'uvu'"));
  assert.ok(example, 'a uvu example');
  writeFileSync(join(dir, 'uvu.test.mjs'), example!);
  const r = spawnSync(process.execPath, ['uvu.test.mjs'], { cwd: dir, encoding: 'utf8' });
  assert.is(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /Passed:\s+1\b/);
});

s('the shell commands work from the repository root, twice', () => {
  const lines = blocks('sh').flatMap((b) => b.split('\n')).map((l) => l.replace(/\s+#.*$/, '').trim()).filter(Boolean);
  assert.ok(lines.length >= 2);
  for (let round = 0; round < 2; round++) {
    for (const line of lines) {
      const r = spawnSync('sh', ['-c', line], { cwd: ROOT, encoding: 'utf8' });
      assert.is(r.status, 0, `${line}\n${r.stdout}${r.stderr}`);
    }
  }
  assert.ok(existsSync(join(ROOT, 'reports', 'workflows.xml')));
  rmSync(join(ROOT, 'reports'), { recursive: true, force: true });
});

s.run();
