// Many executions computing at once still leave the event loop free (docs/architecture.md#running-fairness-and-value-semantics):
// an execution that has run a few milliseconds pauses, and the paused ones resume one per turn of the event
// loop, oldest first. So whatever else is waiting (a request to the API, a timer, a cancel) waits for one
// slice, not for a slice of every execution: 200 computing executions used to hold a request for seconds.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import type { StepObserver } from '../../src/engine/hooks.ts';
import { harness, run } from './helpers.ts';

const BUSY = `main:
  steps:
    - spin:
        for:
          value: i
          range: [1, 90000]
          steps:
            - w:
                assign:
                  - x: \${i * 2}
`;

test('with 30 executions computing, a callback queued now runs after at most two of their slices, and every one of them goes on', async () => {
  const n = 30;
  let armed = false;
  const progressed = new Set<number>();
  const stepsOf = new Array<number>(n).fill(0);
  const stop = new AbortController();
  const runs = Array.from({ length: n }, (_, id) => {
    const observer: StepObserver = {
      enter() {
        stepsOf[id]!++;
        if (armed) progressed.add(id);
        return undefined;
      },
      leave() {},
    };
    const h = harness();
    return run(BUSY, undefined, { ...h, deps: { ...h.deps, hooks: { observer } } }, stop.signal).catch(() => undefined);
  });
  // Until every execution has run and paused at least once.
  while (stepsOf.some((s) => s === 0)) await new Promise((r) => setTimeout(r, 10));
  armed = true;
  await new Promise((r) => setImmediate(r));
  armed = false;
  assert.ok(progressed.size <= 2, `${progressed.size} executions ran a slice before the callback`);
  // Fair: every execution keeps getting slices.
  const before = stepsOf.slice();
  while (stepsOf.some((s, i) => s === before[i])) await new Promise((r) => setTimeout(r, 10));
  stop.abort();
  await Promise.all(runs);
});

test.run();
