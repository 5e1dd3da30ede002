// Every operator of the expression language evaluated end to end (parse, compile, evaluate), with its error
// tags (docs/language.md#expressions, docs/language.md#data-types and docs/api-resources.md#errors).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ev, makeEnv, options, raises, same } from './env.ts';
import { compileExpression } from '../../../src/lang/expr/compile.ts';
import { fromJs, type Value } from '../../../src/lang/value.ts';

const s = suite('expression operators');

/** Compiles once and returns an evaluator over plain variables. */
function compileExpressionFor(text: string): (vars: Record<string, unknown>) => Value {
  const c = compileExpression(text, options);
  return (vars) => c.evaluate(makeEnv(vars));
}

const MAX = 9223372036854775807n;
const MIN = -9223372036854775808n;

s('+ - * on ints give ints (spec Expressions)', () => {
  same(ev('2 + 3'), 5n);
  same(ev('2 - 3'), -1n);
  same(ev('4 * -3'), -12n);
  same(ev('a + b', { a: 9007199254740993n, b: 2n }), 9007199254740995n);
});

s('mixed int and double promote to double (spec Expressions)', () => {
  same(ev('1 + 2.5'), 3.5);
  same(ev('2.0 + 1'), 3);
  same(ev('3 - 0.5'), 2.5);
  same(ev('2 * 1.5'), 3);
  same(ev('1.5 * 2'), 3);
  same(ev('0.1 + 0.2'), 0.1 + 0.2);
});

s('/ always returns a double: 10 / 2 is 5.0 (spec Expressions)', () => {
  same(ev('10 / 2'), 5);
  same(ev('1 / 4'), 0.25);
  same(ev('-7 / 2'), -3.5);
  same(ev('7.5 / 2.5'), 3);
});

s('// is floor division: -10 // 3 is -4, int // int is int (spec Expressions)', () => {
  same(ev('-10 // 3'), -4n);
  same(ev('10 // 3'), 3n);
  same(ev('10 // -3'), -4n);
  same(ev('-10 // -3'), 3n);
  same(ev('9 // 3'), 3n);
  same(ev('-9 // 3'), -3n);
  same(ev('7.5 // 2'), 3);
  same(ev('-7.5 // 2'), -4);
  same(ev('7 // 2.0'), 3);
});

s('% is floor modulo matching // (result has the divisor sign) (spec Expressions)', () => {
  same(ev('10 % 3'), 1n);
  same(ev('-10 % 3'), 2n);
  same(ev('10 % -3'), -2n);
  same(ev('-10 % -3'), -1n);
  same(ev('9 % 3'), 0n);
  same(ev('5.5 % 2'), 1.5);
  same(ev('-5.5 % 2'), 0.5);
  same(ev('7 % 2.5'), 2);
  // a == (a // b) * b + a % b
  for (const [a, b] of [[-10n, 3n], [10n, -3n], [7n, 7n], [-1n, 5n]] as const) {
    same(ev('(a // b) * b + a % b', { a, b }), a);
  }
});

s('division, floor division and modulo by zero raise ZeroDivisionError (spec Expressions)', () => {
  raises('1 / 0', 'ZeroDivisionError', {}, 'division by zero');
  raises('1 / 0.0', 'ZeroDivisionError');
  raises('1.5 / 0', 'ZeroDivisionError');
  raises('1 // 0', 'ZeroDivisionError');
  raises('1.0 // 0.0', 'ZeroDivisionError');
  raises('1 % 0', 'ZeroDivisionError', {}, 'modulo by zero');
  raises('1.5 % 0.0', 'ZeroDivisionError');
  raises('x / y', 'ZeroDivisionError', { x: 1n, y: 0n });
});

s('int overflow wraps to signed 64 bits: 9223372036854775807 + 1 (spec Data types)', () => {
  same(ev('9223372036854775807 + 1'), MIN);
  same(ev('-9223372036854775808 - 1'), MAX);
  same(ev('9223372036854775807 * 2'), -2n);
  same(ev('x * x', { x: 4294967296n }), 0n);
  same(ev('-x', { x: MIN }), MIN);
  same(ev('-(-9223372036854775808)'), MIN);
  same(ev('x // -1', { x: MIN }), MIN);
  same(ev('x % -1', { x: MIN }), 0n);
});

