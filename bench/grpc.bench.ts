// Benchmark (issue 5): GetExecution throughput over gRPC as a ratio to the same call over REST, in the same
// run, against the built emulator (dist/emulator.js, `npm run build` first) in its own process, on one
// execution that has finished. Every measure keeps the same number of calls in flight for the same time
// after a warm-up, and alternates the surfaces so neither always runs on a warmer process.
//   - protocol clients (the headline ratio: the emulator's cost, not a client library's): gRPC as raw
//     node:http2 streams with a pre-encoded request on one connection; REST as node:http GETs over
//     keep-alive connections;
//   - client libraries (what a user sees): Google's ExecutionsClient on @grpc/grpc-js against fetch.
// Usage: node --expose-gc --import tsx bench/grpc.bench.ts [seconds-per-measure]
import * as grpc from '@grpc/grpc-js';
import { connect as http2Connect } from 'node:http2';
import { Agent, get } from 'node:http';
import { connect as netConnect } from 'node:net';
import { create, toBinary } from '@bufbuild/protobuf';
import { ExecutionsClient } from '@google-cloud/workflows';
import { GetExecutionRequestSchema } from '../gen/google/cloud/workflows/executions/v1/executions_pb.ts';
import { startEmulator } from '../test/support/emulator.ts';
import { report } from './report.ts';

const MEASURE_MS = Number(process.argv[2] ?? 3) * 1000;
const WARMUP_MS = 500;
/** Calls in flight at once, on every surface. */
const CONCURRENCY = 32;

/** Calls `fn` from CONCURRENCY loops for `ms`; returns completed calls per second. */
async function throughput(fn: () => Promise<unknown>, ms: number): Promise<number> {
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
  return done / ((performance.now() - start) / 1000);
}

async function measure(fn: () => Promise<unknown>): Promise<number> {
  await throughput(fn, WARMUP_MS);
  (globalThis as { gc?: () => void }).gc?.();
  return throughput(fn, MEASURE_MS);
}

/** Measures `a` and `b` twice each, interleaved (a b b a); returns their mean rates. */
async function pair(a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<[number, number]> {
  const a1 = await measure(a);
  const b1 = await measure(b);
  const b2 = await measure(b);
  const a2 = await measure(a);
  return [(a1 + a2) / 2, (b1 + b2) / 2];
}

const emulator = await startEmulator({ workflowsDir: false });
try {
  const grpcPort = emulator.grpcPort;
  if (grpcPort === undefined) throw new Error('the emulator printed no gRPC port');
  const source = 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args}\n';
  const created = await emulator.request('POST', '/workflows?workflowId=bench', { sourceContents: source });
  if (created.status !== 200) throw new Error(`create workflow: ${created.status} ${created.text}`);
  const execution = await emulator.request('POST', '/workflows/bench/executions', { argument: JSON.stringify({ items: [1, 2, 3], name: 'bench' }) });
  const name: string = execution.body.name;
  for (let i = 0; i < 100 && (await emulator.request('GET', `/v1/${name}`)).body.state === 'ACTIVE'; i++) {
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

  const [restRawRate, grpcRawRate] = await pair(restRaw, grpcRaw);
  const [restFetchRate, grpcGoogleRate] = await pair(restFetch, grpcGoogle);
  session.close();
  agent.destroy();
  await google.close();

  report('GetExecution over REST (node:http keep-alive)', restRawRate, 'req/s');
  report('GetExecution over gRPC (node:http2 h2c)', grpcRawRate, 'req/s');
  report('GetExecution throughput gRPC / REST (protocol clients, same run)', grpcRawRate / restRawRate, 'x');
  report('GetExecution over REST (fetch)', restFetchRate, 'req/s');
  report("GetExecution over gRPC (Google's ExecutionsClient, grpc-js)", grpcGoogleRate, 'req/s');
  report('GetExecution throughput gRPC / REST (client libraries, same run)', grpcGoogleRate / restFetchRate, 'x');
} finally {
  await emulator.close();
}
