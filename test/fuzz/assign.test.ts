// Fuzz: value semantics under in-place assignment (docs/architecture.md#running-fairness-and-value-semantics). The engine changes a map or list in place
// when only one variable holds it (engine/assign.ts); this compares random sequences of assignments, copies,
// appends and reads against a reference that copies every value on every assignment, as the spec's value
// semantics say (a value assigned elsewhere never changes under it). Any difference is a bug.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { run } from '../engine/helpers.ts';
import { params, FUZZ_SEED } from './config.ts';

const s = suite(`fuzz: in-place assignment keeps value semantics (seed ${FUZZ_SEED})`);

/** One assign step of the sequence, on maps `a`, `b` and lists `l`, `k`. */
type Op =
  | { op: 'put'; map: 'a' | 'b'; key: string; n: number }
  | { op: 'copy'; to: 'a' | 'b'; from: 'a' | 'b' }
  | { op: 'append'; list: 'l' | 'k'; n: number }
  | { op: 'copyList'; to: 'l' | 'k'; from: 'l' | 'k' }
  | { op: 'setIndex'; list: 'l' | 'k'; n: number }
  | { op: 'nest'; map: 'a' | 'b'; list: 'l' | 'k' }
  | { op: 'read'; map: 'a' | 'b' }
  | { op: 'count'; map: 'a' | 'b'; key: string }
  | { op: 'innerPut'; map: 'a' | 'b'; key: string; n: number }
  | { op: 'grab'; map: 'a' | 'b' }
  | { op: 'peekScalar'; map: 'a' | 'b'; key: string; n: number }
  | { op: 'mapGet'; map: 'a' | 'b' }
  | { op: 'keysOf'; map: 'a' | 'b' };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('put' as const), map: fc.constantFrom('a' as const, 'b' as const), key: fc.constantFrom('p', 'q', 'r', 's'), n: fc.nat(99) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('copy' as const), to: fc.constantFrom('a' as const, 'b' as const), from: fc.constantFrom('a' as const, 'b' as const) }) },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('append' as const), list: fc.constantFrom('l' as const, 'k' as const), n: fc.nat(99) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('copyList' as const), to: fc.constantFrom('l' as const, 'k' as const), from: fc.constantFrom('l' as const, 'k' as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('setIndex' as const), list: fc.constantFrom('l' as const, 'k' as const), n: fc.nat(99) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('nest' as const), map: fc.constantFrom('a' as const, 'b' as const), list: fc.constantFrom('l' as const, 'k' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('read' as const), map: fc.constantFrom('a' as const, 'b' as const) }) },
  // Reads that keep no list or map of the variable (len, `in`, a path to a scalar) leave it changed in place.
  { weight: 3, arbitrary: fc.record({ op: fc.constant('count' as const), map: fc.constantFrom('a' as const, 'b' as const), key: fc.constantFrom('p', 'q', 'r', 's') }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('innerPut' as const), map: fc.constantFrom('a' as const, 'b' as const), key: fc.constantFrom('y', 'z'), n: fc.nat(99) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('grab' as const), map: fc.constantFrom('a' as const, 'b' as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('peekScalar' as const), map: fc.constantFrom('a' as const, 'b' as const), key: fc.constantFrom('p', 'q'), n: fc.nat(99) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('mapGet' as const), map: fc.constantFrom('a' as const, 'b' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('keysOf' as const), map: fc.constantFrom('a' as const, 'b' as const) }) },
);

/** The assignment in workflow syntax, and the same on the reference (plain JS values copied on assignment). */
function apply(o: Op, v: Record<string, any>): string {
  const clone = (x: unknown) => JSON.parse(JSON.stringify(x));
  switch (o.op) {
    case 'put':
      v[o.map][o.key] = o.n;
      return `- ${o.map}["${o.key}"]: ${o.n}`;
    case 'copy':
      v[o.to] = clone(v[o.from]);
      return `- ${o.to}: \${${o.from}}`;
    case 'append':
      v[o.list].push(o.n);
      return `- ${o.list}: \${list.concat(${o.list}, ${o.n})}`;
    case 'copyList':
      v[o.to] = clone(v[o.from]);
      return `- ${o.to}: \${${o.from}}`;
    case 'setIndex':
      // Always index 0, which exists: every list starts with one element.
      v[o.list][0] = o.n;
      return `- ${o.list}[0]: ${o.n}`;
    case 'nest':
      v[o.map].nested = clone(v[o.list]);
      return `- ${o.map}["nested"]: \${${o.list}}`;
    case 'read':
      v.seen = (v.seen ?? 0) + Object.keys(v[o.map]).length;
      return `- seen: \${seen + len(${o.map})}`;
    case 'count':
      v[o.map][o.key] = Object.keys(v[o.map]).length;
      return `- ${o.map}["${o.key}"]: \${len(${o.map}) + (if("${o.key}" in ${o.map}, 0, 0))}`;
    case 'innerPut':
      v[o.map].inner[o.key] = Object.keys(v[o.map].inner).length + o.n;
      return `- ${o.map}["inner"]["${o.key}"]: \${len(${o.map}.inner) + ${o.n}}`;
    case 'grab':
      v.g = clone(v[o.map].inner);
      return `- g: \${${o.map}.inner}`;
    case 'peekScalar':
      v[o.map][o.key] = v[o.map].inner.z + o.n;
      return `- ${o.map}["${o.key}"]: \${${o.map}["inner"].z + ${o.n}}`;
    case 'mapGet':
      v.g = clone(v[o.map].inner);
      return `- g: \${map.get(${o.map}, "inner")}`;
    case 'keysOf':
      v.seen = (v.seen ?? 0) + Object.keys(v[o.map]).length;
      return `- seen: \${seen + len(keys(${o.map}))}`;
  }
}

s('random assignments, copies, appends and reads give what copying every value gives', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(fc.array(op, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 8 }), async (steps) => {
      const model: Record<string, any> = { a: { inner: { z: 0 } }, b: { inner: { z: 0 } }, l: [0], k: [0], seen: 0, g: null };
      const body = steps
        .map((ops, i) => `    - s${i}:\n        assign:\n${ops.map((o) => '          ' + apply(o, model)).join('\n')}`)
        .join('\n');
      const yaml = `main:\n  steps:\n    - init:\n        assign:\n          - a: {inner: {z: 0}}\n          - b: {inner: {z: 0}}\n          - g: null\n          - l: [0]\n          - k: [0]\n          - seen: 0\n${body}\n    - done:\n        return: \${[a, b, l, k, seen, g]}\n`;
      const out = await run(yaml);
      if (!('result' in out)) throw new Error(`failed: ${out.error.json}\n${yaml}`);
      const got = JSON.parse(out.result);
      const want = [model.a, model.b, model.l, model.k, model.seen, model.g];
      if (JSON.stringify(got) !== JSON.stringify(want)) {
        throw new Error(`engine ${JSON.stringify(got)}\nreference ${JSON.stringify(want)}\n${yaml}`);
      }
    }),
    params(300),
  );
  assert.ok(true);
});

s.run();
