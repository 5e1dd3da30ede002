// `workflows-emulator test --coverage` of the built bundle (docs/coverage.md): exact counts on the examples and on a
// workflow with every branch kind, the summary table, lcov and Cobertura read back (lcov's line, branch and
// function records; Cobertura with an XML parser), the JSON and HTML reports, thresholds and usage errors.
// Run `npm run build` first.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { EMULATOR_JS } from '../support/emulator.ts';

const s = suite<{ dir: string }>('cli: workflows-emulator test --coverage');

const EXAMPLES = new URL('../../examples', import.meta.url).pathname;
const EVERY_BRANCH = new URL('../fixtures/coverage/every-branch.yaml', import.meta.url).pathname;

function runTest(cwd: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [EMULATOR_JS, 'test', ...args], { cwd, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** lcov's records per source file (https://github.com/linux-test-project/lcov/blob/master/man/geninfo.1, "TRACEFILE FORMAT"). */
interface LcovFile {
  lines: Map<number, number>;
  branches: string[];
  functions: Map<string, number>;
  totals: Record<string, number>;
}

function parseLcov(text: string): Map<string, LcovFile> {
  const out = new Map<string, LcovFile>();
  let f: LcovFile | undefined;
  for (const line of text.split('\n')) {
    const [tag, rest = ''] = [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1)];
    if (tag === 'SF') out.set(rest, (f = { lines: new Map(), branches: [], functions: new Map(), totals: {} }));
    else if (!f) continue;
    else if (tag === 'DA') f.lines.set(Number(rest.split(',')[0]), Number(rest.split(',')[1]));
    else if (tag === 'BRDA') f.branches.push(rest);
    else if (tag === 'FNDA') f.functions.set(rest.split(',')[1]!, Number(rest.split(',')[0]));
    else if (['LF', 'LH', 'BRF', 'BRH', 'FNF', 'FNH'].includes(tag)) f.totals[tag] = Number(rest);
  }
  return out;
}

/** The rows of the coverage table printed after the results, each a list of its cells. */
function tableRows(stdout: string): string[][] {
  const table = stdout.slice(stdout.indexOf('\nCoverage\n') + 1);
  return table.trim().split('\n').slice(3).filter((l) => l.includes('|')).map((l) => l.split('|').map((c) => c.trim()));
}

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfe-coverage-'));
});
s.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

s('the examples: a table per workflow file with steps, branches, routines and uncovered lines (docs/coverage.md#the-summary-table)', () => {
  const r = runTest(join(EXAMPLES, 'tests'), '--coverage');
  assert.is(r.code, 0, r.stderr);
  assert.equal(tableRows(r.stdout), [
    ['../workflows/error-handling.yaml', '92.3% (12/13)', '91.66% (11/12)', '100% (2/2)', '72'],
    ['../workflows/fan-out-totals.yaml', '100% (8/8)', '100% (7/7)', '100% (1/1)', ''],
    ['../workflows/hello.yaml', '100% (1/1)', '100% (0/0)', '100% (1/1)', ''],
    ['../workflows/invoice.yaml', '100% (13/13)', '100% (4/4)', '100% (6/6)', ''],
    ['../workflows/order-saga.yaml', '96.42% (27/28)', '84.21% (16/19)', '100% (3/3)', '50'],
  ]);
});

s('lcov and Cobertura read back: steps as lines, workflow branches as branches, routines as functions (docs/coverage.md#reports)', (ctx) => {
  const r = runTest(join(EXAMPLES, 'tests'), '--coverage-reporter', 'lcov', '--coverage-reporter', 'cobertura', '--coverage-dir', ctx.dir);
  assert.is(r.code, 0, r.stderr);
  const lcov = parseLcov(readFileSync(join(ctx.dir, 'lcov.info'), 'utf8'));
  const eh = lcov.get('../workflows/error-handling.yaml')!;
  assert.equal(eh.totals, { FNF: 2, FNH: 2, LF: 13, LH: 12, BRF: 12, BRH: 11 });
  assert.is(eh.lines.get(72), 0);
  assert.equal([...eh.functions.keys()], ['main', 'only_unavailable']);
  assert.equal(lcov.get('../workflows/order-saga.yaml')!.totals, { FNF: 3, FNH: 3, LF: 28, LH: 27, BRF: 19, BRH: 16 });

  const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', isArray: (name) => ['class', 'line', 'method', 'package'].includes(name) });
  const doc = xml.parse(readFileSync(join(ctx.dir, 'cobertura-coverage.xml'), 'utf8'));
  const classes = doc.coverage.packages.package.flatMap((p: any) => p.classes.class);
  const saga = classes.find((c: any) => c.filename === '../workflows/order-saga.yaml');
  const lines = saga.lines.line;
  assert.is(lines.length, 28);
  assert.equal(lines.filter((l: any) => l.hits === '0').map((l: any) => l.number), ['50']);
  assert.is(saga['branch-rate'], String(Math.round((16 / 19) * 10_000) / 10_000));
  assert.equal(saga.methods.method.map((m: any) => m.name), ['main', 'payment_may_retry', 'release_stock']);
});

