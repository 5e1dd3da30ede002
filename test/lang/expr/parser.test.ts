// The expression parser and lexer: literals, names, calls, the precedence table, and syntax errors with
// offsets (docs/language.md#expressions).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Expr } from '../../../src/lang/expr/ast.ts';
import { ExpressionSyntaxError, parseExpression } from '../../../src/lang/expr/parser.ts';
import type { Value } from '../../../src/lang/value.ts';

const s = suite('expression parser');

/** Renders an AST compactly, fully parenthesized, to check structure and precedence. */
function show(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return lit(e.value);
    case 'var':
      return e.name;
    case 'member':
      return `${show(e.object)}.${e.name}`;
    case 'index':
      return `${show(e.object)}[${show(e.index)}]`;
    case 'call':
      return `${e.callee}(${e.args.map(show).join(', ')})`;
    case 'unary':
      return `(${e.op}${e.op === 'not' ? ' ' : ''}${show(e.operand)})`;
    case 'binary':
      return `(${show(e.left)} ${e.op} ${show(e.right)})`;
    case 'list':
      return `[${e.items.map(show).join(', ')}]`;
    case 'map':
      return `{${e.entries.map(([k, v]) => `${show(k)}: ${show(v)}`).join(', ')}}`;
  }
}

function lit(v: Value): string {
  if (typeof v === 'bigint') return `${v}i`;
  if (typeof v === 'number') return `${v}d`;
  return JSON.stringify(v);
}

const p = (t: string) => show(parseExpression(t));

function syntaxError(text: string, offset: number, message?: RegExp): void {
  try {
    parseExpression(text);
  } catch (e) {
    assert.instance(e, ExpressionSyntaxError, `${text}: ${String(e)}`);
    assert.is((e as ExpressionSyntaxError).offset, offset, `${text}: offset (${(e as Error).message})`);
    if (message) assert.match((e as Error).message, message);
    return;
  }
  assert.unreachable(`${text}: expected a syntax error`);
}

function literal(text: string): Value {
  const e = parseExpression(text);
  assert.is(e.kind, 'literal', text);
  return (e as Extract<Expr, { kind: 'literal' }>).value;
}

s('int literals are exact bigints (spec Data types)', () => {
  assert.is(literal('0'), 0n);
  assert.is(literal('42'), 42n);
  assert.is(literal('9007199254740993'), 9007199254740993n);
  assert.is(literal('9223372036854775807'), 9223372036854775807n);
});

s('-9223372036854775808 is the smallest int, not a double (spec Data types)', () => {
  assert.is(literal('-9223372036854775808'), -9223372036854775808n);
  assert.is(literal('-5'), -5n);
});

s('an int literal beyond 64 bits becomes a double, as JSON input does (spec Data types)', () => {
  assert.is(literal('9223372036854775808'), 9223372036854775808);
  assert.is(literal('-9223372036854775809'), -9223372036854775809);
});

s('double literals: 1.5, 1e3, 2.0, 2.5E-3 are doubles (spec Data types)', () => {
  assert.is(literal('1.5'), 1.5);
  assert.is(literal('1e3'), 1000);
  assert.is(typeof literal('1e3'), 'number');
  assert.is(literal('2.0'), 2);
  assert.is(typeof literal('2.0'), 'number');
  assert.is(literal('2.5E-3'), 0.0025);
  assert.is(literal('1e+2'), 100);
  assert.is(literal('-0.5'), -0.5);
});

s('strings in single or double quotes (spec Data types)', () => {
  assert.is(literal('"abc"'), 'abc');
  assert.is(literal("'abc'"), 'abc');
  assert.is(literal('"it\'s"'), "it's");
  assert.is(literal(`'say "hi"'`), 'say "hi"');
  assert.is(literal('""'), '');
});

s('string escapes \\n \\t \\r \\\\ \\\' \\" \\/ \\b \\f \\0 \\xHH \\uXXXX \\UXXXXXXXX (spec Data types)', () => {
  assert.is(literal(String.raw`"a\nb\tc\rd"`), 'a\nb\tc\rd');
  assert.is(literal(String.raw`"back\\slash"`), 'back\\slash');
  assert.is(literal(String.raw`'it\'s'`), "it's");
  assert.is(literal(String.raw`"q\"q"`), 'q"q');
  assert.is(literal(String.raw`"a\/b"`), 'a/b');
  assert.is(literal(String.raw`"\b\f\0"`), '\b\f\0');
  assert.is(literal(String.raw`"\x41\u00e9\u20AC"`), 'Aé€');
  assert.is(literal(String.raw`"\U0001F600"`), '😀');
});

