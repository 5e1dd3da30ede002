/**
 * How a step or step list finished (docs/api-resources.md#states-and-transitions), and the engine's "sync until async"
 * helpers: every engine function returns its outcome directly, or a promise only when something below it
 * waits (see interpreter.ts).
 */
import type { JumpTarget } from '../lang/definition/ast.ts';
import type { Value } from '../lang/value.ts';

/** A `return` travelling up to the workflow that runs it. @internal */
export interface ReturnCompletion {
  readonly kind: 'return';
  readonly value: Value;
}

/** How a step or step list finished; see the module header. @internal */
export type Completion = undefined | JumpTarget | ReturnCompletion;

/** A completion now, or later. @internal */
export type Outcome = Completion | Promise<Completion>;

/** True for a promise (the only thenables the engine produces or accepts from functions). @internal */
export function isPromise<T>(x: unknown): x is Promise<T> {
  return x instanceof Promise;
}

/** Applies `f` to a value now or when it arrives. @internal */
export function then<T, R>(v: T | Promise<T>, f: (x: T) => R | Promise<R>): R | Promise<R> {
  return isPromise<T>(v) ? v.then(f) : f(v);
}
