// Runs every unit and black-box test under test/ (except test/browser and test/runtime, which have their own
// scripts) through uvu's public runner (`uvu/run`, what its CLI calls): in each process, one file after
// another, so suites never overlap, and a failure anywhere fails the run.
//
// The files are shared out between TEST_JOBS processes that run at the same time (default: one more than the
// number of CPUs, at most 3: many files mostly wait for processes, servers or timers, so an extra process
// fills the cores). Each file weighs the time it took when test/durations.json was recorded (the runner times
// each file by the line of uvu's report that names it as it starts; --record-durations writes the times of
// this run there), or, for a file not listed, an estimate from its text; the heaviest go first, each to the
// lightest process (the files that use TypeScript's compiler API go together, loading it once).
// So every run shares the files out the same way.
// With --typecheck (npm test), package.json's typecheck script (`tsc -b`) runs beside the tests, on the cores
// they leave idle; its messages come after the reports and a type error fails the run.
// Each process prints uvu's own report, `Total:` and `Passed:` lines included (.ci/run sums them); the first
// process's report streams as it runs, the others' follow it whole, so reports never interleave.
// Usage: node --import tsx test/run.ts [--typecheck] [--record-durations] [substring-of-path ...]
//        (TEST_JOBS=1: one process, this one)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';

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
 * The files that use TypeScript's compiler API (`typescript-api`: the layer and function-length rules, the
 * bundle's imports): they go to one process, which loads its 9 MB of JavaScript once for all of them (about
 * 1 s of CPU each time).
 */
function usesCompilerApi(file: string): boolean {
  return /from 'typescript-api'/.test(readFileSync(file, 'utf8'));
}

/**
 * Shares `files` out between `jobs` lists of about equal weight: the heaviest first, each to the lightest
 * list; the files that use TypeScript's compiler API go together, as one.
 */
function shareOut(files: readonly string[], jobs: number, weight: (file: string) => number): string[][] {
  const checking = files.filter(usesCompilerApi);
  const units = [...files.filter((f) => !checking.includes(f)).map((f) => [f]), ...(checking.length > 0 ? [checking] : [])];
  const lists = Array.from({ length: jobs }, () => ({ files: [] as string[], weight: 0 }));
  const weighed = units.map((u) => [u, u.reduce((sum, f) => sum + weight(f), 0)] as const);
  for (const [unit, w] of weighed.sort((a, b) => b[1] - a[1])) {
    const lightest = lists.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.files.push(...unit);
    lightest.weight += w;
  }
  // Within a process, files run in path order, as they are listed.
  return lists.map((l) => l.files.sort()).filter((l) => l.length > 0);
}

/** What a child process printed, its exit code, and how long each of its files took (ms by name). */
interface ChildRun {
  readonly code: number;
  readonly output: string;
  readonly durations: ReadonlyMap<string, number>;
}

/**
 * Runs `files` in a child process (this script with --files); resolves to its exit code, its output and the
 * time of each file: from the line of uvu's report naming it to the next such line, or to the `Total:` line.
 */
function runInChild(files: readonly string[], stream: boolean): Promise<ChildRun> {
  const names = new Set(files.map((f) => relative(root, f)));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, new URL(import.meta.url).pathname, '--files', ...files], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env['FORCE_COLOR'] ?? (process.stdout.isTTY ? '1' : '0') },
    });
    let output = '';
    let partial = '';
    const durations = new Map<string, number>();
    let current: { name: string; since: number } | undefined;
    const mark = (name: string | undefined): void => {
      const now = performance.now();
      if (current) durations.set(current.name, now - current.since);
      current = name === undefined ? undefined : { name, since: now };
    };
    const take = (chunk: Buffer): void => {
      const text = chunk.toString('utf8');
      if (stream) process.stdout.write(chunk);
      else output += text;
      const lines = (partial + text).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        // eslint-disable-next-line no-control-regex
        const plain = line.replace(/\x1b\[[0-9;]*m/g, '').trim();
        if (names.has(plain)) mark(plain);
        else if (plain.startsWith('Total:')) mark(undefined);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', (chunk: Buffer) => (stream ? process.stdout.write(chunk) : (output += chunk.toString('utf8'))));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output, durations }));
  });
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
    const child = spawn(process.execPath, [join(repo, 'node_modules', 'typescript', 'bin', 'tsc'), ...args], { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] });
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
function saveDurations(known: Record<string, number>, runs: readonly ChildRun[], all: readonly string[]): void {
  const measured = new Map(runs.flatMap((r) => [...r.durations]));
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
  if (args[0] === '--files') return runHere(args.slice(1));
  // NODE_EXTRA_CA_CERTS makes every Node process read and parse that file of certificates as it starts (about
  // 50 ms of CPU where it names the system's bundle), and the suite starts some 230 of them (test processes, the
  // emulators and commands they start, tsc). No test makes a TLS connection (every https:// URL in the tests is
  // mocked), so the test processes, and all they start, run without it (docs/running-the-tests.md).
  delete process.env['NODE_EXTRA_CA_CERTS'];
  const withTypecheck = args.includes('--typecheck');
  const record = args.includes('--record-durations');
  const filters = args.filter((a) => a !== '--typecheck' && a !== '--record-durations');
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
    await runHere(files);
  } else {
    const known = readDurations();
    const lists = shareOut(files, jobs, (f) => known[relative(root, f)] ?? estimate(f));
    const runs = lists.map((list, i) => runInChild(list, i === 0));
    const done: ChildRun[] = [];
    for (const r of runs) {
      const run = await r;
      done.push(run);
      process.stdout.write(run.output);
      if (run.code !== 0) failed = true;
    }
    if (record) saveDurations(known, done, all);
    if (failed) process.stdout.write(`\n${lists.length} test processes; at least one failed (see its report above).\n`);
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