s('an unknown escape keeps its backslash, so a regex like "\\d+" survives (spec Data types)', () => {
  assert.is(literal(String.raw`"\d+\."`), '\\d+\\.');
});

s('booleans true/false, True/False, TRUE/FALSE and null (spec Data types)', () => {
  for (const t of ['true', 'True', 'TRUE']) assert.is(literal(t), true);
  for (const t of ['false', 'False', 'FALSE']) assert.is(literal(t), false);
  assert.is(literal('null'), null);
  // Other spellings are ordinary names.
  assert.is(p('tRUE'), 'tRUE');
  assert.is(p('Null'), 'Null');
});

s('list and map literals, with optional trailing commas (spec Expressions)', () => {
  assert.is(p('[]'), '[]');
  assert.is(p('[1, "a", [true]]'), '[1i, "a", [true]]');
  assert.is(p('[1, 2,]'), '[1i, 2i]');
  assert.is(p('{}'), '{}');
  assert.is(p('{"k": 1, "m": {"n": null},}'), '{"k": 1i, "m": {"n": null}}');
  assert.is(p('{"__proto__": 1, "constructor": 2}'), '{"__proto__": 1i, "constructor": 2i}');
  assert.is(p('{k: v}'), '{k: v}');
});

s('names, member access and indexing (spec Expressions)', () => {
  assert.is(p('x'), 'x');
  assert.is(p('_a1'), '_a1');
  assert.is(p('a.b.c'), 'a.b.c');
  assert.is(p('a["b"][0].c'), 'a["b"][0i].c');
  assert.is(p('a . b'), 'a.b');
  assert.is(p('e.true'), 'e.true');
  assert.is(p('e.in'), 'e.in');
});

s('a dotted name followed by ( is one call with the dotted callee (spec Standard library)', () => {
  assert.is(p('len(x)'), 'len(x)');
  assert.is(p('text.split(x, ",")'), 'text.split(x, ",")');
  assert.is(p('sys.get_env("X")'), 'sys.get_env("X")');
  assert.is(p('googleapis.storage.v1.objects.get(b, o)'), 'googleapis.storage.v1.objects.get(b, o)');
  assert.is(p('uuid.generate()'), 'uuid.generate()');
  assert.is(p('f(1,)'), 'f(1i)');
  assert.is(p('a.b(1).c[0]'), 'a.b(1i).c[0i]');
  const e = parseExpression('http.get(u)');
  assert.is(e.kind, 'call');
});

s('only names can be called (spec Expressions)', () => {
  syntaxError('a[0](1)', 4, /only named functions/);
  syntaxError('"f"(1)', 3);
  syntaxError('f(1)(2)', 4);
});

s('precedence: * / % // above + - (spec Expressions)', () => {
  assert.is(p('1 + 2 * 3'), '(1i + (2i * 3i))');
  assert.is(p('1 * 2 + 3'), '((1i * 2i) + 3i)');
  assert.is(p('a - b // c % d / e'), '(a - (((b // c) % d) / e))');
});

s('precedence: arithmetic above comparisons above equality (spec Expressions)', () => {
  assert.is(p('a + 1 < b - 1'), '((a + 1i) < (b - 1i))');
  assert.is(p('a < b == c > d'), '((a < b) == (c > d))');
  assert.is(p('a <= b != c >= d'), '((a <= b) != (c >= d))');
});

s('precedence: equality above in / not in above and above or (spec Expressions)', () => {
  assert.is(p('a == b in c'), '((a == b) in c)');
  assert.is(p('a in b and c not in d'), '((a in b) and (c not in d))');
  assert.is(p('a and b or c and d'), '((a and b) or (c and d))');
  assert.is(p('a or b and c'), '(a or (b and c))');
});

