// Loading sources through js-yaml: values and offsets, the core schema, UTF-8 size counting, alias budgets,
// positions, format detection (docs/language.md#definitions, docs/language.md#data-types and docs/api-resources.md#limits).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadSource, utf8Length, type SNode } from '../../../src/lang/definition/load.ts';
import { DefinitionError } from '../../../src/lang/definition/errors.ts';

const s = suite('definition loader');

function mine(n: SNode): unknown {
  if (n.kind === 'map') return { m: n.entries.map((e) => [e.key, e.keyNode.offset, mine(e.value)]), o: n.offset };
  if (n.kind === 'seq') return { s: n.items.map(mine), o: n.offset };
  return n.value === null ? { v: null } : { v: n.value, o: n.offset };
}

function show(x: unknown): string {
  return JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Inf' : v === -Infinity ? '-Inf' : v));
}

s('anchors, aliases and folded scalars are read as YAML 1.2 reads them', () => {
  const root = loadSource('a: &x [1, 2]\nb: *x\nc: >\n  folded\n  text\n').root;
  const list = { s: [{ v: 1n, o: 7 }, { v: 2n, o: 10 }], o: 6 };
  assert.is(show(mine(root)), show({ m: [['a', 0, list], ['b', 13, list], ['c', 19, { v: 'folded text\n', o: 22 }]], o: 0 }));
});

s('plain scalars follow the YAML 1.2 core schema for every kind (docs/language.md#data-types)', () => {
  const table: [string, unknown][] = [
    ['', null],
    ['~', null],
    ['null', null],
    ['Null', null],
    ['NULL', null],
    ['nULL', 'nULL'],
    ['nul', 'nul'],
    ['~~', '~~'],
    ['true', true],
    ['True', true],
    ['TRUE', true],
    ['false', false],
    ['False', false],
    ['FALSE', false],
    ['tRue', 'tRue'],
    ['falsE', 'falsE'],
    ['yes', 'yes'],
    ['42', 42n],
    ['-0', 0n],
    ['0x10', 16n],
    ['0o10', 8n],
    ['0.5', 0.5],
    ['5e-1', 0.5],
    ['.NaN', NaN],
    ['-.inf', -Infinity],
    ['1_000', '1_000'],
    ['${x}', '${x}'],
  ];
  for (const [text, want] of table) {
    const root = loadSource(`v: ${text}\n`).root;
    assert.ok(root.kind === 'map' && root.entries[0]!.value.kind === 'scalar');
    const got = root.kind === 'map' && root.entries[0]!.value.kind === 'scalar' ? root.entries[0]!.value.value : undefined;
    if (Number.isNaN(want)) assert.ok(Number.isNaN(got), text);
    else assert.is(got, want, text);
  }
});

// ---------------------------------------------------------------------------------------------------------
// loadSource

s('utf8Length counts UTF-8 bytes: ASCII 1, é 2, € 3, emoji 4 (docs/api-resources.md#limits: 128 KB)', () => {
  assert.is(utf8Length('a'), 1);
  assert.is(utf8Length('é'), 2);
  assert.is(utf8Length('€'), 3);
  assert.is(utf8Length('😀'), 4);
  assert.is(utf8Length('a😀é'), 7);
  assert.is(utf8Length('\ud800'), 3);
});

s('positions are 1-based line and column (docs/api-resources.md#errors)', () => {
  const l = loadSource('a: 1\nbb:\n  - x\n');
  assert.equal(l.posAt(0), { line: 1, col: 1 });
  assert.equal(l.posAt(5), { line: 2, col: 1 });
  assert.equal(l.posAt(14), { line: 3, col: 6 });
  // Asked in any order (the compiler asks mostly in source order), every offset gets its own line and column.
  const src = 'main:\n  steps:\n\n    - a:\n        return: 1\n# end\n';
  const m = loadSource(src);
  const offsets = [...src].map((_, i) => i);
  for (const order of [offsets, [...offsets].reverse(), offsets.map((_, i) => (i * 7) % offsets.length)]) {
    for (const i of order) {
      const before = src.slice(0, i);
      assert.equal(m.posAt(i), { line: before.split('\n').length, col: i - before.lastIndexOf('\n') }, `offset ${i}`);
    }
  }
});

s('the format is detected: JSON when it starts with { or [ and is valid JSON, else YAML', () => {
  assert.is(loadSource('{"a": 1}').format, 'json');
  assert.is(loadSource('[1, 2]').format, 'json');
  assert.is(loadSource('{a: 1}').format, 'yaml');
  assert.is(loadSource('a: 1').format, 'yaml');
});

