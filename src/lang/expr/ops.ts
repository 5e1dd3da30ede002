/**
 * The operators of the expression language as functions on values (docs/language.md#expressions), shared by the
 * synchronous closures (compile-sync.ts) and the asynchronous evaluator (compile-async.ts) so both have one
 * set of semantics.
 *
 * Rules, with the error tags raised:
 * - Arithmetic on int and double; mixing them promotes to double. int results wrap to signed 64 bits
 *   (`9223372036854775807 + 1` is `-9223372036854775808`; unary minus too). `/` always gives a double
 *   (`10 / 2` is 2.0); `//` is floor division (`-10 // 3` is -4; int // int is int); `%` is the matching
 *   floor modulo (`-10 % 3` is 2: the result takes the divisor's sign, so `a == (a // b) * b + a % b`).
 *   Division, floor division or modulo by zero (int or double) raise ZeroDivisionError.
 * - `+` on two strings concatenates; any other mix (string + number, list + list, ...) is a TypeError
 *   (docs/language.md#expressions: string plus number is a TypeError, use string()); Google's table lists no list operand for `+`).
 * - `==`/`!=` are deep equality ({@link deepEqual}): `1 == 1.0`; incompatible types are unequal, no error.
 * - `<`, `>`, `<=`, `>=` order numbers with numbers and strings with strings (lexicographically by Unicode
 *   code point); any other pair is a TypeError.
 * - `and`, `or`, `not` need booleans (TypeError); the short-circuit itself lives in compile-sync.ts and
 *   compile-async.ts.
 * - `in` / `not in`: key presence in a map, value presence (deep equality) in a list; TypeError otherwise.
 * - `.name` and `[index]`: a map key that is missing is a KeyError; a list index that is negative or out of
 *   range is an IndexError; an index of the wrong type, or member access on a non-map, is a TypeError.
 *
 * Messages follow the wording the real service uses where it is known (`key not found: results`, `The argument
 * of 'in' must be a dict or an array; got: null`) and Python's otherwise (`unsupported operand type(s) for +:
 * 'string' and 'int'`), since the language is modelled on Python. Pure: no `node:` imports.
 */
import { checkConcat } from '../size-checks.ts';
import type { BinaryOp } from './ast.ts';
import { indexError, keyError, typeError, WorkflowError } from '../errors.ts';
import { compareNumbers, deepEqual, formatDouble, typeName, wrapInt, type Value } from '../value.ts';

/** A binary operator that evaluates both operands (every one but `and` / `or`). */
export type EagerBinaryOp = Exclude<BinaryOp, 'and' | 'or'>;

function operandError(op: string, a: Value, b: Value): WorkflowError {
  return typeError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
}

function zeroDivision(op: string): WorkflowError {
  return WorkflowError.of('ZeroDivisionError', op === '%' ? 'modulo by zero' : 'division by zero');
}

/** `a + b`: numeric addition (wrapping ints) or string concatenation. @throws TypeError for other operands. */
export function add(a: Value, b: Value): Value {
  const ta = typeof a;
  const tb = typeof b;
  if (ta === 'bigint' && tb === 'bigint') return wrapInt((a as bigint) + (b as bigint));
  if (ta === 'string' && tb === 'string') return checkConcat('+', a as string, b as string);
  if ((ta === 'number' || ta === 'bigint') && (tb === 'number' || tb === 'bigint')) return Number(a) + Number(b);
  throw operandError('+', a, b);
}

/**
 * Google's `a + b` (`--compat google`, docs/compat.md): {@link add}, and when one side is a string and the
 * other an int, double or bool, the other is written as `string()` writes it and the two are joined ("Hello
 * world" + 1 is "Hello world1"; https://cloud.google.com/workflows/docs/reference/syntax/datatypes, implicit
 * conversions). @throws TypeError as {@link add} for the other mixes.
 */
export function addGoogle(a: Value, b: Value): Value {
  if (typeof a === 'string' && typeof b !== 'string') {
    const t = scalarText(b);
    if (t !== undefined) return checkConcat('+', a, t);
  } else if (typeof b === 'string' && typeof a !== 'string') {
    const t = scalarText(a);
    if (t !== undefined) return checkConcat('+', t, b);
  }
  return add(a, b);
}

/** An int, double or bool as text (`string()`'s form); undefined for other values. */
function scalarText(v: Value): string | undefined {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v === 'number') return formatDouble(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  return undefined;
}

