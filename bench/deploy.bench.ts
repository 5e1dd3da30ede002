// Benchmark of deploying over REST (docs/rest-api.md#endpoints: create a workflow) the 126 KB bench definition
// (bench/support/bench-definition.ts), against the built bundle in a child process (bench/support/server-process.ts):
//   - first: the deploy as the first request of a fresh emulator process, median of 7 processes (target <=
//     25 ms): the code it runs is not yet optimized and the heap is small then;
//   - steady: the same deploy repeated in one process, median of 30 after 10 (target <= 12 ms); each deployed
//     workflow is deleted after its timed deploy, so the heap holds the same workflows throughout. Then the
//     median of the next 30 (information: V8 is still optimizing during the first 30 or so).
// Each beside its floor in the same run: a bare node:http server (bench/support/http-load.ts) reading the
// same request body and answering the same bytes, fresh for each first request. Also the emulator's CPU time
// per deploy (process.cpuUsage over IPC), which the machine's load does not swing as it does the wall clock.
// And the YAML reader's own floor: js-yaml as published reading the same definition in a fresh node process
// that does nothing else (bench/support/yaml-read-floor.mjs), its first read and its steady one; a deploy
// reads the definition with js-yaml (docs/architecture.md#reading-definitions-the-yaml-reader), so neither of
// the deploy's lines can go below these.
// With BENCH_BASELINE=<file> (another build of dist/emulator.js), also this build against that one: a server
// of each started side by side, their steady deploys alternated in rounds of six (20 rounds after 15 deploys
// each), so that both see the same load; each one's median CPU and wall-clock time per deploy.
// Usage: npm run build && node --expose-gc --import tsx bench/deploy.bench.ts
import { spawnSync } from 'node:child_process';
import { Agent, request } from 'node:http';
import { report } from './report.ts';
import { generate } from './support/bench-definition.ts';
import { startBare } from './support/http-load.ts';
import { startBenchServer } from './support/server-process.ts';

const API = '/v1/projects/my-project/locations/us-central1';
const body = JSON.stringify({ sourceContents: generate() });
const agent = new Agent({ keepAlive: true, maxSockets: 1 });

/** One request over a keep-alive connection: the status, the answer and the milliseconds it took. */
function timed(port: number, method: string, path: string, text?: string): Promise<{ status: number; text: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const headers = text === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) };
    const req = request({ host: '127.0.0.1', port, method, path, agent, headers }, (res) => {
      let answer = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (answer += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: answer, ms: performance.now() - t0 }));
    });
    req.on('error', reject);
    req.end(text);
  });
}

/** Deploys the bench definition as workflow `id`; its wall-clock milliseconds, the server's CPU ms and the answer. */
async function deploy(emu: { port: number; cpuMicros(): Promise<number> }, id: string): Promise<{ ms: number; cpuMs: number; text: string }> {
  const c0 = await emu.cpuMicros();
  const r = await timed(emu.port, 'POST', `${API}/workflows?workflowId=${id}`, body);
  const cpuMs = ((await emu.cpuMicros()) - c0) / 1000;
  if (r.status !== 200) throw new Error(`deploy: ${r.status} ${r.text.slice(0, 300)}`);
  return { ms: r.ms, cpuMs, text: r.text };
}

