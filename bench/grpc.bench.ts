// Benchmark (docs/architecture.md#the-grpc-port): GetExecution throughput over gRPC as a ratio to the same call over REST, in the same
// run, against the built emulator (dist/emulator.js, `npm run build` first) in its own process, on one
// execution that has finished. Every measure keeps the same number of calls in flight for the same time
// after a warm-up, and alternates the surfaces so neither always runs on a warmer process.
//   - protocol clients (the headline ratio: the emulator's cost, not a client library's): gRPC as raw
//     node:http2 streams with a pre-encoded request on one connection; REST as node:http GETs over
//     keep-alive connections;
//   - client libraries (what a user sees): Google's ExecutionsClient on @grpc/grpc-js against fetch.
// It also reports the server's CPU time per call on each transport (process.cpuUsage() inside the server,
// bench/support/server-process.ts), which does not depend on how loaded the machine is.
// Usage: node --expose-gc --import tsx bench/grpc.bench.ts [seconds-per-measure]
// (BENCH_SERVER_NODE_ARGS='--cpu-prof --cpu-prof-dir=prof' profiles the server under this load.)
import * as grpc from '@grpc/grpc-js';
import { connect as http2Connect } from 'node:http2';
import { Agent, get } from 'node:http';
import { connect as netConnect } from 'node:net';
import { create, toBinary } from '@bufbuild/protobuf';
import { ExecutionsClient } from '@google-cloud/workflows';
import { GetExecutionRequestSchema } from '../gen/google/cloud/workflows/executions/v1/executions_pb.ts';
import { startBenchServer, type BenchServer } from './support/server-process.ts';
import { report } from './report.ts';

const MEASURE_MS = Number(process.argv[2] ?? 3) * 1000;
const WARMUP_MS = 500;
/** Calls in flight at once, on every surface. */
const CONCURRENCY = 32;

/** Calls `fn` from CONCURRENCY loops for `ms`; returns completed calls per second and the count. */
async function throughput(fn: () => Promise<unknown>, ms: number): Promise<{ rate: number; calls: number }> {
  const start = performance.now();
  const end = start + ms;
  let done = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < end) {
        await fn();
        done++;
      }
    }),
  );
  return { rate: done / ((performance.now() - start) / 1000), calls: done };
}

/** One measure: calls per second, and the server's and the client's (this process) CPU time per call in µs. */
interface Measure {
  readonly rate: number;
  readonly cpuPerCall: number;
  readonly clientCpuPerCall: number;
}

async function measure(server: BenchServer, fn: () => Promise<unknown>): Promise<Measure> {
  await throughput(fn, WARMUP_MS);
  (globalThis as { gc?: () => void }).gc?.();
  const cpu0 = await server.cpuMicros();
  const client0 = process.cpuUsage();
  const { rate, calls } = await throughput(fn, MEASURE_MS);
  const client = process.cpuUsage(client0);
  const cpu1 = await server.cpuMicros();
  return { rate, cpuPerCall: (cpu1 - cpu0) / calls, clientCpuPerCall: (client.user + client.system) / calls };
}

