// Fuzz: expressions built from the grammar (docs/language.md#expressions: literals, variables, operators, `.` and `[]`,
// calls of the standard library) and from random text, deployed and run by the real engine. Each either fails
// to compile with a definition error, or runs to a result or a tagged workflow error; never a raw JS error,
// never a SystemError, never a stack overflow, and nothing the run builds passes the size limits (docs/api-resources.md#errors).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { DefinitionError } from '../../src/lang/definition/errors.ts';
import { ERROR_TAG_NAMES, WorkflowError } from '../../src/lang/errors.ts';
import { toJson } from '../../src/lang/json.ts';
import { runExecution } from '../../src/engine/run.ts';
import { STDLIB } from '../../src/stdlib/index.ts';
import { harness } from '../engine/helpers.ts';
import { params, FUZZ_SEED } from './config.ts';
import { nested } from './values.ts';
import type { Value } from '../../src/lang/value.ts';

const s = suite(`fuzz: expressions (seed ${FUZZ_SEED})`);

const KNOWN_TAGS = new Set<string>(ERROR_TAG_NAMES);
const PURE = [...STDLIB.values()].filter((f) => !f.blocking).map((f) => f.name);

/** The variables every fuzzed expression can read (assigned by the workflow before it). */
const VARS = ['s', 'n', 'd', 'l', 'm', 'big', 'deep', 'b'];
const PRELUDE = `main:
  params: [args]
  steps:
    - init:
        assign:
          - s: "héllo, wörld 😀"
          - n: 9223372036854775807
          - d: 1.5e300
          - l: [1, "two", 3.0, null, [4], {"k": true}]
          - m: {"a": 1, "__proto__": 2, "k": [1, 2]}
          - big: \${args.big}
          - deep: \${args.deep}
          - b: \${text.encode("bytes")}
    - run:
        assign:
          - r: `;

/** The argument: a string of 100,000 characters and a list nested 500 deep. */
const ARGUMENT: Value = new Map<string, Value>([
  ['big', 'x'.repeat(100_000)],
  ['deep', nested(500)],
]);

/** Expression text from the grammar. */
const expr: fc.Arbitrary<string> = fc.letrec<{ e: string }>((tie) => ({
  e: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...VARS),
    fc.constantFrom('0', '1', '-1', '9223372036854775807', '9223372036854775808', '1.5', '1e308', '1e-320', '0.0'),
    fc.constantFrom('""', '"a"', "'x'", '"\\u00e9"', '"\\n"', 'true', 'False', 'null', '[]', '{}'),
    fc.tuple(tie('e'), fc.constantFrom('+', '-', '*', '/', '%', '//', '==', '!=', '<', '>=', 'and', 'or', 'in', 'not in'), tie('e'))
      .map(([a, op, b]) => `${a} ${op} ${b}`),
    fc.tuple(fc.constantFrom('-', 'not '), tie('e')).map(([op, a]) => `${op}${a}`),
    tie('e').map((a) => `(${a})`),
    fc.tuple(tie('e'), tie('e')).map(([a, i]) => `${a}[${i}]`),
    fc.tuple(tie('e'), fc.constantFrom('a', 'k', 'x', 'url')).map(([a, k]) => `${a}.${k}`),
    fc.array(tie('e'), { maxLength: 3 }).map((xs) => `[${xs.join(', ')}]`),
    fc.array(fc.tuple(fc.constantFrom('"a"', '"b"', '"__proto__"'), tie('e')), { maxLength: 3 }).map((kv) => `{${kv.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
    fc.tuple(fc.constantFrom(...PURE), fc.array(tie('e'), { maxLength: 3 })).map(([f, xs]) => `${f}(${xs.join(', ')})`),
    fc.tuple(tie('e'), tie('e'), tie('e')).map(([c, a, b]) => `if(${c}, ${a}, ${b})`),
  ),
})).e;

/** Random text from the expression alphabet (syntax errors of every kind). */
const soup: fc.Arbitrary<string> = fc
  .array(fc.constantFrom('(', ')', '[', ']', '{', '}', '"', "'", '.', ',', ':', '+', '-', '*', '/', '%', '<', '=', '!', ' ', 'a', 'n', 'l', '1', '0', 'e', 'not', 'and', 'in', '${', '}', '\\', 'len', 'x'), { maxLength: 60 })
  .map((xs) => xs.join(''));

/** What is wrong with running `${text}`, or undefined when it behaved. */
async function problem(text: string): Promise<string | undefined> {
  const yaml = PRELUDE + JSON.stringify('${' + text + '}') + '\n    - done:\n        return: ${r}\n';
  let def;
  try {
    def = compileDefinition(yaml, DEFINITION_LIBRARY);
  } catch (e) {
    return e instanceof DefinitionError ? undefined : `compile threw a raw ${(e as Error)?.name}: ${(e as Error)?.message}`;
  }
  try {
    const v = await runExecution(def, ARGUMENT, harness().deps, new AbortController().signal);
    try {
      toJson(v);
    } catch {
      // bytes or NaN in the result: the service reports that as a TypeError; the engine did its part
    }
    return undefined;
  } catch (e) {
    if (!(e instanceof WorkflowError)) return `run threw a raw ${(e as Error)?.name}: ${(e as Error)?.message}`;
    const tags = e.tags;
    if (tags.length === 0 || !tags.every((t) => KNOWN_TAGS.has(t))) return `raised unknown tags ${tags.join(',')}`;
    if (tags.includes('SystemError') || tags.includes('RecursionError')) return `raised ${tags.join(',')}: ${e.message}`;
    return undefined;
  }
}

/** Expressions that once crashed or froze something, kept as fixed cases. */
const FOUND = [
  'time.format(1e303)', // SystemError "The number Infinity cannot be converted to a BigInt" (docs/api-resources.md#errors)
  'len(text.find_all(text.replace_all(text.replace_all(big, "", big), "", "xx"), ""))', // a huge string, then millions of matches (docs/api-resources.md#limits)
  'json.encode_to_string([big, big, big, big, big, big, big, big, big, big, big, big, big, big, big, big, big, big, big, big])',
  '[deep, deep] == [deep, deep]',
];

s('expressions from the grammar run to a result or a tagged error, never a crash', async () => {
  for (const text of FOUND) assert.is(await problem(text), undefined, text);
  await fc.assert(
    fc.asyncProperty(expr.filter((t) => t.length <= 400), async (text) => {
      const p = await problem(text);
      if (p) throw new Error(p);
    }),
    params(600),
  );
});

s('random text in ${} is a definition error or runs, never a crash', async () => {
  await fc.assert(
    fc.asyncProperty(soup, async (text) => {
      const p = await problem(text);
      if (p) throw new Error(p);
    }),
    params(600),
  );
});

s.run();
