// Fuzz: any sequence of sleeps, deadlines and advances on the virtual clock (docs/limits.md "Clock") leaves a
// time that formats as an RFC 3339 timestamp: what would pass 9999-12-31 is refused, never applied.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { createVirtualTime } from '../../src/engine/virtual-time.ts';
import { MAX_CLOCK_MS } from '../../src/engine/system-clock.ts';
import { params, FUZZ_SEED } from './config.ts';

const s = suite(`fuzz: clock range (seed ${FUZZ_SEED})`);

const ms = fc.oneof(
  fc.double({ noNaN: false }),
  fc.constantFrom(1e16, 1e13 * 1000, Infinity, -Infinity, NaN, 31_536_000_000, MAX_CLOCK_MS),
  fc.nat(),
);
const op = fc.tuple(fc.constantFrom('sleep', 'deadline', 'advance'), ms);

s('the clock always shows a representable time, whatever is asked of it', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 0, max: MAX_CLOCK_MS }), fc.array(op, { maxLength: 8 }), async (start, ops) => {
      const clock = createVirtualTime(start);
      for (const [kind, d] of ops) {
        try {
          if (kind === 'advance') await clock.advance(d);
          else if (kind === 'sleep') await clock.sleep(d);
          else void clock.deadline(d).catch(() => {});
        } catch {
          // refused: the time must be unchanged and still valid
        }
        assert.ok(clock.now() <= MAX_CLOCK_MS, `now ${clock.now()}`);
        assert.type(new Date(clock.now()).toISOString(), 'string');
      }
    }),
    params(200, [[0, [['advance', 1e16]]]]),
  );
});

s.run();
