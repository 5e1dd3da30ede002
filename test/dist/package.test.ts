// The npm package: `npm pack` makes a package that works in a fresh project exactly as README.md#install says:
// installed from the tarball (offline: it has no dependencies), `npx workflows-emulator` runs the command line,
// `import { startEmulator } from 'workflows-emulator'` runs the JS API, and its types check under strict.
// Run `npm run build` first (npm test does).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { typeCheck } from '../support/typecheck.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, any>;
const run = promisify(execFile);
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
/** npm without this run's npm_* settings (npm test sets some that would leak into the scratch project). */
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('npm_'))) as NodeJS.ProcessEnv;

interface Ctx {
  dir: string;
  project: string;
  tarball: string;
  files: string[];
}
const s = suite<Ctx>('npm package: packed, installed from the tarball, used in a fresh project (README.md#install)', {} as Ctx);

s.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-pack-'));
  const { stdout } = await run(npm, ['pack', '--json', '--pack-destination', ctx.dir], { cwd: ROOT, env, maxBuffer: 16 * 1024 * 1024 });
  const [info] = JSON.parse(stdout.slice(stdout.indexOf('['))) as [{ filename: string; files: { path: string }[] }];
  ctx.tarball = join(ctx.dir, info.filename);
  ctx.files = info.files.map((f) => f.path).sort();
  ctx.project = join(ctx.dir, 'project');
  await run('mkdir', [ctx.project]);
  writeFileSync(join(ctx.project, 'package.json'), '{"name": "scratch", "private": true, "type": "module"}\n');
  await run(npm, ['install', '--offline', '--no-audit', '--no-fund', '--save-dev', ctx.tarball], { cwd: ctx.project, env });
});
s.after((ctx) => {
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
});

s('package.json has what a registry page needs; the package holds the bundle, the API, its types, docs and LICENSE only', (ctx) => {
  for (const field of ['name', 'version', 'description', 'license', 'repository', 'homepage', 'keywords', 'bin', 'exports', 'types', 'engines', 'files']) {
    assert.ok(pkg[field] !== undefined, `package.json has ${field}`);
  }
  assert.is(pkg['dependencies'], undefined, 'no runtime dependencies: the bundle is self-contained');
  for (const f of ['dist/emulator.js', 'dist/index.d.ts', 'README.md', 'LICENSE', 'package.json', 'docs/language.md']) {
    assert.ok(ctx.files.includes(f), `${f} is packed`);
  }
  assert.not.ok(ctx.files.includes('dist/index.js'), 'one bundle: dist/emulator.js is the command line and the JS API');
  const stray = ctx.files.filter((f) => /^(src|test|bench|proto|gen|examples|scripts|node_modules)\//.test(f));
  assert.equal(stray, []);
});

s('npx workflows-emulator runs the command line from the installed package (--version, run)', async (ctx) => {
  const version = await run(npm, ['exec', '--offline', '--no', '--', 'workflows-emulator', '--version'], { cwd: ctx.project, env });
  assert.is(version.stdout.trim(), pkg['version']);
  writeFileSync(join(ctx.project, 'add.yaml'), 'main:\n  params: [args]\n  steps:\n    - add:\n        return: ${args.x + 1}\n');
  const result = await run(npm, ['exec', '--offline', '--no', '--', 'workflows-emulator', 'run', 'add.yaml', '--data', '{"x": 41}'], { cwd: ctx.project, env });
  assert.is(result.stdout.trim(), '42');
});

s("import { startEmulator } from 'workflows-emulator' works in the fresh project", async (ctx) => {
  const file = join(ctx.project, 'use.mjs');
  writeFileSync(
    file,
    `import { startEmulator } from 'workflows-emulator';
const emulator = await startEmulator();
await emulator.deploy('add', 'main:\\n  params: [args]\\n  steps:\\n    - add:\\n        return: \${args.x + 1}\\n');
const execution = await emulator.run('add', { x: 1 });
await emulator.close();
console.log(JSON.stringify([execution.state, execution.result]));
`,
  );
  const { stdout } = await run(process.execPath, [file], { cwd: ctx.project, env });
  assert.is(stdout.trim(), '["SUCCEEDED",2]');
});

s("the package's types check under strict in the fresh project (and catch a wrong call)", (ctx) => {
  const good = join(ctx.project, 'typed.ts');
  writeFileSync(
    good,
    `import { startEmulator, type Emulator, type FinishedExecution } from 'workflows-emulator';
const emulator: Emulator = await startEmulator({ port: 0 });
const execution: FinishedExecution = await emulator.run('add', { x: 1 });
const state: 'ACTIVE' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED' = execution.state;
export { state };
`,
  );
  const bad = join(ctx.project, 'mistyped.ts');
  writeFileSync(bad, `import { startEmulator } from 'workflows-emulator';\nawait startEmulator({ port: 'eighty' });\nexport {};\n`);
  // Both files in one program: each file's own diagnostics. TypeScript's own lib files are not re-checked
  // (skipDefaultLibCheck); the package's declarations are.
  const checked = typeCheck([good, bad], { types: [], skipDefaultLibCheck: true });
  assert.equal(checked.messagesOf(good), []);
  assert.match(checked.messagesOf(bad).join('\n'), /'string' is not assignable to type 'number'/, 'a wrong option type is an error');
});

s.run();
