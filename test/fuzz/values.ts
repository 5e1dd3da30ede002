/**
 * fast-check arbitraries of workflow values for the fuzz suites: every type of the language
 * (docs/language.md#data-types), with the edges that break naive code (64-bit extremes, -0, NaN, huge doubles, lone surrogates,
 * `__proto__` keys, long strings near the 256 KB limit, nested lists and maps).
 */
import fc from 'fast-check';
import { INT_MAX, INT_MIN, type Value, type WMap } from '../../src/lang/value.ts';

/**
 * One code point of any plane, lone surrogates included: the values of fast-check's `unit: 'binary'`, drawn the
 * same way (an integer biased to small values, mapped to its code point). fast-check's own unit can also turn a
 * value back into its integer for shrinking, and for that builds a map of all 1.1 million code points the first
 * time any of its strings passes through `fc.oneof` (about 1 s of CPU, in every process); this one never does.
 */
export const anyCodePoint: fc.Arbitrary<string> = fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp));

/** Strings of {@link anyCodePoint}s: any UTF-16 text, lone surrogates included. */
export function anyString(constraints: { maxLength?: number } = {}): fc.Arbitrary<string> {
  return fc.string({ ...constraints, unit: anyCodePoint });
}

/** Ints: anywhere in 64 bits, and their edges. */
export const intValue: fc.Arbitrary<Value> = fc.oneof(
  fc.bigInt({ min: INT_MIN, max: INT_MAX }),
  fc.constantFrom(0n, 1n, -1n, 2n, 31n, 32n, 63n, 64n, 1000n, INT_MAX, INT_MIN, 9007199254740993n, -9007199254740993n),
);

/** Doubles, including NaN, infinities, -0 and the largest finite ones. */
export const doubleValue: fc.Arbitrary<Value> = fc.oneof(
  fc.double(),
  fc.constantFrom(0.5, -0, 1e303, -1e303, 1e21, 1.7976931348623157e308, 5e-324, NaN, Infinity, -Infinity, 2 ** 63, -(2 ** 63)),
);

/** Strings: any UTF-16 (lone surrogates included), text that looks like numbers, dates, JSON, regexes, and long ones. */
export const stringValue: fc.Arbitrary<Value> = fc.oneof(
  { weight: 5, arbitrary: anyString({ maxLength: 20 }) },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      '', ' ', 'a', ',', '%', '%zz', '%E2%82%AC', '+', 'é', '😀', '\uD800', 'a*', '(a+)+', '\\1', '[', '.*', '',
      '1', '-1', '1.5', '1e400', 'NaN', 'true', 'True', '9223372036854775808', '0x10',
      '{"a": [1, 2.0, null]}', '[[[[[[]]]]]]', '2024-07-12T12:50:33Z', '2024-13-40T99:99:99Z', 'Europe/Paris',
      'UTF-8', 'UTF-16', 'latin1', 'SHA256', 'MD5', '__proto__', 'constructor',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('x'.repeat(100_000), 'ab'.repeat(130_000), '€'.repeat(90_000)) },
);

/** Bytes, short or long. */
export const bytesValue: fc.Arbitrary<Value> = fc.oneof(
  fc.uint8Array({ maxLength: 16 }),
  fc.constant(new Uint8Array(300_000).fill(0xe2)),
);

/** Any scalar. */
export const scalarValue: fc.Arbitrary<Value> = fc.oneof(
  { weight: 2, arbitrary: intValue },
  { weight: 2, arbitrary: doubleValue },
  { weight: 3, arbitrary: stringValue },
  fc.boolean(),
  fc.constant(null),
  bytesValue,
);

/** Any value: scalars, and lists and maps of them a few levels deep. */
export const anyValue: fc.Arbitrary<Value> = fc.letrec<{ v: Value }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 6, arbitrary: scalarValue },
    { weight: 1, arbitrary: fc.array(tie('v'), { maxLength: 5 }) },
    {
      weight: 1,
      arbitrary: fc
        .array(fc.tuple(fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'url', 'a')), tie('v')), { maxLength: 5 })
        .map((entries): WMap => new Map(entries)),
    },
  ),
})).v;

/** A list nested `depth` deep around `leaf`. */
export function nested(depth: number, leaf: Value = 1n): Value {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}