/** {@link deploy}, then deletes the workflow (so the heap holds the same workflows throughout). */
async function deployAndDelete(emu: { port: number; cpuMicros(): Promise<number> }, id: string): Promise<{ ms: number; cpuMs: number; text: string }> {
  const d = await deploy(emu, id);
  const del = await timed(emu.port, 'DELETE', `${API}/workflows/${id}`);
  if (del.status !== 200) throw new Error(`delete: ${del.status} ${del.text}`);
  return d;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** What bench/support/yaml-read-floor.mjs measured in one fresh process (milliseconds). */
interface ReadFloor {
  readonly firstMs: number;
  readonly firstCpuMs: number;
  readonly steadyMs: number;
}

/** Runs bench/support/yaml-read-floor.mjs on the bench definition in a fresh node process. */
function readFloor(): ReadFloor {
  const script = new URL('./support/yaml-read-floor.mjs', import.meta.url).pathname;
  const r = spawnSync(process.execPath, [script], { input: generate(), encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`yaml-read-floor.mjs: ${r.status} ${r.stderr}`);
  return JSON.parse(r.stdout) as ReadFloor;
}

// Seven fresh processes, read by both the first-deploy and the steady lines.
const readFloors: ReadFloor[] = Array.from({ length: 7 }, readFloor);

async function first(): Promise<void> {
  const times: number[] = [];
  const cpu: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 7; i++) {
    const emu = await startBenchServer();
    let answer: string;
    try {
      const d = await deploy(emu, 'first');
      times.push(d.ms);
      cpu.push(d.cpuMs);
      answer = d.text;
    } finally {
      agent.destroy();
      await emu.close();
    }
    const floor = await startBare(answer);
    try {
      bare.push((await timed(floor.port, 'POST', `${API}/workflows?workflowId=first`, body)).ms);
    } finally {
      agent.destroy();
      floor.close();
    }
  }
  report('deploy the 126 KB definition, first request of a fresh process (median of 7)', median(times), 'ms', { value: 25, higherIsBetter: false });
  report('  its server CPU time (median of 7)', median(cpu), 'ms');
  report('  bare node:http, same request and answer, first request of a fresh process (median of 7)', median(bare), 'ms');
  report('  js-yaml as published, its first read of the definition in a fresh node process (median of 7)', median(readFloors.map((f) => f.firstMs)), 'ms');
  report('    its CPU time (median of 7)', median(readFloors.map((f) => f.firstCpuMs)), 'ms');
}

async function steady(): Promise<void> {
  const emu = await startBenchServer();
  const times: number[] = [];
  const cpu: number[] = [];
  // The 41st to the 70th deploys, after the line's: V8 is still optimizing the reader's and the compiler's functions
  // during the 11th to the 30th or so (docs/architecture.md#deploying-over-rest).
  const later: number[] = [];
  let answer = '';
  try {
    for (let i = 0; i < 70; i++) {
      const d = await deployAndDelete(emu, `steady${i}`);
      if (i >= 10 && i < 40) {
        times.push(d.ms);
        cpu.push(d.cpuMs);
      } else if (i >= 40) later.push(d.ms);
      answer = d.text;
    }
  } finally {
    agent.destroy();
    await emu.close();
  }
  const floor = await startBare(answer);
  const bare: number[] = [];
  try {
    for (let i = 0; i < 40; i++) {
      const t = (await timed(floor.port, 'POST', `${API}/workflows?workflowId=steady`, body)).ms;
      if (i >= 10) bare.push(t);
    }
  } finally {
    agent.destroy();
    floor.close();
  }
  report('deploy the 126 KB definition, steady (median of 30)', median(times), 'ms', { value: 12, higherIsBetter: false });
  report('  its server CPU time (median of 30)', median(cpu), 'ms');
  report('  bare node:http, same request and answer (median of 30)', median(bare), 'ms');
  report('  js-yaml as published, the same read steady (the 11th to the 40th of a process; median of 7 processes)', median(readFloors.map((f) => f.steadyMs)), 'ms');
  report('  the same deploy, the 41st to the 70th of the process (median of 30)', median(later), 'ms');
}

/**
 * Steady deploys of this build and of `baseline` alternated (see the head of this file); reports each one's
 * median CPU time (the server's, as {@link deploy} reads it) and wall-clock time per deploy.
 */
async function againstBaseline(baseline: string): Promise<void> {
  const builds = [
    { label: 'this build', server: await startBenchServer(), n: 0, cpu: [] as number[], ms: [] as number[] },
    { label: `baseline ${baseline}`, server: await startBenchServer(baseline), n: 0, cpu: [] as number[], ms: [] as number[] },
  ];
  try {
    const deploys = async (b: (typeof builds)[number], count: number, keep: boolean): Promise<void> => {
      for (let i = 0; i < count; i++) {
        const d = await deployAndDelete(b.server, `ab${b.n++}`);
        if (keep) {
          b.cpu.push(d.cpuMs);
          b.ms.push(d.ms);
        }
      }
    };
    for (const b of builds) await deploys(b, 15, false);
    for (let round = 0; round < 20; round++) for (const b of round % 2 ? [...builds].reverse() : builds) await deploys(b, 6, true);
  } finally {
    agent.destroy();
    for (const b of builds) await b.server.close();
  }
  for (const b of builds) {
    report(`deploy the 126 KB definition, steady, ${b.label}, alternated (median of 120): server CPU time`, median(b.cpu), 'ms');
    report(`deploy the 126 KB definition, steady, ${b.label}, alternated (median of 120): wall clock`, median(b.ms), 'ms');
  }
}

await first();
await steady();
if (process.env.BENCH_BASELINE) await againstBaseline(process.env.BENCH_BASELINE);
