/**
 * The synchronous half of the expression compiler (docs/language.md#expressions; the front is compile.ts): an AST node
 * becomes a closure `(env) => Value`, the engine's hot path. Operators call the functions of ops.ts, with one
 * closure shape per operator and specializations for a literal right operand; `o.name` and `o["name"]` read a
 * map inline; calls go through `env.call(name, args)`, except the special forms `if` (lazy) and `not`.
 * Subtrees that hold no variable and no call are folded into constants when they evaluate without error
 * (values are immutable, so a folded list or map may be shared by every evaluation).
 *
 * The arity checks of `if()`/`not()`, the `if` condition rule and the map key rule are exported for the
 * asynchronous half (compile-async.ts), so both evaluators share them.
 */
import type { Env, Expr } from './ast.ts';
import { ExpressionSyntaxError } from './parser.ts';
import {
  add,
  addGoogle,
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

/** A compiled node: its value in `env` (raises what evaluating it raises, e.g. a TypeError tag). */
export type Fn = (env: Env) => Value;

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

/**
 * Compiles node `e` to a synchronous closure; a node that cannot depend on the environment (no variable, no
 * call) is evaluated once here and becomes a constant when that raises nothing.
 *
 * @throws ExpressionSyntaxError for an `if(...)` without exactly three arguments or a `not(...)` without
 *   exactly one (at the call's offset).
 */
export function compileSync(e: Expr): Fn {
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

/** Raises ExpressionSyntaxError (at the call) unless `if(...)` has exactly three arguments. */
export function checkIfArity(e: Extract<Expr, { kind: 'call' }>): void {
  if (e.args.length !== 3) {
    throw new ExpressionSyntaxError(`if() takes exactly 3 arguments (condition, if_true, if_false), got ${e.args.length}`, e.pos);
  }
}

/** Raises ExpressionSyntaxError (at the call) unless `not(...)` has exactly one argument. */
export function checkNotArity(e: Extract<Expr, { kind: 'call' }>): void {
  if (e.args.length !== 1) throw new ExpressionSyntaxError(`not() takes exactly 1 argument, got ${e.args.length}`, e.pos);
}

/** The `if` helper's condition rule: true picks the first branch, false or null the second (Google's doc). */
export function ifBranch(c: Value): boolean {
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
    case 'index': {
      const root = chainRoot(e);
      if (root !== undefined) return keptFn(peekFn(e), root);
      if (e.kind === 'member') return memberFn(compileSync(e.object), e.name);
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

/** The variable `x` of a read path `x`, `x.a`, `x[i].b`...; undefined for any other expression. */
function chainRoot(e: Expr): string | undefined {
  while (e.kind === 'member' || e.kind === 'index') e = e.object;
  return e.kind === 'var' ? e.name : undefined;
}

/**
 * A read path (see {@link chainRoot}) evaluated with {@link Env.peek}: the variable keeps its sole hold on its
 * value (engine/assign.ts changes such a value in place). Only for a consumer that keeps no list or map of
 * the result (`len`, `in`), or through {@link keptFn}. Index expressions are compiled as usual.
 */
function peekFn(e: Expr): Fn {
  if (e.kind === 'var') {
    const name = e.name;
    return (env) => {
      const v = env.peek !== undefined ? env.peek(name) : env.lookup(name);
      if (v === undefined) throw unknownVariable(name);
      return v;
    };
  }
  if (e.kind === 'member') return memberFn(peekFn(e.object), e.name);
  if (e.kind !== 'index') return compileSync(e);
  const o = peekFn(e.object);
  if (e.index.kind === 'literal' && typeof e.index.value === 'string') return memberFn(o, e.index.value);
  const i = compileSync(e.index);
  return (env) => index(o(env), i(env));
}

/**
 * A read path whose result the expression may keep: a scalar leaves the variable's hold on its value as it
 * was (`m[k]: ${m[k] + 1}` stays in place); a list or map may be a part of that value, so the variable is
 * then read for real, which gives the hold up (Scope.lookup).
 */
function keptFn(read: Fn, root: string): Fn {
  return (env) => {
    const v = read(env);
    if (v !== null && typeof v === 'object' && !(v instanceof Uint8Array)) env.lookup(root);
    return v;
  };
}

/** A map literal's key: the string a key expression evaluated to; any other value raises a TypeError. */
export function mapKey(k: Value): string {
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
  // A subworkflow of the same name would make the call async: here the name is the library's function.
  const peeking = PEEKING_CALLS.get(name);
  const root = peeking !== undefined && e.args.length > 0 ? chainRoot(e.args[0]!) : undefined;
  const args = e.args.map((a, i) => (i === 0 && root !== undefined ? peekFn(a) : compileSync(a)));
  const n = args.length;
  const call: Fn = (env) => {
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
  return peeking === 'part' && root !== undefined ? keptFn(call, root) : call;
}

/**
 * Standard-library functions whose first argument, a read path, is read with {@link Env.peek}: `nothing`
 * when the result holds no list or map of it (`len`; `keys`, a new list of strings; `json.encode*`, bytes or
 * a string), `part` when the result may be a part of it (`map.get`: then as {@link keptFn} says).
 */
const PEEKING_CALLS: ReadonlyMap<string, 'nothing' | 'part'> = new Map([
  ['len', 'nothing'],
  ['keys', 'nothing'],
  ['json.encode', 'nothing'],
  ['json.encode_to_string', 'nothing'],
  ['map.get', 'part'],
]);

function binaryFn(e: Extract<Expr, { kind: 'binary' }>): Fn {
  const l = compileSync(e.left);
  const special = literalOperandFn(e, l);
  if (special) return special;
  // `k in m` keeps nothing of m.
  const r = (e.op === 'in' || e.op === 'not in') && chainRoot(e.right) !== undefined ? peekFn(e.right) : compileSync(e.right);
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
    case '+~':
      return (env) => addGoogle(l(env), r(env));
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
