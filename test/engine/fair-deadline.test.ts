// A real-clock deadline (an http.* timeout, a callback wait's timeout) does not charge the emulator's own
// event-loop stall to what it waits for (docs/limits.md "Timeouts"): a reply due before the deadline but held
// behind a stall of ours still wins; a deadline the loop was not late for fires as usual.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { systemClock } from '../../src/engine/system-clock.ts';

function stall(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // the event loop is ours and busy
  }
}

test('a reply due 50 ms after a 100 ms deadline, both held by a 300 ms stall, wins: the stall is not charged', async () => {
  const deadline = systemClock.deadline!(100).then(() => 'timeout');
  const reply = new Promise<string>((resolve) => setTimeout(() => resolve('reply'), 150));
  stall(300);
  assert.is(await Promise.race([deadline, reply]), 'reply');
});

test('without a stall the deadline fires first, at its time', async () => {
  const deadline = systemClock.deadline!(50).then(() => 'timeout');
  // A reply 10 s later: a loaded machine may delay the deadline by its stalls (given back, at most 50 ms
  // more), not by seconds.
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reply = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('reply'), 10_000)));
  assert.is(await Promise.race([deadline, reply]), 'timeout');
  clearTimeout(timer);
});

test('an aborted deadline rejects with the reason', async () => {
  const ac = new AbortController();
  const d = systemClock.deadline!(10_000, ac.signal);
  ac.abort('stop');
  await d.then(() => assert.unreachable(), (e: unknown) => assert.is(e, 'stop'));
});

test.run();
