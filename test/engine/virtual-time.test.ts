// The virtual clock of `--clock virtual` (docs/mocks-and-clock.md#virtual-clock: the exact rule):
// time jumps to the next timer only when nothing runs and a sleep is pending; deadlines alone never move it;
// advance() moves it explicitly; hold() keeps it still during real I/O.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createVirtualTime } from '../../src/engine/virtual-time.ts';

const T0 = Date.UTC(2026, 0, 1);
const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

test('sleeps wake in order of their end, each at its own time, with no wall time spent', async () => {
  const clock = createVirtualTime(T0);
  const woke: [string, number][] = [];
  const started = performance.now();
  await Promise.all([
    clock.sleep(3_600_000).then(() => woke.push(['hour', clock.now() - T0])),
    clock.sleep(60_000).then(() => woke.push(['minute', clock.now() - T0])),
    clock.sleep(60_000).then(() => woke.push(['minute too', clock.now() - T0])),
  ]);
  assert.equal(woke, [
    ['minute', 60_000],
    ['minute too', 60_000],
    ['hour', 3_600_000],
  ]);
  // Far below the shortest sleep (a minute): a loaded machine cannot make the test fail, a real sleep would.
  const wallMs = performance.now() - started;
  assert.ok(wallMs < 10_000, `${wallMs} ms of wall time`);
});

test('a deadline alone never fires; a longer sleep carries time past it, and it fires at its own time', async () => {
  const clock = createVirtualTime(T0);
  let firedAt: number | undefined;
  void clock.deadline(10_000).then(() => (firedAt = clock.now() - T0));
  for (let i = 0; i < 20; i++) await turn();
  assert.is(firedAt, undefined);
  assert.is(clock.now(), T0);
  assert.equal(clock.pending(), { sleeps: 0, deadlines: 1 });
  await clock.sleep(30_000);
  assert.is(firedAt, 10_000);
  assert.is(clock.now() - T0, 30_000);
});

test('advance() fires the deadlines due on the way and ends at now + ms', async () => {
  const clock = createVirtualTime(T0);
  const fired: number[] = [];
  void clock.deadline(5_000).then(() => fired.push(clock.now() - T0));
  void clock.deadline(50_000).then(() => fired.push(clock.now() - T0));
  await clock.advance(20_000);
  assert.equal(fired, [5_000]);
  assert.is(clock.now() - T0, 20_000);
  await clock.advance(30_000);
  assert.equal(fired, [5_000, 50_000]);
});

test('time stands still while held work (a real request) is in flight', async () => {
  const clock = createVirtualTime(T0);
  let release!: () => void;
  const work = clock.hold(new Promise<void>((r) => (release = r)));
  let woke = false;
  void clock.sleep(1_000).then(() => (woke = true));
  for (let i = 0; i < 20; i++) await turn();
  assert.is(woke, false);
  release();
  await work;
  for (let i = 0; i < 20 && !woke; i++) await turn();
  assert.is(woke, true);
  assert.is(clock.now() - T0, 1_000);
});

test('an aborted sleep rejects with the reason and no longer counts', async () => {
  const clock = createVirtualTime(T0);
  const ctrl = new AbortController();
  const p = clock.sleep(1_000, ctrl.signal);
  assert.equal(clock.pending(), { sleeps: 1, deadlines: 0 });
  ctrl.abort(new Error('cancelled'));
  try {
    await p;
    assert.unreachable();
  } catch (e) {
    assert.is((e as Error).message, 'cancelled');
  }
  assert.equal(clock.pending(), { sleeps: 0, deadlines: 0 });
  assert.is(clock.now(), T0);
});

test.run();
