// Loading sources through the `yaml` package: values and offsets, the core schema, UTF-8 size counting,
// positions, format detection (spec "Workflow definition language", "Data types", "Limits").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { loadSource, utf8Length, type SNode } from '../../../src/lang/definition/load.ts';

const s = suite('definition loader');

function mine(n: SNode): unknown {
  if (n.kind === 'map') return { m: n.entries.map((e) => [e.key, e.keyNode.offset, mine(e.value)]), o: n.offset };
  if (n.kind === 'seq') return { s: n.items.map(mine), o: n.offset };
  return n.value === null ? { v: null } : { v: n.value, o: n.offset };
}

function show(x: unknown): string {
  return JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Inf' : v === -Infinity ? '-Inf' : v));
}

s('anchors, aliases and folded scalars are read as the yaml package reads them (YAML 1.2)', () => {
  const root = loadSource('a: &x [1, 2]\nb: *x\nc: >\n  folded\n  text\n').root;
  const list = { s: [{ v: 1n, o: 7 }, { v: 2n, o: 10 }], o: 6 };
  assert.is(show(mine(root)), show({ m: [['a', 0, list], ['b', 13, list], ['c', 19, { v: 'folded text\n', o: 22 }]], o: 0 }));
});

s('plain scalars follow the YAML 1.2 core schema for every kind (spec "Data types")', () => {
  const table: [string, unknown][] = [
    ['', null],
    ['~', null],
    ['True', true],
    ['FALSE', false],
    ['tRue', 'tRue'],
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

s('utf8Length counts UTF-8 bytes: ASCII 1, é 2, € 3, emoji 4 (spec "Limits": 128 KB)', () => {
  assert.is(utf8Length('a'), 1);
  assert.is(utf8Length('é'), 2);
  assert.is(utf8Length('€'), 3);
  assert.is(utf8Length('😀'), 4);
  assert.is(utf8Length('a😀é'), 7);
  assert.is(utf8Length('\ud800'), 3);
});

s('positions are 1-based line and column (spec "Errors")', () => {
  const l = loadSource('a: 1\nbb:\n  - x\n');
  assert.equal(l.posAt(0), { line: 1, col: 1 });
  assert.equal(l.posAt(5), { line: 2, col: 1 });
  assert.equal(l.posAt(14), { line: 3, col: 6 });
});

s('the format is detected: JSON when it starts with { or [ and is valid JSON, else YAML', () => {
  assert.is(loadSource('{"a": 1}').format, 'json');
  assert.is(loadSource('[1, 2]').format, 'json');
  assert.is(loadSource('{a: 1}').format, 'yaml');
  assert.is(loadSource('a: 1').format, 'yaml');
});

s.run();
