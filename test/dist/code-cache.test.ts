// V8's code cache of dist/emulator.js (docs/architecture.md#the-code-cache, src/platform/code-cache.ts), from
// outside: the first start of a command writes its entries into WORKFLOWS_EMULATOR_CODE_CACHE, private to the
// user; later starts read them and write nothing; a damaged entry is rejected, the command still works and the
// entry is written anew; `off` writes nothing; a folder others may write to is never used; and the main code,
// held as a string literal, keeps its file's line and column numbers in stack traces. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const EMULATOR = new URL('../../dist/emulator.js', import.meta.url).pathname;
const HELLO = 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${"Hello, " + args.name + "!"}\n';

interface Ctx {
  dir: string;
}
const s = suite<Ctx>('dist: V8 code cache of the bundle (docs/architecture.md#the-code-cache)', {} as Ctx);

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-code-cache-'));
  writeFileSync(join(ctx.dir, 'hello.yaml'), HELLO);
});
s.after.each((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

/** `node dist/emulator.js run hello.yaml` with the cache in `cache` (or WORKFLOWS_EMULATOR_CODE_CACHE=`cache`). */
function run(ctx: Ctx, cache: string): { status: number | null; stdout: string; stderr: string } {
  return spawnSync(process.execPath, [EMULATOR, 'run', join(ctx.dir, 'hello.yaml'), '--data', '{"name":"Ada"}'], {
    encoding: 'utf8',
    timeout: 30_000,
    env: { ...process.env, WORKFLOWS_EMULATOR_CODE_CACHE: cache },
  });
}

/** The entries in a cache folder, by name, with their modification times (ms). */
function entries(folder: string): Map<string, number> {
  return new Map(readdirSync(folder).map((name) => [name, statSync(join(folder, name)).mtimeMs]));
}

s('the first run writes private entries for the main code and js-yaml\'s reader; a second run reads them and writes nothing', (ctx) => {
  const cache = join(ctx.dir, 'cache');
  const first = run(ctx, cache);
  assert.is(first.status, 0, first.stderr);
  assert.is(first.stdout, '"Hello, Ada!"\n');
  assert.is(statSync(cache).mode & 0o777, 0o700, 'the folder is the user\'s alone');
  const written = entries(cache);
  const names = [...written.keys()];
  assert.ok(names.some((n) => /^[0-9a-f]{16}-main-run-node-v\d+\.\d+\.\d+-\w+\.v8$/.test(n)), names.join(', '));
  assert.ok(names.some((n) => /^[0-9a-f]{16}-yaml-reader-node-/.test(n)), names.join(', '));
  assert.not.ok(names.some((n) => n.endsWith('.tmp')), 'no temporary file is left');
  for (const n of names) assert.is(statSync(join(cache, n)).mode & 0o777, 0o600, n);
  const second = run(ctx, cache);
  assert.is(second.status, 0, second.stderr);
  assert.is(second.stdout, '"Hello, Ada!"\n');
  assert.equal(entries(cache), written, 'the entries were read, not written again');
});

// V8 rejects an entry written under other V8 flags; without entries of their own, processes started with and
// without such an option would each reject and rewrite the other's entry at every start.
s('runs started with a V8 option keep entries of their own: neither rejects and rewrites the other\'s', (ctx) => {
  const cache = join(ctx.dir, 'cache');
  const runWith = (nodeOptions: string[]): { status: number | null; stdout: string; stderr: string } =>
    spawnSync(process.execPath, [...nodeOptions, EMULATOR, 'run', join(ctx.dir, 'hello.yaml'), '--data', '{"name":"Ada"}'], {
      encoding: 'utf8',
      timeout: 30_000,
      env: { ...process.env, WORKFLOWS_EMULATOR_CODE_CACHE: cache, NODE_OPTIONS: '' },
    });
  const plain = (): ReturnType<typeof runWith> => runWith([]);
  const withOption = (): ReturnType<typeof runWith> => runWith(['--max-old-space-size=512']);
  for (const r of [plain(), withOption()]) assert.is(r.stdout, '"Hello, Ada!"\n', r.stderr);
  const written = entries(cache);
  const mains = [...written.keys()].filter((n) => /-main-run-node-/.test(n));
  assert.is(mains.length, 2, mains.join(', '));
  assert.ok(mains.some((n) => /-node-v[\d.]+\.o[0-9a-f]+-\w+\.v8$/.test(n)), mains.join(', '));
  for (const r of [plain(), withOption(), plain()]) assert.is(r.stdout, '"Hello, Ada!"\n', r.stderr);
  assert.equal(entries(cache), written, 'each kind of run read its own entries and wrote nothing');
});

s('a damaged entry is rejected by V8: the run still gives its result and the entry is written anew', (ctx) => {
  const cache = join(ctx.dir, 'cache');
  assert.is(run(ctx, cache).status, 0);
  const main = [...entries(cache).keys()].find((n) => n.includes('-main-run-'))!;
  const good = readFileSync(join(cache, main));
  writeFileSync(join(cache, main), Buffer.alloc(good.length, 7));
  const r = run(ctx, cache);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, '"Hello, Ada!"\n');
  assert.is(r.stderr, '');
  assert.not.equal(readFileSync(join(cache, main)), Buffer.alloc(good.length, 7), 'the damaged entry was replaced');
  assert.is(run(ctx, cache).stdout, '"Hello, Ada!"\n');
});

s('a process that writes entries then deletes those written longest ago until the folder holds at most 64 MB', (ctx) => {
  const cache = join(ctx.dir, 'cache');
  mkdirSync(cache, { mode: 0o700 });
  const MB = 1024 * 1024;
  // Entries of older builds (sparse files: their sizes without their bytes), written a day, an hour and a minute ago.
  const old = [
    ['0000000000000001-main-main-node-v0-x64.v8', 30, 86_400],
    ['0000000000000002-main-run-node-v0-x64.v8', 30, 3_600],
    ['0000000000000003-main-test-node-v0-x64.v8', 10, 60],
  ] as const;
  for (const [name, mb, ago] of old) {
    writeFileSync(join(cache, name), '');
    truncateSync(join(cache, name), mb * MB);
    const when = Date.now() / 1000 - ago;
    utimesSync(join(cache, name), when, when);
  }
  writeFileSync(join(cache, 'notes.txt'), 'not an entry');
  writeFileSync(join(cache, 'mine.v8'), '');
  truncateSync(join(cache, 'mine.v8'), 70 * MB); // named as no entry is: never pruned, even over the limit
  const r = run(ctx, cache);
  assert.is(r.status, 0, r.stderr);
  const names = [...entries(cache).keys()];
  assert.not.ok(names.includes(old[0][0]), 'the entry written longest ago is deleted');
  assert.ok(names.includes(old[1][0]) && names.includes(old[2][0]), `the newer ones fit and stay: ${names.join(', ')}`);
  assert.ok(names.some((n) => n.includes('-main-run-node-v2')), 'this run\'s own entries stay');
  assert.ok(names.includes('notes.txt') && names.includes('mine.v8'), 'files that are not entries are left alone');
  const total = names.filter((n) => n.endsWith('.v8') && n !== 'mine.v8').reduce((sum, n) => sum + statSync(join(cache, n)).size, 0);
  assert.ok(total <= 64 * MB, `${total} bytes of entries`);
});

s('WORKFLOWS_EMULATOR_CODE_CACHE=off writes nothing', (ctx) => {
  const before = readdirSync(ctx.dir).sort();
  const r = run(ctx, 'off');
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, '"Hello, Ada!"\n');
  assert.equal(readdirSync(ctx.dir).sort(), before);
});

