/**
 * The expression AST (docs/language.md#expressions): what the parser produces from the text inside `${...}` and what
 * the compiler turns into evaluators. A union tagged by `kind`; every node keeps `pos`, the character offset
 * of its first character within the expression text, so errors can point at `line:col` of the source.
 */
import type { Value } from '../value.ts';

/** Binary operators, by the spec's precedence table (see parser.ts for the table itself). */
export type BinaryOp =
  | '*'
  | '/'
  | '%'
  | '//'
  | '+'
  /**
   * Google's `+` (`--compat google`): as `+`, and a string plus an int, double or bool (either side) is the
   * two joined as strings (https://cloud.google.com/workflows/docs/reference/syntax/datatypes).
   */
  | '+~'
  | '-'
  | '<'
  | '>'
  | '<='
  | '>='
  | '=='
  | '!='
  | 'in'
  | 'not in'
  | 'and'
  | 'or';

/** Unary operators. */
export type UnaryOp = '-' | 'not';

/** An expression node. */
export type Expr =
  /** A literal: number, string, bool or null. */
  | { readonly kind: 'literal'; readonly value: Value; readonly pos: number }
  /** A variable reference (`x`). */
  | { readonly kind: 'var'; readonly name: string; readonly pos: number }
  /** Map field access with a name (`a.b`). */
  | { readonly kind: 'member'; readonly object: Expr; readonly name: string; readonly pos: number }
  /** Index access (`a[i]`, `a["k"]`). */
  | { readonly kind: 'index'; readonly object: Expr; readonly index: Expr; readonly pos: number }
  /**
   * A function call. `callee` is the dotted name as written (`len`, `text.split`, `my_subworkflow`,
   * `googleapis.storage.v1.objects.get`); calls are only ever of names, never of computed values.
   */
  | { readonly kind: 'call'; readonly callee: string; readonly args: readonly Expr[]; readonly pos: number }
  | { readonly kind: 'unary'; readonly op: UnaryOp; readonly operand: Expr; readonly pos: number }
  | { readonly kind: 'binary'; readonly op: BinaryOp; readonly left: Expr; readonly right: Expr; readonly pos: number }
  /** A list literal `[a, b]`. */
  | { readonly kind: 'list'; readonly items: readonly Expr[]; readonly pos: number }
  /** A map literal `{"k": v}`; keys are expressions that must evaluate to strings. */
  | { readonly kind: 'map'; readonly entries: readonly (readonly [Expr, Expr])[]; readonly pos: number };

/**
 * What an evaluator needs from its surroundings: variables and function calls. The engine implements it with
 * its parent-linked scopes; tests implement it with a plain map.
 */
export interface Env {
  /** The value of a variable, or `undefined` when no such variable exists (the evaluator raises KeyError). */
  lookup(name: string): Value | undefined;
  /**
   * The value of a variable for a read that keeps no part of it that is a list or map (`len(m)`, `k in m`,
   * `m[k]` giving a scalar): the same value as {@link lookup}, but the variable keeps the sole hold on its
   * value, so the engine may go on changing it in place (engine/assign.ts). Environments without that
   * bookkeeping leave it out and {@link lookup} is used.
   */
  peek?(name: string): Value | undefined;
  /**
   * Calls a function by its dotted name with positional arguments: a standard-library function, a
   * subworkflow, or (raising a clear error) a connector. Returns a promise only for calls that wait
   * (subworkflows, blocking functions); see {@link CompiledExpression.isAsync}.
   *
   * @throws WorkflowError as the function raises it.
   */
  call(name: string, args: Value[]): Value | Promise<Value>;
}

/**
 * An expression parsed and compiled once, at deploy time.
 *
 * `isAsync` is decided at compile time from the names the expression calls: it is true when any call may
 * wait (a subworkflow, or a blocking function such as `http.get` or `sys.sleep`). Then only
 * {@link evaluateAsync} may be used. Otherwise {@link evaluate} runs with no promise at all (the engine's hot
 * path), and {@link evaluateAsync} still works.
 */
export interface CompiledExpression {
  /** The text between `${` and `}`. */
  readonly source: string;
  readonly ast: Expr;
  readonly isAsync: boolean;
  /**
   * Evaluates synchronously.
   * @throws WorkflowError tagged TypeError, KeyError, IndexError, ZeroDivisionError, ValueError (or whatever
   *   a called function raises). Must not be called when `isAsync` is true.
   */
  evaluate(env: Env): Value;
  /** Evaluates, awaiting calls that wait. Same errors as {@link evaluate}, as a rejection. */
  evaluateAsync(env: Env): Promise<Value>;
}
