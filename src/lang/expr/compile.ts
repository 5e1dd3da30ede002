/**
 * The expression compiler (docs/language.md#expressions): validates an expression's text, parses it once and turns the
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
 *
 * This file is the front: it validates and parses the text and marks the nodes that wait; the closures are
 * made by compile-sync.ts (`evaluate`) and compile-async.ts (`evaluateAsync`).
 */
import type { CompiledExpression, Env, Expr } from './ast.ts';
import { ExpressionSyntaxError, parseExpression } from './parser.ts';
import { compileSync, type Fn } from './compile-sync.ts';
import { compileAsync, type AsyncFn } from './compile-async.ts';
import type { Value } from '../value.ts';
import type { Compat } from '../compat.ts';

/** Longest expression text accepted, in characters (docs/api-resources.md#limits: expression length 400 characters). */
export const MAX_EXPRESSION_LENGTH = 400;

/** What the compiler needs to know about the names an expression calls. */
export interface CompileOptions {
  /**
   * True when calling `name` (a dotted name as written, e.g. `http.get`, `my_subworkflow`) may wait, so the
   * expression must be evaluated with `evaluateAsync`. Not asked for the special forms `if` and `not`.
   */
  isAsyncCall(name: string): boolean;
  /** `google`: Google's precedence and `+` (parser.ts `ParseOptions`); default the spec's. */
  readonly compat?: Compat;
}

/**
 * Validates, parses and compiles the text of one expression (the part between `${` and `}`).
 *
 * @param text the expression text, at most {@link MAX_EXPRESSION_LENGTH} characters.
 * @returns the compiled expression; `isAsync` tells which evaluator to use (see {@link CompiledExpression}).
 * @throws ExpressionSyntaxError (docs/language.md#expressions and docs/api-resources.md#limits) for text over 400 characters (offset 400),
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
  const ast = parseExpression(text, options);
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
// more than the rest of a small expression's compile (docs/architecture.md#compile-time).

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
