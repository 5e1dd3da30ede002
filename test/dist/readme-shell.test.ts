// README and docs/ stay true: every ```sh block of README.md and of the pages of docs/ runs copy-pasted against
// the emulator as `npm start` runs it (examples/start.mjs: the example services and the emulator on
// examples/workflows), and runs twice: each block is run two times in a row in one bash session, pages in the
// order of PAGES (variables such as $API and $NAME carry over, as in a terminal). Blocks that cannot run here
// are listed below with the reason; a new block must either run or be listed. docs/testing.md's blocks run in
// test/dist/readme-testing.test.ts. Ports: the test takes free ones and rewrites 8787 and 8790 in the blocks and
// in a scratch copy of examples/ (so nothing here needs those ports). Run `npm run build` first (npm test does).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '../support/emulator.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
/** The pages whose shell blocks run here, in order: README's quick start first, then the reference pages. */
const PAGES: readonly string[] = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md') && f !== 'testing.md')
    .sort()
    .map((f) => `docs/${f}`),
];
const TEXT = new Map(PAGES.map((page) => [page, readFileSync(join(ROOT, page), 'utf8')]));

/** Blocks not run here, by a pattern of their text, and why. */
const NOT_RUN: readonly (readonly [RegExp, string])[] = [
  [/^npx workflows-emulator .*\nnpm i -D/m, 'installs from the registry once published; test/dist/package.test.ts does the same from the packed tarball'],
  [/^git clone /m, 'clones the repository this test runs in'],
  [/^npm pack /m, 'packs and installs into another project; test/dist/package.test.ts does the same'],
  [/^npm install && npm start/m, 'this test starts npm start itself (examples/start.mjs)'],
  [/^node dist\/emulator\.js +# API-only/m, 'starts servers that run until Ctrl-C; test/api/rest-cli.test.ts covers them'],
  [/callbacks\/<id>/, 'a placeholder callback ID; the order saga block sends a real callback'],
  [/^deno run -A dist\/emulator\.js/m, 'starts servers under other runtimes; npm run test:runtimes covers them'],
  [/^npm test +#/m, 'the test commands themselves (their scripts are checked below)'],
  [/^npm run package:vscode/m, 'builds the VS Code extension with packages from the registry; .ci/run builds it'],
];

interface Block {
  readonly text: string;
  /** Where it is, as `page:line`. */
  readonly at: string;
}

function shellBlocks(): Block[] {
  const out: Block[] = [];
  for (const [page, text] of TEXT) {
    const re = /```(?:sh|bash)\n([\s\S]*?)```/g;
    for (let m = re.exec(text); m; m = re.exec(text)) out.push({ text: m[1]!, at: `${page}:${text.slice(0, m.index).split('\n').length}` });
  }
  return out;
}

/** Copies examples/ with every `localhost:8790` (the services' default) pointed at `servicesPort`. */
function copyExamples(to: string, servicesPort: number): void {
  cpSync(join(ROOT, 'examples'), to, { recursive: true });
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.(ya?ml|json)$/.test(name)) writeFileSync(p, readFileSync(p, 'utf8').replaceAll('localhost:8790', `localhost:${servicesPort}`));
    }
  };
  walk(to);
}

interface Ctx {
  dir: string;
  start: ChildProcess;
  port: number;
  servicesPort: number;
  output: string;
}
const s = suite<Ctx>("the shell blocks of README and docs/ run as written against npm start, twice", {} as Ctx);

s.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-readme-sh-'));
  ctx.port = await freePort();
  ctx.servicesPort = await freePort();
  symlinkSync(join(ROOT, 'dist'), join(ctx.dir, 'dist'), 'dir');
  copyExamples(join(ctx.dir, 'examples'), ctx.servicesPort);
  ctx.start = spawn(process.execPath, ['examples/start.mjs', '--port', String(ctx.port), '--grpc-port', '0', '--host', '127.0.0.1'], {
    cwd: ctx.dir,
    env: { ...process.env, SERVICES_PORT: String(ctx.servicesPort), PORT: '', HOST: '', GRPC_PORT: '', WORKFLOWS_DIR: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  ctx.output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not come up:\n${ctx.output}`)), 20_000);
    const on = (d: string): void => {
      ctx.output += d;
      if (/workflows-emulator listening on/.test(ctx.output)) {
        clearTimeout(timer);
        resolve();
      }
    };
    ctx.start.stdout!.setEncoding('utf8').on('data', on);
    ctx.start.stderr!.setEncoding('utf8').on('data', on);
    ctx.start.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${ctx.output}`)));
  });
});

