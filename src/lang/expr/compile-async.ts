/**
 * The asynchronous half of the expression compiler (docs/language.md#expressions; the front is compile.ts): for an
 * expression that calls something that waits (subworkflows, http.*, sys.sleep, ...), the nodes on a path to
 * such a call become closures that may return a promise; every other subtree reuses its synchronous closure
 * (compile-sync.ts), and both kinds use the same ops.ts functions.
 */
import type { Env, Expr } from './ast.ts';
import { BINARY_OPS, index, member, neg, not, requireBool } from './ops.ts';
import type { Value, WMap } from '../value.ts';
import { checkIfArity, checkNotArity, compileSync, ifBranch, mapKey } from './compile-sync.ts';

/** A compiled node of the asynchronous evaluator: its value in `env`, or a promise of it. */
export type AsyncFn = (env: Env) => Value | Promise<Value>;

/**
 * Compiles node `e` for `evaluateAsync`: only nodes in `asyncNodes` (those with a waiting call below them) are
 * async; the others are {@link compileSync}'s closures.
 *
 * @throws ExpressionSyntaxError for an `if(...)` without exactly three arguments or a `not(...)` without
 *   exactly one.
 */
export function compileAsync(e: Expr, asyncNodes: ReadonlySet<Expr>): AsyncFn {
  if (!asyncNodes.has(e)) return compileSync(e);
  const go = (x: Expr): AsyncFn => compileAsync(x, asyncNodes);
  switch (e.kind) {
    case 'literal':
    case 'var':
      // Never async (no call below); kept for exhaustiveness.
      return compileSync(e);
    case 'member': {
      const o = go(e.object);
      const name = e.name;
      return async (env) => member(await o(env), name);
    }
    case 'index': {
      const o = go(e.object);
      const i = go(e.index);
      return async (env) => {
        const obj = await o(env);
        return index(obj, await i(env));
      };
    }
    case 'call': {
      if (e.callee === 'if') {
        checkIfArity(e);
        const [c, a, b] = e.args.map(go) as [AsyncFn, AsyncFn, AsyncFn];
        return async (env) => (ifBranch(await c(env)) ? a(env) : b(env));
      }
      if (e.callee === 'not') {
        checkNotArity(e);
        const o = go(e.args[0]!);
        return async (env) => not(await o(env));
      }
      const name = e.callee;
      const args = e.args.map(go);
      return async (env) => {
        const vals: Value[] = new Array(args.length);
        for (let i = 0; i < args.length; i++) vals[i] = await args[i]!(env);
        return env.call(name, vals);
      };
    }
    case 'unary': {
      const o = go(e.operand);
      if (e.op === 'not') return async (env) => not(await o(env));
      return async (env) => neg(await o(env));
    }
    case 'binary': {
      const l = go(e.left);
      const r = go(e.right);
      if (e.op === 'and') return async (env) => (requireBool(await l(env), 'and') ? requireBool(await r(env), 'and') : false);
      if (e.op === 'or') return async (env) => (requireBool(await l(env), 'or') ? true : requireBool(await r(env), 'or'));
      const f = BINARY_OPS[e.op];
      return async (env) => {
        const a = await l(env);
        return f(a, await r(env));
      };
    }
    case 'list': {
      const items = e.items.map(go);
      return async (env) => {
        const out: Value[] = new Array(items.length);
        for (let i = 0; i < items.length; i++) out[i] = await items[i]!(env);
        return out;
      };
    }
    case 'map': {
      const entries = e.entries.map(([k, v]) => [go(k), go(v)] as const);
      return async (env) => {
        const m: WMap = new Map();
        for (const [k, v] of entries) {
          const key = mapKey(await k(env));
          m.set(key, await v(env));
        }
        return m;
      };
    }
  }
}
