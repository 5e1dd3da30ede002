import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Cancellation, type CancelListener } from '../../src/platform/cancellation.ts';

// What stops a run (src/platform/cancellation.ts; docs/architecture.md#start-up-and-memory-beside-their-floors): a
// Cancellation behaves as an AbortController and its AbortSignal do for everything the engine uses
// (https://dom.spec.whatwg.org/#interface-AbortSignal): the same steps on both give the same calls, in the same order.
const s = suite('cancellation');

/** One step of a script run on both kinds: add or remove listener `k`, or abort with a reason (or none). */
type Op = ['add', number] | ['remove', number] | ['abort', unknown];

/** Runs `ops` on a controller and its signal, with listeners 0..n-1 (even: functions, odd: handleEvent objects). */
function play(ops: readonly Op[], make: () => { signal: { addEventListener: Function; removeEventListener: Function; aborted: boolean; reason: unknown }; abort(r?: unknown): void }): string[] {
  const seen: string[] = [];
  const ctrl = make();
  const listeners: CancelListener[] = Array.from({ length: 4 }, (_, k) =>
    k % 2 === 0 ? () => seen.push(`call ${k} aborted=${ctrl.signal.aborted}`) : { handleEvent: () => seen.push(`call ${k} aborted=${ctrl.signal.aborted}`) },
  );
  for (const op of ops) {
    if (op[0] === 'add') ctrl.signal.addEventListener('abort', listeners[op[1]], { once: true });
    else if (op[0] === 'remove') ctrl.signal.removeEventListener('abort', listeners[op[1]]);
    else {
      ctrl.abort(op[1]);
      const r = ctrl.signal.reason;
      seen.push(`aborted=${ctrl.signal.aborted} reason=${r instanceof DOMException ? `${r.name}` : String(r)}`);
    }
  }
  return seen;
}

const SCRIPTS: readonly (readonly Op[])[] = [
  [['abort', 'why']],
  [['abort', undefined]],
  [['add', 0], ['abort', 'x']],
  [['add', 1], ['abort', 'x']],
  [['add', 0], ['add', 1], ['add', 2], ['abort', 'x']],
  [['add', 0], ['add', 0], ['abort', 'x']],
  [['add', 1], ['add', 2], ['add', 1], ['abort', 'x']],
  [['add', 0], ['remove', 0], ['abort', 'x']],
  [['add', 0], ['add', 1], ['remove', 0], ['abort', 'x']],
  [['add', 0], ['add', 1], ['add', 3], ['remove', 1], ['add', 1], ['abort', 'x']],
  [['remove', 2], ['add', 2], ['abort', 'x'], ['add', 3], ['abort', 'y']],
  [['add', 0], ['add', 1], ['remove', 0], ['remove', 1], ['add', 2], ['abort', 'x']],
];

s('the same steps on an AbortController and on a Cancellation give the same calls, in the same order', () => {
  for (const ops of SCRIPTS) {
    const viaDom = play(ops, () => new AbortController());
    const viaOwn = play(ops, () => new Cancellation());
    assert.equal(viaOwn, viaDom, JSON.stringify(ops));
  }
});

s('random scripts of adds, removes and aborts agree with AbortController (seeded)', () => {
  let seed = 7;
  const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
  for (let round = 0; round < 500; round++) {
    const ops: Op[] = [];
    for (let i = 0, len = 1 + next(9); i < len; i++) {
      const kind = next(5);
      ops.push(kind < 2 ? ['add', next(4)] : kind < 4 ? ['remove', next(4)] : ['abort', next(2) ? `r${i}` : undefined]);
    }
    assert.equal(play(ops, () => new Cancellation()), play(ops, () => new AbortController()), JSON.stringify(ops));
  }
});

s('a listener removed by another during the abort is not called, as with AbortController', () => {
  for (const make of [() => new AbortController(), () => new Cancellation()]) {
    const ctrl = make();
    const seen: string[] = [];
    const third = (): number => seen.push('third');
    ctrl.signal.addEventListener('abort', () => {
      seen.push('first');
      ctrl.signal.removeEventListener('abort', third);
    });
    ctrl.signal.addEventListener('abort', () => seen.push('second'));
    ctrl.signal.addEventListener('abort', third);
    ctrl.abort('x');
    assert.equal(seen, ['first', 'second'], make.toString());
  }
});

s('its signal is itself, and a listener added after the abort is never called', () => {
  const c = new Cancellation();
  assert.is(c.signal, c);
  c.abort('done');
  let called = false;
  c.addEventListener('abort', () => (called = true));
  c.abort('again');
  assert.is(called, false);
  assert.is(c.reason, 'done');
});

s('a listener that throws does not stop the others; its error is thrown again in a task of its own', async () => {
  const c = new Cancellation();
  const seen: string[] = [];
  const boom = new Error('listener failed');
  c.addEventListener('abort', () => {
    throw boom;
  });
  c.addEventListener('abort', () => seen.push('second'));
  const reported = new Promise<unknown>((resolve) => process.once('uncaughtException', resolve));
  c.abort('x');
  assert.equal(seen, ['second']);
  assert.is(await reported, boom);
});

s.run();