/** `a - b` on numbers. @throws TypeError for non-numbers. */
export function sub(a: Value, b: Value): Value {
  const ta = typeof a;
  const tb = typeof b;
  if (ta === 'bigint' && tb === 'bigint') return wrapInt((a as bigint) - (b as bigint));
  if ((ta === 'number' || ta === 'bigint') && (tb === 'number' || tb === 'bigint')) return Number(a) - Number(b);
  throw operandError('-', a, b);
}

/** `a * b` on numbers. @throws TypeError for non-numbers. */
export function mul(a: Value, b: Value): Value {
  const ta = typeof a;
  const tb = typeof b;
  if (ta === 'bigint' && tb === 'bigint') return wrapInt((a as bigint) * (b as bigint));
  if ((ta === 'number' || ta === 'bigint') && (tb === 'number' || tb === 'bigint')) return Number(a) * Number(b);
  throw operandError('*', a, b);
}

/** `a / b`: always a double. @throws TypeError for non-numbers; ZeroDivisionError when b is 0 or 0.0. */
export function div(a: Value, b: Value): Value {
  if (!isNum(a) || !isNum(b)) throw operandError('/', a, b);
  const y = Number(b);
  if (y === 0) throw zeroDivision('/');
  return Number(a) / y;
}

/**
 * `a // b`: floor division. int // int is an int (rounded toward negative infinity, wrapping:
 * INT_MIN // -1 is INT_MIN); with a double it is the floored double.
 * @throws TypeError for non-numbers; ZeroDivisionError when b is zero.
 */
export function floorDiv(a: Value, b: Value): Value {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (b === 0n) throw zeroDivision('//');
    let q = a / b;
    if ((a % b !== 0n) && (a < 0n) !== (b < 0n)) q -= 1n;
    return wrapInt(q);
  }
  if (!isNum(a) || !isNum(b)) throw operandError('//', a, b);
  const y = Number(b);
  if (y === 0) throw zeroDivision('//');
  return Math.floor(Number(a) / y);
}

/**
 * `a % b`: floor modulo, the remainder matching `//` (its sign is the divisor's: `-10 % 3` is 2,
 * `10 % -3` is -2). int % int is an int; with a double it is a double.
 * @throws TypeError for non-numbers; ZeroDivisionError when b is zero.
 */
export function mod(a: Value, b: Value): Value {
  if (typeof a === 'bigint' && typeof b === 'bigint') {
    if (b === 0n) throw zeroDivision('%');
    const r = a % b;
    return r !== 0n && (r < 0n) !== (b < 0n) ? r + b : r;
  }
  if (!isNum(a) || !isNum(b)) throw operandError('%', a, b);
  const x = Number(a);
  const y = Number(b);
  if (y === 0) throw zeroDivision('%');
  const r = x % y;
  return r !== 0 && r < 0 !== y < 0 ? r + y : r;
}

/** Unary `-x` on a number (an int wraps: `-(-9223372036854775808)` is itself). @throws TypeError otherwise. */
export function neg(a: Value): Value {
  if (typeof a === 'bigint') return wrapInt(-a);
  if (typeof a === 'number') return -a;
  throw typeError(`bad operand type for unary -: '${typeName(a)}'`);
}

/** `not x` on a boolean. @throws TypeError for a non-boolean. */
export function not(a: Value): boolean {
  if (typeof a !== 'boolean') throw typeError(`operand of 'not' must be a boolean, got '${typeName(a)}'`);
  return !a;
}

/**
 * Checks that an operand of `and` / `or` is a boolean and returns it.
 * @param op `and` or `or`, for the message.
 * @throws TypeError for a non-boolean.
 */
export function requireBool(a: Value, op: 'and' | 'or'): boolean {
  if (typeof a !== 'boolean') throw typeError(`operands of '${op}' must be booleans, got '${typeName(a)}'`);
  return a;
}

/** `a == b`: deep equality; never raises. */
export function eq(a: Value, b: Value): boolean {
  return a === b || deepEqual(a, b);
}

/** `a != b`: the negation of {@link eq}; never raises. */
export function ne(a: Value, b: Value): boolean {
  return !(a === b || deepEqual(a, b));
}

// Orders two values for <, >, <=, >=. Returns negative, 0, positive, or NaN (unordered: a NaN operand, for which
// every ordering comparison is false).
function order(op: string, a: Value, b: Value): number {
  const ta = typeof a;
  const tb = typeof b;
  if (ta === 'bigint' && tb === 'bigint') return (a as bigint) < (b as bigint) ? -1 : (a as bigint) > (b as bigint) ? 1 : 0;
  if ((ta === 'number' || ta === 'bigint') && (tb === 'number' || tb === 'bigint')) {
    return compareNumbers(a as number | bigint, b as number | bigint);
  }
  if (ta === 'string' && tb === 'string') return compareStrings(a as string, b as string);
  throw typeError(`'${op}' not supported between '${typeName(a)}' and '${typeName(b)}'`);
}

