// Runs every unit and black-box test under test/ (except test/browser and test/runtime, which have their own
// scripts) through uvu's public runner (`uvu/run`, what its CLI calls): in each process, one file after
// another, so suites never overlap, and a failure anywhere fails the run.
//
// The files run in TEST_JOBS processes at the same time (default: one more than the number of CPUs, at most 3:
// many files mostly wait for processes, servers or timers, so an extra process fills the cores), each file (or
// the unit of files that share a costly set-up, such as TypeScript's compiler API, done once) sent to the
// next process that is free, the heaviest first (test/support/test-pool.ts): each file weighs the time it took
// when test/durations.json was recorded (--record-durations writes the times of this run there), or, for a file
// not listed, an estimate from its text. Sent as processes free up, the files keep every process busy until the
// last ones, however far this run's times are from the recorded ones.
// With --typecheck (npm test), package.json's typecheck script (`tsc -b`) runs beside the tests, on the cores
// they leave idle; its messages come after the reports and a type error fails the run.
// Each unit's report (uvu's own) is printed whole when it ends, so reports never interleave, and one closing
// summary adds up uvu's counts in uvu's form (`Total:` and `Passed:` lines: .ci/run sums them).
// With --build (npm test), `node build.mjs` runs first thing, and the test files that do not need dist/ run
// while it does; the others wait for it (a failed build fails the run, and they do not run).
// Usage: node --import tsx test/run.ts [--build] [--typecheck] [--record-durations] [substring-of-path ...]
//        (TEST_JOBS=1: one process, this one)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';
import { runInWorkers, type BuildGate } from './support/test-pool.ts';

const root = new URL('.', import.meta.url).pathname;
const repo = join(root, '..');
const skipDirs = new Set(['browser', 'runtime', 'support', 'spec', 'fixtures']);
/** The recorded time of each file (ms, by its path under test/), by which the files are shared out. */
const DURATIONS = join(root, 'durations.json');

function collect(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!skipDirs.has(name)) collect(p, out);
    } else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

/** Runs `files` in this process with uvu's runner; it sets process.exitCode to 1 when a test fails. */
async function runHere(files: readonly string[]): Promise<void> {
  const { run } = await import('uvu/run');
  await run(files.map((file) => ({ name: relative(root, file), file })));
}

