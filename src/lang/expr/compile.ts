/**
 * The expression compiler (spec "Expressions"): validates an expression's text, parses it once and turns the
 * AST into a tree of closures, so that evaluating it at run time is a few direct calls with no re-parsing, no
 * AST dispatch and no `eval` ("compile once, run many", as in cel-es's planner).
 *
 * Two evaluators come out of one compile:
 * - `evaluate(env)`: synchronous closures, the engine's hot path. Operators call the functions of ops.ts;
 *   subtrees that hold no variable and no call are folded into constants when they evaluate without error
 *   (values are immutable, so a folded list or map may be shared by every evaluation).
 * - `evaluateAsync(env)`: for expressions that call something that waits (`isAsyncCall(name)`: subworkflows,
 *   http.*, sys.sleep, ...). Only the nodes on a path to such a call become async closures; every other
 *   subtree reuses its synchronous closure, and both kinds use the same ops.ts functions.
 *
 * Calls go through `env.call(name, args)`, except the two special forms: `if(cond, a, b)` (lazy: only the
 * chosen branch is evaluated) and `not(x)` (unary not; the parser already produces a unary node for it).
 */
import type { CompiledExpression, Env, Expr } from './ast.ts';
import { ExpressionSyntaxError, parseExpression } from './parser.ts';
import {
  add,
  BINARY_OPS,
  contains,
  div,
  eq,
  floorDiv,
  ge,
  gt,
  index,
  le,
  lt,
  member,
  mod,
  mul,
  ne,
  neg,
  not,
  notContains,
  requireBool,
  sub,
  unknownVariable,
} from './ops.ts';
import { typeError } from '../errors.ts';
import { typeName, wrapInt, type Value, type WMap } from '../value.ts';

/** Longest expression text accepted, in characters (spec "Limits": expression length 400 characters). */
export const MAX_EXPRESSION_LENGTH = 400;

/** What the compiler needs to know about the names an expression calls. */
export interface CompileOptions {
  /**
   * True when calling `name` (a dotted name as written, e.g. `http.get`, `my_subworkflow`) may wait, so the
   * expression must be evaluated with `evaluateAsync`. Not asked for the special forms `if` and `not`.
   */
  isAsyncCall(name: string): boolean;
}

type Fn = (env: Env) => Value;
type AsyncFn = (env: Env) => Value | Promise<Value>;

/**
 * Validates, parses and compiles the text of one expression (the part between `${` and `}`).
 *
 * @param text the expression text, at most {@link MAX_EXPRESSION_LENGTH} characters.
 * @returns the compiled expression; `isAsync` tells which evaluator to use (see {@link CompiledExpression}).
 * @throws ExpressionSyntaxError (spec "Expressions" and "Limits") for text over 400 characters (offset 400),
 *   an empty expression (offset 0), a nested `${` outside a string literal (its offset), any syntax error, or
 *   an `if(...)` without exactly three arguments.
 */
export function compileExpression(text: string, options: CompileOptions): CompiledExpression {
  if (text.length > MAX_EXPRESSION_LENGTH) {
    throw new ExpressionSyntaxError(
      `expression is ${text.length} characters long; the limit is ${MAX_EXPRESSION_LENGTH}`,
      MAX_EXPRESSION_LENGTH,
    );
  }
  const ast = parseExpression(text);
  if (!hasCall(ast)) return syncExpression(text, ast, compileSync(ast));
  const asyncNodes = new Set<Expr>();
  markAsync(ast, options, asyncNodes);
  const sync = compileSync(ast);
  if (asyncNodes.size === 0) return syncExpression(text, ast, sync);
  // (The synchronous closures are made for an expression that waits too: compiling them is what reports
  // a bad `if()` or `not()` first, in their order.)
  const run = compileAsync(ast, asyncNodes);
  return {
    source: text,
    ast,
    isAsync: true,
    evaluate: waitingEvaluate(text),
    evaluateAsync: asyncEvaluate(run),
  };
}

// The evaluators are made by these functions rather than written inline in the object literals above: a
// function written there would be named at run time for every expression compiled (keepNames), which cost
// more than the rest of a small expression's compile (issue 17).

/** The compiled expression of `text` when no call in it waits. */
function syncExpression(text: string, ast: Expr, sync: Fn): CompiledExpression {
  return { source: text, ast, isAsync: false, evaluate: sync, evaluateAsync: asyncEvaluate(sync) };
}

/** `evaluateAsync` of an expression: `run`'s value (or its error) as a promise. */
function asyncEvaluate(run: AsyncFn): (env: Env) => Promise<Value> {
  return async (env: Env) => run(env);
}

/** `evaluate` of an expression whose calls wait: a wiring bug when called. */
function waitingEvaluate(text: string): (env: Env) => Value {
  return () => {
    throw new Error(`expression calls a function that waits; use evaluateAsync: ${text}`);
  };
}

