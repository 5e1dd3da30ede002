// http mocks at the fetch level (docs/mocks-and-clock.md#mocks): each matching rule, sequences, raise, delay, echo, the
// unmatched modes, and that a mocked call is what a real one is to the workflow (Google's http reference:
// HttpError with code, headers and body; http.default_retry retries 503).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseMocks } from '../../src/mocks/mock-file.ts';
import { mockExecution } from '../../src/mocks/mock-interceptor.ts';
import { failure, harness, result } from '../engine/helpers.ts';

const realFetch = (() => Promise.reject(new Error('no network in this test'))) as typeof fetch;

/**
 * Deps whose http.* calls meet `mocks`: answered by the call interceptor (as the service and `run` do), or,
 * with `viaFetch`, by the execution's fetch alone (the path of a mock with no interceptor attached).
 */
function mocked(mocks: string, viaFetch = false) {
  const h = harness();
  const m = mockExecution(parseMocks(mocks, 'mocks.yaml'), { realFetch, clock: h.clock });
  const deps = { ...h.deps, fetch: m.fetch, ...(viaFetch ? {} : { hooks: { interceptor: m.interceptor } }) };
  return { h: { ...h, deps }, calls: m.calls };
}

const SHOP = `
http:
  - match: {method: GET, url: "https://api.test/users/*"}
    respond: {status: 200, headers: {x-trace: t1}, body: {name: Ada, id: 7}}
  - match: {method: [POST, PUT], url: "https://api.test/users"}
    respond: {status: 201, body: "created"}
  - match: {url: "/https://api\\\\.test/re/[0-9]+/"}
    respond: {body: {re: true}}
  - match: {url: "https://api.test/q", query: {page: 2}}
    respond: {body: page2}
  - match: {url: "https://api.test/q"}
    respond: {body: other}
  - match: {url: "https://api.test/h", headers: {X-Key: secret}}
    respond: {body: keyed}
  - match: {url: "https://pay.test/charge", body: {currency: EUR, items: [{sku: a}]}}
    respond: {body: euros}
  - match: {url: "https://pay.test/charge"}
    respond: {status: 402, headers: {x-why: money}, body: {error: declined}}
  - match: {url: "https://echo.test/*"}
    respond: {status: 200, echo: true}
`;

/** A JSON workflow making `calls` in order (results r0, r1, ...) and returning the expression `ret`. */
function wf(calls: readonly (readonly [string, Record<string, unknown>])[], ret: string): string {
  const steps: unknown[] = calls.map(([fn, args], i) => ({ [`c${i}`]: { call: fn, args, result: `r${i}` } }));
  steps.push({ done: { return: '${' + ret + '}' } });
  return JSON.stringify({ main: { steps } });
}

test('a glob url with a method answers with status, headers and a JSON body decoded as http.* decodes it', async () => {
  const { h } = mocked(SHOP);
  const out = await result(
    wf([['http.get', { url: 'https://api.test/users/7' }]], '[r0.code, r0.body.name, r0.body.id, r0.headers["x-trace"], r0.headers["content-type"]]'),
    undefined,
    h,
  );
  assert.is(out, '[200,"Ada",7,"t1","application/json; charset=utf-8"]');
});

test('a method list, a regex url, and a string body served as text', async () => {
  const { h } = mocked(SHOP);
  const out = await result(
    wf(
      [
        ['http.post', { url: 'https://api.test/users', body: { name: 'x' } }],
        ['http.put', { url: 'https://api.test/users' }],
        ['http.get', { url: 'https://api.test/re/123' }],
      ],
      '[r0.code, r0.body, r1.code, r2.body.re]',
    ),
    undefined,
    h,
  );
  assert.is(out, '[201,"created",201,true]');
});

test('query and header criteria: the first entry whose criteria all hold wins', async () => {
  const { h } = mocked(SHOP);
  const out = await result(
    wf(
      [
        ['http.get', { url: 'https://api.test/q', query: { page: 2 } }],
        ['http.get', { url: 'https://api.test/q?page=3' }],
        ['http.get', { url: 'https://api.test/h', headers: { 'x-key': 'secret' } }],
        ['http.get', { url: 'https://api.test/h', headers: { 'x-key': 'other' } }],
      ],
      '[r0.body, r1.body, r2.body, r3.code]',
    ),
    undefined,
    { ...h, deps: { ...h.deps } },
  ).catch((e: Error) => e.message);
  // The last call matches nothing and passes through to a fetch that refuses.
  assert.match(out, 'ConnectionFailedError');
  const ok = await result(
    wf(
      [
        ['http.get', { url: 'https://api.test/q', query: { page: 2 } }],
        ['http.get', { url: 'https://api.test/q?page=3' }],
        ['http.get', { url: 'https://api.test/h', headers: { 'x-key': 'secret' } }],
      ],
      '[r0.body, r1.body, r2.body]',
    ),
    undefined,
    h,
  );
  assert.is(ok, '["page2","other","keyed"]');
});

