import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, constants, type ClientHttp2Session, type IncomingHttpHeaders } from 'node:http2';
import { create, toBinary } from '@bufbuild/protobuf';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { compressionGzip, createGrpcTransport } from '@connectrpc/connect-node';
import { GetWorkflowRequestSchema, Workflows } from '../../gen/google/cloud/workflows/v1/workflows_pb.ts';
import type { GrpcServer } from '../../src/api/grpc.ts';
import { MAX_REQUEST_BYTES } from '../../src/platform/request-body.ts';
import type { ServiceCore } from '../../src/service/model.ts';
import { connectTransports, startInProcessGrpc, type InProcessGrpc } from '../support/connect-clients.ts';

// docs/grpc.md#the-grpc-api over the stream adapter (src/api/grpc-stream.ts): every protocol the port speaks with
// messages larger than HTTP/2's 64 KB flow-control window, the 4 MB request limit (RESOURCE_EXHAUSTED, as
// gRPC's own default), compressed requests, the plain-gRPC fast path answering like Connect's handler, and
// clients that reset their streams half-way.
const s = suite<{ grpc: InProcessGrpc; core: ServiceCore & { close(): void }; server: GrpcServer; url: string }>('api grpc-stream (HTTP/2 stream adapter)');

const PARENT = 'projects/my-project/locations/us-central1';

s.before(async (ctx) => {
  ctx.grpc = await startInProcessGrpc();
  ctx.core = ctx.grpc.core;
  ctx.server = ctx.grpc.server;
  ctx.url = `http://127.0.0.1:${ctx.server.port}`;
});

s.after((ctx) => ctx.grpc.close());

const transports = connectTransports;

/** A valid workflow source of about `bytes` bytes: one step assigning a long string. */
function bigSource(bytes: number, tag: string): string {
  return `main:\n  steps:\n    - fill:\n        assign:\n          - text: "${tag}${'x'.repeat(bytes - 80)}"\n    - done:\n        return: \${len(text)}\n`;
}

for (const [protocol, make] of Object.entries(transports)) {
  const slug = protocol.toLowerCase().replace(/[^a-z]/g, '');
  s(`${protocol}: a 120 KB source goes in and comes back whole, and a 600 KB list answers (docs/grpc.md#the-grpc-api)`, async (ctx) => {
    const workflows = createClient(Workflows, make({ baseUrl: ctx.url, httpVersion: '2' }));
    for (let i = 0; i < 5; i++) {
      const source = bigSource(120 * 1024, `${slug}${i}`);
      await workflows.createWorkflow({ parent: PARENT, workflowId: `big-${slug}-${i}`, workflow: { sourceCode: { case: 'sourceContents', value: source } } });
      const got = await workflows.getWorkflow({ name: `${PARENT}/workflows/big-${slug}-${i}` });
      assert.is(got.sourceCode.value, source);
    }
    const listed = await workflows.listWorkflows({ parent: PARENT });
    const mine = listed.workflows.filter((w) => w.name.includes(`/big-${slug}-`));
    assert.is(mine.length, 5);
    for (const w of mine) assert.ok((w.sourceCode.value as string).length > 120 * 1024 - 100);
  });

  s(`${protocol}: a request message over 4 MB is refused with RESOURCE_EXHAUSTED and the port keeps serving (docs/api-resources.md#limits)`, async (ctx) => {
    const workflows = createClient(Workflows, make({ baseUrl: ctx.url, httpVersion: '2' }));
    try {
      await workflows.createWorkflow({
        parent: PARENT,
        workflowId: `huge-${slug}`,
        workflow: { description: 'd'.repeat(MAX_REQUEST_BYTES + 10), sourceCode: { case: 'sourceContents', value: bigSource(200, 'h') } },
      });
      assert.unreachable();
    } catch (e) {
      assert.instance(e, ConnectError);
      assert.is((e as ConnectError).code, Code.ResourceExhausted);
    }
    try {
      await workflows.getWorkflow({ name: `${PARENT}/workflows/huge-${slug}` });
      assert.unreachable();
    } catch (e) {
      assert.is((e as ConnectError).code, Code.NotFound, 'nothing was created');
    }
  });
}

s('gzip-compressed gRPC requests are answered, with the same errors as plain ones (Connect negotiates compression)', async (ctx) => {
  const plain = createClient(Workflows, createGrpcTransport({ baseUrl: ctx.url }));
  const gzip = createClient(Workflows, createGrpcTransport({ baseUrl: ctx.url, sendCompression: compressionGzip, compressMinBytes: 0 }));
  const source = bigSource(4096, 'gz');
  await gzip.createWorkflow({ parent: PARENT, workflowId: 'gzipped', workflow: { sourceCode: { case: 'sourceContents', value: source } } });
  assert.is((await plain.getWorkflow({ name: `${PARENT}/workflows/gzipped` })).sourceCode.value, source);
  const failures: ConnectError[] = [];
  for (const client of [plain, gzip]) {
    for (const name of [`${PARENT}/workflows/absent`, 'not/a/name', `projects/other/locations/us-central1/workflows/x`]) {
      try {
        await client.getWorkflow({ name });
        assert.unreachable();
      } catch (e) {
        failures.push(e as ConnectError);
      }
    }
  }
  const shown = failures.map((e) => `${e.code} ${e.rawMessage}`);
  assert.equal(shown.slice(0, 3), shown.slice(3), 'the fast path and Connect answer alike');
  assert.is(failures[0]!.code, Code.NotFound);
  assert.is(failures[1]!.code, Code.InvalidArgument);
});