/** Whether the expression holds a call (only calls can wait). */
function hasCall(e: Expr): boolean {
  switch (e.kind) {
    case 'literal':
    case 'var':
      return false;
    case 'call':
      return true;
    case 'member':
      return hasCall(e.object);
    case 'index':
      return hasCall(e.object) || hasCall(e.index);
    case 'unary':
      return hasCall(e.operand);
    case 'binary':
      return hasCall(e.left) || hasCall(e.right);
    case 'list':
      for (const x of e.items) if (hasCall(x)) return true;
      return false;
    case 'map':
      for (const [k, v] of e.entries) if (hasCall(k) || hasCall(v)) return true;
      return false;
  }
}

// Records every node that has a waiting call below it (itself included); returns whether `e` is one.
function markAsync(e: Expr, options: CompileOptions, out: Set<Expr>): boolean {
  let found = false;
  switch (e.kind) {
    case 'literal':
    case 'var':
      return false;
    case 'member':
      found = markAsync(e.object, options, out);
      break;
    case 'index':
      found = markAsync(e.object, options, out);
      found = markAsync(e.index, options, out) || found;
      break;
    case 'call':
      for (const a of e.args) found = markAsync(a, options, out) || found;
      if (e.callee !== 'if' && e.callee !== 'not' && options.isAsyncCall(e.callee)) found = true;
      break;
    case 'unary':
      found = markAsync(e.operand, options, out);
      break;
    case 'binary':
      found = markAsync(e.left, options, out);
      found = markAsync(e.right, options, out) || found;
      break;
    case 'list':
      for (const x of e.items) found = markAsync(x, options, out) || found;
      break;
    case 'map':
      for (const [k, v] of e.entries) {
        found = markAsync(k, options, out) || found;
        found = markAsync(v, options, out) || found;
      }
      break;
  }
  if (found) out.add(e);
  return found;
}

function constant(v: Value): Fn {
  return () => v;
}

// A node whose value cannot depend on the environment: literals, and operators and literals built only of
// such nodes. Calls are never constant (a function may have effects, e.g. uuid.generate, sys.now).
function isConstant(e: Expr): boolean {
  switch (e.kind) {
    case 'literal':
      return true;
    case 'var':
    case 'call':
      return false;
    case 'member':
      return isConstant(e.object);
    case 'index':
      return isConstant(e.object) && isConstant(e.index);
    case 'unary':
      return isConstant(e.operand);
    case 'binary':
      return isConstant(e.left) && isConstant(e.right);
    case 'list':
      return e.items.every(isConstant);
    case 'map':
      return e.entries.every(([k, v]) => isConstant(k) && isConstant(v));
  }
}

const NO_ENV: Env = {
  lookup: () => undefined,
  call: () => {
    throw new Error('a constant expression made a call');
  },
};

function compileSync(e: Expr): Fn {
  const fn = compileNode(e);
  if (e.kind !== 'literal' && isConstant(e)) {
    // Fold: evaluate once now. A constant that raises (e.g. `1 / 0`) keeps raising at run time instead, where
    // the engine can attach the step to the error.
    try {
      return constant(fn(NO_ENV));
    } catch {
      return fn;
    }
  }
  return fn;
}

function checkIfArity(e: Extract<Expr, { kind: 'call' }>): void {
  if (e.args.length !== 3) {
    throw new ExpressionSyntaxError(`if() takes exactly 3 arguments (condition, if_true, if_false), got ${e.args.length}`, e.pos);
  }
}

function checkNotArity(e: Extract<Expr, { kind: 'call' }>): void {
  if (e.args.length !== 1) throw new ExpressionSyntaxError(`not() takes exactly 1 argument, got ${e.args.length}`, e.pos);
}

/** The `if` helper's condition rule: true picks the first branch, false or null the second (Google's doc). */
function ifBranch(c: Value): boolean {
  if (c === true) return true;
  if (c === false || c === null) return false;
  throw typeError(`condition of if() must be a boolean, got '${typeName(c)}'`);
}

function compileNode(e: Expr): Fn {
  switch (e.kind) {
    case 'literal':
      return constant(e.value);
    case 'var': {
      const name = e.name;
      return (env) => {
        const v = env.lookup(name);
        if (v === undefined) throw unknownVariable(name);
        return v;
      };
    }
    case 'member':
      return memberFn(compileSync(e.object), e.name);
    case 'index': {
      const o = compileSync(e.object);
      if (e.index.kind === 'literal' && typeof e.index.value === 'string') return memberFn(o, e.index.value);
      const i = compileSync(e.index);
      return (env) => index(o(env), i(env));
    }
    case 'call':
      return callFn(e);
    case 'unary': {
      const o = compileSync(e.operand);
      if (e.op === 'not') return (env) => not(o(env));
      return (env) => neg(o(env));
    }
    case 'binary':
      return binaryFn(e);
    case 'list': {
      const items = e.items.map(compileSync);
      const n = items.length;
      return (env) => {
        const out: Value[] = new Array(n);
        for (let i = 0; i < n; i++) out[i] = items[i]!(env);
        return out;
      };
    }
    case 'map': {
      const keys = e.entries.map(([k]) => compileSync(k));
      const vals = e.entries.map(([, v]) => compileSync(v));
      const n = keys.length;
      return (env) => {
        const m: WMap = new Map();
        for (let i = 0; i < n; i++) m.set(mapKey(keys[i]!(env)), vals[i]!(env));
        return m;
      };
    }
  }
}

