/**
 * The `math` namespace (docs/standard-library.md#namespaces; Google's `math.abs`, `math.floor`, `math.max` and
 * `math.min` pages, the only math functions Google documents). ints stay ints where Google says so:
 * `abs` keeps the kind, `floor` returns an int, `max`/`min` return an int only when both arguments are ints.
 */
import { valueError } from '../lang/errors.ts';
import { compareNumbers, formatDouble } from '../lang/value.ts';
import { num } from './check.ts';
import type { StdlibFunction } from './types.ts';

/** The smallest int, -2^63. */
const INT_MIN = -(2n ** 63n);

// 2^63 as a double: the first double beyond the int range.
const TWO_63 = 9223372036854775808;

/** Floor of a double as an int; undefined for NaN, infinities and results outside the 64-bit range. */
function doubleToIntFloor(d: number): bigint | undefined {
  if (!Number.isFinite(d)) return undefined;
  const f = Math.floor(d);
  return f >= TWO_63 || f < -TWO_63 ? undefined : BigInt(f);
}

function pick(fn: 'math.max' | 'math.min', x: bigint | number, y: bigint | number): bigint | number {
  if (typeof x === 'bigint' && typeof y === 'bigint') return fn === 'math.max' ? (x >= y ? x : y) : x <= y ? x : y;
  const dx = Number(x);
  const dy = Number(y);
  if (Number.isNaN(dx) || Number.isNaN(dy)) return NaN;
  const c = compareNumbers(x, y);
  return fn === 'math.max' ? (c >= 0 ? dx : dy) : c <= 0 ? dx : dy;
}

/** The math functions, one row per function. */
export const functions: StdlibFunction[] = [
  {
    // math.abs(x): absolute value of the same kind. Google: "ValueError: If x is MinInt64"
    // (https://cloud.google.com/workflows/docs/reference/stdlib/math/abs): |INT_MIN| has no int.
    name: 'math.abs',
    params: [{ name: 'x', aliases: ['value'] }],
    impl: ([x]) => {
      const v = num('math.abs', 'x', x);
      if (v === INT_MIN) throw valueError(`math.abs: the absolute value of ${INT_MIN} is beyond the int range`);
      return typeof v === 'bigint' ? (v < 0n ? -v : v) : Math.abs(v);
    },
  },
  {
    // math.floor(x): the largest int not greater than x (docs/standard-library.md#namespaces: double to int); an int is returned as is.
    name: 'math.floor',
    params: [{ name: 'x', aliases: ['value'] }],
    impl: ([x]) => {
      const v = num('math.floor', 'x', x);
      if (typeof v === 'bigint') return v;
      const r = doubleToIntFloor(v);
      if (r === undefined) throw valueError(`math.floor: ${formatDouble(v)} cannot be converted to int`);
      return r;
    },
  },
  {
    // math.max(x, y): the larger; an int when both are ints, else a double.
    name: 'math.max',
    params: [
      { name: 'x', aliases: ['a'] },
      { name: 'y', aliases: ['b'] },
    ],
    impl: ([x, y]) => pick('math.max', num('math.max', 'x', x), num('math.max', 'y', y)),
  },
  {
    // math.min(x, y): the smaller; an int when both are ints, else a double.
    name: 'math.min',
    params: [
      { name: 'x', aliases: ['a'] },
      { name: 'y', aliases: ['b'] },
    ],
    impl: ([x, y]) => pick('math.min', num('math.min', 'x', x), num('math.min', 'y', y)),
  },
];
