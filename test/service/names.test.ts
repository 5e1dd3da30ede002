// Resource timestamps (docs/api-resources.md#resources-and-their-fields: RFC 3339 UTC with fractional seconds): names.ts
// timestamp() writes exactly what Date.prototype.toISOString does, whatever it keeps between calls.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newExecutionId, timestamp } from '../../src/service/names.ts';

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

// Execution IDs are random version 4 UUIDs, lower-case, as Google's are
// (https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.workflows.executions).
s('newExecutionId() is a lower-case version 4 UUID, a different one each call', () => {
  const ids = new Set<string>();
  for (let i = 0; i < 1000; i++) {
    const id = newExecutionId();
    assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    ids.add(id);
  }
  assert.is(ids.size, 1000);
});

s.run();