s('int arithmetic matches exact arithmetic wrapped to 64 bits, for random operands (spec Data types)', () => {
  // A fixed-seed generator of 64-bit ints, weighted toward the edges where wrapping and rounding happen.
  let seed = 0x2545f491n;
  const next = (): bigint => {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) & 0xffffffffffffffffn;
    const r = BigInt.asIntN(64, seed);
    switch (Number(seed >> 61n)) {
      case 0:
        return r >> 40n;
      case 1:
        return MAX - (r & 0xffn);
      case 2:
        return MIN + (r & 0xffn);
      default:
        return r;
    }
  };
  const add = compileExpressionFor('x + y');
  const subtract = compileExpressionFor('x - y');
  const multiply = compileExpressionFor('x * y');
  const floor = compileExpressionFor('x // y');
  const modulo = compileExpressionFor('x % y');
  for (let i = 0; i < 2000; i++) {
    const x = next();
    const y = next();
    const vars = { x, y };
    same(add(vars), BigInt.asIntN(64, x + y));
    same(subtract(vars), BigInt.asIntN(64, x - y));
    same(multiply(vars), BigInt.asIntN(64, x * y));
    if (y === 0n) continue;
    const q = floor(vars) as bigint;
    const r = modulo(vars) as bigint;
    // Floor semantics: the remainder has the divisor's sign and is smaller than it in magnitude.
    assert.ok(r === 0n || r < 0n === y < 0n, `sign of ${x} % ${y}`);
    assert.ok((r < 0n ? -r : r) < (y < 0n ? -y : y), `size of ${x} % ${y}`);
    assert.is(BigInt.asIntN(64, q * y + r), x, `${x} == (${x} // ${y}) * ${y} + ${x} % ${y}`);
  }
});

s('unary minus negates ints and doubles and is a TypeError otherwise (spec Expressions)', () => {
  same(ev('-x', { x: 5n }), -5n);
  same(ev('-x', { x: 2.5 }), -2.5);
  same(ev('-(1 + 2)'), -3n);
  raises('-"a"', 'TypeError', {}, 'unary -');
  raises('-x', 'TypeError', { x: null });
  raises('-x', 'TypeError', { x: true });
});

s('+ concatenates strings (spec Expressions)', () => {
  same(ev('"ab" + "cd"'), 'abcd');
  same(ev("'a' + \"\" + 'b'"), 'ab');
  same(ev('"é" + "😀"'), 'é😀');
});

s('string plus number is a TypeError (use string()) (spec Expressions)', () => {
  raises('"a" + 1', 'TypeError', {}, "unsupported operand type(s) for +: 'string' and 'int'");
  raises('1 + "a"', 'TypeError');
  raises('"a" + 1.5', 'TypeError');
  raises('"a" + null', 'TypeError');
  raises('"a" + true', 'TypeError');
});

s('+ on lists, maps, booleans or null is a TypeError (spec Expressions; Google: implicit conversions)', () => {
  raises('[1] + [2]', 'TypeError');
  raises('{"a": 1} + {"b": 2}', 'TypeError');
  raises('true + true', 'TypeError');
  raises('null + 1', 'TypeError');
});

s('- * / // % need numbers (TypeError otherwise) (spec Expressions)', () => {
  raises('"a" - "b"', 'TypeError', {}, "for -: 'string' and 'string'");
  raises('"a" * 2', 'TypeError');
  raises('[1] * 2', 'TypeError');
  raises('"4" / 2', 'TypeError');
  raises('4 // "2"', 'TypeError');
  raises('4 % null', 'TypeError');
  raises('true - 1', 'TypeError');
});

s('== and != on scalars; 1 == 1.0 is true (spec Expressions)', () => {
  same(ev('1 == 1'), true);
  same(ev('1 == 1.0'), true);
  same(ev('1.0 == 1'), true);
  same(ev('1 != 1.0'), false);
  same(ev('1 == 2'), false);
  same(ev('"a" == "a"'), true);
  same(ev('"a" != "b"'), true);
  same(ev('true == true'), true);
  same(ev('true == false'), false);
  same(ev('x == y', { x: 9007199254740993n, y: 9007199254740992 }), false);
});

s('null == null is true and null equals nothing else (spec Expressions)', () => {
  same(ev('null == null'), true);
  same(ev('null != null'), false);
  same(ev('null == 0'), false);
  same(ev('null == ""'), false);
  same(ev('null == false'), false);
  same(ev('0 != null'), true);
});

s('== between incompatible types is false, != true, without error (spec Expressions)', () => {
  same(ev('1 == "1"'), false);
  same(ev('"1" != 1'), true);
  same(ev('true == 1'), false);
  same(ev('[1] == {"a": 1}'), false);
  same(ev('[] == null'), false);
});

