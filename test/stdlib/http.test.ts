import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WorkflowError } from '../../src/lang/errors.ts';
import { isMap, mapOf, toJs, type Value, type WMap } from '../../src/lang/value.ts';
import { systemClock } from '../../src/engine/system-clock.ts';
import { recordingVirtualTime, type RecordingVirtualTime } from '../support/virtual-time.ts';
import { testCallbacks } from '../support/callbacks.ts';
import { bindNamedArgs, STDLIB } from '../../src/stdlib/index.ts';
import type { CallContext, Clock } from '../../src/stdlib/types.ts';
import { platformFetch } from '../../src/stdlib/http.ts';
import { closedPortUrl, startTestServer, type TestServer } from '../support/http-servers.ts';
import { harness, result, run } from '../engine/helpers.ts';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { runExecution } from '../../src/engine/run.ts';

// docs/standard-library.md#http (the http.* table and the paragraphs under it), docs/api-resources.md#errors, docs/api-resources.md#limits (HTTP response size,
// request timeout). Every request goes to a real node:http server started here.
const s = suite('stdlib http.* against a real server');

let server: TestServer;
s.before(async () => {
  server = await startTestServer();
});
s.after(async () => {
  await server.close();
});

function context(signal: AbortSignal = new AbortController().signal, clock: Clock = systemClock): CallContext {
  return {
    clock,
    fetch: globalThis.fetch,
    env: new Map(),
    signal,
    log: () => {},
    callbacks: testCallbacks(clock).hub,
  };
}

async function http(name: string, args: Record<string, Value>, cx: CallContext = context()): Promise<WMap> {
  const fn = STDLIB.get(name)!;
  const v = await fn.impl(bindNamedArgs(fn, mapOf(args)), cx);
  assert.ok(isMap(v));
  return v;
}

async function httpError(name: string, args: Record<string, Value>, cx?: CallContext): Promise<WorkflowError> {
  try {
    await http(name, args, cx);
  } catch (e) {
    if (e instanceof WorkflowError) return e;
    throw e;
  }
  throw new Error('expected an error');
}

const echoed = (r: WMap) => toJs(r.get('body')!) as Record<string, any>;

s('http.get returns code (int), lowercased headers and a JSON body parsed to a map (docs/standard-library.md#http)', async () => {
  const r = await http('http.get', { url: `${server.url}/echo` });
  assert.is(r.get('code'), 200n);
  assert.is((r.get('headers') as WMap).get('content-type'), 'application/json');
  assert.is(echoed(r).method, 'GET');
});

s('query is URL-encoded and merged with a query already in the URL (docs/standard-library.md#http: query)', async () => {
  const r = await http('http.get', {
    url: `${server.url}/echo?a=1`,
    query: mapOf({ b: 2n, c: 'x y&z', l: ['p', 'q'] }),
  });
  const q = new URLSearchParams(echoed(r).query);
  assert.is(q.get('a'), '1');
  assert.is(q.get('b'), '2');
  assert.is(q.get('c'), 'x y&z');
  assert.equal(q.getAll('l'), ['p', 'q']);
});

s('a map body without Content-Type is JSON-encoded as application/json; charset=utf-8 (docs/standard-library.md#http: body)', async () => {
  const r = await http('http.post', { url: `${server.url}/echo`, body: mapOf({ i: 1n, d: 2.0, s: 'x' }) });
  const e = echoed(r);
  assert.is(e.method, 'POST');
  assert.is(e.headers['content-type'], 'application/json; charset=utf-8');
  assert.is(e.body, '{"i":1,"d":2.0,"s":"x"}');
});

s('a string body without Content-Type is JSON-encoded too (docs/standard-library.md#http: body is not bytes)', async () => {
  const r = await http('http.post', { url: `${server.url}/echo`, body: 'hi' });
  assert.is(echoed(r).body, '"hi"');
});

s('bytes are sent raw (docs/standard-library.md#http: body)', async () => {
  const r = await http('http.put', { url: `${server.url}/echo`, body: new TextEncoder().encode('raw!') });
  assert.is(echoed(r).method, 'PUT');
  assert.is(echoed(r).body, 'raw!');
});

s('a string with a text Content-Type is sent as is, with the caller headers (docs/standard-library.md#http: headers, body)', async () => {
  const r = await http('http.patch', {
    url: `${server.url}/echo`,
    headers: mapOf({ 'Content-Type': 'text/plain', 'X-Custom': 'v' }),
    body: 'plain text',
  });
  const e = echoed(r);
  assert.is(e.method, 'PATCH');
  assert.is(e.headers['content-type'], 'text/plain');
  assert.is(e.headers['x-custom'], 'v');
  assert.is(e.body, 'plain text');
});

s('http.request takes the method; http.delete sends DELETE (docs/standard-library.md#http)', async () => {
  assert.is(echoed(await http('http.request', { url: `${server.url}/echo`, method: 'put' })).method, 'PUT');
  assert.is(echoed(await http('http.delete', { url: `${server.url}/echo` })).method, 'DELETE');
});

