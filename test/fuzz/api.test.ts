// Fuzz: bodies, paths and methods sent to the REST API of a real server on a free port (docs/rest-api.md#endpoints,
// docs/api-resources.md#errors): every answer is a status the API documents with Google's JSON error shape for errors, never a
// 500, and the server keeps serving (docs/api-resources.md#errors: "no request can crash the server").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { anyString } from './values.ts';
import { startServer, type RunningServer } from '../../src/server.ts';
import { params, FUZZ_SEED } from './config.ts';

const s = suite(`fuzz: REST API bodies (seed ${FUZZ_SEED})`);

let server: RunningServer;
let api = '';
s.before(async () => {
  server = await startServer({ host: '127.0.0.1', port: 0, grpcPort: 0, service: { log: () => {} } });
  api = `${server.url}/v1/projects/my-project/locations/us-central1`;
  const r = await fetch(`${api}/workflows?workflowId=known`, {
    method: 'POST',
    body: JSON.stringify({ sourceContents: 'main:\n  params: [a]\n  steps:\n    - r:\n        return: ${a}\n' }),
  });
  assert.is(r.status, 200);
});
s.after(async () => {
  await server.close();
});

/** JSON values of every shape, as a client could send them. */
const json: fc.Arbitrary<unknown> = fc.letrec<{ j: unknown }>((tie) => ({
  j: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, 0, -1, 1e308, 12345678901234567890, '', 'x', '__proto__', 'main:\n  steps: []', '{"a":1}', '${1/0}'),
    anyString({ maxLength: 30 }),
    fc.array(tie('j'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('sourceContents', 'description', 'argument', 'name', 'state', '__proto__', 'constructor', 'callLogLevel', 'labels', 'x'), tie('j'), { maxKeys: 4 }),
  ),
})).j;

/** A body: JSON text of a value, a broken prefix of one, or a deeply nested one. */
const body: fc.Arbitrary<string> = fc.oneof(
  json.map((v) => JSON.stringify(v) ?? ''),
  fc.tuple(json, fc.nat()).map(([v, n]) => (JSON.stringify(v) ?? '').slice(0, n % 50)),
  fc.integer({ min: 1, max: 200_000 }).map((d) => '{"argument":' + '['.repeat(d) + ']'.repeat(d) + '}'),
  anyString({ maxLength: 80 }),
);

const path = fc.constantFrom(
  '/workflows',
  '/workflows?workflowId=fuzzed',
  '/workflows?workflowId=known',
  '/workflows/known',
  '/workflows/known/executions',
  '/workflows/known/executions/00000000-0000-0000-0000-000000000000',
  '/workflows/known/executions/x:cancel',
  '/workflows/%ZZ',
  '/workflows?workflowId=' + 'a'.repeat(200),
  '/workflows/known?updateMask=description,sourceContents',
  '/workflows?$alt=json%3Benum-encoding%3Dint&workflowId=viaalt',
);

const DOCUMENTED = new Set([200, 400, 404, 405, 409, 413, 429]);

s('any body on any path gets a documented status with Google\'s error shape, never a 500', async () => {
  await fc.assert(
    fc.asyncProperty(fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT'), path, body, async (method, p, b) => {
      const r = await fetch(api + p, {
        method,
        headers: { 'content-type': 'application/json' },
        ...(method === 'GET' ? {} : { body: b }),
      });
      const text = await r.text();
      if (!DOCUMENTED.has(r.status)) throw new Error(`${method} ${p}: status ${r.status}: ${text.slice(0, 300)}`);
      if (r.status >= 400) {
        const e = JSON.parse(text).error;
        if (typeof e?.code !== 'number' || typeof e?.message !== 'string' || typeof e?.status !== 'string') {
          throw new Error(`${method} ${p}: not Google's error shape: ${text.slice(0, 300)}`);
        }
      }
    }),
    params(300),
  );
  const alive = await fetch(`${api}/workflows`);
  assert.is(alive.status, 200, 'still serving');
});

s.run();
