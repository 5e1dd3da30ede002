/**
 * The standard library registry (docs/standard-library.md): every function by its dotted name, gathered from
 * one module per namespace, plus the named retry policies. The definition compiler is handed
 * {@link DEFINITION_LIBRARY} to validate call names and to decide which expressions may wait; the engine
 * uses {@link STDLIB} to call functions.
 */
import { typeError } from '../lang/errors.ts';
import type { Value, WMap } from '../lang/value.ts';
import { checkValue } from '../lang/size-checks.ts';
import type { FunctionLibrary, RetryPolicy, StdlibFunction } from './types.ts';
import { functions as base64 } from './base64.ts';
import { functions as builtins } from './builtins.ts';
import { functions as events } from './events.ts';
import { functions as hash } from './hash.ts';
import { functions as http } from './http.ts';
import { functions as json } from './json.ts';
import { functions as list } from './list.ts';
import { functions as map } from './map.ts';
import { functions as math } from './math.ts';
import { BACKOFFS, DEFAULT_BACKOFF, functions as retry, RETRY_POLICIES as retryPolicies } from './retry.ts';
import { functions as sys } from './sys.ts';
import { functions as text } from './text.ts';
import { functions as time } from './time.ts';
import { functions as uuid } from './uuid.ts';

/**
 * Every stdlib function by dotted name (`len`, `text.split`, `http.get`, ...). The result of each function
 * that does not wait is checked against the size limits (docs/api-resources.md#limits: a string within 256 KB, a list, map
 * or bytes within 512 KB; see `checkValue`), so an expression cannot build an oversized value with them even
 * without assigning it; functions whose growth is not bounded by their input also stop while building.
 */
export const STDLIB: ReadonlyMap<string, StdlibFunction> = new Map(
  [base64, builtins, events, hash, http, json, list, map, math, retry, sys, text, time, uuid]
    .flat()
    .map((f) => [f.name, f.blocking ? f : sizeChecked(f)] as const),
);

/** `f` with its result checked by `checkValue`: a ResourceLimitError naming `f` when it is too large. */
function sizeChecked(f: StdlibFunction): StdlibFunction {
  const impl = f.impl;
  return { ...f, impl: (args, ctx) => checkValue(f.name, impl(args, ctx) as Value) };
}

/** The named retry policies (`retry: ${http.default_retry}`), by dotted name. */
export const RETRY_POLICIES: ReadonlyMap<string, RetryPolicy> = retryPolicies;

/** True when `name` is a stdlib function that may wait (http.*, sys.sleep, events.await_callback, ...). */
export function isBlocking(name: string): boolean {
  return STDLIB.get(name)?.blocking === true;
}

/**
 * The standard library as the definition compiler checks it (`compileDefinition(source, DEFINITION_LIBRARY)`)
 * and as the engine runs it (ExecutionDeps.library).
 */
export const DEFINITION_LIBRARY: FunctionLibrary = functionLibrary(STDLIB, RETRY_POLICIES);

/**
 * A library of `functions` and `retryPolicies`, with the standard library's backoffs.
 */
function functionLibrary(
  functions: ReadonlyMap<string, StdlibFunction>,
  retryPolicies: ReadonlyMap<string, RetryPolicy>,
): FunctionLibrary {
  return {
    functions,
    retryPolicies,
    hasFunction: (name) => functions.has(name),
    paramNames: (name) => functions.get(name)?.params.map((p) => p.name),
    functionNames: () => functions.keys(),
    isBlocking: (name) => functions.get(name)?.blocking === true,
    backoffs: BACKOFFS,
    defaultBackoff: DEFAULT_BACKOFF,
  };
}

/**
 * `base` with `extra` functions added (a function of the same name replaces base's): a library for hosts that
 * give their workflows functions of their own (ServiceCoreOptions.library). Each added function's result is
 * checked against the size limits as the standard library's are, unless it is blocking.
 */
export function withFunctions(base: FunctionLibrary, extra: readonly StdlibFunction[]): FunctionLibrary {
  const functions = new Map(base.functions);
  for (const f of extra) functions.set(f.name, f.blocking ? f : sizeChecked(f));
  return functionLibrary(functions, base.retryPolicies);
}

/**
 * Binds a `call` step's named `args` to a function's positional parameters, accepting each parameter's
 * aliases. Omitted optional parameters get their default (or undefined).
 *
 * @throws WorkflowError tagged TypeError for an unknown argument name, a parameter given twice (by name and
 *   alias), or a missing required argument; the message names the function and the argument.
 */
export function bindNamedArgs(fn: StdlibFunction, args: WMap | undefined): (Value | undefined)[] {
  const out: (Value | undefined)[] = new Array(fn.params.length);
  const seen = new Set<string>();
  if (args) {
    for (const [k, v] of args) {
      const i = fn.params.findIndex((p) => p.name === k || (p.aliases?.includes(k) ?? false));
      if (i < 0) throw typeError(`${fn.name}: unexpected argument '${k}'`);
      const p = fn.params[i]!;
      if (seen.has(p.name)) throw typeError(`${fn.name}: argument '${p.name}' given more than once`);
      seen.add(p.name);
      out[i] = v;
    }
  }
  return fillDefaults(fn, out, seen);
}

/**
 * Binds positional arguments from an expression call (`text.split(s, ",")`).
 *
 * @throws WorkflowError tagged TypeError for too many arguments or a missing required one.
 */
export function bindPositionalArgs(fn: StdlibFunction, args: readonly Value[]): (Value | undefined)[] {
  if (args.length > fn.params.length) {
    throw typeError(`${fn.name}: expected at most ${fn.params.length} arguments, got ${args.length}`);
  }
  const out: (Value | undefined)[] = new Array(fn.params.length);
  const seen = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    out[i] = args[i];
    seen.add(fn.params[i]!.name);
  }
  return fillDefaults(fn, out, seen);
}

function fillDefaults(fn: StdlibFunction, out: (Value | undefined)[], seen: Set<string>): (Value | undefined)[] {
  for (let i = 0; i < fn.params.length; i++) {
    const p = fn.params[i]!;
    if (seen.has(p.name)) continue;
    if (!p.optional) throw typeError(`${fn.name}: missing required argument '${p.name}'`);
    out[i] = p.default;
  }
  return out;
}
