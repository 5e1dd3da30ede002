import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WorkflowError } from '../../src/lang/errors.ts';
import { RETRY_POLICIES, STDLIB } from '../../src/stdlib/index.ts';
import { BACKOFFS, backoffValue, DEFAULT_BACKOFF } from '../../src/stdlib/retry.ts';
import { call, callNamed, m } from './helpers.ts';

// docs/standard-library.md#retry-policies and Google's retry.* / http.default_retry* pages.
const s = suite('stdlib retry');

const http = (code: bigint) => WorkflowError.of('HttpError', `HTTP ${code}`, { code: Number(code) }).value;
const tagged = (tag: 'ConnectionError' | 'ConnectionFailedError' | 'TimeoutError' | 'KeyError') =>
  WorkflowError.of(tag, tag).value;

s('retry.always and retry.never ignore the error (docs/standard-library.md)', () => {
  assert.is(call('retry.always', http(500n)), true);
  assert.is(call('retry.never', http(503n)), false);
  assert.is(callNamed('retry.always', { e: m({}) }), true);
});

s('http.default_retry_predicate retries 429, 502, 503, 504 and connection/timeout errors, not 500 (docs/standard-library.md#retry-policies)', () => {
  for (const c of [429n, 502n, 503n, 504n]) assert.is(call('http.default_retry_predicate', http(c)), true, `${c}`);
  for (const c of [500n, 400n, 404n, 501n]) assert.is(call('http.default_retry_predicate', http(c)), false, `${c}`);
  assert.is(call('http.default_retry_predicate', tagged('ConnectionError')), true);
  assert.is(call('http.default_retry_predicate', tagged('ConnectionFailedError')), true);
  assert.is(call('http.default_retry_predicate', tagged('TimeoutError')), true);
  assert.is(call('http.default_retry_predicate', tagged('KeyError')), false);
});

s('http.default_retry_predicate reads code from raised maps and ignores non-maps (docs/standard-library.md)', () => {
  assert.is(call('http.default_retry_predicate', m({ code: 503n })), true);
  assert.is(call('http.default_retry_predicate', m({ code: 429.0 })), true);
  assert.is(call('http.default_retry_predicate', m({ message: 'x', code: 0n, tags: [] })), false);
  assert.is(call('http.default_retry_predicate', 'oops'), false);
  assert.is(call('http.default_retry_predicate', null), false);
  assert.is(callNamed('http.default_retry_predicate', { exception: http(502n) }), true);
});

s('http.default_retry_predicate_non_idempotent keeps Google\'s 429, 503 and ConnectionFailedError', () => {
  const p = 'http.default_retry_predicate_non_idempotent';
  assert.is(call(p, http(429n)), true);
  assert.is(call(p, http(503n)), true);
  assert.is(call(p, http(502n)), false);
  assert.is(call(p, http(504n)), false);
  assert.is(call(p, tagged('ConnectionFailedError')), true);
  assert.is(call(p, tagged('ConnectionError')), false);
  assert.is(call(p, tagged('TimeoutError')), false);
});

s('both http policies use the default predicate, max_retries 5 and the default backoff (docs/standard-library.md#retry-policies); the non-idempotent one names Google\'s predicate for --compat google (docs/compat.md)', () => {
  for (const name of ['http.default_retry', 'http.default_retry_non_idempotent']) {
    const p = RETRY_POLICIES.get(name);
    assert.ok(p, name);
    const google = name === 'http.default_retry_non_idempotent' ? { googlePredicate: 'http.default_retry_predicate_non_idempotent' } : {};
    assert.equal(p, { predicate: 'http.default_retry_predicate', maxRetries: 5, initialDelaySec: 1, maxDelaySec: 60, multiplier: 1.25, ...google });
    assert.ok(STDLIB.has(p!.predicate));
    if (p!.googlePredicate !== undefined) assert.ok(STDLIB.has(p!.googlePredicate));
  }
});

s('retry.default_backoff is initial_delay 1, max_delay 60, multiplier 1.25 (docs/standard-library.md)', () => {
  assert.equal(BACKOFFS.get('retry.default_backoff'), DEFAULT_BACKOFF);
  assert.equal(backoffValue(DEFAULT_BACKOFF), m({ initial_delay: 1n, max_delay: 60n, multiplier: 1.25 }));
});

s.run();
