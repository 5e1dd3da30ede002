// Runs every unit and black-box test under test/ (except test/browser and test/runtime, which have their own
// scripts) through uvu's public runner (`uvu/run`, what its CLI calls): in each process, one file after
// another, so suites never overlap, and a failure anywhere fails the run.
//
// The files are shared out between TEST_JOBS processes (default: the number of CPUs, at most 2) that run at
// the same time: many files mostly wait for processes, servers or timers, so two processes fill the cores.
// Each process prints uvu's own report, `Total:` and `Passed:` lines included (.ci/run sums them); the first
// process's report streams as it runs, the others' follow it whole, so reports never interleave.
// Usage: node --import tsx test/run.ts [substring-of-path ...]     (TEST_JOBS=1: one process, this one)
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, relative } from 'node:path';

const root = new URL('.', import.meta.url).pathname;
const skipDirs = new Set(['browser', 'runtime', 'support', 'spec', 'fixtures']);

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

/**
 * A rough relative cost of a test file, to share the files out evenly: its size, four times over when it
 * starts processes (those files take most of the time, waiting for them), plus a fixed amount when it
 * type-checks a TypeScript program (seconds of CPU each). Checked against per-file timings of the suite: the
 * two shares come within about 10% of each other.
 */
function cost(file: string): number {
  const text = readFileSync(file, 'utf8');
  const startsProcesses = /\b(spawn|execFile|startEmulator|spawnSync|execFileSync)\(/.test(text);
  return text.length * (startsProcesses ? 4 : 1) + (/\b(typeCheck|createProgram)\(/.test(text) ? 60_000 : 0);
}

/** Shares `files` out between `jobs` lists of about equal cost (largest first, each to the lightest list). */
function shareOut(files: readonly string[], jobs: number): string[][] {
  const lists = Array.from({ length: jobs }, () => ({ files: [] as string[], cost: 0 }));
  for (const [file, c] of files.map((f) => [f, cost(f)] as const).sort((a, b) => b[1] - a[1])) {
    const lightest = lists.reduce((a, b) => (b.cost < a.cost ? b : a));
    lightest.files.push(file);
    lightest.cost += c;
  }
  // Within a process, files run in path order, as they are listed.
  return lists.map((l) => l.files.sort()).filter((l) => l.length > 0);
}

/** Runs `files` in a child process (this script with --files); resolves to its exit code and its output. */
function runInChild(files: readonly string[], stream: boolean): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, new URL(import.meta.url).pathname, '--files', ...files], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: process.env['FORCE_COLOR'] ?? (process.stdout.isTTY ? '1' : '0') },
    });
    let output = '';
    const take = (chunk: Buffer): void => {
      if (stream) process.stdout.write(chunk);
      else output += chunk.toString('utf8');
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const args = process.argv.slice(2);
if (args[0] === '--files') {
  await runHere(args.slice(1));
} else {
  const files = collect(root, []).filter((f) => args.length === 0 || args.some((s) => f.includes(s)));
  if (files.length === 0) {
    process.stderr.write(`no test files match ${args.join(' ')}\n`);
    process.exit(1);
  }
  const jobs = Math.max(1, Math.min(files.length, Number(process.env['TEST_JOBS']) || Math.min(2, availableParallelism())));
  if (jobs === 1) {
    await runHere(files);
  } else {
    const lists = shareOut(files, jobs);
    const runs = lists.map((list, i) => runInChild(list, i === 0));
    let failed = false;
    for (const r of runs) {
      const { code, output } = await r;
      process.stdout.write(output);
      if (code !== 0) failed = true;
    }
    if (failed) {
      process.stdout.write(`\n${lists.length} test processes; at least one failed (see its report above).\n`);
      process.exitCode = 1;
    }
  }
}
