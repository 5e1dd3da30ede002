// The clock's range (docs/limits.md "Clock"): no sleep, mock delay, retry backoff or clock advance may carry
// a clock past 9999-12-31T23:59:59.999Z, the end of google.protobuf.Timestamp's range
// (https://protobuf.dev/reference/protobuf/google.protobuf/#timestamp); a workflow that asks for one gets a
// ValueError, the clock stays where it was, and every later time still formats.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createVirtualTime } from '../../src/engine/virtual-time.ts';
import { MAX_CLOCK_MS, systemClock } from '../../src/engine/system-clock.ts';
import { WorkflowError } from '../../src/lang/errors.ts';
import { parseMocks } from '../../src/mocks/mock-file.ts';
import { failure, harness } from './helpers.ts';

const YEAR_SEC = 31_536_000;

test('a virtual-time sleep that would end after 9999-12-31 rejects with a ValueError and leaves the clock', async () => {
  const clock = createVirtualTime(Date.UTC(2026, 0, 1));
  const e = await clock.sleep(1e16).then(() => undefined, (x: unknown) => x);
  assert.instance(e, WorkflowError);
  assert.equal((e as WorkflowError).tags, ['ValueError']);
  assert.is(clock.now(), Date.UTC(2026, 0, 1));
  assert.is(new Date(clock.now()).toISOString(), '2026-01-01T00:00:00.000Z');
  const atEnd = createVirtualTime(MAX_CLOCK_MS - 1000);
  await atEnd.sleep(1000);
  assert.is(new Date(atEnd.now()).toISOString(), '9999-12-31T23:59:59.999Z');
  await atEnd.sleep(1).then(() => assert.unreachable('slept past the end'), (x: unknown) => assert.instance(x, WorkflowError));
});

test('advance past the end is refused at once (advanceProblem says why); the clock keeps its time', async () => {
  const clock = createVirtualTime(Date.UTC(2026, 0, 1));
  assert.match(clock.advanceProblem(1e16) ?? '', /9999-12-31/);
  assert.throws(() => clock.advance(1e16), RangeError);
  assert.throws(() => clock.advance(Infinity), RangeError);
  assert.is(clock.advanceProblem(1000), undefined);
  await clock.advance(1000);
  assert.is(clock.now(), Date.UTC(2026, 0, 1) + 1000);
});

test('the real clock refuses sleeps past the end too', async () => {
  await systemClock.sleep(1e16).then(() => assert.unreachable(), (x: unknown) => assert.instance(x, WorkflowError));
});

test('a retry initial_delay of 10^13 s is the workflow\'s ValueError (catchable), not a broken clock', async () => {
  const h = harness(createVirtualTime(Date.UTC(2026, 0, 1)));
  const e = await failure(
    `main:
  steps:
    - t:
        try:
          steps:
            - boom:
                raise: {code: 503}
        retry:
          predicate: \${http.default_retry_predicate}
          max_retries: 3
          backoff: {initial_delay: 10000000000000, max_delay: 10000000000000, multiplier: 2}
`,
    undefined,
    h,
  );
  assert.equal((e.value as Map<string, unknown>).get('tags'), ['ValueError']);
  assert.ok(new Date(h.clock.now()).getUTCFullYear() === 2026);
});

test('a loop of one-year sleeps ends in a ValueError at the end of year 9999, never an invalid time', async () => {
  const h = harness(createVirtualTime(Date.UTC(9990, 0, 1)));
  const e = await failure(
    `main:
  steps:
    - loop:
        for:
          value: i
          range: [1, 20]
          steps:
            - s:
                call: sys.sleep
                args: {seconds: ${YEAR_SEC}}
`,
    undefined,
    h,
  );
  assert.equal((e.value as Map<string, unknown>).get('tags'), ['ValueError']);
  assert.ok(h.clock.now() <= MAX_CLOCK_MS);
  assert.ok(new Date(h.clock.now()).getUTCFullYear() === 9999);
});

test('a mock delay over one year is refused when the mocks load', () => {
  assert.throws(() => parseMocks('connectors:\n  - call: x.y\n    result: 1\n    delay: 10000000000000\n', 'mocks.yaml'), /at most 31536000/);
});

test.run();
