// Differential test of the positioned source tree (src/lang/definition/load.ts `loadSource`, built by hand from
// js-yaml's `listener` open/close events) against js-yaml's own `load()` of the same text with the same
// schema: the tree, read back as plain values, must equal what js-yaml returns, on every published sample of
// the corpus (test/support/corpus.ts) and on generated YAML (anchors and aliases, `<<` keys, plain, single-
// and double-quoted scalars, literal and folded blocks, multi-line scalars, block and flow collections).
// Where the tree refuses a source on purpose (repeated keys, complex keys: docs/language.md) the property
// allows it; any other refusal, or a source js-yaml refuses and the tree accepts, is a drift.
// The YAML both read: https://yaml.org/spec/1.2.2/ (core schema), as Cloud Workflows does
// (https://cloud.google.com/workflows/docs/reference/syntax).
//
// FUZZ_RUNS / FUZZ_SEED / FUZZ_PATH replay as in test/fuzz (test/fuzz/config.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { loadSource, type SNode } from '../../../src/lang/definition/load.ts';
import { coreSchema } from '../../../src/lang/definition/yaml-schema.ts';
import { CORPUS, skipWithoutCorpus } from '../../support/corpus.ts';
import { params, FUZZ_SEED } from '../../fuzz/config.ts';
import { assertSame } from '../../support/differential.ts';

const s = suite(`definition load: the listener tree against js-yaml's load() (seed ${FUZZ_SEED})`);

/**
 * The tree as the plain value js-yaml builds: maps as null-prototype objects keyed as js-yaml keys them
 * (`String` of the key's value: `null: x` has key "null"), shared nodes as shared values. Each scalar's
 * style is checked against the character it starts at (its position is what errors point to).
 */
function plain(node: SNode, source: string, seen = new Map<SNode, unknown>()): unknown {
  const done = seen.get(node);
  if (done !== undefined) return done;
  switch (node.kind) {
    case 'scalar': {
      const c = source[node.offset];
      const style = c === '"' ? 'double' : c === "'" ? 'single' : c === '|' || c === '>' ? 'block' : 'plain';
      if (node.end > node.offset) assert.is(node.style, style, `style of the scalar at offset ${node.offset}`);
      return node.value;
    }
    case 'seq': {
      const out: unknown[] = [];
      seen.set(node, out);
      for (const item of node.items) out.push(plain(item, source, seen));
      return out;
    }
    case 'map': {
      const out: Record<string, unknown> = {};
      seen.set(node, out);
      for (const e of node.entries) {
        const v = e.keyNode.value;
        out[typeof v === 'string' ? v : String(v)] = plain(e.value, source, seen);
      }
      return out;
    }
  }
}

/** js-yaml's own value of `source`, objects made plain (js-yaml's have Object.prototype), or its error. */
function reference(source: string): { value: unknown } | { error: string } {
  try {
    return { value: normal(load(source, { schema: coreSchema(), json: true })) };
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/**
 * `v` with plain objects; throws for a value that contains itself (`&A [*A]`: js-yaml registers an anchor
 * before reading the node, the tree once it is read, so the tree refuses such an alias as unresolved — a
 * workflow value cannot be cyclic).
 */
function normal(v: unknown, seen = new Map<object, unknown>(), open = new Set<object>()): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (open.has(v)) throw new Error(CYCLIC);
  const done = seen.get(v);
  if (done !== undefined) return done;
  open.add(v);
  try {
    return normalNew(v, seen, open);
  } finally {
    open.delete(v);
  }
}

function normalNew(v: object, seen: Map<object, unknown>, open: Set<object>): unknown {
  if (Array.isArray(v)) {
    const out: unknown[] = [];
    seen.set(v, out);
    for (const x of v) out.push(normal(x, seen, open));
    return out;
  }
  const out: Record<string, unknown> = {};
  seen.set(v, out);
  for (const [k, x] of Object.entries(v)) out[k] = normal(x, seen, open);
  return out;
}

const CYCLIC = 'a value that contains itself';

/** Refusals of the tree that js-yaml (with `json: true`) does not make, on purpose. */
const DELIBERATE = /Map keys must be unique|complex key|key without a value|map keys must be strings|the workflow source is empty/;

/** Asserts the tree of `source` and js-yaml's value agree (or both refuse it). */
function agree(source: string): void {
  const want = reference(source);
  // A value that contains itself has no tree (a workflow value cannot be cyclic): the tree refuses the alias or
  // takes the anchor's previous, completed node; either is allowed.
  if ('error' in want && want.error === CYCLIC) return;
  let tree: SNode;
  try {
    tree = loadSource(source, 'yaml').root;
  } catch (e) {
    const message = (e as Error).message;
    if ('error' in want || DELIBERATE.test(message)) return;
    assert.unreachable(`the tree refused what js-yaml reads: ${message}\n--- source ---\n${source}`);
    return;
  }
  if ('error' in want) assert.unreachable(`js-yaml refused what the tree reads: ${want.error}\n--- source ---\n${source}`);
  else assert.equal(plain(tree, source), want.value, `tree vs js-yaml load() of:\n${source}`);
}

const corpusFiles = CORPUS === undefined ? [] : readdirSync(join(CORPUS, 'yaml')).filter((f) => f.endsWith('.yaml')).sort();

if (!skipWithoutCorpus(s, 'every published sample: the tree equals js-yaml load()')) {
  s('every published sample: the tree, read back, equals js-yaml load() of it (https://cloud.google.com/workflows/docs/reference/syntax)', () => {
    assert.ok(corpusFiles.length > 0);
    for (const f of corpusFiles) agree(readFileSync(join(CORPUS!, 'yaml', f), 'utf8'));
  });
}

// ---- Generated YAML: a value tree, written out with a style chosen per node ----

/** How a scalar is written; the text need not mean what the generator meant: both readers read the same text. */
type Scalar = { text: string; style: 'plain' | 'single' | 'double' | 'literal' | 'folded' };
type Doc = { scalar: Scalar } | { list: Doc[]; flow: boolean; anchor?: string } | { map: [string, Doc][]; flow: boolean; anchor?: string } | { alias: string };

const word = fc.constantFrom('a', 'b', 'x1', 'name', 'steps', 'call', 'args', 'key with space', '<<', 'true', 'null', '1', '1.5', '0x1F', '~', 'é', 'Ünïcode');
const scalarText = fc.oneof(
  word,
  fc.constantFrom('', ' lead', 'trail ', 'a: b', 'a #b', '#c', '- d', '"q"', "it's", 'line\nbreak', 'two\n\nblank', '\ttab', '${x + 1}', '123', '-7', '1e3', '.inf', 'NaN', 'True', 'FALSE', '9223372036854775808', '0o17', '+12'),
  fc.string({ maxLength: 8 }),
);
const scalar: fc.Arbitrary<Scalar> = fc.record({ text: scalarText, style: fc.constantFrom('plain', 'single', 'double', 'literal', 'folded') });

const doc: fc.Arbitrary<Doc> = fc.letrec<{ doc: Doc }>((tie) => ({
  doc: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar.map((x) => ({ scalar: x })),
    fc.record({ list: fc.array(tie('doc'), { maxLength: 4 }), flow: fc.boolean(), anchor: fc.option(fc.constantFrom('A', 'B'), { nil: undefined, freq: 3 }) }),
    fc.record({
      map: fc.uniqueArray(fc.tuple(word, tie('doc')), { maxLength: 4, selector: ([k]) => k }),
      flow: fc.boolean(),
      anchor: fc.option(fc.constantFrom('A', 'B'), { nil: undefined, freq: 3 }),
    }),
    fc.constantFrom('A', 'B').map((alias) => ({ alias })),
  ),
})).doc;

