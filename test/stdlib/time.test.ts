import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { civilFromDays, daysFromCivil } from '../../src/stdlib/time.ts';
import { call, callNamed, raises } from './helpers.ts';

// Google's time.format and time.parse pages (real-service functions beyond the spec).
const s = suite('stdlib time');

s('time.format prints UTC with microseconds, as Google\'s examples do', () => {
  assert.is(call('time.format', 1720788633n), '2024-07-12T12:50:33.000000Z');
  assert.is(call('time.format', 1720788633n, 'GMT'), '2024-07-12T12:50:33.000000Z');
  assert.is(call('time.format', 1720788633n, ''), '2024-07-12T12:50:33.000000Z');
  assert.is(call('time.format', 1704903354.615087), '2024-01-10T16:15:54.615087Z');
  assert.is(call('time.format', 0n), '1970-01-01T00:00:00.000000Z');
  assert.is(call('time.format', -1.5), '1969-12-31T23:59:58.500000Z');
});

s('time.format with a tz database zone prints local time and offset (Google time.format)', () => {
  assert.is(call('time.format', 1720788633n, 'Europe/Paris'), '2024-07-12T14:50:33.000000+02:00');
  assert.is(call('time.format', 1704903354n, 'America/New_York'), '2024-01-10T11:15:54.000000-05:00');
  assert.is(call('time.format', 1704903354n, 'Asia/Kolkata'), '2024-01-10T21:45:54.000000+05:30');
  assert.is(call('time.format', 1704903354n, 'Europe/London'), '2024-01-10T16:15:54.000000Z');
  assert.is(callNamed('time.format', { seconds: 0n, timezone: 'UTC' }), '1970-01-01T00:00:00.000000Z');
});

s('time.format raises ValueError for unknown zones or out-of-range times (Google time.format)', () => {
  raises(() => call('time.format', 0n, 'Mars/Olympus'), 'ValueError', 'timezone');
  raises(() => call('time.format', 1e20), 'ValueError', 'time.format');
  raises(() => call('time.format', NaN), 'ValueError');
  // Finite seconds whose microseconds are not (docs/api-resources.md#errors: was a SystemError about BigInt).
  raises(() => call('time.format', 1e303), 'ValueError', 'not a valid time');
  raises(() => call('time.format', -Number.MAX_VALUE), 'ValueError');
  raises(() => call('time.format', '0'), 'TypeError', 'seconds');
  raises(() => call('time.format', 0n, 1n), 'TypeError', 'timezone');
});

s('time.parse reads RFC 3339 text into double seconds (Google time.parse)', () => {
  assert.is(call('time.parse', '2024-07-12T12:50:33Z'), 1720788633);
  assert.is(typeof call('time.parse', '1970-01-01T00:00:00Z'), 'number');
  assert.is(call('time.parse', '2024-07-12T14:50:33+02:00'), 1720788633);
  assert.is(call('time.parse', '2024-01-10T16:15:54.615087Z'), 1704903354.615087);
  assert.is(call('time.parse', '1969-12-31T23:59:58.5z'), -1.5);
  assert.is(call('time.parse', '2024-02-29t00:00:00-00:30'), 1709166600);
  assert.is(callNamed('time.parse', { value: '1970-01-01T00:00:01.000000001Z' }), 1);
});

s('time.parse and time.format round-trip (Google time.format, time.parse)', () => {
  for (const t of [0, 1704903354.615087, -86400.25, 253402300799]) {
    assert.is(call('time.parse', call('time.format', t)), t);
  }
});

s('time.parse raises ValueError for text that is not RFC 3339 (Google time.parse)', () => {
  for (const bad of ['2024-07-12', '2024-07-12T12:50:33', '2024-13-01T00:00:00Z', '2023-02-29T00:00:00Z', '2024-07-12T24:00:00Z', '2024-07-12T12:60:00Z', '2024-07-12T12:00:60Z', '2024-07-12 12:00:00Z', '0000-01-01T00:00:00Z', 'x']) {
    raises(() => call('time.parse', bad), 'ValueError', 'time.parse');
  }
  raises(() => call('time.parse', 0n), 'TypeError', 'time.parse');
});

s('the civil calendar helpers agree with each other across eras (Google time.*)', () => {
  assert.is(daysFromCivil(1970, 1, 1), 0);
  assert.is(daysFromCivil(1, 1, 1), -719162);
  assert.equal(civilFromDays(-719162), { y: 1, m: 1, d: 1 });
  for (const z of [-719162, -1, 0, 59, 11016, 2932896]) {
    const { y, m, d } = civilFromDays(z);
    assert.is(daysFromCivil(y, m, d), z);
  }
});

s.run();
