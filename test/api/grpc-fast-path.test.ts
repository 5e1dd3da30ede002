// Differential test of the gRPC port's plain-gRPC fast path (src/api/grpc-stream.ts `serveUnaryGrpc`, which
// answers a unary gRPC call itself) against Connect's own handler: the same RPCs over the same service core,
// served by @connectrpc/connect-node's `connectNodeAdapter` with the router options of the emulator
// (src/api/grpc-routes.ts GRPC_ROUTER_OPTIONS). Both are driven over real HTTP/2 sockets with generated
// requests (metadata, `grpc-timeout` valid and malformed, compression headers and envelope flags, unknown
// methods, malformed and oversized messages) and must answer with the same HTTP status, response headers,
// gRPC status, message and response messages. The wire protocol they both follow:
// https://github.com/grpc/grpc/blob/master/doc/PROTOCOL-HTTP2.md
//
// FUZZ_RUNS / FUZZ_SEED / FUZZ_PATH replay as in test/fuzz (test/fuzz/config.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { connect, constants, createServer, type ClientHttp2Session, type Http2Server, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http2';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { create, toBinary, type DescMessage, type DescMethod } from '@bufbuild/protobuf';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { Workflows } from '../../gen/google/cloud/workflows/v1/workflows_pb.ts';
import { Executions } from '../../gen/google/cloud/workflows/executions/v1/executions_pb.ts';
import { Operations } from '../../gen/google/longrunning/operations_pb.ts';
import { GRPC_ROUTER_OPTIONS } from '../../src/api/grpc-routes.ts';
import { MAX_REQUEST_BYTES } from '../../src/platform/request-body.ts';
import { allRpcs } from '../../src/api/grpc-services.ts';
import { startInProcessGrpc, type InProcessGrpc } from '../support/connect-clients.ts';
import { params, FUZZ_SEED } from '../fuzz/config.ts';
import { assertSame } from '../support/differential.ts';

const s = suite<{ grpc: InProcessGrpc; reference: Http2Server; fast: ClientHttp2Session; general: ClientHttp2Session }>(
  `api gRPC fast path against Connect's handler (seed ${FUZZ_SEED})`,
);

const PARENT = 'projects/my-project/locations/us-central1';
const WORKFLOW = `${PARENT}/workflows/known`;

s.before(async (ctx) => {
  ctx.grpc = await startInProcessGrpc();
  const core = ctx.grpc.core;
  core.createWorkflow('known', { sourceContents: 'main:\n  steps:\n    - r:\n        return: 1\n' });
  ctx.reference = createServer(
    connectNodeAdapter({
      ...GRPC_ROUTER_OPTIONS,
      routes: (router) => {
        for (const { service, rpcs } of allRpcs(core)) router.service(service, rpcs as never);
      },
    }),
  );
  await new Promise<void>((resolve) => ctx.reference.listen(0, '127.0.0.1', resolve));
  ctx.fast = connect(`http://127.0.0.1:${ctx.grpc.server.port}`);
  ctx.general = connect(`http://127.0.0.1:${(ctx.reference.address() as AddressInfo).port}`);
});

s.after(async (ctx) => {
  ctx.fast.close();
  ctx.general.close();
  await new Promise<void>((resolve) => ctx.reference.close(() => resolve()));
  await ctx.grpc.close();
});

/** The unary RPCs sent: read-only ones, so every request finds the same state on both servers. */
const METHODS: readonly DescMethod[] = [
  Workflows.method.getWorkflow,
  Workflows.method.listWorkflows,
  Workflows.method.listWorkflowRevisions,
  Executions.method.getExecution,
  Executions.method.listExecutions,
  Operations.method.getOperation,
];

/** What a request targets: one of {@link METHODS} or a path no route serves. */
const target = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...METHODS.map((m) => ({ method: m as DescMethod | undefined, path: `/${m.parent.typeName}/${m.name}` }))) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      { method: undefined, path: '/google.cloud.workflows.v1.Workflows/Nope' },
      { method: undefined, path: '/nope.Service/GetWorkflow' },
      { method: undefined, path: '/' },
      { method: Workflows.method.getWorkflow as DescMethod | undefined, path: '/google.cloud.workflows.v1.Workflows/GetWorkflow?x=1' },
    ),
  },
);

