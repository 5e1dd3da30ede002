// Call records are bounded in bytes (docs/limits.md "Call records"): a value over 64 KB, or over what the
// execution's or the service's byte limit leaves, is kept as a marker naming its size; the count is kept.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CallLog, callRecordValue, MAX_RECORDED_BYTES_PER_EXECUTION, RecordedBytes, type CallRecord } from '../../src/mocks/call-log.ts';
import type { Value } from '../../src/lang/value.ts';

function post(log: CallLog, bodyBytes: number): CallRecord {
  const r = log.add({ kind: 'http', name: 'http.post', method: 'POST', url: 'https://x.test/', mocked: true, startMs: 0 });
  r.requestBody = 'b'.repeat(bodyBytes);
  r.response = new Map<string, Value>([['code', 200n], ['headers', new Map()], ['body', 'r'.repeat(bodyBytes)]]);
  r.endMs = 1;
  log.seal(r);
  return r;
}

test('a 256 KB request body and response body are kept as markers; code and headers stay', () => {
  const log = new CallLog();
  const r = post(log, 256 * 1024);
  assert.match(r.requestBody as string, /^\[truncated by the emulator: 262144 bytes/);
  const res = r.response as Map<string, Value>;
  assert.is(res.get('code'), 200n);
  assert.match(res.get('body') as string, /^\[truncated by the emulator: 262144 bytes/);
  assert.is(r.truncated, 2);
  assert.is(callRecordValue(r).get('truncated'), 2n);
});

test('small bodies are kept whole until the execution\'s 4 MB are used, then truncated; every call is still recorded', () => {
  const log = new CallLog();
  const n = Math.ceil(MAX_RECORDED_BYTES_PER_EXECUTION / (2 * 60_000)) + 10;
  for (let i = 0; i < n; i++) post(log, 60_000);
  assert.is(log.records.length, n);
  assert.is(log.records[0]!.truncated, undefined);
  assert.is(log.records[n - 1]!.truncated, 2);
  assert.ok(log.truncatedValues > 0);
});

test('the service\'s budget is shared by its executions and given back when an execution is forgotten', () => {
  const budget = new RecordedBytes(300_000);
  const a = new CallLog(budget);
  for (let i = 0; i < 3; i++) post(a, 60_000);
  const b = new CallLog(budget);
  const r = post(b, 60_000);
  assert.is(r.truncated, 2, 'over the total: truncated');
  assert.ok(budget.used <= 300_000);
  a.release();
  const r2 = post(b, 60_000);
  assert.is(r2.truncated, undefined, 'room again once a was released');
});

test.run();