function mapKey(k: Value): string {
  if (typeof k !== 'string') throw typeError(`map keys must be strings, got '${typeName(k)}'`);
  return k;
}

// `o.name` and `o["name"]`: the common case (a map holding the key) inline, everything else through ops.ts.
function memberFn(o: Fn, name: string): Fn {
  return (env) => {
    const x = o(env);
    if (x instanceof Map) {
      const v = x.get(name);
      if (v !== undefined) return v;
    }
    return member(x, name);
  };
}

function callFn(e: Extract<Expr, { kind: 'call' }>): Fn {
  if (e.callee === 'if') {
    checkIfArity(e);
    const [c, a, b] = e.args.map(compileSync) as [Fn, Fn, Fn];
    return (env) => (ifBranch(c(env)) ? a(env) : b(env));
  }
  if (e.callee === 'not') {
    checkNotArity(e);
    const o = compileSync(e.args[0]!);
    return (env) => not(o(env));
  }
  const name = e.callee;
  const args = e.args.map(compileSync);
  const n = args.length;
  return (env) => {
    const vals: Value[] = new Array(n);
    for (let i = 0; i < n; i++) vals[i] = args[i]!(env);
    const r = env.call(name, vals);
    if (r instanceof Promise) {
      // The definition compiler said this call never waits; a promise here is a wiring bug, not a user error.
      r.catch(() => {});
      throw new Error(`${name}() returned a promise in a synchronous expression`);
    }
    return r;
  };
}

function binaryFn(e: Extract<Expr, { kind: 'binary' }>): Fn {
  const l = compileSync(e.left);
  const special = literalOperandFn(e, l);
  if (special) return special;
  const r = compileSync(e.right);
  // One closure shape per operator, so each operator's call site stays monomorphic for the JIT.
  switch (e.op) {
    case 'and':
      return (env) => (requireBool(l(env), 'and') ? requireBool(r(env), 'and') : false);
    case 'or':
      return (env) => (requireBool(l(env), 'or') ? true : requireBool(r(env), 'or'));
    case '+':
      return (env) => {
        const a = l(env);
        const b = r(env);
        return typeof a === 'bigint' && typeof b === 'bigint' ? wrapInt(a + b) : add(a, b);
      };
    case '-':
      return (env) => {
        const a = l(env);
        const b = r(env);
        return typeof a === 'bigint' && typeof b === 'bigint' ? wrapInt(a - b) : sub(a, b);
      };
    case '*':
      return (env) => {
        const a = l(env);
        const b = r(env);
        return typeof a === 'bigint' && typeof b === 'bigint' ? wrapInt(a * b) : mul(a, b);
      };
    case '/':
      return (env) => div(l(env), r(env));
    case '//':
      return (env) => floorDiv(l(env), r(env));
    case '%':
      return (env) => mod(l(env), r(env));
    case '<':
      return (env) => lt(l(env), r(env));
    case '>':
      return (env) => gt(l(env), r(env));
    case '<=':
      return (env) => le(l(env), r(env));
    case '>=':
      return (env) => ge(l(env), r(env));
    case '==':
      return (env) => eq(l(env), r(env));
    case '!=':
      return (env) => ne(l(env), r(env));
    case 'in':
      return (env) => contains(l(env), r(env));
    case 'not in':
      return (env) => notContains(l(env), r(env));
  }
}

/**
 * Specializations for a literal right operand, the most common shape (`n * 2`, `s == "v"`, `i < 10`): the
 * constant is captured instead of called, and a string/bool/null literal makes `==` an identity test (such a
 * value only equals an identical one). Undefined when no specialization applies.
 */
function literalOperandFn(e: Extract<Expr, { kind: 'binary' }>, l: Fn): Fn | undefined {
  if (e.right.kind !== 'literal') return undefined;
  const k = e.right.value;
  if (typeof k === 'bigint') {
    switch (e.op) {
      case '+':
        return (env) => {
          const a = l(env);
          return typeof a === 'bigint' ? wrapInt(a + k) : add(a, k);
        };
      case '-':
        return (env) => {
          const a = l(env);
          return typeof a === 'bigint' ? wrapInt(a - k) : sub(a, k);
        };
      case '*':
        return (env) => {
          const a = l(env);
          return typeof a === 'bigint' ? wrapInt(a * k) : mul(a, k);
        };
      case '<':
        return (env) => lt(l(env), k);
      case '>':
        return (env) => gt(l(env), k);
      case '<=':
        return (env) => le(l(env), k);
      case '>=':
        return (env) => ge(l(env), k);
      default:
        return undefined;
    }
  }
  if (typeof k === 'string' || typeof k === 'boolean' || k === null) {
    if (e.op === '==') return (env) => l(env) === k;
    if (e.op === '!=') return (env) => l(env) !== k;
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// Asynchronous evaluation: only nodes in `asyncNodes` (those with a waiting call below them) are async.

function compileAsync(e: Expr, asyncNodes: ReadonlySet<Expr>): AsyncFn {
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