/** Request message fields, by name, set where the request message has them. */
const fields = fc.record({
  name: fc.constantFrom(WORKFLOW, `${PARENT}/workflows/absent`, 'not/a/name', '', `${WORKFLOW}/executions/e1`, `${PARENT}/operations/op-1`, 'projects/other/locations/x/workflows/y'),
  parent: fc.constantFrom(PARENT, `${WORKFLOW}`, 'projects/other/locations/us-central1', ''),
  pageSize: fc.integer({ min: -2, max: 2000 }),
  filter: fc.constantFrom('', 'state="ACTIVE"', 'nonsense ===', 'name:"known"'),
  orderBy: fc.constantFrom('', 'name', 'createTime desc', 'bogus'),
});

/** `schema`'s message with those of `values` it has a field of the same local name for. */
function messageOf(schema: DescMessage, values: Record<string, unknown>): Uint8Array {
  const init: Record<string, unknown> = {};
  for (const f of schema.fields) if (f.localName in values) init[f.localName] = values[f.localName];
  return toBinary(schema, create(schema, init as never));
}

/** A gRPC length-prefixed message: compressed flag, declared length (by default the true one), bytes. */
function envelope(bytes: Uint8Array, flag = 0, declared = bytes.length): Buffer {
  const out = Buffer.alloc(5 + bytes.length);
  out[0] = flag;
  out.writeUInt32BE(declared, 1);
  out.set(bytes, 5);
  return out;
}

type BodyKind = 'message' | 'declared-longer' | 'declared-shorter' | 'short-prefix' | 'empty' | 'two-messages' | 'gzip-flagged' | 'flag-without-data' | 'garbage' | 'oversized';

/** The request body of `kind` around the encoded message `bytes` (`noise` for the garbage kind). */
function bodyOf(kind: BodyKind, bytes: Uint8Array, noise: Uint8Array): Buffer {
  switch (kind) {
    case 'message':
      return envelope(bytes);
    case 'declared-longer':
      return envelope(bytes, 0, bytes.length + 3);
    case 'declared-shorter':
      return envelope(bytes, 0, Math.max(0, bytes.length - 1));
    case 'short-prefix':
      return envelope(bytes).subarray(0, 3);
    case 'empty':
      return Buffer.alloc(0);
    case 'two-messages':
      return Buffer.concat([envelope(bytes), envelope(bytes)]);
    case 'gzip-flagged':
      return envelope(gzipSync(bytes), 1);
    case 'flag-without-data':
      return envelope(bytes, 1);
    case 'garbage':
      return envelope(noise);
    case 'oversized':
      return envelope(Buffer.alloc(MAX_REQUEST_BYTES + 1, 0x0a));
  }
}

const bodyKind: fc.Arbitrary<BodyKind> = fc.oneof(
  { weight: 12, arbitrary: fc.constant<BodyKind>('message') },
  { weight: 6, arbitrary: fc.constantFrom<BodyKind>('declared-longer', 'declared-shorter', 'short-prefix', 'empty', 'two-messages', 'gzip-flagged', 'flag-without-data', 'garbage') },
  { weight: 1, arbitrary: fc.constant<BodyKind>('oversized') },
);

/** Header text without the white space HTTP/2 trims and the characters it refuses. */
const headerText = (chars: string, maxLength: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...chars), maxLength }).map((t) => t.trim());

/** `grpc-timeout`: none, a valid one (1-8 digits and a unit) or anything else a client could send. */
const timeout: fc.Arbitrary<string | undefined> = fc.oneof(
  fc.constant(undefined),
  // Valid ones stay under 2^31 ms: Connect arms a timer with the deadline, and Node turns a longer one into 1 ms.
  fc.tuple(fc.integer({ min: 1, max: 500 }), fc.constantFrom('H', 'M', 'S', 'm', 'u', 'n')).map(([n, unit]) => `${n}${unit}`),
  fc.integer({ min: 1, max: 99_999_999 }).map((n) => `${n}m`),
  fc.constantFrom('abc', '123456789S', '10s', '-1S', '1.5S', 'S', '1', '1 S', '+1S', '0x10S', '1SS', '1h'),
  headerText('0123456789HMSmunxs.-+ ', 12),
);

