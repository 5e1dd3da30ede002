// The expression compiler: validation (length limit, empty, nested ${), calls through env.call, the special
// forms if() and not(), sync and async evaluation, constant folding (docs/language.md#expressions and docs/api-resources.md#limits).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { calls, ev, evAsync, makeEnv, options, raises, same } from './env.ts';
import type { Env } from '../../../src/lang/expr/ast.ts';
import { compileExpression, MAX_EXPRESSION_LENGTH } from '../../../src/lang/expr/compile.ts';
import { ExpressionSyntaxError } from '../../../src/lang/expr/parser.ts';
import { WorkflowError } from '../../../src/lang/errors.ts';
import { fromJs, type Value } from '../../../src/lang/value.ts';

const s = suite('expression compiler');

function compileError(text: string, offset: number, message: RegExp): void {
  try {
    compileExpression(text, options);
  } catch (e) {
    assert.instance(e, ExpressionSyntaxError, String(e));
    assert.is((e as ExpressionSyntaxError).offset, offset);
    assert.match((e as Error).message, message);
    return;
  }
  assert.unreachable(`${text}: expected ExpressionSyntaxError`);
}

async function rejects(p: Promise<Value>, tag: string): Promise<void> {
  try {
    await p;
  } catch (e) {
    assert.instance(e, WorkflowError);
    assert.equal((e as WorkflowError).tags, [tag]);
    return;
  }
  assert.unreachable(`expected a rejection tagged ${tag}`);
}

s('an expression of exactly 400 characters compiles; 401 is rejected at offset 400 (spec Limits)', () => {
  const ok = '"' + 'x'.repeat(MAX_EXPRESSION_LENGTH - 2) + '"';
  assert.is(ok.length, 400);
  same(compileExpression(ok, options).evaluate(makeEnv()), 'x'.repeat(398));
  compileError(ok + ' ', 400, /400/);
  compileError('1 + '.repeat(200) + '1', 400, /limit is 400/);
});

s('an empty expression ${} is rejected (spec Expressions)', () => {
  compileError('', 0, /empty/);
  compileError('  \n ', 0, /empty/);
});

s('a nested ${ is rejected (spec Expressions)', () => {
  compileError('${x}', 0, /nested/);
  compileError('a + ${b}', 4, /nested/);
});

s('syntax errors surface from compileExpression with offsets (spec Expressions)', () => {
  compileError('a +', 3, /end of expression/);
  compileError('a..b', 2, /name after/);
});

s('compiled expressions keep source and AST (spec Expressions)', () => {
  const c = compileExpression('a + 1', options);
  assert.is(c.source, 'a + 1');
  assert.is(c.ast.kind, 'binary');
  assert.is(c.isAsync, false);
});

s('calls go through env.call with positional arguments and the dotted name (spec Standard library)', () => {
  const seen: [string, Value[]][] = [];
  const env: Env = {
    lookup: (n) => (n === 'x' ? 'a,b' : undefined),
    call: (name, args) => {
      seen.push([name, args]);
      return fromJs(['a', 'b']);
    },
  };
  const c = compileExpression('text.split(x, ",")', options);
  same(c.evaluate(env), fromJs(['a', 'b']));
  assert.equal(seen, [['text.split', ['a,b', ',']]]);
  same(ev('len("abc") + len([1])'), 4n);
  same(ev('echo()'), []);
});

s('an error raised by a called function propagates unchanged (spec Errors)', () => {
  raises('boom()', 'ValueError', {}, 'boom');
  raises('1 + boom()', 'ValueError');
});

s('arguments are evaluated left to right before the call (spec Expressions)', () => {
  calls.length = 0;
  ev('echo(len("a"), len("bb"))');
  assert.equal(calls, ['len', 'len', 'echo']);
});

s('if(cond, a, b) returns a when cond is true and b when false (Google expression helpers)', () => {
  same(ev('if(x > 1, "big", "small")', { x: 5n }), 'big');
  same(ev('if(x > 1, "big", "small")', { x: 0n }), 'small');
  same(ev('if(true, 1, 2.0)'), 1n);
  same(ev('if(false, 1, 2.0)'), 2);
});

