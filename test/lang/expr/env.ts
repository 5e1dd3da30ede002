// Test helpers for the expression tests: a plain-map Env, evaluation shorthands, and error capture.
import * as assert from 'uvu/assert';
import type { Env } from '../../../src/lang/expr/ast.ts';
import { compileExpression } from '../../../src/lang/expr/compile.ts';
import { WorkflowError } from '../../../src/lang/errors.ts';
import { fromJs, type Value } from '../../../src/lang/value.ts';

/** Functions the test Env knows: a few sync ones, and `slow_*` ones that return promises. */
export const calls: string[] = [];

/**
 * An Env over plain JS variables and a small function table. Top-level bigints, numbers (doubles, even when
 * integral), strings, booleans, null and Maps are taken as values; arrays and objects go through fromJs (where
 * integral numbers become ints).
 */
export function makeEnv(vars: Record<string, unknown> = {}): Env {
  const m = new Map<string, Value>();
  for (const k of Object.keys(vars)) {
    const v = vars[k];
    m.set(k, typeof v === 'bigint' || typeof v === 'number' || v instanceof Map ? (v as Value) : fromJs(v));
  }
  return {
    lookup: (name) => m.get(name),
    call: (name, args) => {
      calls.push(name);
      switch (name) {
        case 'len':
          return BigInt((args[0] as string | Value[]).length);
        case 'echo':
          return args.length === 1 ? args[0]! : args;
        case 'boom':
          throw WorkflowError.of('ValueError', 'boom');
        case 'slow_echo':
          return new Promise((r) => setTimeout(() => r(args[0]!), 1));
        case 'slow_boom':
          return Promise.reject(WorkflowError.of('ValueError', 'slow boom'));
        default:
          throw WorkflowError.of('KeyError', `unknown function ${name}`);
      }
    },
  };
}

export const options = { isAsyncCall: (name: string) => name.startsWith('slow_') };

/** Evaluates synchronously. */
export function ev(text: string, vars: Record<string, unknown> = {}): Value {
  return compileExpression(text, options).evaluate(makeEnv(vars));
}

/** Evaluates with evaluateAsync. */
export function evAsync(text: string, vars: Record<string, unknown> = {}): Promise<Value> {
  return compileExpression(text, options).evaluateAsync(makeEnv(vars));
}

/** Asserts that evaluating raises a WorkflowError with the tag (and message substring); returns its message. */
export function raises(text: string, tag: string, vars: Record<string, unknown> = {}, message?: string): string {
  try {
    ev(text, vars);
  } catch (e) {
    assert.instance(e, WorkflowError, `${text}: not a WorkflowError: ${String(e)}`);
    const we = e as WorkflowError;
    assert.equal(we.tags, [tag], `${text}: tags`);
    const value = we.value as Map<string, Value>;
    assert.is(value.get('code'), 0n, `${text}: code`);
    if (message !== undefined) assert.ok(we.message.includes(message), `${text}: message ${JSON.stringify(we.message)}`);
    return we.message;
  }
  assert.unreachable(`${text}: expected ${tag}`);
  return '';
}

/** Asserts a value is exactly an int/double/etc. with strict JS identity for scalars, deep for containers. */
export function same(actual: Value, expected: Value, msg?: string): void {
  if (typeof expected === 'bigint' || typeof expected === 'number') {
    assert.is(typeof actual, typeof expected, `${msg ?? ''} type`);
    if (typeof expected === 'number' && Number.isNaN(expected)) assert.ok(Number.isNaN(actual as number));
    else assert.is(actual, expected, msg);
  } else assert.equal(actual, expected, msg);
}
