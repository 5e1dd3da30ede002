// Benchmark (issue 5): GetExecution throughput over gRPC as a ratio to the same call over REST, in the same
// run, against the built emulator (dist/emulator.js, `npm run build` first) in its own process. Both surfaces
// are driven with the same number of requests in flight for the same time, after a warm-up, on one
// execution that has finished: gRPC with Connect's gRPC client over one HTTP/2 connection (and, for
// reference, Google's own client on @grpc/grpc-js), REST with fetch over keep-alive HTTP/1.1.
// Usage: node --expose-gc --import tsx bench/grpc.bench.ts [seconds-per-measure]
import * as grpc from '@grpc/grpc-js';
import { connect as connect_ } from 'node:net';
import { createClient } from '@connectrpc/connect';
import { createGrpcTransport } from '@connectrpc/connect-node';
import { ExecutionsClient } from '@google-cloud/workflows';
import { Executions } from '../gen/google/cloud/workflows/executions/v1/executions_pb.ts';
import { startEmulator } from '../test/support/emulator.ts';
import { report } from './report.ts';

const MEASURE_MS = Number(process.argv[2] ?? 3) * 1000;
const WARMUP_MS = 1000;
/** Requests in flight at once, on every surface. */
const CONCURRENCY = 32;

/** Calls `fn` with CONCURRENCY loops for `ms`; returns completed calls per second. */
async function throughput(fn: () => Promise<unknown>, ms: number): Promise<number> {
  const end = performance.now() + ms;
  let done = 0;
  const start = performance.now();
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

const emulator = await startEmulator({ workflowsDir: false });
try {
  if (emulator.grpcPort === undefined) throw new Error('the emulator printed no gRPC port');
  const source = 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args}\n';
  const created = await emulator.request('POST', '/workflows?workflowId=bench', { sourceContents: source });
  if (created.status !== 200) throw new Error(`create workflow: ${created.status} ${created.text}`);
  const execution = await emulator.request('POST', '/workflows/bench/executions', { argument: JSON.stringify({ items: [1, 2, 3], name: 'bench' }) });
  const name: string = execution.body.name;
  for (let i = 0; i < 100 && (await emulator.request('GET', `/v1/${name}`)).body.state === 'ACTIVE'; i++) {
    await new Promise((r) => setTimeout(r, 10));
  }

  const restUrl = `${emulator.url}/v1/${name}`;
  const rest = async () => {
    const res = await fetch(restUrl);
    if (res.status !== 200) throw new Error(`REST GET ${res.status}`);
    await res.arrayBuffer();
  };
  // TCP_NODELAY on the client's socket, as undici's fetch and grpc-js set it: without it small requests wait
  // for the server's delayed ACK and the measure is of Nagle's algorithm, not of the emulator.
  const grpcPort = emulator.grpcPort;
  const connect = createClient(
    Executions,
    createGrpcTransport({
      baseUrl: `http://127.0.0.1:${grpcPort}`,
      nodeOptions: { createConnection: () => connect_({ port: grpcPort, host: '127.0.0.1', noDelay: true }) },
    }),
  );
  const viaConnect = () => connect.getExecution({ name });
  const auth = {
    getClient: async () => ({ getRequestHeaders: async () => new Headers() }),
    getUniverseDomain: async () => 'googleapis.com',
    getProjectId: async () => 'my-project',
  };
  const google = new ExecutionsClient({ servicePath: '127.0.0.1', port: emulator.grpcPort, sslCreds: grpc.credentials.createInsecure(), auth } as never);
  const viaGoogle = () => google.getExecution({ name });

  // Alternate the order so neither surface always runs on a warmer process.
  const restFirst = await measure(rest);
  const grpcRate = await measure(viaConnect);
  const restSecond = await measure(rest);
  const googleRate = await measure(viaGoogle);
  const restRate = (restFirst + restSecond) / 2;
  await google.close();

  report('GetExecution over REST (fetch, HTTP/1.1 keep-alive)', restRate, 'req/s');
  report('GetExecution over gRPC (Connect client, h2c)', grpcRate, 'req/s');
  report('GetExecution over gRPC (Google client, grpc-js)', googleRate, 'req/s');
  report('GetExecution throughput gRPC / REST (same run)', grpcRate / restRate, 'x');
} finally {
  await emulator.close();
}
