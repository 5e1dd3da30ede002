// Benchmarks of the distribution (docs/cli.md#one-file-on-node-deno-and-bun), against the built bundle (dist/emulator.js) as a
// child process, loopback only:
//   - bundle size (docs/architecture.md#the-one-file: target <= 700 KB);
//   - cold start: spawn to the listening line, under Node (docs/architecture.md#start-up: target <= 100 ms), Deno and Bun (reported);
//   - one-shot `run` of a trivial workflow, spawn to exit with the result on stdout, under Node (docs/architecture.md#start-up:
//     target <= 120 ms), Deno and Bun (reported);
//   - bare Node: spawn to exit of `node <empty file>`, in the same run and environment, the floor under both.
//
// Which line carries the target, and why. A process's environment can make every Node start slower before any
// of our code runs: NODE_EXTRA_CA_CERTS makes Node read and parse that certificate file at start-up (on the
// machine these benchmarks were written on it names the system bundle, /etc/ssl/certs/ca-certificates.crt, and
// bare `node empty.js` takes ~90-130 ms instead of ~40 ms). A default Node install does not set it, and the
// emulator cannot avoid it (the variable is read before the bundle is loaded). So when the environment sets it,
// Node is measured twice, interleaved: in this environment as it is (reported), and with the variable unset
// (the line with the target: what a user of a default Node install waits). Both are printed, with bare Node in
// each, and the emulator's own share (its median minus bare Node's median in the same environment). Runs of
// the three commands and of the two environments are interleaved, so the machine's load falls on all alike;
// the median carries the target, the minimum is printed beside it (the least disturbed run). Deno and Bun run
// in this environment.
// Usage: npm run build && node --import tsx bench/dist.bench.ts
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { report } from './report.ts';

const EMULATOR = new URL('../dist/emulator.js', import.meta.url).pathname;
/** Deno and Bun, as scripts/runtimes.mjs installs them (`npm run bench` runs it first). */
const BIN = new URL('../.cache/runtimes/node_modules/.bin/', import.meta.url).pathname;
const RUNS = 11;
type Env = Record<string, string | undefined>;
/** A runtime, its targets in ms (cold start, one-shot run; undefined: reported only) and where it is measured. */
interface Runtime {
  name: string;
  command: string[];
  targetsMs?: [start: number, run: number];
  /** Environments: label (empty for this environment as it is, when it is the only one), variables, targets apply. */
  environments: [label: string, env: Env, withTargets: boolean][];
}

const CA_VARIABLE = 'NODE_EXTRA_CA_CERTS';
const withoutCa: Env = { ...process.env };
delete withoutCa[CA_VARIABLE];
const nodeEnvironments: Runtime['environments'] =
  process.env[CA_VARIABLE] === undefined
    ? [['', process.env, true]]
    : [
        [`${CA_VARIABLE} set (this environment)`, process.env, false],
        [`${CA_VARIABLE} unset (a default install)`, withoutCa, true],
      ];
const RUNTIMES: Runtime[] = [
  { name: 'node', command: [process.execPath], targetsMs: [100, 120], environments: nodeEnvironments },
  { name: 'deno', command: [BIN + 'deno', 'run', '-A'], environments: [['', process.env, false]] },
  { name: 'bun', command: [BIN + 'bun'], environments: [['', process.env, false]] },
];

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Spawn to the listening line, in ms; the process is then stopped. */
function coldStart(command: string[], env: Env): Promise<number> {
  const t0 = performance.now();
  const child = spawn(command[0]!, [...command.slice(1), EMULATOR, '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
    env,
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

/** Spawn of `args` to its exit, in ms; rejects unless it exited 0 with `expected` on stdout. */
function toExit(command: string[], args: string[], env: Env, expected: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(command[0]!, [...command.slice(1), ...args], { stdio: ['ignore', 'pipe', 'ignore'], env });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('exit', (code) => {
      const ms = performance.now() - t0;
      if (code === 0 && out === expected) resolve(ms);
      else reject(new Error(`${command.join(' ')} ${args.join(' ')} exited with ${code}, stdout ${JSON.stringify(out)}`));
    });
  });
}

const bytes = statSync(EMULATOR).size;
// KB and MB are binary here (1,024 bytes), as the bundle-size line has always been.
report('bundle size (dist/emulator.js)', bytes / 1024, 'KB', { value: 700, higherIsBetter: false });

const dir = mkdtempSync(join(tmpdir(), 'wfemu-bench-'));
const file = join(dir, 'trivial.yaml');
const empty = join(dir, 'empty.js');
writeFileSync(file, 'main:\n  params: [args]\n  steps:\n    - add:\n        return: ${args.x + 1}\n');
writeFileSync(empty, '');
try {
  for (const { name, command, targetsMs, environments } of RUNTIMES) {
    if (!existsSync(command[0]!)) {
      process.stdout.write(`${name}: not installed (${command[0]}), skipped\n`);
      continue;
    }
    // Warm the file system cache and the runtime's own caches, then interleave the three commands, and the
    // environments, run by run: the machine's load falls on all of them alike.
    const bare = (env: Env) => toExit(command, [empty], env, '');
    const run = (env: Env) => toExit(command, [EMULATOR, 'run', file, '--data', '{"x": 41}'], env, '42\n');
    for (const [, env] of environments) {
      await bare(env);
      await coldStart(command, env);
      await run(env);
    }
    const times = environments.map(() => ({ bare: [] as number[], start: [] as number[], run: [] as number[] }));
    for (let i = 0; i < RUNS; i++) {
      for (const [e, [, env]] of environments.entries()) {
        times[e]!.bare.push(await bare(env));
        times[e]!.start.push(await coldStart(command, env));
        times[e]!.run.push(await run(env));
      }
    }
    for (const [e, [label, , withTargets]] of environments.entries()) {
      const { bare: bareMs, start, run: runMs } = times[e]!;
      const target = (i: 0 | 1) => (targetsMs === undefined || !withTargets ? undefined : { value: targetsMs[i], higherIsBetter: false });
      const where = `${name}${label ? `, ${label}` : ''}`;
      const line = (what: string, xs: number[], t?: { value: number; higherIsBetter: boolean }) => {
        report(`${what}, ${where} (median of ${RUNS})`, median(xs), 'ms', t);
        report(`${what}, ${where} (min of ${RUNS})`, Math.min(...xs), 'ms');
      };
      line(`bare ${name} start to exit (an empty file)`, bareMs);
      line('cold start to the listening line', start, target(0));
      line('one-shot run of a trivial workflow', runMs, target(1));
      report(`cold start minus bare ${name}, ${where} (medians)`, median(start) - median(bareMs), 'ms');
      report(`one-shot run minus bare ${name}, ${where} (medians)`, median(runMs) - median(bareMs), 'ms');
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