/** Raw HTTP/2 requests, to send what no well-behaved client sends. */
function session(url: string): ClientHttp2Session {
  return connect(url);
}

function envelope(message: Uint8Array, declared = message.length): Uint8Array {
  const frame = new Uint8Array(5 + message.length);
  new DataView(frame.buffer).setUint32(1, declared);
  frame.set(message, 5);
  return frame;
}

/** Sends one request; resolves with the response headers, the body length and the trailers. */
function call(h2: ClientHttp2Session, path: string, body: Uint8Array, contentType = 'application/grpc'): Promise<{ headers: IncomingHttpHeaders; trailers: IncomingHttpHeaders; bytes: number }> {
  return new Promise((resolve, reject) => {
    const stream = h2.request({ ':method': 'POST', ':path': path, 'content-type': contentType, te: 'trailers' });
    let headers: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    let bytes = 0;
    stream.on('response', (h) => (headers = h));
    stream.on('trailers', (t) => (trailers = t));
    stream.on('data', (d: Buffer) => (bytes += d.length));
    stream.on('end', () => resolve({ headers, trailers, bytes }));
    stream.on('error', reject);
    stream.end(body);
  });
}

const GET_WORKFLOW = '/google.cloud.workflows.v1.Workflows/GetWorkflow';

s('malformed gRPC bodies get a gRPC error status, and an unknown method a 404 (gRPC over HTTP/2)', async (ctx) => {
  const h2 = session(ctx.url);
  try {
    const message = toBinary(GetWorkflowRequestSchema, create(GetWorkflowRequestSchema, { name: `${PARENT}/workflows/absent` }));
    const ok = await call(h2, GET_WORKFLOW, envelope(message));
    assert.is(ok.headers[':status'], 200);
    assert.is(ok.headers['content-type'], 'application/grpc+proto');
    assert.is(ok.trailers['grpc-status'], String(Code.NotFound));
    for (const body of [envelope(message, message.length + 10), new Uint8Array([0, 0, 0]), envelope(new Uint8Array([0xff, 0xff, 0xff])), new Uint8Array(0)]) {
      const bad = await call(h2, GET_WORKFLOW, body);
      assert.is(bad.headers[':status'], 200);
      assert.ok(!['0', undefined].includes(bad.trailers['grpc-status'] as string), `grpc-status ${bad.trailers['grpc-status']} for ${body.length} bytes`);
    }
    const unknown = await call(h2, '/google.cloud.workflows.v1.Workflows/Nope', envelope(message));
    assert.is(unknown.headers[':status'], 404);
  } finally {
    h2.close();
  }
});

for (const [protocol, contentType] of [
  ['gRPC', 'application/grpc'],
  ['Connect', 'application/proto'],
] as const) {
  s(`${protocol}: clients that reset their stream half-way leave the server serving, with nothing unhandled (cancellation)`, async (ctx) => {
    const problems: unknown[] = [];
    const onProblem = (e: unknown): void => void problems.push(e);
    process.on('unhandledRejection', onProblem);
    process.on('uncaughtException', onProblem);
    const h2 = session(ctx.url);
    try {
      const message = toBinary(GetWorkflowRequestSchema, create(GetWorkflowRequestSchema, { name: `${PARENT}/workflows/absent` }));
      const closed: Promise<void>[] = [];
      for (let i = 0; i < 20; i++) {
        const stream = h2.request({ ':method': 'POST', ':path': GET_WORKFLOW, 'content-type': contentType });
        stream.on('error', () => {});
        // Half a message, then RST_STREAM CANCEL (what a client does when its call is cancelled).
        stream.write(contentType === 'application/grpc' ? envelope(message).subarray(0, 8) : message.subarray(0, 5));
        closed.push(new Promise((resolve) => stream.on('close', () => resolve())));
        setTimeout(() => stream.close(constants.NGHTTP2_CANCEL), i % 3);
      }
      await Promise.all(closed);
      await new Promise((r) => setTimeout(r, 50));
      const after = await call(h2, GET_WORKFLOW, contentType === 'application/grpc' ? envelope(message) : message, contentType);
      assert.is(after.headers[':status'], contentType === 'application/grpc' ? 200 : 404);
      assert.ok(after.bytes > 0 || after.trailers['grpc-status'] !== undefined);
      assert.equal(problems, []);
    } finally {
      h2.close();
      process.off('unhandledRejection', onProblem);
      process.off('uncaughtException', onProblem);
    }
  });
}

s.run();