/** Custom metadata (`x-…`, some binary `-bin` ones) that neither path interprets. */
const metadata = fc.dictionary(
  fc.tuple(headerText('abcdefghijklmnopqrstuvwxyz0123456789-', 10), fc.boolean()).map(([k, bin]) => `x-${k || 'k'}${bin ? '-bin' : ''}`),
  headerText('abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/=:;,. _-', 24),
  { maxKeys: 3 },
);

const request = fc.record({
  target,
  fields,
  kind: bodyKind,
  noise: fc.uint8Array({ maxLength: 24 }),
  httpMethod: fc.oneof({ weight: 15, arbitrary: fc.constant('POST') }, { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT') }),
  contentType: fc.oneof(
    { weight: 10, arbitrary: fc.constantFrom('application/grpc', 'application/grpc+proto') },
    { weight: 1, arbitrary: fc.constantFrom('application/grpc+json', 'application/json', 'text/plain', 'APPLICATION/GRPC', 'application/grpc+PROTO') },
  ),
  encoding: fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 3, arbitrary: fc.constantFrom('identity', 'gzip', 'br', 'snappy', 'Identity') }),
  acceptEncoding: fc.constantFrom(undefined, 'identity', 'gzip', 'br,gzip', 'identity,deflate,gzip', 'snappy'),
  timeout,
  metadata,
});

type Request = typeof request extends fc.Arbitrary<infer R> ? R : never;

/** What the comparison looks at: one answer, normalised so that equal answers are deeply equal. */
interface Answer {
  status: number | undefined;
  headers: Record<string, string>;
  grpcStatus: string | undefined;
  grpcMessage: string | undefined;
  /** Each response message, decompressed, as hex. */
  messages: string[];
  /** The RST_STREAM code, when the stream was reset instead. */
  reset?: number;
}

/**
 * Headers compared: the status, every header except those that are the transport's own business
 * (`date`), and `grpc-encoding` (see {@link answerOf}).
 */
const IGNORED_HEADERS = new Set([':status', 'date', 'grpc-status', 'grpc-message', 'grpc-encoding', 'grpc-status-details-bin']);

/**
 * Sends `r` on `h2`, or for an oversized message on a connection of its own to the same server: Connect's
 * Node adapter leaves the unread rest of a refused request in the session's buffers, and nghttp2 refuses
 * further streams of a session over its memory limit (ENHANCE_YOUR_CALM), which would fail requests after it.
 */
async function sendOn(h2: ClientHttp2Session, r: Request): Promise<Answer> {
  if (r.kind !== 'oversized') return send(h2, r);
  const own = connect(`http://${(h2.socket.remoteAddress ?? '127.0.0.1')}:${h2.socket.remotePort}`);
  try {
    return await send(own, r);
  } finally {
    own.destroy();
  }
}

/** Sends `r` on `h2` and normalises the answer. */
function send(h2: ClientHttp2Session, r: Request): Promise<Answer> {
  const schema = r.target.method?.input;
  const bytes = schema ? messageOf(schema, r.fields) : new Uint8Array([0x0a, 0x01, 0x78]);
  const body = bodyOf(r.kind, bytes, r.noise);
  const headers: OutgoingHttpHeaders = { ':method': r.httpMethod, ':path': r.target.path, 'content-type': r.contentType, te: 'trailers', ...r.metadata };
  if (r.encoding !== undefined) headers['grpc-encoding'] = r.encoding;
  if (r.acceptEncoding !== undefined) headers['grpc-accept-encoding'] = r.acceptEncoding;
  if (r.timeout !== undefined) headers['grpc-timeout'] = r.timeout;
  return new Promise((resolve, reject) => {
    const stream = h2.request(headers);
    let head: IncomingHttpHeaders = {};
    let trailers: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => (head = h));
    stream.on('trailers', (t) => (trailers = t));
    stream.on('data', (d: Buffer) => chunks.push(d));
    stream.on('error', () => {});
    let done = false;
    const finish = (rstCode: number): void => {
      if (done) return;
      done = true;
      try {
        resolve(answerOf(head, trailers, Buffer.concat(chunks), rstCode));
      } catch (e) {
        reject(e);
      }
    };
    // The answer is complete at its end; a server that answered before reading the whole request (an
    // oversized message) may leave the request half-sent, so the client then cancels it.
    stream.on('end', () => {
      finish(0);
      if (!stream.closed) stream.close(constants.NGHTTP2_CANCEL);
    });
    stream.on('close', () => finish(stream.rstCode));
    stream.end(body);
  });
}