s('== is deep equality on lists and maps; map key order does not matter (spec Expressions)', () => {
  same(ev('[1, [2, {"a": 3}]] == [1, [2, {"a": 3}]]'), true);
  same(ev('[1, 2] == [2, 1]'), false);
  same(ev('[1, 2] == [1, 2, 3]'), false);
  same(ev('{"a": 1, "b": 2} == {"b": 2, "a": 1}'), true);
  same(ev('{"a": 1} == {"a": 1.0}'), true);
  same(ev('{"a": 1} == {"a": 2}'), false);
  same(ev('{"a": 1} != {"a": 1, "b": 2}'), true);
  same(ev('x == y', { x: [1, { k: 'v' }], y: [1, { k: 'v' }] }), true);
});

s('< > <= >= order numbers, int with double exactly (spec Expressions)', () => {
  same(ev('1 < 2'), true);
  same(ev('2 < 1'), false);
  same(ev('2 > 1'), true);
  same(ev('1 <= 1'), true);
  same(ev('1 >= 2'), false);
  same(ev('1 < 1.5'), true);
  same(ev('2.5 > 2'), true);
  same(ev('1.0 <= 1'), true);
  same(ev('x > y', { x: 9007199254740993n, y: 9007199254740992 }), true);
  same(ev('-1 < -0.5'), true);
});

s('< > <= >= order strings lexicographically (spec Expressions)', () => {
  same(ev('"a" < "b"'), true);
  same(ev('"abc" < "abd"'), true);
  same(ev('"ab" < "abc"'), true);
  same(ev('"B" < "a"'), true);
  same(ev('"b" >= "b"'), true);
  same(ev('"" > "a"'), false);
});

s('strings order by code point, also beyond U+FFFF (spec Expressions)', () => {
  // U+FF61 is below U+1F600 as a code point, though its UTF-16 unit is above the surrogate D83D.
  same(ev('"\\uFF61" < "\\U0001F600"'), true);
  same(ev('"\\U0001F600" > "\\uFF61"'), true);
  same(ev('"a\\U0001F600" < "a\\U0001F601"'), true);
});

s('NaN and infinities order like IEEE doubles: NaN compares false (spec Data types)', () => {
  same(ev('x < 1 or x > 1 or x == x', { x: NaN }), false);
  same(ev('x > 9223372036854775807', { x: Infinity }), true);
  same(ev('1e308 * 10 > 1'), true);
});

s('ordering between incompatible types is a TypeError (spec Expressions)', () => {
  raises('1 < "2"', 'TypeError', {}, "'<' not supported between 'int' and 'string'");
  raises('"a" > 1.5', 'TypeError');
  raises('null < null', 'TypeError');
  raises('true <= false', 'TypeError');
  raises('[1] >= [0]', 'TypeError');
  raises('{"a": 1} < {"a": 2}', 'TypeError');
});

s('and / or / not on booleans (spec Expressions)', () => {
  same(ev('true and true'), true);
  same(ev('true and false'), false);
  same(ev('false or true'), true);
  same(ev('false or false'), false);
  same(ev('not true'), false);
  same(ev('not false'), true);
  same(ev('1 < 2 and 2 < 3'), true);
});

s('and / or / not require booleans: TypeError otherwise (spec Expressions)', () => {
  raises('1 and true', 'TypeError', {}, "'and'");
  raises('true and 1', 'TypeError');
  raises('null or false', 'TypeError', {}, "'or'");
  raises('false or "x"', 'TypeError');
  raises('not 0', 'TypeError', {}, "'not'");
  raises('not null', 'TypeError');
  raises('not "true"', 'TypeError');
});

s('and / or short-circuit: the right side is not evaluated (spec Expressions)', () => {
  same(ev('false and 1 / 0 == 1'), false);
  same(ev('true or undefined_var'), true);
  same(ev('false and x.missing', { x: {} }), false);
  // The right side still must be a boolean when it is evaluated.
  raises('true and 1', 'TypeError');
  raises('false or 1', 'TypeError');
});

s('in tests key presence in a map (spec Expressions)', () => {
  same(ev('"a" in {"a": 1}'), true);
  same(ev('"b" in {"a": 1}'), false);
  same(ev('"a" in m', { m: { a: null } }), true);
  same(ev('1 in {"1": 1}'), false);
  same(ev('"__proto__" in {}'), false);
  same(ev('"constructor" in {}'), false);
  same(ev('"toString" in m', { m: {} }), false);
});

s('in tests value presence in a list, by deep equality (spec Expressions)', () => {
  same(ev('2 in [1, 2, 3]'), true);
  same(ev('4 in [1, 2, 3]'), false);
  same(ev('1 in [1.0]'), true);
  same(ev('"1" in [1]'), false);
  same(ev('[1] in [[1], [2]]'), true);
  same(ev('{"a": 1} in [{"a": 1}]'), true);
  same(ev('null in [null]'), true);
  same(ev('1 in []'), false);
});

