/**
 * The built-in helpers without a namespace (docs/standard-library.md, built-in helpers table; Google's
 * "Expression helpers" page): `default`, `keys`, `len`, `type`, `int`, `double`, `string`, `bool`, plus the
 * real service's `get_type` (its own type names) and `if` (both branches already evaluated, as for any call).
 *
 * Conversions follow the spec; where it is silent, Google's documentation decides (see each row). Lengths
 * and indexes count Unicode code points, the "characters" Google's `len()` documentation speaks of.
 */
import { typeError, valueError } from '../lang/errors.ts';
import { BOOLEAN_SPELLINGS, formatDouble, INT_MAX, INT_MIN, typeName } from '../lang/value.ts';
import { codePointLength, map, wrongType } from './check.ts';
import type { StdlibFunction } from './types.ts';

/**
 * Names `get_type()` returns, by the emulator's type name. Google's expression helper uses its own words for
 * int and bool (`integer`, `boolean`); the other names match `type()`.
 */
const GET_TYPE_NAMES: Readonly<Record<string, string>> = {
  int: 'integer',
  double: 'double',
  string: 'string',
  bool: 'boolean',
  null: 'null',
  list: 'list',
  map: 'map',
  bytes: 'bytes',
};

// 2^63 as a double: the first double beyond the int range.
const TWO_63 = 9223372036854775808;

/**
 * Converts a double to an int, truncating toward zero (docs/standard-library.md: "from double truncates
 * toward zero").
 *
 * @throws WorkflowError tagged ValueError for NaN, infinities and values outside the 64-bit range.
 */
function doubleToInt(fn: string, d: number): bigint {
  if (!Number.isFinite(d)) throw valueError(`${fn}: cannot convert ${formatDouble(d)} to int`);
  const t = Math.trunc(d);
  if (t >= TWO_63 || t < -TWO_63) throw valueError(`${fn}: ${formatDouble(d)} is out of the int range`);
  return BigInt(t);
}

const INT_TEXT = /^[+-]?[0-9]+$/;
const DOUBLE_TEXT = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/;

/**
 * Parses the decimal text of an int, as `int("42")` does: optional sign, digits, surrounding whitespace
 * ignored.
 *
 * @throws WorkflowError tagged ValueError for any other text or a value outside the 64-bit range.
 */
function parseIntText(fn: string, s: string): bigint {
  const t = s.trim();
  if (!INT_TEXT.test(t)) throw valueError(`${fn}: cannot convert '${s}' to int`);
  const n = BigInt(t);
  if (n > INT_MAX || n < INT_MIN) throw valueError(`${fn}: '${s}' is out of the int range`);
  return n;
}

/**
 * Parses the decimal text of a double, as `double("2.7")` does: an optional sign, digits with an optional
 * fraction and exponent (`1`, `2.5`, `.5`, `1e3`), surrounding whitespace ignored.
 *
 * @throws WorkflowError tagged ValueError for any other text (including `NaN` and `Infinity`) or a value that
 *   overflows a double.
 */
function parseDoubleText(fn: string, s: string): number {
  const t = s.trim();
  if (!DOUBLE_TEXT.test(t)) throw valueError(`${fn}: cannot convert '${s}' to double`);
  const d = Number(t);
  if (!Number.isFinite(d)) throw valueError(`${fn}: '${s}' is out of the double range`);
  return d;
}

/** The built-in helpers, one row per function. */
export const functions: StdlibFunction[] = [
  {
    // default(value, fallback): value unless null. A missing variable raises KeyError before the call.
    name: 'default',
    params: [
      { name: 'value', aliases: ['val'] },
      { name: 'default', aliases: ['fallback', 'defaultVal'] },
    ],
    impl: ([value, fallback]) => (value === null || value === undefined ? (fallback ?? null) : value),
  },
  {
    // keys(map): the keys in insertion order (the spec guarantees no order; insertion order is stable).
    name: 'keys',
    params: [{ name: 'map' }],
    impl: ([m]) => [...map('keys', 'map', m).keys()],
  },
  {
    // len(value): code points of a string, elements of a list, entries of a map, bytes of bytes.
    name: 'len',
    params: [{ name: 'value' }],
    impl: ([v]) => {
      if (typeof v === 'string') return BigInt(codePointLength(v));
      if (Array.isArray(v)) return BigInt(v.length);
      if (v instanceof Map) return BigInt(v.size);
      if (v instanceof Uint8Array) return BigInt(v.length);
      wrongType('len', 'value', 'a string, list, map or bytes', v);
    },
  },
  {
    // type(value): the spec's type name.
    name: 'type',
    params: [{ name: 'value' }],
    impl: ([v]) => typeName(v ?? null),
  },
  {
    // get_type(value): Google's expression helper, with its own names (integer, boolean, ...).
    name: 'get_type',
    params: [{ name: 'value' }],
    impl: ([v]) => GET_TYPE_NAMES[typeName(v ?? null)]!,
  },
  {
    // int(value): int as is, double truncated toward zero, decimal text parsed.
    name: 'int',
    params: [{ name: 'value' }],
    impl: ([v]) => {
      if (typeof v === 'bigint') return v;
      if (typeof v === 'number') return doubleToInt('int', v);
      if (typeof v === 'string') return parseIntText('int', v);
      wrongType('int', 'value', 'an int, double or string', v);
    },
  },
  {
    // double(value): int widened, double as is, decimal text parsed.
    name: 'double',
    params: [{ name: 'value' }],
    impl: ([v]) => {
      if (typeof v === 'number') return v;
      if (typeof v === 'bigint') return Number(v);
      if (typeof v === 'string') return parseDoubleText('double', v);
      wrongType('double', 'value', 'an int, double or string', v);
    },
  },
  {
    // string(value): int, double, bool and string only; maps, lists, null and bytes raise TypeError.
    name: 'string',
    params: [{ name: 'value' }],
    impl: ([v]) => {
      switch (typeof v) {
        case 'string':
          return v;
        case 'bigint':
          return v.toString();
        case 'number':
          return formatDouble(v);
        case 'boolean':
          return v ? 'true' : 'false';
        default:
          throw typeError(
            `string: cannot convert ${typeName(v ?? null)} to string (use json.encode_to_string for maps and lists)`,
          );
      }
    },
  },
  {
    // bool(value): a bool as is; "true"/"false" in the spellings the spec allows for literals.
    name: 'bool',
    params: [{ name: 'value' }],
    impl: ([v]) => {
      if (typeof v === 'boolean') return v;
      if (typeof v === 'string') {
        const b = BOOLEAN_SPELLINGS.get(v.trim());
        if (b === undefined) throw valueError(`bool: cannot convert '${v}' to bool`);
        return b;
      }
      wrongType('bool', 'value', 'a bool or string', v);
    },
  },
  {
    // if(condition, ifTrue, ifFalse): Google's conditional helper; null counts as false.
    name: 'if',
    params: [{ name: 'condition' }, { name: 'ifTrue' }, { name: 'ifFalse' }],
    impl: ([c, a, b]) => {
      if (c === true) return a ?? null;
      if (c === false || c === null || c === undefined) return b ?? null;
      wrongType('if', 'condition', 'a bool', c);
    },
  },
];