/** The recorded durations (ms by name under test/); empty when there are none. */
function readDurations(): Record<string, number> {
  try {
    return JSON.parse(readFileSync(DURATIONS, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

/**
 * An estimate of a file's time (ms) for a file not in test/durations.json: a little per character, and much
 * more for each place it starts a process and when it type-checks a TypeScript program (a rough fit to the
 * recorded times; the next --record-durations replaces it with the file's own).
 */
function estimate(file: string): number {
  const text = readFileSync(file, 'utf8');
  const spawns = text.match(/\b(spawn|execFile|spawnSync|execFileSync|startEmulator)\(/g)?.length ?? 0;
  return 200 + text.length * 0.05 + spawns * 600 + (/\btypeCheck\(/.test(text) ? 1000 : 0);
}

/**
 * Files that share a costly set-up, which a process does once for all of them: they run as one unit. TypeScript's
 * compiler API (test/support/typescript-api.ts: the layer and function-length rules, the bundle's imports) is
 * 9 MB of JavaScript to load and compile, about 0.5 s of CPU.
 */
const SHARED_SETUPS: readonly RegExp[] = [/support\/typescript-api\.ts'/];

/** The units to run, the heaviest first: each file alone, but the files of each of {@link SHARED_SETUPS} together. */
function unitsOf(files: readonly string[], weight: (file: string) => number): string[][] {
  const groups = SHARED_SETUPS.map(() => [] as string[]);
  const units: string[][] = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const group = SHARED_SETUPS.findIndex((setup) => setup.test(text));
    if (group >= 0) groups[group]!.push(file);
    else units.push([file]);
  }
  units.push(...groups.filter((g) => g.length > 0));
  const weighed = units.map((u) => [u, u.reduce((sum, f) => sum + weight(f), 0)] as const);
  return weighed.sort((a, b) => b[1] - a[1]).map(([u]) => u);
}

/**
 * Whether a test file needs the built bundle (dist/emulator.js, or examples/start.mjs, which starts it): it names
 * dist/, the bundle, or the helpers that start it (test/support/emulator.ts, lsp-client.ts).
 */
function needsBuild(file: string): boolean {
  return /dist\/|dist'|emulator\.js|EMULATOR_JS|support\/emulator|support\/lsp-client|startEmulator|examples\/start/.test(readFileSync(file, 'utf8'));
}

/**
 * Runs `node build.mjs` (package.json's build script) beside the tests that do not need its output; `done`
 * resolves once it has ended, to whether it succeeded, after printing its output if it failed.
 */
function startBuild(): BuildGate {
  const done = new Promise<boolean>((resolve) => {
    const child = spawn(process.execPath, [join(repo, 'build.mjs')], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('close', (code) => {
      if (code !== 0) process.stdout.write(`\n  Build FAILED (node build.mjs, exit ${code}); the tests that need dist/ do not run:\n${output}\n`);
      resolve(code === 0);
    });
  });
  return { done, needs: (unit) => unit.some(needsBuild) };
}

/**
 * Runs package.json's typecheck script (`tsc -b ...`) with node and the repository's own tsc, without npm in
 * between; resolves to its exit code and output.
 */
function typecheck(): Promise<{ code: number; output: string }> {
  const script = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['typecheck']!;
  const [bin, ...args] = script.split(/\s+/);
  if (bin !== 'tsc') throw new Error(`test/run.ts --typecheck runs a typecheck script that is a tsc command, not: ${script}`);
  return new Promise((resolve) => {
    // One thread: beside the tests every core is busy already, and tsc's parallel checkers cost about a quarter
    // more CPU in all (4.2 against 3.2 s for a fresh clone).
    const child = spawn(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), ...args, '--singleThreaded'], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/**
 * Records the times measured now in {@link DURATIONS}. This run's times are first scaled to the recorded ones
 * (by the ratio of their sums over the files in both), so a run on a busier or quieter machine does not make
 * its files look heavier or lighter than the others; then a file's new time is the mean of its recorded time
 * and this run's (one run's times vary by a fifth or so), a new file's is this run's; files that are gone are
 * dropped.
 */
function saveDurations(known: Record<string, number>, measured: ReadonlyMap<string, number>, all: readonly string[]): void {
  let knownSum = 0;
  let measuredSum = 0;
  for (const [name, ms] of measured) {
    if (known[name] === undefined) continue;
    knownSum += known[name];
    measuredSum += ms;
  }
  const scale = knownSum > 0 && measuredSum > 0 ? knownSum / measuredSum : 1;
  const next: Record<string, number> = {};
  for (const file of all) {
    const name = relative(root, file);
    if (known[name] !== undefined) next[name] = known[name];
  }
  for (const [name, ms] of measured) next[name] = Math.round(known[name] === undefined ? ms * scale : (known[name] + ms * scale) / 2);
  writeFileSync(DURATIONS, JSON.stringify(next, Object.keys(next).sort(), 1) + '\n');
}

async function main(args: string[]): Promise<void> {
  // NODE_EXTRA_CA_CERTS makes every Node process read and parse that file of certificates as it starts (about
  // 50 ms of CPU where it names the system's bundle), and the suite starts some 230 of them (test processes, the
  // emulators and commands they start, tsc). No test makes a TLS connection (every https:// URL in the tests is
  // mocked), so the test processes, and all they start, run without it (docs/running-the-tests.md).
  delete process.env['NODE_EXTRA_CA_CERTS'];
  const withTypecheck = args.includes('--typecheck');
  const record = args.includes('--record-durations');
  const filters = args.filter((a) => !['--typecheck', '--record-durations', '--build'].includes(a));
  const build = args.includes('--build') ? startBuild() : undefined;
  const all = collect(root, []);
  const files = all.filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
  if (files.length === 0) {
    process.stderr.write(`no test files match ${filters.join(' ')}\n`);
    process.exit(1);
  }
  const started = performance.now();
  const checking = withTypecheck ? typecheck().then((r) => ({ ...r, seconds: (performance.now() - started) / 1000 })) : undefined;
  const defaultJobs = Math.min(3, availableParallelism() + 1);
  const jobs = Math.max(1, Math.min(files.length, Number(process.env['TEST_JOBS']) || defaultJobs));
  let failed = false;
  if (jobs === 1) {
    if (build && !(await build.done)) failed = true;
    else await runHere(files);
  } else {
    const known = readDurations();
    const env = { ...process.env, FORCE_COLOR: process.env['FORCE_COLOR'] ?? (process.stdout.isTTY ? '1' : '0') };
    const outcome = await runInWorkers(unitsOf(files, (f) => known[relative(root, f)] ?? estimate(f)), jobs, env, build);
    if (record) saveDurations(known, outcome.durations, all);
    failed = outcome.failed;
    if (failed) process.stdout.write(`At least one test failed (see its report above).\n`);
  }
  if (checking) {
    const { code, output, seconds } = await checking;
    const took = `${seconds.toFixed(1)} s from the start`;
    process.stdout.write(code === 0 ? `\n  Typecheck: passed (${took})\n` : `\n  Typecheck FAILED (npm run typecheck, ${took}):\n${output}\n`);
    if (code !== 0) failed = true;
  }
  if (failed) process.exitCode = 1;
}

await main(process.argv.slice(2));