s('not in is the negation of in (spec Expressions)', () => {
  same(ev('4 not in [1, 2]'), true);
  same(ev('1 not in [1, 2]'), false);
  same(ev('"a" not in {"a": 1}'), false);
  same(ev('"HttpError" not in e.tags', { e: { tags: ['KeyError'] } }), true);
});

s('in on anything but a map or list is a TypeError (spec Expressions)', () => {
  raises('"a" in "abc"', 'TypeError', {}, "'in'");
  raises('1 in 1', 'TypeError');
  raises('1 in null', 'TypeError');
  raises('1 not in 2.5', 'TypeError');
});

s('member access a.b reads a map key (spec Expressions)', () => {
  same(ev('a.b', { a: { b: 1 } }), 1n);
  same(ev('a.b.c', { a: { b: { c: 'x' } } }), 'x');
  same(ev('a.b', { a: { b: null } }), null);
  same(ev('{"k": 2}.k'), 2n);
});

s('member access on a missing key is a KeyError (spec Expressions)', () => {
  raises('a.c', 'KeyError', { a: { b: 1 } }, 'c');
  raises('a.b.c', 'KeyError', { a: { b: {} } });
});

s('member access on a non-map is a TypeError (spec Expressions)', () => {
  raises('a.b', 'TypeError', { a: [1] });
  raises('a.b', 'TypeError', { a: 'str' });
  raises('a.b', 'TypeError', { a: null });
  raises('a.b', 'TypeError', { a: 1n });
});

s('__proto__ and constructor are ordinary keys (spec Data types)', () => {
  same(ev('m.__proto__', { m: new Map<string, Value>([['__proto__', 1n]]) }), 1n);
  same(ev('m["constructor"]', { m: new Map<string, Value>([['constructor', 'c']]) }), 'c');
  raises('m.constructor', 'KeyError', { m: {} });
  raises('m["__proto__"]', 'KeyError', { m: {} });
  raises('m.toString', 'KeyError', { m: {} });
  same(ev('{"__proto__": {"x": 1}}.__proto__.x'), 1n);
  same(ev('len(keys)', { keys: fromJs(['__proto__']) }), 1n);
});

s('list indexing: 0-based int index (spec Data types)', () => {
  same(ev('[10, 20, 30][0]'), 10n);
  same(ev('l[2]', { l: [10, 20, 30] }), 30n);
  same(ev('l[i + 1]', { l: [10, 20, 30], i: 0n }), 20n);
  same(ev('l[1][0]', { l: [[1], [2, 3]] }), 2n);
});

s('out-of-range or negative list index is an IndexError (spec Expressions)', () => {
  raises('l[3]', 'IndexError', { l: [1, 2, 3] }, 'out of range');
  raises('l[-1]', 'IndexError', { l: [1, 2, 3] });
  raises('[][0]', 'IndexError');
  raises('l[x]', 'IndexError', { l: [1], x: MAX });
});

s('a list index that is not an int is a TypeError (spec Expressions)', () => {
  raises('l[1.0]', 'TypeError', { l: [1, 2] }, 'int');
  raises('l["0"]', 'TypeError', { l: [1, 2] });
  raises('l[null]', 'TypeError', { l: [1, 2] });
});

s('map indexing by string key; missing key KeyError; non-string key TypeError (spec Expressions)', () => {
  same(ev('m["a b"]', { m: { 'a b': 1 } }), 1n);
  same(ev('m[k]', { m: { x: 2 }, k: 'x' }), 2n);
  raises('m["z"]', 'KeyError', { m: { x: 2 } }, 'z');
  raises('m[1]', 'TypeError', { m: { '1': 2 } });
});

s('indexing a string, number or null is a TypeError (spec Expressions)', () => {
  raises('"abc"[0]', 'TypeError');
  raises('x[0]', 'TypeError', { x: 5n });
  raises('x["a"]', 'TypeError', { x: null });
});

s('an unknown variable is a KeyError (spec Expressions)', () => {
  raises('nope', 'KeyError', {}, 'nope');
  raises('1 + nope', 'KeyError');
});

s('operators never mutate their operands (spec Data types: values are immutable)', () => {
  const l = fromJs([1, 2]);
  const m = fromJs({ a: 1 });
  ev('l == [1, 2] and "a" in m and l[0] == 1', { l, m });
  assert.equal(l, fromJs([1, 2]));
  assert.equal(m, fromJs({ a: 1 }));
});

s.run();