/**
 * Orders strings by Unicode code point, as Python-style languages do. JS compares UTF-16 code units, which
 * agrees except where a surrogate pair (a code point above U+FFFF) meets a unit in U+E000..U+FFFF; only the
 * first differing unit decides, so that unit is remapped into code-point order.
 */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  return unitOrder(a.charCodeAt(i)) - unitOrder(b.charCodeAt(i));
}

function unitOrder(c: number): number {
  return c >= 0xe000 ? c - 0x800 : c >= 0xd800 ? c + 0x2000 : c;
}

/** `a < b`. @throws TypeError unless both are numbers or both strings. */
export function lt(a: Value, b: Value): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b;
  return order('<', a, b) < 0;
}

/** `a > b`. @throws TypeError unless both are numbers or both strings. */
export function gt(a: Value, b: Value): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a > b;
  return order('>', a, b) > 0;
}

/** `a <= b`. @throws TypeError unless both are numbers or both strings. */
export function le(a: Value, b: Value): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a <= b;
  return order('<=', a, b) <= 0;
}

/** `a >= b`. @throws TypeError unless both are numbers or both strings. */
export function ge(a: Value, b: Value): boolean {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a >= b;
  return order('>=', a, b) >= 0;
}

/**
 * `a in b`: for a map, whether `a` is one of its keys (a non-string never is); for a list, whether an element
 * equals `a` (deep equality, so `1 in [1.0]`).
 * @throws TypeError when `b` is neither a map nor a list.
 */
export function contains(a: Value, b: Value): boolean {
  if (b instanceof Map) return typeof a === 'string' && b.has(a);
  if (Array.isArray(b)) {
    for (let i = 0; i < b.length; i++) if (eq(a, b[i]!)) return true;
    return false;
  }
  // Google's wording for this error (seen in a published issue of Google's samples repository).
  throw typeError(`The argument of 'in' must be a dict or an array; got: ${typeName(b)}`);
}

/** `a not in b`: the negation of {@link contains}. @throws TypeError when `b` is neither a map nor a list. */
export function notContains(a: Value, b: Value): boolean {
  return !contains(a, b);
}

/**
 * `obj.name`: the value of a map key.
 * @throws KeyError when the key is missing; TypeError when `obj` is not a map.
 */
export function member(obj: Value, name: string): Value {
  if (obj instanceof Map) {
    const v = obj.get(name);
    if (v === undefined) throw keyError(`key not found: ${name}`);
    return v;
  }
  throw typeError(`cannot access field '${name}' of a value of type '${typeName(obj)}' (a map is needed)`);
}

/**
 * `obj[index]`: a list element by int index (0-based) or a map value by string key.
 * @throws IndexError for a negative or out-of-range list index; KeyError for a missing map key; TypeError for
 *   an index of the wrong type or an `obj` that is neither a list nor a map.
 */
export function index(obj: Value, idx: Value): Value {
  if (obj instanceof Map) {
    if (typeof idx !== 'string') throw typeError(`map key must be a string, got '${typeName(idx)}'`);
    const v = obj.get(idx);
    if (v === undefined) throw keyError(`key not found: ${idx}`);
    return v;
  }
  if (Array.isArray(obj)) {
    if (typeof idx !== 'bigint') throw typeError(`list index must be an int, got '${typeName(idx)}'`);
    if (idx < 0n || idx >= BigInt(obj.length)) {
      throw indexError(`list index out of range: ${idx} (list length ${obj.length})`);
    }
    return obj[Number(idx)]!;
  }
  throw typeError(`value of type '${typeName(obj)}' is not subscriptable (a list or map is needed)`);
}

/** The KeyError for a variable that is not defined. */
export function unknownVariable(name: string): WorkflowError {
  return keyError(`variable not found: ${name}`);
}

function isNum(v: Value): v is bigint | number {
  return typeof v === 'bigint' || typeof v === 'number';
}

/** Every eagerly evaluated binary operator by its symbol, for the AST-walking and generic paths. */
export const BINARY_OPS: Readonly<Record<EagerBinaryOp, (a: Value, b: Value) => Value>> = {
  '*': mul,
  '/': div,
  '%': mod,
  '//': floorDiv,
  '+': add,
  '+~': addGoogle,
  '-': sub,
  '<': lt,
  '>': gt,
  '<=': le,
  '>=': ge,
  '==': eq,
  '!=': ne,
  in: contains,
  'not in': notContains,
};
