// Resource timestamps (docs/api-resources.md#resources-and-their-fields: RFC 3339 UTC with fractional seconds): names.ts
// timestamp() writes exactly what Date.prototype.toISOString does, whatever it keeps between calls.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { timestamp } from '../../src/service/names.ts';

const s = suite('timestamps');

s('timestamp(ms) is new Date(ms).toISOString() across seconds, years and millisecond edges', () => {
  const start = Date.UTC(2026, 10, 23, 3, 59, 59, 990);
  // Milliseconds across second, minute and hour boundaries, in and out of order.
  for (let i = 0; i < 3000; i++) {
    const ms = start + ((i * 7919) % 4000) - 2000;
    assert.is(timestamp(ms), new Date(ms).toISOString(), String(ms));
  }
  for (let i = 0; i < 2000; i++) {
    const ms = Math.floor(i * 126_000_271_937.5) % 253_402_300_800_000;
    assert.is(timestamp(ms), new Date(ms).toISOString(), String(ms));
  }
  for (const ms of [0, 1, 9, 10, 99, 100, 999, 1000, 1.7, 1000.999, 253_402_300_799_999, 253_402_300_800_000, -1, -1000.5, 8.64e15]) {
    assert.is(timestamp(ms), new Date(ms).toISOString(), String(ms));
  }
  assert.throws(() => timestamp(Number.NaN), RangeError);
  assert.match(timestamp(), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
});

s.run();