/** YAML text of scalar `x` in its style, for a node at `indent`. */
function writeScalar(x: Scalar, indent: string, inFlow: boolean): string {
  switch (x.style) {
    case 'plain':
      return x.text.replace(/\n/g, `\n${indent}  `);
    case 'single':
      return `'${x.text.replace(/'/g, "''").replace(/\n/g, `\n${indent}  `)}'`;
    case 'double':
      return JSON.stringify(x.text);
    case 'literal':
    case 'folded':
      if (inFlow) return JSON.stringify(x.text);
      return `${x.style === 'literal' ? '|' : '>'}\n${x.text
        .split('\n')
        .map((l) => `${indent}  ${l}`)
        .join('\n')}`;
  }
}

/** YAML text of `d` at `indent` (block) or inline (flow). */
function write(d: Doc, indent: string, inFlow: boolean): string {
  if ('scalar' in d) return writeScalar(d.scalar, indent, inFlow);
  if ('alias' in d) return `*${d.alias}`;
  const anchor = d.anchor ? `&${d.anchor} ` : '';
  const key = (k: string): string => (/^[A-Za-z<][\w< ]*$/.test(k) ? k : JSON.stringify(k));
  if ('list' in d) {
    if (d.flow || inFlow || d.list.length === 0) return `${anchor}[${d.list.map((x) => write(x, indent, true)).join(', ')}]`;
    return `${anchor}\n${d.list.map((x) => `${indent}- ${write(x, `${indent}  `, false)}`).join('\n')}`;
  }
  if (d.flow || inFlow || d.map.length === 0) return `${anchor}{${d.map.map(([k, v]) => `${key(k)}: ${write(v, indent, true)}`).join(', ')}}`;
  return `${anchor}\n${d.map.map(([k, v]) => `${indent}${key(k)}: ${write(v, `${indent}  `, false)}`).join('\n')}`;
}

/** A document: a block map at the top (as workflow sources are) or any node. */
const yamlText = fc.oneof(
  fc.uniqueArray(fc.tuple(word, doc), { minLength: 1, maxLength: 4, selector: ([k]) => k }).map((entries) => write({ map: entries, flow: false }, '', false) + '\n'),
  doc.map((d) => write(d, '', false).replace(/^\n/, '') + '\n'),
);

s('generated YAML: the tree, read back, equals js-yaml load() of it, or both refuse it (https://yaml.org/spec/1.2.2/)', async () => {
  const EXAMPLES: [string][] = [
    ['base: &B {a: 1, b: two}\nderived:\n  <<: *B\n  c: 3\n'],
    ['- &A [1, "x", {k: v}]\n- *A\n- *A\n'],
    ['text: >\n  folded\n  lines\n\n  para\nlit: |-\n  keep\n   this\n'],
    ["q: 'multi\n  line' \nd: \"esc\\t\\u00e9\n  next\"\n"],
    ['[a, b: 1, {c: d}]\n'],
  ];
  await assertSame(
    fc.property(yamlText, (text) => {
      agree(text);
    }),
    { ...params(400, EXAMPLES), endOnFailure: false },
  );
});

s.run();