s('if() is lazy: only the chosen branch is evaluated (Google expression helpers)', () => {
  same(ev('if(true, 1, 1 / 0)'), 1n);
  same(ev('if(false, missing.x, "ok")'), 'ok');
  calls.length = 0;
  same(ev('if(true, "a", boom())'), 'a');
  assert.equal(calls, []);
});

s('if() with a null condition picks the false branch (Google: "false or null")', () => {
  same(ev('if(null, 1, 2)'), 2n);
  same(ev('if(m.v, 1, 2)', { m: { v: null } }), 2n);
});

s('if() with a non-boolean condition is a TypeError (Google expression helpers)', () => {
  raises('if(1, "a", "b")', 'TypeError', {}, 'boolean');
  raises('if("true", "a", "b")', 'TypeError');
});

s('if() needs exactly three arguments (Google expression helpers)', () => {
  compileError('if(true, 1)', 0, /exactly 3/);
  compileError('x + if(true, 1, 2, 3)', 4, /exactly 3/);
});

s('not(...) written like a call negates (Google samples)', () => {
  same(ev('not("HttpError" in e.tags)', { e: { tags: ['HttpError'] } }), false);
  same(ev('not(1 > 2)'), true);
  raises('not(1)', 'TypeError');
});

s('upper-case AND / OR / NOT evaluate like lower-case (Google: Data types, functions, operators)', () => {
  same(ev('a == "abc" AND len(b) == 3', { a: 'abc', b: 'xyz' }), true);
  same(ev('false OR NOT false'), true);
  same(ev('1 NOT in [2]'), true);
});

s('literal lists and maps evaluate to lists and maps; map keys are expressions that must be strings (spec Data types)', () => {
  same(ev('[1, "a", null, [true]]'), fromJs([1, 'a', null, [true]]));
  same(ev('{"a": x, "b": [x]}', { x: 1n }), fromJs({ a: 1, b: [1] }));
  same(ev('{k: 1}', { k: 'dyn' }), fromJs({ dyn: 1 }));
  same(ev('{"a": 1, "a": 2}'), fromJs({ a: 2 }));
  raises('{1: 2}', 'TypeError', {}, 'string');
  raises('{k: 2}', 'TypeError', { k: null });
  const m = ev('{"__proto__": 1, "constructor": 2}') as Map<string, Value>;
  assert.instance(m, Map);
  assert.equal([...m.keys()], ['__proto__', 'constructor']);
});

s('each evaluation of a literal with variables builds a fresh value (spec Data types: immutability)', () => {
  const c = compileExpression('[x]', options);
  const a = c.evaluate(makeEnv({ x: 1n }));
  const b = c.evaluate(makeEnv({ x: 2n }));
  same(a, [1n]);
  same(b, [2n]);
});

s('constant subexpressions fold; a constant that raises still raises at run time (spec Expressions)', () => {
  const c = compileExpression('[1, 2 * 3, {"a": -1}]', options);
  const env = makeEnv();
  same(c.evaluate(env), fromJs([1, 6, { a: -1 }]));
  assert.is(c.evaluate(env), c.evaluate(env));
  const z = compileExpression('1 / 0', options);
  assert.throws(() => z.evaluate(env), (e: unknown) => e instanceof WorkflowError && e.hasTag('ZeroDivisionError'));
});

s('calls are never folded, even with constant arguments (spec Standard library)', () => {
  calls.length = 0;
  const c = compileExpression('len("abc")', options);
  c.evaluate(makeEnv());
  c.evaluate(makeEnv());
  assert.equal(calls, ['len', 'len']);
});

s('an expression calling a waiting function is async; evaluate() refuses it (spec Expressions)', () => {
  const c = compileExpression('slow_echo(1) + 1', options);
  assert.is(c.isAsync, true);
  assert.throws(() => c.evaluate(makeEnv()), /evaluateAsync/);
  assert.is(compileExpression('if(true, slow_echo(1), 2)', options).isAsync, true);
  assert.is(compileExpression('[{"a": slow_echo(1)}]', options).isAsync, true);
  assert.is(compileExpression('echo(1)', options).isAsync, false);
});