s('precedence: not and unary minus above * and below . and [] (spec Expressions)', () => {
  assert.is(p('-a * b'), '((-a) * b)');
  assert.is(p('-a.b'), '(-a.b)');
  assert.is(p('-a[0]'), '(-a[0i])');
  assert.is(p('not a.b'), '(not a.b)');
  assert.is(p('not a == b'), '((not a) == b)');
  assert.is(p('not not a'), '(not (not a))');
  assert.is(p('not x in y'), '((not x) in y)');
  assert.is(p('- -a'), '(-(-a))');
  assert.is(p('-2 * 3'), '(-2i * 3i)');
  assert.is(p('-2.5'), '-2.5d');
});

s('binary operators are left-associative (spec Expressions)', () => {
  assert.is(p('a - b - c'), '((a - b) - c)');
  assert.is(p('a / b / c'), '((a / b) / c)');
  assert.is(p('a // b * c'), '((a // b) * c)');
  assert.is(p('a == b == c'), '((a == b) == c)');
});

s('parentheses override precedence (spec Expressions)', () => {
  assert.is(p('(1 + 2) * 3'), '((1i + 2i) * 3i)');
  assert.is(p('not (a and b)'), '(not (a and b))');
  assert.is(p('((a))'), 'a');
});

s('not(...) written like a call is the unary not (Google samples)', () => {
  assert.is(p('not("HttpError" in e.tags)'), '(not ("HttpError" in e.tags))');
  assert.is(p('NOT(a)'), '(not a)');
});

s('and, or, not may be upper-case but not mixed-case (Google: Data types, functions, operators)', () => {
  assert.is(p('a AND b OR NOT c'), '((a and b) or (not c))');
  assert.is(p('a NOT in b'), '(a not in b)');
  syntaxError('a And b', 2, /after the expression/);
  syntaxError('a Or b', 2);
  // `in` has no upper-case form in Google's list: IN is an ordinary name.
  syntaxError('a IN b', 2);
});

s('if(c, a, b) parses as a call to if (Google expression helpers)', () => {
  assert.is(p('if(x > 1, "a", "b")'), 'if((x > 1i), "a", "b")');
});

s('empty expressions are syntax errors at offset 0 (spec Expressions)', () => {
  syntaxError('', 0, /empty/);
  syntaxError('   ', 0, /empty/);
});

s('a nested ${ is a syntax error at its offset (spec Expressions)', () => {
  syntaxError('${x}', 0, /nested/);
  syntaxError('a + ${x}', 4, /nested/);
  // Inside a string literal it is just text.
  assert.is(literal('"${x}"'), '${x}');
});

s('syntax errors report the offset of the offending token (spec Expressions)', () => {
  syntaxError('1 +', 3, /end of expression/);
  syntaxError('(1 + 2', 6, /'\)'/);
  syntaxError('a b', 2);
  syntaxError('[1 2]', 3, /','/);
  syntaxError('{"a" 1}', 5, /':'/);
  syntaxError('{"a": 1 "b": 2}', 8);
  syntaxError('a = 1', 2, /==/);
  syntaxError('!a', 0, /not/);
  syntaxError('a && b', 2, /and/);
  syntaxError('a.', 2, /name after/);
  syntaxError('a.1', 2, /name after/);
  syntaxError('"abc', 0, /unterminated/);
  syntaxError("'abc\\'", 0, /unterminated/);
  syntaxError('"\\u12"', 1, /hex/);
  syntaxError('1e', 1, /exponent/);
  syntaxError('12abc', 0, /malformed/);
  syntaxError('a # b', 2, /unexpected character/);
  syntaxError('and', 0, /operand/);
  syntaxError(')', 0, /operand/);
  syntaxError('a[1', 3, /'\]'/);
  syntaxError('f(1', 3);
});

s('whitespace, including newlines, is insignificant (spec Expressions)', () => {
  assert.is(p(' \n\ta\n+\r\n1 '), '(a + 1i)');
});

s('nodes keep their character offset (spec Expressions)', () => {
  const e = parseExpression('x + foo.bar(1)');
  assert.is(e.kind, 'binary');
  const b = e as Extract<Expr, { kind: 'binary' }>;
  assert.is(b.pos, 2);
  assert.is(b.left.pos, 0);
  assert.is(b.right.pos, 4);
});

s('very deep nesting fails as a syntax error, not a stack overflow (spec Expressions)', () => {
  const deep = '('.repeat(5000) + '1' + ')'.repeat(5000);
  assert.throws(() => parseExpression(deep), (e: unknown) => e instanceof ExpressionSyntaxError);
});

s.run();
