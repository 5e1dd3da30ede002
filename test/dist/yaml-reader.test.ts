// Differential test of the bundle's YAML reader against js-yaml as published: build.mjs's `js-yaml-reader`
// plugin changes when js-yaml makes its maps of overridable keys (readFlowCollection's once the node is a
// flow collection, not before the check; a block mapping's at its first merge key, not for every mapping) and
// when composeNode takes the snapshot of its state it rolls back to (only where a tag or an anchor starts),
// so the built package (dist/emulator.js, `npm run build` first) and the source (which imports js-yaml as
// published) must read every definition alike (docs/language.md#definitions). Generated definitions return
// flow collections (nested, empty, with anchors and aliases, tags, flow pairs, explicit keys, quoted and plain
// scalars, duplicate keys) and block mappings (merge keys `<<`, repeated keys, properties over a nested block
// mapping whose first key has properties too), and the same texts with a
// character dropped or repeated (syntax errors): runWorkflow() of each (docs/testing.md#runworkflow) must
// give the same result, or the same error code and message, from the bundle as from the source.
//
// FUZZ_RUNS / FUZZ_SEED / FUZZ_PATH replay as in test/fuzz (test/fuzz/config.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Api from '../../src/index.ts';
import * as source from '../../src/index.ts';
import { params, FUZZ_SEED } from '../fuzz/config.ts';
import { assertSame } from '../support/differential.ts';

const s = suite<{ dist: typeof Api }>(`dist: the bundled YAML reader against js-yaml as published (seed ${FUZZ_SEED})`);

s.before(async (ctx) => {
  ctx.dist = (await import(pathToFileURL(join(process.cwd(), 'dist/emulator.js')).href)) as typeof Api;
});

/** A flow node's text: scalars, and flow lists and maps of them (with anchors, aliases, pairs and `?` keys). */
const flow: fc.Arbitrary<string> = fc.letrec<{ node: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom('1', '-2', '3.5', 'true', 'null', '~', 'x', '"q,uo]te"', "'s}q'", 'a b', '"${1}"', '*a', '&a 7', '""', '0x1F'),
    // Non-printable characters (refused in plain scalars, not in quoted ones) and surrogates, paired or not.
    fc.constantFrom('b\u0007ell', '"q\u0002"', "'\u0085'", '\u{1F600}x', '"\u{1F600}"', 'x\uD800', '"\uDC00y"', 'a\uFFFE'),
    // Tags, known and not, on scalars.
    fc.constantFrom('!!str 12', '!!int "3"', '!!float 1', '!x y', '!!null ""', '!<tag:yaml.org,2002:str> z', '!!map {a: 1}', '! n'),
    fc.array(tie('node'), { maxLength: 4 }).map((xs) => `[${xs.join(', ')}]`),
    fc.array(fc.tuple(fc.constantFrom('k', 'k2', '"k"', 'x y', '? k', '&a k', '1'), tie('node')), { maxLength: 4 }).map((es) => `{${es.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
    fc.tuple(tie('node'), tie('node')).map(([a, b]) => `[${a}: ${b}]`),
    tie('node').map((n) => `&a ${n}`),
  ),
})).node;

/**
 * A value at `indent`: a flow node on the key's line, or properties (anchors, tags) on the key's line with a block
 * mapping under them, whose first key may carry properties of its own (js-yaml then rolls back to the first
 * properties and reads them as the key's: the bundle's reader takes its snapshot for that only where a property
 * starts).
 */
const blockValue = (indent: string): fc.Arbitrary<string> =>
  fc.oneof(
    flow.map((v) => ` ${v}`),
    fc
      .tuple(fc.constantFrom('&p', '!!map', '&p !!map', '!!str', '!x', '&p &q', '!!map !!map', ''), fc.constantFrom('', '!!str ', '&k ', '!!str &k ', '*a '), flow)
      .map(([props, keyProps, v]) => `${props === '' ? '' : ' '}${props}\n${indent}  ${keyProps}n: ${v}`),
    // A block list whose entry starts with properties and then a key on the same line: js-yaml reads the
    // properties as the entry's, then rolls back to them and reads them as the key's.
    fc
      .tuple(fc.constantFrom('&p ', '!!str ', '&p !!str ', '!!map ', ''), flow, flow)
      .map(([props, v, w]) => `\n${indent}  - ${props}n: ${v}\n${indent}  - ${props}${w}`),
  );

/** A block mapping's lines at `indent`: keys (merge keys and repeated keys among them) with flow values. */
const block = (indent: string): fc.Arbitrary<string> =>
  fc
    .array(fc.tuple(fc.constantFrom('k', 'k2', '<<', '"k"', '? k', '&a k3', 'x'), blockValue(indent)), { minLength: 1, maxLength: 4 })
    .map((es) => es.map(([k, v]) => `${indent}${k}:${v}\n`).join(''));

/** A definition returning `node`, written inline or on lines of its own, or a block mapping. */
const definition = fc.oneof(
  fc.tuple(flow, flow, fc.boolean()).map(([a, b, split]) =>
    split ? `main:\n  steps:\n    - one:\n        assign:\n          - v: ${a}\n    - done:\n        return:\n          [${b},\n           "\${v}"]\n` : `main:\n  steps:\n    - done:\n        return: ${a}\n`,
  ),
  block('          ').map((lines) => `main:\n  steps:\n    - done:\n        return:\n${lines}`),
);

/** A definition, sometimes with a comment holding a non-printable character (allowed there). */
const commented = fc.tuple(definition, fc.constantFrom('', '# plain\n', '# bell \u0007\n', '# \u{1F600}\n')).map(([text, comment]) => comment + text);

/** The same text with one character dropped or repeated: most of these are syntax errors. */
const broken = fc.tuple(commented, fc.nat(), fc.boolean()).map(([text, at, drop]) => {
  const i = 30 + (at % Math.max(1, text.length - 30));
  return drop ? text.slice(0, i) + text.slice(i + 1) : text.slice(0, i + 1) + text.slice(i);
});

/** What runWorkflow() gives: the result, or the error's code and message. */
async function outcome(api: typeof Api, text: string): Promise<unknown> {
  try {
    const run = await api.runWorkflow({ source: text });
    return { result: run.result, error: run.error ? { message: run.error.message, tags: run.error.tags } : undefined };
  } catch (e) {
    return { thrown: (e as { code?: string }).code, message: (e as Error).message };
  }
}

s('definitions returning flow collections, and the same texts broken, read alike from the bundle and from the source', async (ctx) => {
  await assertSame(
    fc.asyncProperty(fc.oneof({ arbitrary: commented, weight: 3 }, { arbitrary: broken, weight: 1 }), async (text) => {
      assert.equal(await outcome(ctx.dist, text), await outcome(source, text), text);
    }),
    params(300),
  );
});

s.run();
