/**
 * Helpers for the stdlib unit tests: call a registered function the way an expression (positional) or a
 * `call` step (named `args`) would, and assert the tagged error a call raises.
 */
import * as assert from 'uvu/assert';
import { WorkflowError } from '../../src/lang/errors.ts';
import { isMap, mapOf, type Value } from '../../src/lang/value.ts';
import { bindNamedArgs, bindPositionalArgs, STDLIB } from '../../src/stdlib/index.ts';
import type { CallContext } from '../../src/stdlib/types.ts';

/** A context for pure functions, which never touch it. */
export const ctx = {} as CallContext;

/** Calls `name` with positional arguments, as `${name(a, b)}` does. */
export function call(name: string, ...args: Value[]): Value {
  const fn = STDLIB.get(name);
  if (!fn) throw new Error(`no stdlib function ${name}`);
  return fn.impl(bindPositionalArgs(fn, args), ctx) as Value;
}

/** Calls `name` with named arguments, as a `call:` step with `args:` does. */
export function callNamed(name: string, args: Record<string, Value>): Value {
  const fn = STDLIB.get(name);
  if (!fn) throw new Error(`no stdlib function ${name}`);
  return fn.impl(bindNamedArgs(fn, mapOf(args)), ctx) as Value;
}

/** Asserts that `f` throws a WorkflowError carrying `tag`, whose message contains `message` when given. */
export function raises(f: () => unknown, tag: string, message?: string): WorkflowError {
  try {
    f();
  } catch (e) {
    if (!(e instanceof WorkflowError)) throw e;
    assert.ok(e.tags.includes(tag), `expected tag ${tag}, got ${e.tags.join(',')}: ${e.message}`);
    if (message !== undefined) assert.ok(e.message.includes(message), `message '${e.message}' lacks '${message}'`);
    const v = e.value;
    assert.ok(isMap(v) && v.get('code') === 0n, 'error code is 0');
    return e;
  }
  assert.unreachable(`expected a ${tag}`);
  throw new Error('unreachable');
}

/** Builds a map value from a plain object (values already workflow values). */
export const m = (o: Record<string, Value>): Value => mapOf(o);

/** UTF-8 bytes of a string. */
export const b = (s: string): Uint8Array => new TextEncoder().encode(s);
