// Fuzz: every standard-library function that does not wait, called with arbitrary arguments of every type
// (docs/api-resources.md#errors: "sweep the stdlib for any other input that surfaces a raw JavaScript message"). Each call returns
// a value within the size limits or raises a WorkflowError with the spec's tags; never a JS error, never a
// SystemError (what a leaked JS error becomes), never a value over the limits (docs/api-resources.md#limits).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { ERROR_TAG_NAMES, WorkflowError } from '../../src/lang/errors.ts';
import { typeName, sizeOf, type Value } from '../../src/lang/value.ts';
import { MAX_STRING_BYTES, MAX_VALUE_BYTES, utf8Length } from '../../src/lang/size-checks.ts';
import { createVirtualTime } from '../../src/engine/virtual-time.ts';
import { testCallbacks } from '../support/callbacks.ts';
import { bindPositionalArgs, STDLIB } from '../../src/stdlib/index.ts';
import type { CallContext } from '../../src/stdlib/types.ts';
import { params, FUZZ_SEED } from './config.ts';
import { anyValue, nested } from './values.ts';

const s = suite(`fuzz: standard library (seed ${FUZZ_SEED})`);

const clock = createVirtualTime(Date.UTC(2026, 0, 1));
const ctx: CallContext = {
  clock,
  fetch: () => Promise.reject(new Error('no network in the stdlib fuzz')),
  env: new Map([['CLOUD_PROJECT_ID', 'p']]),
  signal: new AbortController().signal,
  log: () => {},
  callbacks: testCallbacks(clock, 'http://localhost:1').hub,
};

const PURE = [...STDLIB.values()].filter((f) => !f.blocking).map((f) => f.name).sort();
const KNOWN_TAGS = new Set<string>(ERROR_TAG_NAMES);

/** Calls `name` with positional `args`; returns a problem description, or undefined when all is well. */
function problem(name: string, args: Value[]): string | undefined {
  const fn = STDLIB.get(name)!;
  let v: Value;
  try {
    v = fn.impl(bindPositionalArgs(fn, args), ctx) as Value;
  } catch (e) {
    if (!(e instanceof WorkflowError)) return `threw a raw ${(e as Error)?.name}: ${(e as Error)?.message}`;
    const tags = e.tags;
    if (tags.length === 0 || !tags.every((t) => KNOWN_TAGS.has(t))) return `raised unknown tags ${tags.join(',')}`;
    if (tags.includes('SystemError')) return `raised SystemError: ${e.message}`;
    return undefined;
  }
  if (v === undefined || (v instanceof Promise)) return `returned ${String(v)}`;
  typeName(v);
  if (typeof v === 'string' && utf8Length(v) > MAX_STRING_BYTES) return `returned a string of ${utf8Length(v)} bytes`;
  if (v !== null && typeof v === 'object' && (v instanceof Uint8Array ? v.length : sizeOf(v)) > MAX_VALUE_BYTES) {
    return `returned a ${typeName(v)} over 512 KB`;
  }
  return undefined;
}

/** Inputs that once made a function fail badly, kept as fixed cases. */
const FOUND: [string, Value[]][] = [
  ['time.format', [1e303]], // "The number Infinity cannot be converted to a BigInt" (docs/api-resources.md#limits)
  ['text.find_all', ['x'.repeat(200_000), '']], // millions of matches of "" built at once (docs/api-resources.md#limits)
  ['text.replace_all', ['x'.repeat(1000), '', 'y'.repeat(1000)]], // a 1 MB string built in one call
  ['json.encode_to_string', [Array(100).fill('x'.repeat(100_000))]], // 10 MB of JSON from 100 references
  ['json.encode_to_string', [nested(900), new Map([['indent', ' '.repeat(10_000)]])]], // indentation squared
];

s('every function that does not wait returns a bounded value or raises a tagged WorkflowError, whatever its arguments', () => {
  for (const [name, args] of FOUND) assert.is(problem(name, args), undefined, `${name}(${args.map((a) => typeName(a)).join(', ')})`);
  for (const name of PURE) {
    const arity = STDLIB.get(name)!.params.length;
    // Mostly as many arguments as the function takes, sometimes one less or one more.
    const args = fc.integer({ min: Math.max(0, arity - 1), max: arity + 1 }).chain((n) => fc.array(anyValue, { minLength: n, maxLength: n }));
    fc.assert(
      fc.property(args, (a) => {
        const p = problem(name, a);
        if (p) throw new Error(`${name}: ${p}`);
      }),
      params(60),
    );
  }
});

s.run();
