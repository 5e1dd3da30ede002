// Differential test of the REST port's route matching fast path (src/api/rest-routes.ts `matchRoute`, which
// remembers the match of each method and path) against the general one it stands in for (`matchPath`, the
// route table read in order: the protos' google.api.http rules,
// https://cloud.google.com/endpoints/docs/grpc-service-config/reference/rpc/google.api#httprule): generated
// methods and paths (every route's template with generated segments, custom verbs, extra and empty segments,
// junk) match the same, asked once and again, and after more paths than the cache keeps.
//
// FUZZ_RUNS / FUZZ_SEED / FUZZ_PATH replay as in test/fuzz (test/fuzz/config.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { matchPath, matchRoute, RPC_HTTP_RULES } from '../../src/api/rest-routes.ts';
import { params, FUZZ_SEED } from '../fuzz/config.ts';
import { assertSame } from '../support/differential.ts';

const s = suite(`api route matching: remembered matches against the route table read in order (seed ${FUZZ_SEED})`);

const TEMPLATES = [
  ...RPC_HTTP_RULES.map((r) => r.template),
  '/v1/{parent=projects/*/locations/*/workflows/*/executions/*}/stepEntries',
  '/v1/{name=projects/*/locations/*/workflows/*/executions/*/stepEntries/*}',
  '/v1/{parent=projects/*/locations/*/workflows/*/executions/*}/callbacks',
];

/** A segment a client could send: a name, empty, or with a custom verb or other punctuation. */
const segment = fc.oneof(
  fc.constantFrom('p', 'l', 'w', 'e', 'executions', 'workflows', 'operations', '', 'e:cancel', 'w:listRevisions', 'x:', ':cancel', '%2F', 'stepEntries', 'callbacks'),
  fc.string({ maxLength: 6 }),
);

/** A path from one route's template, its `*` and `{...}` filled with generated segments, maybe changed. */
const path = fc
  .tuple(fc.constantFrom(...TEMPLATES), fc.array(segment, { minLength: 8, maxLength: 8 }), fc.constantFrom('', '/', '/x', ':cancel', ':listRevisions', ':nope'), fc.boolean())
  .map(([template, fills, suffix, dropLast]) => {
    let i = 0;
    const concrete = template.replace(/\{[^=}]+=([^}]*)\}/g, '$1').replace(/\*/g, () => fills[i++]!);
    const parts = concrete.split('/');
    if (dropLast) parts.pop();
    return parts.join('/') + suffix;
  });
const method = fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS', 'get');

s('every method and path matches as the route table read in order does, asked once and again', async () => {
  await assertSame(
    fc.property(method, fc.oneof(path, fc.string({ maxLength: 40 })), (m, p) => {
      const general = matchPath(m, p);
      assert.equal(matchRoute(m, p), general, 'first');
      assert.equal(matchRoute(m, p), general, 'again');
    }),
    params(500),
  );
});

s('after more paths than it keeps, every path still matches as the route table says', () => {
  const paths = Array.from({ length: 1300 }, (_, i) => `/v1/projects/p/locations/l/workflows/w${i}/executions/e${i % 7}`);
  for (const p of paths) assert.equal(matchRoute('GET', p), matchPath('GET', p));
  for (const p of paths.slice(0, 20)) assert.equal(matchRoute('GET', p), matchPath('GET', p));
  const m = matchRoute('GET', paths[3]!);
  assert.ok(typeof m === 'object' && m.route.name === 'GetExecution');
  assert.is(matchRoute('GET', `${paths[3]}:cancel`), 'other-method');
  assert.is(matchRoute('GET', '/v1/projects/p/locations/l/nothing'), undefined);
});

s.run();