test('a body subset matches nested maps and lists; a 4xx mock raises HttpError with code, headers and body', async () => {
  const { h } = mocked(SHOP);
  const ok = await result(
    wf([['http.post', { url: 'https://pay.test/charge', body: { currency: 'EUR', amount: 5, items: [{ sku: 'a', qty: 1 }] } }]], 'r0.body'),
    undefined,
    h,
  );
  assert.is(ok, '"euros"');
  const err = await failure(wf([['http.post', { url: 'https://pay.test/charge', body: { currency: 'USD' } }]], 'r0'), undefined, h);
  assert.equal(err.tags, ['HttpError']);
  assert.is(
    err.json,
    '{"message":"HTTP server responded with error code 402","code":402,"tags":["HttpError"],"headers":{"content-type":"application/json; charset=utf-8","x-why":"money"},"body":{"error":"declined"}}',
  );
});

for (const viaFetch of [false, true]) {
test(`a sequence gives one outcome per call and repeats the last; http.default_retry retries a mocked 503${viaFetch ? ' (fetch only)' : ''}`, async () => {
  const { h, calls } = mocked(`
http:
  - match: {url: "https://pay.test/charge"}
    respond: [{status: 503}, {raise: {tags: [ConnectionError], message: "reset"}}, {status: 200, body: {ok: true}}]
`, viaFetch);
  const out = await result(
    JSON.stringify({
      main: {
        steps: [
          {
            charge: {
              try: { call: 'http.post', args: { url: 'https://pay.test/charge', body: { n: 1 } }, result: 'r' },
              retry: '${http.default_retry}',
            },
          },
          { again: { call: 'http.post', args: { url: 'https://pay.test/charge' }, result: 'r2' } },
          { done: { return: '${[r.body.ok, r2.code]}' } },
        ],
      },
    }),
    undefined,
    h,
  );
  assert.is(out, '[true,200]');
  assert.is(calls.records.length, 4);
  assert.ok(calls.records.every((r) => r.mocked && r.method === 'POST' && r.url === 'https://pay.test/charge'));
  assert.equal(calls.records[0]!.requestBody, new Map([['n', 1n]]));
});
}

/** A workflow that makes one http.get with `args` and returns the error's tags, message and the seconds it took. */
function timedGet(args: Record<string, unknown>): string {
  return JSON.stringify({
    main: {
      steps: [
        { t0: { assign: [{ t0: '${sys.now()}' }] } },
        {
          c: {
            try: { call: 'http.get', args },
            except: { as: 'e', steps: [{ back: { return: '${[e.tags, e.message, sys.now() - t0]}' } }] },
          },
        },
      ],
    },
  });
}

test('a raise outcome is the error http.* raises, and a delay passes on the clock', async () => {
  const { h } = mocked(`
http:
  - match: {url: "https://slow.test/*"}
    delay: 30
    raise: {tags: [TimeoutError], message: "too slow"}
`);
  const out = await result(timedGet({ url: 'https://slow.test/a' }), undefined, h);
  assert.is(out, '[["TimeoutError"],"too slow",30.0]');
});

for (const viaFetch of [false, true]) {
  test(`a delay past the request's timeout ends in TimeoutError at the timeout, as a real request would${viaFetch ? ' (fetch only)' : ''}`, async () => {
    const { h } = mocked('http:\n  - match: {url: "https://slow.test/*"}\n    delay: 10\n    respond: {body: late}\n', viaFetch);
    const out = await result(timedGet({ url: 'https://slow.test/a', timeout: 5 }), undefined, h);
    assert.is(out, '[["TimeoutError"],"http.get: GET https://slow.test/a timed out after 5 seconds",5.0]');
  });
}

test('an echo response carries the request: method, url, headers, query and decoded body', async () => {
  const { h } = mocked(SHOP);
  const out = await result(
    wf([['http.post', { url: 'https://echo.test/x', query: { a: '1' }, headers: { 'X-Id': '9' }, body: { n: 1 } }]], 'r0.body'),
    undefined,
    h,
  );
  const echo = JSON.parse(out);
  assert.is(echo.method, 'POST');
  assert.is(echo.url, 'https://echo.test/x?a=1');
  assert.is(echo.headers['x-id'], '9');
  assert.equal(echo.query, { a: '1' });
  assert.equal(echo.body, { n: 1 });
});

test('unmatched: passthrough sends the call out; unmatched: error names method, url and the nearest miss', async () => {
  const { h } = mocked(SHOP);
  const out = await failure(wf([['http.get', { url: 'https://elsewhere.test/' }]], 'r0'), undefined, h);
  assert.equal(out.tags, ['ConnectionFailedError']); // the real fetch of this test refuses
  const strict = mocked(SHOP.replace('http:', 'unmatched: {http: error}\nhttp:'));
  const err = await failure(wf([['http.delete', { url: 'https://api.test/users/7' }]], 'r0'), undefined, strict.h);
  assert.equal(err.tags, ['SystemError']);
  assert.match(err.message, 'no http mock matches DELETE https://api.test/users/7 (unmatched.http is error)');
  assert.match(err.message, 'the nearest mock (mocks.yaml:4:5) did not match: method DELETE is not GET');
  const far = await failure(wf([['http.post', { url: 'https://pay.test/other', body: { currency: 'EUR' } }]], 'r0'), undefined, strict.h);
  assert.match(far.message, /did not match: url "https:\/\/pay.test\/other" does not match/);
});

test.run();