s('auth is accepted and not enforced: no credentials are sent (docs/api-resources.md#authentication 2)', async () => {
  const r = await http('http.get', { url: `${server.url}/echo`, auth: mapOf({ type: 'OIDC' }) });
  assert.is(echoed(r).headers.authorization, undefined);
});

s('response bodies are parsed by content type: JSON keeps int and double, text is a string, else bytes', async () => {
  const j = (await http('http.get', { url: `${server.url}/json` })).get('body') as WMap;
  assert.is(j.get('i'), 2n);
  assert.is(j.get('d'), 2);
  assert.is(typeof j.get('d'), 'number');
  assert.is((await http('http.get', { url: `${server.url}/text` })).get('body'), 'hello');
  assert.is((await http('http.get', { url: `${server.url}/html` })).get('body'), '<p>hi</p>');
  const b = (await http('http.get', { url: `${server.url}/bytes` })).get('body');
  assert.ok(b instanceof Uint8Array);
  assert.equal([...(b as Uint8Array)], [1, 2, 3]);
});

s('a non-2xx response raises HttpError with code, message, headers and body (docs/standard-library.md#http and docs/api-resources.md#errors)', async () => {
  const e = await httpError('http.get', { url: `${server.url}/status/404` });
  assert.equal(e.tags, ['HttpError']);
  const v = e.value as WMap;
  assert.is(v.get('code'), 404n);
  assert.match(String(v.get('message')), /404/);
  assert.is((v.get('headers') as WMap).get('x-test'), 'yes');
  assert.is((v.get('body') as WMap).get('status'), 404n);
});

s('a refused connection raises ConnectionFailedError with code 0 (docs/standard-library.md#http and docs/api-resources.md#errors)', async () => {
  const e = await httpError('http.get', { url: `${await closedPortUrl()}/x` });
  assert.equal(e.tags, ['ConnectionFailedError']);
  assert.is((e.value as WMap).get('code'), 0n);
});

s('a DNS failure raises ConnectionFailedError (docs/standard-library.md#http)', async () => {
  const e = await httpError('http.get', { url: 'http://no-such-host.invalid/x' });
  assert.equal(e.tags, ['ConnectionFailedError']);
});

s('a connection broken mid-transfer raises ConnectionError with code 0 (docs/standard-library.md#http and docs/api-resources.md#errors)', async () => {
  const e = await httpError('http.get', { url: `${server.url}/drop` });
  assert.equal(e.tags, ['ConnectionError']);
  assert.is((e.value as WMap).get('code'), 0n);
  const h = await httpError('http.get', { url: `${server.url}/hangup` });
  assert.equal(h.tags, ['ConnectionError']);
});

s('the timeout raises TimeoutError with code 0, measured on the injected clock (docs/standard-library.md#http: timeout)', async () => {
  const clock = recordingVirtualTime();
  const pending = httpError('http.get', { url: `${server.url}/slow?ms=60000`, timeout: 5n }, context(undefined, clock));
  // A deadline passes when time is carried past it (src/engine/virtual-time.ts).
  await clock.advance(5000);
  const e = await pending;
  assert.equal(e.tags, ['TimeoutError']);
  assert.is((e.value as WMap).get('code'), 0n);
  assert.equal(clock.sleepsMs, [5000]);
});

s('the timeout defaults to 1800 s and may not exceed it (docs/api-resources.md#limits: HTTP request timeout)', async () => {
  const clock = recordingVirtualTime();
  // Time carried past the default timeout fires it; the slow route shows which timeout was armed.
  const pending = httpError('http.get', { url: `${server.url}/slow?ms=60000` }, context(undefined, clock));
  await clock.advance(1_800_000);
  await pending;
  assert.equal(clock.sleepsMs, [1_800_000]);
  const e = await httpError('http.get', { url: `${server.url}/echo`, timeout: 1801n });
  assert.equal(e.tags, ['ValueError']);
});

s('a response over 2 MB is an error (docs/api-resources.md#limits: HTTP response size)', async () => {
  const e = await httpError('http.get', { url: `${server.url}/big` });
  assert.equal(e.tags, ['ResourceLimitError']);
});

s('a URL that is not http or https is a ValueError (docs/standard-library.md#http: url)', async () => {
  assert.equal((await httpError('http.get', { url: 'ftp://example.com/x' })).tags, ['ValueError']);
  assert.equal((await httpError('http.get', { url: 'not a url' })).tags, ['ValueError']);
});

s('cancellation aborts the request at once and rejects with the signal reason (docs/standard-library.md#http: cancellation)', async () => {
  const ctrl = new AbortController();
  const reason = new Error('cancelled');
  const p = http('http.get', { url: `${server.url}/slow?ms=60000` }, context(ctrl.signal));
  await new Promise((r) => setTimeout(r, 20));
  ctrl.abort(reason);
  try {
    await p;
    assert.unreachable('should reject');
  } catch (e) {
    assert.is(e, reason);
  }
});

