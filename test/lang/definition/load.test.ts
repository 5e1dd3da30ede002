// Loading sources: the fast reader for the plain YAML subset agrees with the `yaml` package (values, keys and
// offsets) wherever it answers, and leaves everything else to it; UTF-8 size counting; positions (spec
// "Workflow definition language", "Data types", "Limits").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { parseYamlFast, resolvePlain } from '../../../src/lang/definition/fast-yaml.ts';
import { loadSource, utf8Length, type SNode } from '../../../src/lang/definition/load.ts';

const s = suite('definition loader');

/** The `yaml` package's tree in a comparable shape: keys, values, offsets (null scalars without offsets). */
function reference(n: unknown): unknown {
  if (isMap(n)) {
    return {
      m: n.items.map((p) => {
        const k = p.key as { value: unknown; source?: string; range: number[] };
        return [typeof k.value === 'string' ? k.value : k.source, k.range[0], reference(p.value)];
      }),
      o: n.range![0],
    };
  }
  if (isSeq(n)) return { s: n.items.map(reference), o: n.range![0] };
  if (n === null || n === undefined) return { v: null };
  if (isScalar(n)) {
    let v = n.value;
    if (typeof v === 'bigint' && (v > 9223372036854775807n || v < -9223372036854775808n)) v = Number(v);
    return v === null ? { v: null } : { v, o: n.range![0] };
  }
  return '?';
}

function mine(n: SNode): unknown {
  if (n.kind === 'map') return { m: n.entries.map((e) => [e.key, e.keyNode.offset, mine(e.value)]), o: n.offset };
  if (n.kind === 'seq') return { s: n.items.map(mine), o: n.offset };
  return n.value === null ? { v: null } : { v: n.value, o: n.offset };
}

function show(x: unknown): string {
  return JSON.stringify(x, (_k, v) => (typeof v === 'bigint' ? `${v}n` : Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Inf' : v === -Infinity ? '-Inf' : v));
}

/** Asserts the fast reader answers and agrees with the `yaml` package. */
function agrees(src: string, json = false): void {
  const fast = parseYamlFast(src, json);
  assert.ok(fast, `fast reader gave up on:\n${src}`);
  const doc = parseDocument(src, { intAsBigInt: true, uniqueKeys: !json });
  assert.equal(doc.errors, []);
  assert.is(show(mine(fast)), show(reference(doc.contents)));
}

// ---------------------------------------------------------------------------------------------------------
// The fast reader against the reference

const CORPUS = [
  resolve(new URL('../../../', import.meta.url).pathname, '../shared/corpus/workflows-samples'),
  '/work/shared/corpus/workflows-samples',
].find((p) => existsSync(p));

s('the fast reader reads all 188 corpus files exactly as the yaml package does (issue 2 "Real input")', () => {
  assert.ok(CORPUS, 'corpus not found');
  let n = 0;
  for (const sub of ['yaml', 'json'] as const) {
    for (const f of readdirSync(join(CORPUS, sub))) {
      agrees(readFileSync(join(CORPUS, sub, f), 'utf8'), sub === 'json');
      n++;
    }
  }
  assert.is(n, 188);
});

const SUBSET: readonly [string, string][] = [
  ['block maps and sequences, comments and blank lines', 'a: 1 # c\n\n# only a comment\nb:\n  - x\n  -   y\n  - - 1\n    - 2\nc:\n  d: e\n'],
  ['a sequence at the same indentation as its key', 'main:\n  steps:\n  - a:\n      return: 1\n  - b: 2\n  params: [x]\n'],
  ['compact maps in sequences', '- a: 1\n  b: 2\n- c:\n    d: [1, 2]\n  e: f\n'],
  ['scalars of the core schema', 'l: [1, -2, +3, 0o17, 0x1F, 1.5, -.5, 1e3, 1., .inf, -.Inf, .nan, ~, null, Null, NULL, true, True, TRUE, false, False, FALSE, yes, 1_0, 0b1, 010]\n'],
  ['an int beyond 64 bits reads as a double', 'a: 18446744073709551616\nb: 9223372036854775807\n'],
  ['plain scalars with indicators inside', 'a: ${x.y["k"]}\nb: a#b\nc: -1\nd: x:y\ne: ${[1, 2]}\nf: "a: b"\ng: http://x.y/z?q=1#f\n'],
  ['quoted scalars with escapes', 'a: "tab\\tnl\\nq\\"bs\\\\sl\\/u\\u00e9"\nb: \'it\'\'s\'\nc: ""\nd: \'\'\n"quoted key": 1\n\'single\': 2\n'],
  ['literal block scalars', 'a: |\n  line 1\n\n  line 3\nb: |-\n  x\n    y\nc: |  # comment\n  z\n\nd: 1\n'],
  ['flow collections across lines, with pairs in sequences', 'params: [a, b: 10, c: [1, {d: e}]]\nm: {\n  a: 1,\n  "b": [x, y,],\n  c\n}\n'],
  ['JSON with adjacent colons', '{"main":{"steps":[{"a":{"return":[1,2.0,"x",true,null,{"k":-1e2}]}}]}}'],
  ['keys that are numbers, booleans or null read as their text', '1: a\ntrue: b\nnull: c\n1.0: d\n'],
  ['CRLF line endings', 'a: 1\r\nb:\r\n  - x\r\n  - "y"\r\n'],
  ['a null value before a less indented key', 'a:\nb: 1\nc:\n  d:\n  e: 2\n'],
  ['__proto__ as a key', '__proto__: 1\nconstructor: {__proto__: 2}\n'],
];

for (const [what, src] of SUBSET) {
  s(`the fast reader agrees with the yaml package: ${what} (YAML 1.2 core schema)`, () => agrees(src, src.startsWith('{')));
}

const OUTSIDE: readonly [string, string][] = [
  ['anchors and aliases', 'a: &x 1\nb: *x\n'],
  ['tags', 'a: !!str 1\n'],
  ['folded block scalars', 'a: >\n  x\n  y\n'],
  ['multi-line plain scalars', 'a: one\n  two\n'],
  ['multi-line quoted scalars', 'a: "one\n  two"\n'],
  ['document markers', '---\na: 1\n'],
  ['tabs in indentation', 'a:\n\t- 1\n'],
  ['duplicate keys', 'a: 1\na: 2\n'],
  ['complex keys', '? a\n: 1\n'],
  ['an unterminated flow collection', 'a: [1, 2\n'],
  ['a plain scalar holding ": "', 'a: b: c\n'],
  ['an unusual escape', 'a: "\\x41"\n'],
  ['an expression in a flow collection without quotes', 'a: [${x}]\n'],
];

for (const [what, src] of OUTSIDE) {
  s(`the fast reader leaves ${what} to the yaml package`, () => {
    assert.is(parseYamlFast(src), undefined);
  });
}

s('whatever the fast reader leaves, loadSource still reads with the yaml package', () => {
  const root = loadSource('a: &x [1, 2]\nb: *x\nc: >\n  folded\n  text\n').root;
  const list = { s: [{ v: 1n, o: 7 }, { v: 2n, o: 10 }], o: 6 };
  assert.is(show(mine(root)), show({ m: [['a', 0, list], ['b', 13, list], ['c', 19, { v: 'folded text\n', o: 22 }]], o: 0 }));
});

s('resolvePlain follows the core schema for every kind (spec "Data types")', () => {
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
    const got = resolvePlain(text);
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