s('evaluateAsync awaits waiting calls anywhere in the expression (spec Expressions)', async () => {
  same(await evAsync('slow_echo(1) + 1'), 2n);
  same(await evAsync('slow_echo(x) * slow_echo(2)', { x: 3n }), 6n);
  same(await evAsync('[slow_echo("a"), 1]'), fromJs(['a', 1]));
  same(await evAsync('{"k": slow_echo(true)}'), fromJs({ k: true }));
  same(await evAsync('slow_echo(m).a', { m: { a: 5 } }), 5n);
  same(await evAsync('slow_echo(l)[1]', { l: [1, 2] }), 2n);
  same(await evAsync('l[slow_echo(0)]', { l: [7] }), 7n);
  same(await evAsync('-slow_echo(2)'), -2n);
  same(await evAsync('not slow_echo(false)'), true);
  same(await evAsync('not(slow_echo(false))'), true);
  same(await evAsync('len(slow_echo("abc"))'), 3n);
  same(await evAsync('slow_echo(1) in [1]'), true);
});

s('evaluateAsync keeps short-circuit and lazy if() (spec Expressions)', async () => {
  calls.length = 0;
  same(await evAsync('false and slow_echo(true)'), false);
  same(await evAsync('true or slow_echo(false)'), true);
  same(await evAsync('if(slow_echo(true), "a", slow_boom())'), 'a');
  same(await evAsync('if(slow_echo(null), slow_boom(), "b")'), 'b');
  assert.equal(calls, ['slow_echo', 'slow_echo']);
  await rejects(evAsync('slow_echo(1) and true'), 'TypeError');
});

s('evaluateAsync reports errors as rejections with their tags (spec Errors)', async () => {
  await rejects(evAsync('slow_boom()'), 'ValueError');
  await rejects(evAsync('slow_echo(1) / 0'), 'ZeroDivisionError');
  await rejects(evAsync('slow_echo(m).x', { m: {} }), 'KeyError');
  await rejects(evAsync('slow_echo(l)[5]', { l: [] }), 'IndexError');
  await rejects(evAsync('{slow_echo(1): 2}'), 'TypeError');
});

s('evaluateAsync also works for synchronous expressions (spec Expressions)', async () => {
  same(await evAsync('1 + 2'), 3n);
  same(await evAsync('a.b', { a: { b: 'x' } }), 'x');
  await rejects(evAsync('1 // 0'), 'ZeroDivisionError');
  await rejects(evAsync('missing'), 'KeyError');
});

s('operators with a literal operand agree with the general path, values and errors (spec Expressions)', () => {
  const ops = ['+', '-', '*', '/', '//', '%', '<', '>', '<=', '>=', '==', '!=', 'in', 'not in', 'and', 'or'];
  const literals = ['2', '0', '-9223372036854775808', '2.0', '"v"', 'true', 'null', '[2]', '{"v": 1}'];
  const values: Record<string, unknown>[] = [
    { x: 2n }, { x: 9223372036854775807n }, { x: -3n }, { x: 2.0 }, { x: 0.5 }, { x: 'v' }, { x: 'w' }, { x: true },
    { x: null }, { x: [2] }, { x: { v: 1 } },
  ];
  const outcome = (text: string, vars: Record<string, unknown>): unknown => {
    try {
      return ev(text, vars);
    } catch (e) {
      return e instanceof WorkflowError ? `error ${e.tags.join()} ${e.message}` : `bug ${String(e)}`;
    }
  };
  for (const op of ops) {
    for (const lit of literals) {
      for (const vars of values) {
        const y = ev(lit);
        const special = outcome(`x ${op} ${lit}`, vars);
        const general = outcome(`x ${op} y`, { ...vars, y });
        assert.equal(special, general, `x ${op} ${lit} with x = ${String(vars.x)}`);
      }
    }
  }
});

s('a compiled expression is reusable across environments (spec Expressions: compile once)', () => {
  const c = compileExpression('a + b * 2 > c and m["k"] == "v"', options);
  same(c.evaluate(makeEnv({ a: 1n, b: 2n, c: 3n, m: { k: 'v' } })), true);
  same(c.evaluate(makeEnv({ a: 1n, b: 0n, c: 3n, m: { k: 'v' } })), false);
  same(c.evaluate(makeEnv({ a: 1.5, b: 2n, c: 3n, m: { k: 'w' } })), false);
});

s.run();