s('http.get and http.request with GET send their body, JSON-encoded, through the production fetch (docs/standard-library.md#http argument table; docs/standard-library.md#http)', async () => {
  const cx = { ...context(), fetch: platformFetch };
  const r = await http('http.get', { url: `${server.url}/echo`, body: mapOf({ a: 1n }), query: mapOf({ q: 'x' }) }, cx);
  assert.equal([echoed(r).method, echoed(r).body, echoed(r).query], ['GET', '{"a":1}', '?q=x']);
  assert.match(echoed(r).headers['content-type'], /^application\/json/);
  const t = await http('http.request', { url: `${server.url}/echo`, method: 'GET', body: 'plain', headers: mapOf({ 'Content-Type': 'text/plain' }) }, cx);
  assert.equal([echoed(t).method, echoed(t).body], ['GET', 'plain']);
  // The same errors as any request: a status is an HttpError with the parsed body, a closed port a ConnectionFailedError.
  const e = await httpError('http.get', { url: `${server.url}/status/404`, body: 'x' }, cx);
  assert.is(JSON.stringify([e.tags, String((e.value as WMap).get('code')), toJs((e.value as WMap).get('body')!)]), '[["HttpError"],"404",{"status":404}]');
  const c = await httpError('http.get', { url: await closedPortUrl(), body: 'x' }, cx);
  assert.ok(c.tags.includes('ConnectionFailedError'), c.tags.join());
  // Without a body, GET goes through the platform fetch as before.
  assert.is(echoed(await http('http.get', { url: `${server.url}/echo` }, cx)).body, '');
});

s('cancelling an http.get with a body aborts it (docs/api-resources.md#states-and-transitions)', async () => {
  const ctrl = new AbortController();
  const reason = new Error('cancelled');
  const pending = http('http.get', { url: `${server.url}/slow?ms=5000`, body: 'x' }, { ...context(ctrl.signal), fetch: platformFetch });
  setTimeout(() => ctrl.abort(reason), 50);
  try {
    await pending;
    assert.unreachable('expected the cancellation');
  } catch (e) {
    assert.is(e, reason);
  }
});

s('an invalid header value is a ValueError (docs/api-resources.md#errors: right type, invalid value)', async () => {
  const e = await httpError('http.get', { url: `${server.url}/echo`, headers: mapOf({ 'X-Bad': 'a\nb' }) });
  assert.equal(e.tags, ['ValueError']);
});

s('a map body under application/x-www-form-urlencoded is form-encoded (Google http reference)', async () => {
  const r = await http('http.post', {
    url: `${server.url}/echo`,
    headers: mapOf({ 'Content-Type': 'application/x-www-form-urlencoded' }),
    body: mapOf({ a: '1 2', b: 3n }),
  });
  assert.is(echoed(r).body, 'a=1+2&b=3');
});

s('in a workflow, except catches HttpError and reads code and body (docs/language.md#try-retry-and-except and docs/standard-library.md#http)', async () => {
  const out = await result(`
main:
  steps:
    - t:
        try:
          call: http.get
          args:
            url: ${server.url}/status/503
        except:
          as: e
          steps:
            - r:
                return: \${[e.code, e.body.status, e.tags]}
`);
  assert.is(out, '[503,503,["HttpError"]]');
});

s('http.get works in an expression and its error names the step (docs/language.md#expressions and docs/api-resources.md#errors)', async () => {
  const ok = await result(`
main:
  steps:
    - r:
        return: \${http.get("${server.url}/text").body}
`);
  assert.is(ok, '"hello"');
  const o = await run(`
main:
  steps:
    - fetch:
        return: \${http.get("${server.url}/status/418")}
`);
  assert.ok('error' in o && o.error.step === 'fetch');
});

s('retry: ${http.default_retry} re-sends a 503 request 5 more times with the default backoff (docs/standard-library.md#retry-policies)', async () => {
  const h = harness();
  const before = server.requests.length;
  const o = await run(
    `
main:
  steps:
    - t:
        try:
          call: http.get
          args:
            url: ${server.url}/status/503
        retry: \${http.default_retry}
`,
    undefined,
    h,
  );
  assert.ok('error' in o);
  assert.is(server.requests.length - before, 6);
  assert.equal(
    (h.clock as RecordingVirtualTime).sleepsMs.filter((ms) => ms < 1_800_000),
    [1000, 1250, 1562.5, 1953.125, 2441.40625],
  );
});

s('cancelling an execution in an HTTP call rejects at once; the server sees the request go away (docs/standard-library.md#http)', async () => {
  const h = harness(systemClock);
  const ctrl = new AbortController();
  const before = server.requests.length;
  const p = runExecution(
    compileDefinition(`
main:
  steps:
    - fetch:
        call: http.get
        args:
          url: ${server.url}/slow?ms=60000
    - after:
        call: sys.log
        args:
          text: after
`, DEFINITION_LIBRARY),
    null,
    h.deps,
    ctrl.signal,
  );
  while (server.requests.length === before) await new Promise((r) => setTimeout(r, 5));
  const reason = new Error('cancelled');
  ctrl.abort(reason);
  try {
    await p;
    assert.unreachable();
  } catch (e) {
    assert.is(e, reason);
  }
  assert.is(h.logs.length, 0);
});

s.run();