s('a folder that others may write to is neither read nor written', (ctx) => {
  const shared = join(ctx.dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o777);
  const r = run(ctx, shared);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, '"Hello, Ada!"\n');
  assert.equal(readdirSync(shared), []);
});

s('an error thrown in the main code names the line of dist/emulator.js that carries it', (ctx) => {
  // The JS API's runWorkflow rejects a definition that does not parse, from the main code.
  const script = join(ctx.dir, 'trace.mjs');
  writeFileSync(
    script,
    `import { runWorkflow } from ${JSON.stringify(pathToFileURL(EMULATOR).href)};\n` +
      `try { await runWorkflow({ source: 'main: [' }); } catch (e) { console.log(e.stack); }\n`,
  );
  for (const cache of ['off', join(ctx.dir, 'cache'), join(ctx.dir, 'cache')]) {
    const r = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 30_000, env: { ...process.env, WORKFLOWS_EMULATOR_CODE_CACHE: cache } });
    assert.is(r.status, 0, r.stderr);
    const frames = [...r.stdout.matchAll(/emulator\.js:(\d+):(\d+)/g)].map((m) => [Number(m[1]), Number(m[2])] as const);
    assert.ok(frames.length > 0, r.stdout);
    // The main code is the comment of the function read into __wfSource (build.mjs mainFile), from its first line
    // to its `})` line: the file's own lines and columns.
    const lines = readFileSync(EMULATOR, 'utf8').split('\n');
    const first = lines.findIndex((l) => l.startsWith('const __wfSource = __wfCommentText(function(){/*!(async function(require,')) + 1;
    const last = lines.findIndex((l) => l === '})*/});') + 1;
    assert.ok(first > 0 && last > first, 'the main code is found');
    for (const [line, column] of frames) {
      assert.ok(line > first && line < last, `frame at line ${line} is in the main code (lines ${first}-${last})`);
      assert.ok(column <= lines[line - 1]!.length, `line ${line}:${column} of dist/emulator.js exists`);
    }
    // The innermost frame points at the construction of the RunWorkflowError thrown.
    const [line, column] = frames[0]!;
    assert.match(lines[line - 1]!.slice(column - 1, column + 40), /^new \w+\(/);
  }
});

s.run();
