// Benchmarks of the distribution (issue 7 "Benchmarks"), against the built bundle (dist/emulator.js) as a
// child process, loopback only, median of 7 runs each:
//   - bundle size (issue 17: target <= 700 KB);
//   - cold start: spawn to the listening line, under Node (issue 17: target <= 100 ms), Deno and Bun (reported);
//   - one-shot `run` of a trivial workflow, spawn to exit with the result on stdout, under Node (issue 17:
//     target <= 120 ms), Deno and Bun (reported).
// Usage: npm run build && node --import tsx bench/dist.bench.ts
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { report } from './report.ts';

const EMULATOR = new URL('../dist/emulator.js', import.meta.url).pathname;
/** Deno and Bun, as scripts/runtimes.mjs installs them (`npm run bench` runs it first). */
const BIN = new URL('../.cache/runtimes/node_modules/.bin/', import.meta.url).pathname;
const RUNS = 7;
/** Each runtime with its targets in ms (cold start, one-shot run); undefined: reported only. */
const RUNTIMES: [name: string, command: string[], targetsMs: [start: number, run: number] | undefined][] = [
  ['node', [process.execPath], [100, 120]],
  ['deno', [BIN + 'deno', 'run', '-A'], undefined],
  ['bun', [BIN + 'bun'], undefined],
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Spawn to the listening line, in ms; the process is then stopped. */
function coldStart(command: string[]): Promise<number> {
  const t0 = performance.now();
  const child = spawn(command[0]!, [...command.slice(1), EMULATOR, '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (/listening on http:\/\//.test(out)) {
        const ms = performance.now() - t0;
        child.on('exit', () => resolve(ms));
        child.kill('SIGTERM');
      }
    });
    child.on('exit', (code) => {
      if (!/listening on/.test(out)) reject(new Error(`${command[0]} exited with ${code} before listening`));
    });
  });
}

/** Spawn of `run <file>` to its exit, in ms; rejects unless it printed the expected result and exited 0. */
function oneShot(command: string[], file: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(command[0]!, [...command.slice(1), EMULATOR, 'run', file, '--data', '{"x": 41}'], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code === 0 && out === '42\n') resolve(ms);
      else reject(new Error(`${command[0]} run exited with ${code}, stdout ${JSON.stringify(out)}`));
    });
  });
}

const bytes = statSync(EMULATOR).size;
// KB and MB are binary here (1,024 bytes), as the bundle-size line has always been.
report('bundle size (dist/emulator.js)', bytes / 1024, 'KB', { value: 700, higherIsBetter: false });

const dir = mkdtempSync(join(tmpdir(), 'wfemu-bench-'));
const file = join(dir, 'trivial.yaml');
writeFileSync(file, 'main:\n  params: [args]\n  steps:\n    - add:\n        return: ${args.x + 1}\n');
try {
  for (const [name, command, targetsMs] of RUNTIMES) {
    if (!existsSync(command[0]!)) {
      process.stdout.write(`${name}: not installed (${command[0]}), skipped\n`);
      continue;
    }
    const target = (i: 0 | 1) => (targetsMs === undefined ? undefined : { value: targetsMs[i], higherIsBetter: false });
    await coldStart(command); // warm the file system cache and the runtime's own caches
    const starts: number[] = [];
    for (let i = 0; i < RUNS; i++) starts.push(await coldStart(command));
    report(`cold start to the listening line, ${name} (median of ${RUNS})`, median(starts), 'ms', target(0));
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await oneShot(command, file));
    report(`one-shot run of a trivial workflow, ${name} (median of ${RUNS})`, median(runs), 'ms', target(1));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