s('aliases are counted as the nodes they stand for: an alias bomb is refused, a moderate reuse is not (docs/api-resources.md#limits)', () => {
  const bomb = (levels: number, fanout: number): string => {
    let src = 'l0: &l0 [x]\n';
    for (let i = 1; i <= levels; i++) src += `l${i}: &l${i} [${Array(fanout).fill(`*l${i - 1}`).join(', ')}]\n`;
    return src;
  };
  assert.throws(() => loadSource(bomb(9, 10)), /more than 200000 nodes with its aliases expanded/);
  assert.throws(() => loadSource(bomb(6, 10)), /line 6, column 9: the source stands for more than/);
  // 10^4 nodes through aliases: shared, accepted, and each alias reads as the anchored node.
  const root = loadSource(bomb(4, 10)).root;
  assert.ok(root.kind === 'map');
  const l4 = root.entries[4]!.value;
  assert.ok(l4.kind === 'seq' && l4.items[9] === root.entries[3]!.value);
});

s('aliases are counted as the bytes they stand for: 10,000 aliases of a 60 KB string are refused, 30 are not (docs/limits.md "Definitions")', () => {
  const src = (n: number): string => `s: &a "${'x'.repeat(60_000)}"\nl: [${Array(n).fill('*a').join(', ')}]\n`;
  try {
    loadSource(src(10_000));
    assert.unreachable('accepted 600 MB of aliased values');
  } catch (e) {
    assert.instance(e, DefinitionError);
    assert.is((e as DefinitionError).code, 'LIMIT_EXCEEDED');
    assert.match((e as Error).message, /line 2, column 4: the source stands for more than 2097152 bytes of values/);
  }
  const ok = loadSource(src(30)).root;
  assert.ok(ok.kind === 'map');
});

s('flow collections and quoted scalars continued at a lower indentation are read with libyaml\'s values and offsets (docs/architecture.md#reading-definitions-the-yaml-reader)', () => {
  const src = 'a:\n  b: [1,\n2]\n  c: "x\ny"\n';
  const root = loadSource(src).root;
  assert.is(
    show(mine(root)),
    show({ m: [['a', 0, { m: [['b', 5, { s: [{ v: 1n, o: 9 }, { v: 2n, o: 12 }], o: 8 }], ['c', 17, { v: 'x y', o: 20 }]], o: 5 }]], o: 0 }),
  );
  const c = root.kind === 'map' && root.entries[0]!.value.kind === 'map' ? root.entries[0]!.value.entries[1]!.value : undefined;
  assert.ok(c?.kind === 'scalar' && c.style === 'double' && src.slice(c.offset, c.end) === '"x\ny"');
});

s('a pair in a flow list is a map of one entry; lists, maps and aliases beside it are read as themselves (YAML 1.2 "Flow Sequences")', () => {
  const src = 'x: &m {k: 1}\ny: [a, b: 2, {c: 3}, [4], *m, "d": e]\n';
  const root = loadSource(src).root;
  assert.is(
    show(mine(root)),
    show({
      m: [
        ['x', 0, { m: [['k', 7, { v: 1n, o: 10 }]], o: 6 }],
        ['y', 13, { s: [
          { v: 'a', o: 17 },
          { m: [['b', 20, { v: 2n, o: 23 }]], o: 20 },
          { m: [['c', 27, { v: 3n, o: 30 }]], o: 26 },
          { s: [{ v: 4n, o: 35 }], o: 34 },
          { m: [['k', 7, { v: 1n, o: 10 }]], o: 6 },
          { m: [['d', 43, { v: 'e', o: 48 }]], o: 43 },
        ], o: 16 }],
      ],
      o: 0,
    }),
  );
  // The alias is the anchored node itself, not a copy.
  assert.ok(root.kind === 'map' && root.entries[1]!.value.kind === 'seq' && root.entries[1]!.value.items[4] === root.entries[0]!.value);
});

s('a repeated key is refused at the repeat in small and large maps; in JSON the last one wins (YAML 1.2 "Node Comparison")', () => {
  for (const n of [3, 40]) {
    const keys = Array.from({ length: n }, (_, i) => `k${i}: ${i}`);
    keys.splice(n - 1, 0, 'k1: again');
    const src = `m:\n${keys.map((k) => `  ${k}\n`).join('')}`;
    assert.throws(() => loadSource(src), new RegExp(`line ${n + 1}, column 3: .*Map keys must be unique; 'k1' is repeated`));
    const json = `{${keys.map((k) => k.replace(/^(\w+): (.*)$/, '"$1": "$2"')).join(', ')}}`;
    const root = loadSource(json, 'json').root;
    assert.ok(root.kind === 'map');
    assert.is(root.entries.length, n);
    const k1 = root.entries[1]!;
    assert.is(k1.key, 'k1');
    assert.ok(k1.value.kind === 'scalar' && k1.value.value === 'again');
  }
});

s.run();