s('a workflow with every branch kind: 100% of steps and branches once every path is taken; json and html reports', (ctx) => {
  copyFileSync(EVERY_BRANCH, join(ctx.dir, 'every-branch.yaml'));
  const cases = (modes: [string, number][]): string =>
    `workflow: every-branch.yaml\ncases:\n` +
    modes.map(([m, total], i) => `  - name: case ${i}\n    argument: ${m}\n    expect: {result: ${total}}\n`).join('');
  writeFileSync(join(ctx.dir, 'some.test.yaml'), cases([['{mode: a, items: [1], fail: false}', 1]]));
  let r = runTest(ctx.dir, '--coverage', '--coverage-reporter', 'json', '--coverage-reporter', 'html', '--coverage-dir', 'out');
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.equal(tableRows(r.stdout), [['every-branch.yaml', '70.58% (12/17)', '50% (6/12)', '50% (2/4)', '13-16, 49, 70, 79']]);
  const json = JSON.parse(readFileSync(join(ctx.dir, 'out', 'coverage-final.json'), 'utf8'));
  const file = json[join(ctx.dir, 'every-branch.yaml')];
  assert.equal(Object.values(file.b), [[1, 0, 0], [0, 1], [1, 0, 0], [0, 1], [1, 1]]);
  const page = readFileSync(join(ctx.dir, 'out', 'every-branch.yaml.html'), 'utf8');
  assert.ok(existsSync(join(ctx.dir, 'out', 'base.css')) && existsSync(join(ctx.dir, 'out', 'prettify.js')));
  assert.match(page, '- <span class="cstat-no" title="statement not covered" >never:</span>');
  assert.match(page, '- <span class="branch-1 cbranch-no" title="branch not covered" >condition: ${args.mode == "b"}</span>');

  writeFileSync(join(ctx.dir, 'more.test.yaml'), cases([['{mode: b, items: [], fail: true}', -1], ['{mode: c, items: [3], fail: false}', 3]]));
  r = runTest(ctx.dir, '--coverage');
  assert.is(r.code, 0, r.stderr);
  assert.equal(tableRows(r.stdout), [['every-branch.yaml', '94.11% (16/17)', '100% (12/12)', '75% (3/4)', '79']]);
});

s('--coverage-threshold: exit 1 with one line naming the figure below it; met, exit 0 (docs/coverage.md#thresholds)', () => {
  const cwd = join(EXAMPLES, 'tests');
  let r = runTest(cwd, '--coverage-threshold', 'steps=97,branches=80');
  assert.is(r.code, 1);
  assert.is(r.stderr, 'workflows-emulator test: coverage threshold not met: steps 96.82% (61/63) is below 97%\n');
  r = runTest(cwd, '--coverage-threshold', 'steps=96,branches=91');
  assert.is(r.code, 1);
  assert.is(r.stderr, 'workflows-emulator test: coverage threshold not met: branches 90.47% (38/42) is below 91%\n');
  r = runTest(cwd, '--coverage-threshold', 'steps=96.5,branches=90');
  assert.is(r.code, 0, r.stderr);
});

s('bad coverage options are usage errors (exit 2)', () => {
  const cwd = join(EXAMPLES, 'tests');
  let r = runTest(cwd, '--coverage-reporter', 'clover');
  assert.is(r.code, 2);
  assert.match(r.stderr, '--coverage-reporter must be lcov, cobertura, json or html (got "clover")');
  r = runTest(cwd, '--coverage-threshold', 'lines=90');
  assert.is(r.code, 2);
  assert.match(r.stderr, '--coverage-threshold takes steps=N,branches=N with N from 0 to 100 (got "lines=90")');
  r = runTest(cwd, '--coverage-dir', 'x');
  assert.is(r.code, 2);
});

s.run();
