// Start-up and memory of the built bundle (dist/emulator.js) as a child process, each beside its floor measured
// in the same run (docs/architecture.md#start-up):
//   - cold start: spawn to the listening line under Node, Deno and Bun, beside the same runtime running an empty
//     file (spawn to exit) and a bare node:http server (spawn to its own listening line). Our share is the median
//     minus bare start's median (target <= 15 ms on each runtime); under Bun the listening line itself has a
//     target (<= 40 ms of spawn).
//   - idle RSS once listening (VmRSS from /proc, Linux only) minus a bare node:http server's, each listening on
//     loopback, same runtime (target <= 5 MiB on Node; reported for Deno and Bun).
//   - RSS of the server (Node) with 10,000 executions suspended in one sys.sleep of an hour (target <= 150 MiB),
//     beside the bare node:http server's RSS; and (reported) with 10,000 executions each in a loop of one-second
//     sleeps, 2.5 s after the last was created (their step history grows by two entries a second each).
//   - the same starts in CPU time (Linux: every thread's time on a CPU, /proc/<pid>/task/*/schedstat, read at the
//     listening line), which the machine's load disturbs far less than wall-clock time: the emulator's beside a
//     bare runtime printing the same line at once, and beside a bare node:http server.
// Every runtime runs with NODE_EXTRA_CA_CERTS unset (a default install: the variable makes every start read a
// certificate file before any of our code runs; bench/dist.bench.ts measures both). Runs of the commands are
// interleaved, so the machine's load falls on all alike; the median carries the target, the minimum is printed.
// Usage: npm run build && node --import tsx bench/startup.bench.ts   (STARTUP_RUNS=n: runs per line, 15 by default)
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { report } from './report.ts';

/** The bundle measured: dist/emulator.js, or BENCH_EMULATOR (another build of it, to compare two builds). */
const EMULATOR = process.env.BENCH_EMULATOR ?? new URL('../dist/emulator.js', import.meta.url).pathname;
const BIN = new URL('../.cache/runtimes/node_modules/.bin/', import.meta.url).pathname;
const RUNS = Number(process.env.STARTUP_RUNS ?? 15);
const SLEEPERS = 10_000;
const env: Record<string, string | undefined> = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS;

const RUNTIMES: { name: string; command: string[]; shareMs: number; listenMs?: number }[] = [
  { name: 'node', command: [process.execPath], shareMs: 15 },
  { name: 'deno', command: [BIN + 'deno', 'run', '-A'], shareMs: 15 },
  { name: 'bun', command: [BIN + 'bun'], shareMs: 15, listenMs: 40 },
];

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const MiB = 1024 * 1024;

/** VmRSS of a process, in bytes (Linux /proc); undefined elsewhere. */
function rssOf(pid: number): number | undefined {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time of every thread of a process so far, in ms (Linux /proc schedstat); undefined elsewhere. */
function cpuMsOf(pid: number): number | undefined {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    return ns / 1e6;
  } catch {
    return undefined;
  }
}

/** A spawned server: ms from spawn to its listening line, its CPU time then (ms), its port, the child. */
interface Started {
  ms: number;
  cpuMs: number | undefined;
  port: number;
  child: ChildProcess;
}

