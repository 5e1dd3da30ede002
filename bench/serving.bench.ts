// Benchmark of serving reads over REST (docs/rest-api.md#endpoints) against the runtime's floor measured in
// the same run: a bare node:http server in a process of its own answering the same bytes
// (bench/support/http-load.ts). Two reads, each under two loads:
//   - GET of a finished execution, and GET of a list of 100 executions (`?view=FULL`, Google's default page);
//   - 16 lean Node clients (raw keep-alive sockets), and Debian's wrk with 16 connections (skipped when
//     /usr/bin/wrk is not installed).
// Each line: the emulator's requests/s, the bare server's, and their ratio (target >= 0.95), the median of
// three rounds alternated a b b a; then each server's CPU time per request (process.cpuUsage over IPC, which the
// machine's load does not swing as it does throughput) and the bare server's CPU per request over ours.
// Usage: npm run build && node --expose-gc --import tsx bench/serving.bench.ts
import { report } from './report.ts';
import { startBenchServer, type BenchServer } from './support/server-process.ts';
import { hasWrk, rawGets, startBare, wrkGets, type BareServer } from './support/http-load.ts';

const API = '/v1/projects/my-project/locations/us-central1';

/** One measured run: requests/s and the server's CPU microseconds per request. */
interface Run {
  rate: number;
  cpuPerRequest: number;
}

/** Runs `load` against a server and reads its CPU time around it. */
async function measured(server: { cpuMicros(): Promise<number> }, load: () => Promise<{ rate: number; count: number }>): Promise<Run> {
  const c0 = await server.cpuMicros();
  const { rate, count } = await load();
  return { rate, cpuPerRequest: ((await server.cpuMicros()) - c0) / count };
}

/** Rounds of a b b a per comparison: each gives one ratio, and the lines report their medians. */
const ROUNDS = 3;

const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

/**
 * Compares the emulator and the bare server under one load in {@link ROUNDS} rounds alternated a b b a, and
 * reports the lines: mean requests/s of each, the median of the rounds' throughput ratios, each server's
 * median CPU per request and the median of the rounds' CPU ratios.
 */
async function compare(label: string, emu: BenchServer, bare: BareServer, load: (port: number) => Promise<{ rate: number; count: number }>): Promise<void> {
  await load(emu.port);
  await load(bare.port);
  const ours: Run[] = [];
  const floor: Run[] = [];
  const rateRatios: number[] = [];
  const cpuRatios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const e1 = await measured(emu, () => load(emu.port));
    const b1 = await measured(bare, () => load(bare.port));
    const b2 = await measured(bare, () => load(bare.port));
    const e2 = await measured(emu, () => load(emu.port));
    ours.push(e1, e2);
    floor.push(b1, b2);
    rateRatios.push((e1.rate + e2.rate) / (b1.rate + b2.rate));
    cpuRatios.push((b1.cpuPerRequest + b2.cpuPerRequest) / (e1.cpuPerRequest + e2.cpuPerRequest));
  }
  const mean = (runs: Run[]): number => runs.reduce((sum, x) => sum + x.rate, 0) / runs.length;
  report(`${label}`, mean(ours), 'requests/s');
  report(`${label}: bare node:http, same bytes`, mean(floor), 'requests/s');
  report(`${label} / bare node:http (same run, median of ${ROUNDS})`, median(rateRatios), 'ratio', { value: 0.95, higherIsBetter: true });
  report(`${label}: server CPU per request (median)`, median(ours.map((x) => x.cpuPerRequest)), 'µs');
  report(`${label}: bare node:http CPU per request (median)`, median(floor.map((x) => x.cpuPerRequest)), 'µs');
  report(`${label}: bare node:http CPU per request / ours (same run, median of ${ROUNDS})`, median(cpuRatios), 'ratio');
}

/** Sends a JSON request to the emulator; the answer's text (throws unless 200). */
async function call(emu: BenchServer, method: string, path: string, body?: string): Promise<string> {
  const r = await fetch(`${emu.url}${path}`, { method, ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}) });
  const text = await r.text();
  if (r.status !== 200) throw new Error(`${method} ${path}: ${r.status} ${text}`);
  return text;
}

const emu = await startBenchServer();
const bares: BareServer[] = [];
try {
  const src = 'main:\n  params: [args]\n  steps:\n    - done:\n        return: {"ok": true, "items": [1, 2, 3], "a": "${args.a}"}\n';
  await call(emu, 'POST', `${API}/workflows?workflowId=served`, JSON.stringify({ sourceContents: src }));
  let last = '';
  for (let i = 0; i < 100; i++) last = await call(emu, 'POST', `${API}/workflows/served/executions`, JSON.stringify({ argument: `{"a": ${i}}` }));
  const one = '/v1/' + (JSON.parse(last) as { name: string }).name;
  const list = `${API}/workflows/served/executions?view=FULL`;
  // Until every execution has finished (a finished execution's answer no longer changes).
  while ((await call(emu, 'GET', list)).includes('"ACTIVE"')) await new Promise((r) => setTimeout(r, 20));
  for (const [what, path] of [
    ['GET execution', one],
    ['GET list of 100 executions', list],
  ] as const) {
    const bytes = await call(emu, 'GET', path);
    if (what.includes('100') && (JSON.parse(bytes) as { executions: unknown[] }).executions.length !== 100) throw new Error('the list does not hold 100 executions');
    const bare = await startBare(bytes);
    bares.push(bare);
    const check = await fetch(`http://127.0.0.1:${bare.port}${path}`).then((r) => r.text());
    if (check !== bytes) throw new Error('the bare server answers different bytes');
    await compare(`${what}, 16 Node clients`, emu, bare, (port) => rawGets(port, path, 1000));
    if (hasWrk()) await compare(`${what}, wrk -c16`, emu, bare, (port) => wrkGets(port, path, 1));
    else process.stdout.write(`${what}, wrk -c16: skipped: wrk not installed\n`);
  }
} finally {
  for (const b of bares) b.close();
  await emu.close();
}
