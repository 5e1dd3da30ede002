// Benchmarks of the running emulator (docs/rest-api.md#endpoints), against the built bundle (dist/emulator.js) as a child process,
// loopback only:
//   - executions/s: 16 concurrent keep-alive clients each creating a trivial execution and polling it to
//     SUCCEEDED over REST (target >= 2,000/s), and as a ratio to the requests/s the same clients get from a bare
//     node:http server in the same run (target >= 0.4; each execution takes at least two requests, so
//     0.5 is the limit);
//     also the server's CPU time per execution and the bare server's per request (read from /proc on Linux;
//     CPU time does not swing with the machine's load as throughput does);
//   - cold start: spawn to the listening line, median of 7 (target <= 300 ms);
//   - hot reload: a workflow file written to its new revision visible over REST, median of 7 (target <= 500 ms);
//   - with a data directory (docs/persistence.md): executions/s as a ratio to the same load in memory, measured
//     side by side (target >= 0.5), and a restart on a directory of 100,000 finished executions, spawn to the
//     listening line, median of 3 (target <= 2000 ms; the directory is written directly as a snapshot).
// GET of an execution and of a list against a bare node:http server: bench/serving.bench.ts.
// Usage: npm run build && node --expose-gc --import tsx bench/service.bench.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { report } from './report.ts';
import { CLIENTS, procCpuMicros, startBare, type BareServer } from './support/http-load.ts';

const EMULATOR = new URL('../dist/emulator.js', import.meta.url).pathname;
const API = '/v1/projects/my-project/locations/us-central1';

interface Proc {
  child: ChildProcess;
  url: string;
  port: number;
}

function spawnEmulator(extra: string[] = []): Promise<Proc & { startedMs: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, [EMULATOR, '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1', ...extra], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        child.stdout!.removeAllListeners('data');
        child.stdout!.resume();
        resolve({ child, url: `http://127.0.0.1:${m[1]}`, port: Number(m[1]), startedMs: performance.now() - t0 });
      }
    });
    child.on('exit', (code) => reject(new Error(`emulator exited with ${code}`)));
  });
}

function stop(p: { child: ChildProcess }): Promise<void> {
  return new Promise((r) => {
    if (p.child.exitCode !== null) return r();
    p.child.on('exit', () => r());
    p.child.kill('SIGTERM');
  });
}

/** A keep-alive HTTP client: one request at a time per caller; the agent pools CLIENTS sockets. */
const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
function call(port: number, method: string, path: string, body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, method, path, agent, headers: body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {} },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Runs `CLIENTS` loops of `op` for `ms`; returns operations per second. */
async function throughput(ms: number, op: () => Promise<void>): Promise<number> {
  let count = 0;
  const end = performance.now() + ms;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < end) {
        await op();
        count++;
      }
    }),
  );
  return count / ((performance.now() - t0) / 1000);
}

/** {@link throughput}, and the CPU time process `pid` spent per operation meanwhile (µs; undefined without /proc). */
async function throughputAndCpu(ms: number, op: () => Promise<void>, pid: number | undefined): Promise<{ rate: number; cpu: number | undefined }> {
  const c0 = procCpuMicros(pid);
  const t0 = performance.now();
  const rate = await throughput(ms, op);
  const c1 = procCpuMicros(pid);
  const ops = (rate * (performance.now() - t0)) / 1000;
  return { rate, cpu: c0 === undefined || c1 === undefined ? undefined : (c1 - c0) / ops };
}