/** Spawns `args` and resolves at the first line matching `listening on http://host:port`. */
function startServer(command: string[], args: string[]): Promise<Started> {
  const t0 = performance.now();
  const child = spawn(command[0]!, [...command.slice(1), ...args], { stdio: ['ignore', 'pipe', 'inherit'], env });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: string): void => {
      out += d;
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (!m) return;
      const ms = performance.now() - t0;
      const cpuMs = cpuMsOf(child.pid!);
      child.stdout!.off('data', onData);
      child.stdout!.resume();
      resolve({ ms, cpuMs, port: Number(m[1]), child });
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.on('exit', (code) => {
      if (!/listening on/.test(out)) reject(new Error(`${command[0]} ${args.join(' ')} exited with ${code} before listening`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Spawn of `command file` to its exit, in ms. */
function bareStart(command: string[], file: string): Promise<number> {
  const t0 = performance.now();
  const child = spawn(command[0]!, [...command.slice(1), file], { stdio: 'ignore', env });
  return new Promise((resolve, reject) =>
    child.on('exit', (code) => (code === 0 ? resolve(performance.now() - t0) : reject(new Error(`${command[0]} ${file} exited with ${code}`)))),
  );
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** One HTTP request on loopback; resolves to the status and body. */
function call(port: number, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const dir = mkdtempSync(join(tmpdir(), 'wfemu-startup-'));
const empty = join(dir, 'empty.js');
const bareHttp = join(dir, 'bare-http.mjs');
const bareLine = join(dir, 'bare-line.mjs');
writeFileSync(empty, '');
writeFileSync(bareLine, "console.log('listening on http://127.0.0.1:0');\nsetTimeout(() => {}, 60_000);\n");
writeFileSync(
  bareHttp,
  "import { createServer } from 'node:http';\n" +
    "const s = createServer((req, res) => res.end('{}'));\n" +
    "s.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${s.address().port}`));\n",
);
const EMULATOR_ARGS = [EMULATOR, '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1'];

/** Cold start and idle RSS of one runtime: bare file, bare node:http and the emulator, interleaved. */
async function runtime(name: string, command: string[], shareMs: number, listenMs?: number): Promise<void> {
  const t = { bare: [] as number[], http: [] as number[], emu: [] as number[], httpRss: [] as number[], emuRss: [] as number[] };
  const cpu = { line: [] as number[], http: [] as number[], emu: [] as number[] };
  const one = async (keep: boolean): Promise<void> => {
    const b = await bareStart(command, empty);
    const l = await startServer(command, [bareLine]);
    await stop(l.child);
    const h = await startServer(command, [bareHttp]);
    await sleep(300);
    const hRss = rssOf(h.child.pid!);
    await stop(h.child);
    const e = await startServer(command, EMULATOR_ARGS);
    await sleep(300);
    const eRss = rssOf(e.child.pid!);
    await stop(e.child);
    if (!keep) return;
    if (l.cpuMs !== undefined && h.cpuMs !== undefined && e.cpuMs !== undefined) {
      cpu.line.push(l.cpuMs);
      cpu.http.push(h.cpuMs);
      cpu.emu.push(e.cpuMs);
    }
    t.bare.push(b);
    t.http.push(h.ms);
    t.emu.push(e.ms);
    if (hRss !== undefined && eRss !== undefined) {
      t.httpRss.push(hRss / MiB);
      t.emuRss.push(eRss / MiB);
    }
  };
  await one(false); // warm the file system cache and the runtime's own caches
  for (let i = 0; i < RUNS; i++) await one(true);
  const line = (what: string, xs: number[], target?: number): void => {
    report(`${what}, ${name} (median of ${RUNS})`, median(xs), 'ms', target === undefined ? undefined : { value: target, higherIsBetter: false });
    report(`${what}, ${name} (min of ${RUNS})`, Math.min(...xs), 'ms');
  };
  line(`bare ${name}: start to exit (an empty file)`, t.bare);
  line(`bare ${name}: node:http server, start to its listening line`, t.http);
  line('emulator: cold start to the listening line', t.emu, listenMs);
  report(`emulator's share of cold start, ${name}: listening line minus bare start to exit (medians)`, median(t.emu) - median(t.bare), 'ms', {
    value: shareMs,
    higherIsBetter: false,
  });
  report(`emulator's listening line minus bare node:http's, ${name} (medians)`, median(t.emu) - median(t.http), 'ms');
  if (cpu.emu.length > 0) {
    report(`bare ${name}: CPU time to a listening line printed at once (median)`, median(cpu.line), 'ms');
    report(`bare ${name}: node:http server, CPU time to its listening line (median)`, median(cpu.http), 'ms');
    report(`emulator: CPU time to the listening line, ${name} (median)`, median(cpu.emu), 'ms');
    report(`emulator's share of start-up CPU time, ${name}: minus the bare line's (medians)`, median(cpu.emu) - median(cpu.line), 'ms', {
      value: shareMs,
      higherIsBetter: false,
    });
    report(`emulator's start-up CPU time minus bare node:http's, ${name} (medians)`, median(cpu.emu) - median(cpu.http), 'ms');
  }
  if (t.emuRss.length > 0) {
    report(`bare ${name}: node:http server RSS, listening (median)`, median(t.httpRss), 'MiB');
    report(`emulator: RSS idle after start, ${name} (median)`, median(t.emuRss), 'MiB');
    report(`emulator's idle RSS minus bare node:http's, ${name} (medians)`, median(t.emuRss) - median(t.httpRss), 'MiB',
      name === 'node' ? { value: 5, higherIsBetter: false } : undefined);
  }
}

/** One sys.sleep of an hour. */
const ONE_SLEEP = 'main:\n  steps:\n    - wait:\n        call: sys.sleep\n        args:\n          seconds: 3600\n';
/** A loop of one-second sleeps, for an hour. */
const SLEEP_LOOP =
  'main:\n  steps:\n    - wait:\n        for:\n          value: i\n          range: [1, 3600]\n          steps:\n            - nap:\n                call: sys.sleep\n                args:\n                  seconds: 1\n';

/** RSS of the server (Node) with SLEEPERS executions of `source` waiting, created by 16 clients; in MiB. */
async function sleepersRss(source: string): Promise<number> {
  const e = await startServer([process.execPath], EMULATOR_ARGS);
  try {
    const base = '/v1/projects/my-project/locations/us-central1/workflows';
    const deployed = await call(e.port, 'POST', `${base}?workflowId=sleeper`, JSON.stringify({ sourceContents: source }));
    if (deployed.status !== 200) throw new Error(`deploy: ${deployed.status} ${deployed.text}`);
    let next = 0;
    const client = async (): Promise<void> => {
      while (next < SLEEPERS) {
        next++;
        const r = await call(e.port, 'POST', `${base}/sleeper/executions`, '{}');
        if (r.status !== 200) throw new Error(`create: ${r.status} ${r.text}`);
      }
    };
    await Promise.all(Array.from({ length: 16 }, client));
    // Every execution is waiting (in a loop, it has gone round at least twice).
    await sleep(2500);
    const samples: number[] = [];
    for (let i = 0; i < 5; i++) {
      samples.push(rssOf(e.child.pid!) ?? NaN);
      await sleep(200);
    }
    return median(samples) / MiB;
  } finally {
    await stop(e.child);
  }
}

/** The sleepers' lines, beside a bare node:http server's RSS. */
async function sleepers(): Promise<void> {
  const bare = await startServer([process.execPath], [bareHttp]);
  await sleep(300);
  const bareRss = rssOf(bare.child.pid!);
  await stop(bare.child);
  if (bareRss !== undefined) report('bare node: node:http server RSS, listening', bareRss / MiB, 'MiB');
  const n = SLEEPERS.toLocaleString('en');
  report(`emulator: RSS with ${n} executions suspended in one sys.sleep, node (median of 5 samples)`, await sleepersRss(ONE_SLEEP), 'MiB', {
    value: 150,
    higherIsBetter: false,
  });
  report(`emulator: RSS with ${n} executions in loops of one-second sys.sleep, node (2.5 s on; median of 5 samples)`, await sleepersRss(SLEEP_LOOP), 'MiB');
}

try {
  for (const { name, command, shareMs, listenMs } of RUNTIMES) {
    if (!existsSync(command[0]!)) {
      process.stdout.write(`${name}: not installed (${command[0]}; node scripts/runtimes.mjs), skipped\n`);
      continue;
    }
    await runtime(name, command, shareMs, listenMs);
  }
  if (rssOf(process.pid) !== undefined) await sleepers();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