/**
 * The normalised answer. `grpc-message` is compared percent-decoded (the emulator re-encodes it minimally for
 * @grpc/grpc-js, src/api/grpc-routes.ts `minimalGrpcMessage`; Connect encodes like encodeURIComponent: the
 * same text). Response messages are compared decompressed: Connect compresses a response of 1 KiB or more
 * that the client accepts compressed (`grpc-accept-encoding`), the fast path never compresses, which gRPC
 * allows (PROTOCOL-HTTP2.md: the server may send uncompressed messages to any client).
 */
function answerOf(head: IncomingHttpHeaders, trailers: IncomingHttpHeaders, body: Buffer, rstCode: number): Answer {
  const all = { ...head, ...trailers };
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(head)) if (!IGNORED_HEADERS.has(k)) headers[k] = String(v);
  const messages: string[] = [];
  const encoding = all['grpc-encoding'];
  for (let at = 0; at + 5 <= body.length; ) {
    const length = body.readUInt32BE(at + 1);
    let bytes = body.subarray(at + 5, at + 5 + length);
    if (body[at] === 1) bytes = encoding === 'gzip' ? gunzipSync(bytes) : encoding === 'br' ? brotliDecompressSync(bytes) : Buffer.from(`undecodable ${encoding}`);
    messages.push(bytes.toString('hex'));
    at += 5 + length;
  }
  const raw = all['grpc-message'] as string | undefined;
  return {
    status: head[':status'] as number | undefined,
    headers,
    grpcStatus: all['grpc-status'] as string | undefined,
    grpcMessage: raw === undefined ? undefined : decodeURIComponent(raw),
    messages,
    ...(rstCode !== 0 ? { reset: rstCode } : {}),
  };
}

/**
 * Requests every run of the property starts with: each malformed `grpc-timeout` Connect refuses (the fast
 * path once answered them), an oversized message and a gzip-compressed one.
 */
const CHANGES: Partial<Request>[] = [
  ...['abc', '123456789S', '1.5S', '10s'].map((t): Partial<Request> => ({ timeout: t })),
  { kind: 'oversized' },
  { kind: 'gzip-flagged', encoding: 'gzip', acceptEncoding: 'gzip' },
];
const EXAMPLES: [Request][] = CHANGES.map((change): [Request] => [
  {
    target: { method: Workflows.method.getWorkflow as DescMethod | undefined, path: '/google.cloud.workflows.v1.Workflows/GetWorkflow' },
    fields: { name: WORKFLOW, parent: PARENT, pageSize: 0, filter: '', orderBy: '' },
    kind: 'message' as BodyKind,
    noise: new Uint8Array(0),
    httpMethod: 'POST',
    contentType: 'application/grpc',
    encoding: undefined,
    acceptEncoding: undefined,
    timeout: undefined,
    metadata: {},
    ...change,
  },
]);

s("generated gRPC requests get the same status, headers, trailers and messages from the fast path as from Connect's handler (PROTOCOL-HTTP2.md)", async (ctx) => {
  await assertSame(
    fc.asyncProperty(request, async (r) => {
      const fast = await sendOn(ctx.fast, r);
      const general = await sendOn(ctx.general, r);
      assert.equal(fast, general, `fast path (emulator port) vs Connect's handler for ${describe(r)}`);
    }),
    params(100, EXAMPLES),
  );
});

/** A one-line account of `r` for the failure message. */
function describe(r: Request): string {
  const { target: t, fields: _f, noise: _n, ...rest } = r;
  return `${t.path} ${JSON.stringify(rest)}`;
}

s.run();