s.after(async (ctx) => {
  if (ctx.start && ctx.start.exitCode === null) {
    const exited = new Promise((r) => ctx.start.once('exit', r));
    ctx.start.kill('SIGTERM');
    await exited;
  }
  if (ctx.dir) rmSync(ctx.dir, { recursive: true, force: true });
});

s('every shell block either runs here or is listed with its reason', () => {
  const blocks = shellBlocks();
  assert.ok(blocks.length >= 16, 'README and docs/ have their shell blocks');
  for (const [pattern, why] of NOT_RUN) {
    assert.ok(blocks.some((b) => pattern.test(b.text)), `a NOT_RUN entry matches no block any more (${why}): ${pattern}`);
  }
});

s('the commands README and docs/ promise exist: every npm script they name, and the files their examples use', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  for (const [page, text] of TEXT) {
    for (const m of text.matchAll(/\bnpm run ([\w:-]+)/g)) assert.ok(scripts[m[1]!], `${page}: npm run ${m[1]} exists`);
    for (const m of text.matchAll(/(?:run|--data @|--workflows-dir \.?\/?|test )((?:examples|docs)\/[\w./-]+)/g)) {
      assert.ok(statSync(join(ROOT, m[1]!), { throwIfNoEntry: false }), `${page}: ${m[1]} exists`);
    }
  }
  assert.ok(scripts['test'] && scripts['start'], 'npm test and npm start exist');
});

s('every relative link of README and docs/ names a file that exists, and every #anchor a heading of it', () => {
  const anchors = (text: string): Set<string> =>
    new Set(
      [...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
        m[1]!
          .toLowerCase()
          .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
          .replace(/[^\w\- ]/g, '')
          .replace(/ /g, '-'),
      ),
    );
  const broken: string[] = [];
  for (const page of ['README.md', 'CONTRIBUTING.md', ...PAGES.filter((p) => p !== 'README.md'), 'docs/testing.md']) {
    const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1]!;
      if (/^[a-z]+:/.test(target)) continue; // https:, mailto:
      const [file, anchor] = target.split('#') as [string, string | undefined];
      const path = file === '' ? page : join(dirname(page), file);
      if (!statSync(join(ROOT, path), { throwIfNoEntry: false })) {
        broken.push(`${page}: ${target} (no file ${path})`);
        continue;
      }
      if (anchor !== undefined && path.endsWith('.md') && !anchors(readFileSync(join(ROOT, path), 'utf8')).has(anchor)) {
        broken.push(`${page}: ${target} (no heading #${anchor} in ${path})`);
      }
    }
  }
  assert.equal(broken, []);
});

s('each runnable block works copy-pasted, twice in a row, with no error answer', async (ctx) => {
  const runnable = shellBlocks().filter((b) => !NOT_RUN.some(([p]) => p.test(b.text)));
  assert.ok(runnable.length >= 5, `runnable blocks: ${runnable.length}`);
  const rewrite = (t: string): string => t.replaceAll('localhost:8787', `localhost:${ctx.port}`).replaceAll('localhost:8790', `localhost:${ctx.servicesPort}`);
  let script = 'set -euo pipefail\n';
  for (const b of runnable) {
    for (const round of [1, 2]) script += `echo "### ${b.at}, run ${round}"\n${rewrite(b.text)}\necho\n`;
  }
  writeFileSync(join(ctx.dir, 'readme.sh'), script);
  const child = spawn('bash', ['readme.sh'], { cwd: ctx.dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WORKFLOWS_EMULATOR_HOST: `http://localhost:${ctx.port}` } });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d));
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  clearTimeout(timer);
  assert.is(code, 0, `the blocks failed (exit ${code}):\n${out}`);
  // Any error answer (the API's {"error": {...}}, the services' {"error": "..."}) means a block did not work.
  const errors = out.split('\n').filter((l) => /"error"\s*:/.test(l) && !/"error"\s*:\s*null/.test(l));
  assert.equal(errors, [], out);
  for (const b of runnable) {
    assert.ok(out.includes(`### ${b.at}, run 2`), `the block at ${b.at} ran twice`);
  }
  assert.ok((out.match(/"status": "SHIPPED"/g) ?? []).length >= 2, `the order saga shipped on both runs:\n${out}`);
  assert.ok((out.match(/Hello, Ada/g) ?? []).length >= 4, `greet and hello answered on both runs:\n${out}`);
});

s.run();