/** Measures `a` and `b` twice each, interleaved (a b b a); returns their means. */
async function pair(server: BenchServer, a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[Measure, Measure]> {
  const a1 = await measure(server, a);
  const b1 = await measure(server, b);
  const b2 = await measure(server, b);
  const a2 = await measure(server, a);
  const mean = (x: Measure, y: Measure): Measure => ({
    rate: (x.rate + y.rate) / 2,
    cpuPerCall: (x.cpuPerCall + y.cpuPerCall) / 2,
    clientCpuPerCall: (x.clientCpuPerCall + y.clientCpuPerCall) / 2,
  });
  return [mean(a1, a2), mean(b1, b2)];
}

const emulator = await startBenchServer();
const api = `${emulator.url}/v1/projects/my-project/locations/us-central1`;
const post = async (path: string, body: unknown): Promise<any> => {
  const res = await fetch(api + path, { method: 'POST', body: JSON.stringify(body) });
  if (res.status !== 200) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return res.json();
};
try {
  const grpcPort = emulator.grpcPort;
  const source = 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args}\n';
  await post('/workflows?workflowId=bench', { sourceContents: source });
  const execution = await post('/workflows/bench/executions', { argument: JSON.stringify({ items: [1, 2, 3], name: 'bench' }) });
  const name: string = execution.name;
  for (let i = 0; i < 100 && ((await (await fetch(`${emulator.url}/v1/${name}`)).json()) as { state: string }).state === 'ACTIVE'; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }

  // Protocol clients. TCP_NODELAY on both, as undici and grpc-js set it (else small calls wait on Nagle).
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const restRaw = () =>
    new Promise<void>((resolve, reject) => {
      get({ host: '127.0.0.1', port: emulator.port, path: `/v1/${name}`, agent }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`REST GET ${res.statusCode}`));
        res.on('data', () => {});
        res.on('end', resolve);
      }).on('error', reject);
    });
  const session = http2Connect(`http://127.0.0.1:${grpcPort}`, {
    createConnection: () => netConnect({ port: grpcPort, host: '127.0.0.1', noDelay: true }),
  });
  const message = toBinary(GetExecutionRequestSchema, create(GetExecutionRequestSchema, { name }));
  const frame = new Uint8Array(5 + message.length);
  new DataView(frame.buffer).setUint32(1, message.length);
  frame.set(message, 5);
  const grpcRaw = () =>
    new Promise<void>((resolve, reject) => {
      const stream = session.request({
        ':method': 'POST',
        ':path': '/google.cloud.workflows.executions.v1.Executions/GetExecution',
        'content-type': 'application/grpc',
        te: 'trailers',
      });
      stream.on('trailers', (t) => {
        if (t['grpc-status'] !== '0') reject(new Error(`gRPC status ${t['grpc-status']}: ${t['grpc-message']}`));
      });
      stream.on('data', () => {});
      stream.on('end', resolve);
      stream.on('error', reject);
      stream.end(frame);
    });
  await grpcRaw();

  // Client libraries.
  const auth = {
    getClient: async () => ({ getRequestHeaders: async () => new Headers() }),
    getUniverseDomain: async () => 'googleapis.com',
    getProjectId: async () => 'my-project',
  };
  const google = new ExecutionsClient({ servicePath: '127.0.0.1', port: grpcPort, sslCreds: grpc.credentials.createInsecure(), auth } as never);
  const grpcGoogle = () => google.getExecution({ name });
  const restUrl = `${emulator.url}/v1/${name}`;
  const restFetch = async () => {
    const res = await fetch(restUrl);
    if (res.status !== 200) throw new Error(`REST GET ${res.status}`);
    await res.arrayBuffer();
  };

  const [restRawM, grpcRawM] = await pair(emulator, restRaw, grpcRaw);
  const [restFetchM, grpcGoogleM] = await pair(emulator, restFetch, grpcGoogle);
  const [restRawRate, grpcRawRate, restFetchRate, grpcGoogleRate] = [restRawM.rate, grpcRawM.rate, restFetchM.rate, grpcGoogleM.rate];
  session.close();
  agent.destroy();
  await google.close();

  report('GetExecution over REST (node:http keep-alive)', restRawRate, 'req/s');
  report('GetExecution over gRPC (node:http2 h2c)', grpcRawRate, 'req/s');
  report('GetExecution throughput gRPC / REST (protocol clients, same run)', grpcRawRate / restRawRate, 'x', { value: 0.6, higherIsBetter: true });
  report('GetExecution over REST (fetch)', restFetchRate, 'req/s');
  report("GetExecution over gRPC (Google's ExecutionsClient, grpc-js)", grpcGoogleRate, 'req/s');
  report('GetExecution throughput gRPC / REST (client libraries, same run)', grpcGoogleRate / restFetchRate, 'x', { value: 0.8, higherIsBetter: true });
  // CPU time per call: the server's (process.cpuUsage() in the emulator), then the client's (this process).
  for (const [surface, m] of [
    ['REST (node:http)', restRawM],
    ['gRPC (node:http2)', grpcRawM],
    ['REST (fetch)', restFetchM],
    ["gRPC (Google's client)", grpcGoogleM],
  ] as const) {
    report(`GetExecution server CPU per call over ${surface}`, m.cpuPerCall, 'µs');
    report(`GetExecution client CPU per call over ${surface}`, m.clientCpuPerCall, 'µs');
  }
} finally {
  await emulator.close();
}