/** The load of {@link executionsPerSecond} on one emulator: deploy the trivial workflow, then one execution at a time per client. */
async function executionLoad(emu: Proc): Promise<() => Promise<void>> {
  const src = 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args.n + 1}\n';
  const c = await call(emu.port, 'POST', `${API}/workflows?workflowId=trivial`, JSON.stringify({ sourceContents: src }));
  if (c.status !== 200) throw new Error(c.text);
  const body = JSON.stringify({ argument: '{"n": 1}' });
  return async () => {
    const created = await call(emu.port, 'POST', `${API}/workflows/trivial/executions`, body);
    if (created.status !== 200) throw new Error(created.text);
    const path = '/v1/' + (JSON.parse(created.text) as { name: string }).name;
    for (;;) {
      const r = await call(emu.port, 'GET', path);
      const state = (JSON.parse(r.text) as { state: string }).state;
      if (state === 'SUCCEEDED') return;
      if (state !== 'ACTIVE') throw new Error(r.text);
    }
  };
}

/** Executions/s with a data directory against in memory, the two emulators loaded in turn (a b b a). */
async function dataDirThroughput(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-bench-data-'));
  const memory = await spawnEmulator();
  const disk = await spawnEmulator(['--data-dir', dir]);
  try {
    const m = await executionLoad(memory);
    const d = await executionLoad(disk);
    await throughput(2000, m);
    await throughput(2000, d);
    const m1 = await throughput(1500, m);
    const d1 = await throughput(1500, d);
    const d2 = await throughput(1500, d);
    const m2 = await throughput(1500, m);
    const rate = (d1 + d2) / 2;
    report('REST executions with --data-dir (journal fsync per group; 16 keep-alive clients)', rate, 'executions/s');
    report('REST executions in memory, same run', (m1 + m2) / 2, 'executions/s');
    report('executions/s with --data-dir / in memory (same run)', rate / ((m1 + m2) / 2), 'ratio', { value: 0.5, higherIsBetter: true });
  } finally {
    await stop(memory);
    await stop(disk);
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A restart on a data directory of 100,000 finished executions: one real execution is recorded through the
 * emulator, and its saved record is copied under new IDs into a snapshot written directly (src/service/persist/).
 */
async function restart100k(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-bench-restart-'));
  try {
    const first = await spawnEmulator(['--data-dir', dir]);
    const run = await executionLoad(first);
    await run();
    await stop(first);
    const { scanFrames } = await import('../src/service/persist/frame.ts');
    const { snapshotText } = await import('../src/service/persist/data-dir.ts');
    const records = scanFrames(readFileSync(join(dir, 'journal-0.log'))).records.map((r) => r.value);
    const workflow = records.find((r) => r.t === 'w')!;
    const done = records.filter((r) => r.t === 'x').pop()! as { id: string; res: { name: string } };
    const template = JSON.stringify(done);
    const lines = [JSON.stringify(workflow)];
    for (let i = 0; i < 100_000; i++) {
      const id = `${done.id.slice(0, 24)}${String(i).padStart(12, '0')}`;
      lines.push(template.replaceAll(done.id, id));
    }
    writeFileSync(join(dir, 'snapshot.jsonl'), snapshotText(1, lines));
    rmSync(join(dir, 'journal-0.log'));
    const times: number[] = [];
    for (let i = 0; i < 3; i++) {
      const emu = await spawnEmulator(['--data-dir', dir]);
      times.push(emu.startedMs);
      const listed = await call(emu.port, 'GET', `${API}/workflows/trivial/executions?pageSize=1`);
      if (listed.status !== 200) throw new Error(listed.text);
      await stop(emu);
    }
    report('restart with 100,000 finished executions in --data-dir: spawn to the listening line (median of 3)', median(times), 'ms', { value: 2000, higherIsBetter: false });
    // The same executions as journal records (a directory not compacted yet): each record's checksum is read.
    const { encodeFrame } = await import('../src/service/persist/frame.ts');
    rmSync(join(dir, 'snapshot.jsonl'));
    writeFileSync(join(dir, 'journal-0.log'), Buffer.concat(lines.map((l) => encodeFrame(JSON.parse(l)))));
    const fromJournal: number[] = [];
    for (let i = 0; i < 3; i++) {
      const emu = await spawnEmulator(['--data-dir', dir]);
      fromJournal.push(emu.startedMs);
      await stop(emu);
    }
    report('restart with the same 100,000 executions as journal records, not compacted (median of 3)', median(fromJournal), 'ms');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function executionsPerSecond(): Promise<void> {
  const emu = await spawnEmulator();
  let bare: BareServer | undefined;
  try {
    const one = await executionLoad(emu);
    const body = JSON.stringify({ argument: '{"n": 1}' });
    // The bare server answers what a poll of a finished execution returns, to the same clients.
    const created = await call(emu.port, 'POST', `${API}/workflows/trivial/executions`, body);
    const path = '/v1/' + (JSON.parse(created.text) as { name: string }).name;
    let finished = '';
    do finished = (await call(emu.port, 'GET', path)).text;
    while (finished.includes('"ACTIVE"'));
    const started = await startBare(finished);
    bare = started;
    const bareOne = async (): Promise<void> => {
      const r = await call(started.port, 'GET', path);
      if (r.status !== 200) throw new Error(r.text);
    };
    // Warm-up: V8 optimizes an execution's path over its first second or two (the bare server's path is
    // warm almost at once); the figures are steady-state throughput, so both sides warm up for 2 s.
    await throughput(2000, one);
    await throughput(2000, bareOne);
    // Alternate (a b b a) to even out noise.
    const e1 = await throughputAndCpu(1500, one, emu.child.pid);
    const b1 = await throughputAndCpu(1500, bareOne, bare.child.pid);
    const b2 = await throughputAndCpu(1500, bareOne, bare.child.pid);
    const e2 = await throughputAndCpu(1500, one, emu.child.pid);
    const rate = (e1.rate + e2.rate) / 2;
    const bareRate = (b1.rate + b2.rate) / 2;
    report('REST executions created and polled to SUCCEEDED (16 keep-alive clients)', rate, 'executions/s', { value: 2000, higherIsBetter: true });
    report('bare node:http, same clients (16 keep-alive)', bareRate, 'requests/s');
    report('REST executions/s / bare node:http requests/s (same run)', rate / bareRate, 'ratio', { value: 0.4, higherIsBetter: true });
    if (e1.cpu !== undefined && e2.cpu !== undefined && b1.cpu !== undefined && b2.cpu !== undefined) {
      report('REST server CPU per execution (created and polled)', (e1.cpu + e2.cpu) / 2, 'µs');
      report('bare node:http server CPU per request', (b1.cpu + b2.cpu) / 2, 'µs');
    }
  } finally {
    bare?.close();
    await stop(emu);
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function coldStart(): Promise<void> {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const emu = await spawnEmulator();
    times.push(emu.startedMs);
    await stop(emu);
  }
  report('cold start: spawn to the listening line (median of 7)', median(times), 'ms', { value: 300, higherIsBetter: false });
}

async function hotReload(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-bench-'));
  const file = join(dir, 'reload.yaml');
  writeFileSync(file, 'main:\n  steps:\n    - done:\n        return: 0\n');
  const emu = await spawnEmulator(['--workflows-dir', dir]);
  try {
    const revision = async (): Promise<string> => (JSON.parse((await call(emu.port, 'GET', `${API}/workflows/reload`)).text) as { revisionId: string }).revisionId;
    const times: number[] = [];
    for (let i = 1; i <= 7; i++) {
      const before = await revision();
      const t0 = performance.now();
      writeFileSync(file, `main:\n  steps:\n    - done:\n        return: ${i}\n`);
      while ((await revision()) === before) await new Promise((r) => setTimeout(r, 2));
      times.push(performance.now() - t0);
    }
    report('hot reload: file written to new revision over REST (median of 7)', median(times), 'ms', { value: 500, higherIsBetter: false });
  } finally {
    await stop(emu);
    rmSync(dir, { recursive: true, force: true });
  }
}

// `node --import tsx bench/service.bench.ts data` runs only the data directory's lines.
if (process.argv[2] !== 'data') {
  await executionsPerSecond();
  await coldStart();
  await hotReload();
}
await dataDirThroughput();
await restart100k();
agent.destroy();
