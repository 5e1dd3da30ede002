/**
 * Calls (docs/language.md#step-types: `call` steps, subworkflows; docs/language.md#expressions: function calls):
 * standard-library functions, subworkflows with named or positional arguments, and connectors, which the
 * emulator does not emulate (docs/differences.md#the-service).
 *
 * Every call returns a value synchronously when it can, and a promise only when something waits (a blocking
 * stdlib function, or a subworkflow that reaches one), so plain calls cost no promise.
 */
import { WorkflowError } from '../lang/errors.ts';
import type { Step, Template, WorkflowDef } from '../lang/definition/ast.ts';
import type { Value, WMap } from '../lang/value.ts';
import { bindNamedArgs, bindPositionalArgs } from '../stdlib/index.ts';
import { isPromise, type Outcome } from './completion.ts';
import { evalTemplate } from './eval-template.ts';
import type { CallStepEvent, OutboundCall } from './hooks.ts';
import { MAX_CALL_DEPTH } from '../lang/language-limits.ts';
import { recursionError } from './limit-errors.ts';
import { Frame, Scope } from './scope.ts';

/**
 * Calls a function by its dotted name with positional arguments, as an expression does: a subworkflow of
 * the definition, else a stdlib function (bound with bindPositionalArgs), else a connector error.
 *
 * @throws WorkflowError as the function raises it; TypeError for a wrong argument count; SystemError for a
 *   connector or unknown name (see {@link unsupportedCallError}); RecursionError past the call depth limit.
 * @internal
 */
export function callFunction(frame: Frame, name: string, args: Value[]): Value | Promise<Value> {
  // Subworkflows shadow stdlib functions of the same name, as the definition compiler resolves them.
  const wf = frame.exec.definition.workflows.get(name);
  if (wf) return callSubworkflow(frame, wf, bindSubworkflowPositional(wf, args));
  const fn = frame.exec.functions.get(name);
  if (fn) {
    const bound = bindPositionalArgs(fn, args);
    if (fn.blocking === true && frame.exec.interceptor !== undefined) {
      const named: WMap = new Map();
      for (let i = 0; i < args.length; i++) named.set(fn.params[i]!.name, args[i]!);
      return intercepted(frame, name, named, () => fn.impl(bound, frame.callContext()));
    }
    return fn.impl(bound, frame.callContext());
  }
  if (frame.exec.interceptor !== undefined) {
    const named: WMap = new Map();
    for (let i = 0; i < args.length; i++) named.set(`arg${i}`, args[i]!);
    return intercepted(frame, name, named, () => {
      throw unsupportedCallError(name);
    });
  }
  throw unsupportedCallError(name);
}

/**
 * Hands an outbound call to the execution's interceptor (hooks.ts {@link CallInterceptor}): `http.*` names are
 * kind `http`, other stdlib names `stdlib`, anything else (`googleapis.*`, ...) `connector`. `proceed` makes
 * the real call. Requires an interceptor. Returns what the interceptor returns; its errors are the call's.
 * @internal
 */
export function intercepted(
  frame: Frame,
  name: string,
  args: WMap,
  proceed: () => Value | Promise<Value>,
): Value | Promise<Value> {
  const call: OutboundCall = {
    kind: name.startsWith('http.') ? 'http' : frame.exec.functions.has(name) ? 'stdlib' : 'connector',
    name,
    args,
    routine: frame.routine,
    step: frame.step,
    threadId: frame.threadId,
    signal: frame.signal,
  };
  return frame.exec.interceptor!.intercept(call, proceed);
}

/**
 * The error for a call the emulator cannot run: a connector (`googleapis.*`) or another namespace of the real
 * service. Tagged SystemError (the real service's tag for failures outside the workflow's own logic), code 0;
 * the message names the call and says how to replace it: a connector mock (docs/mocks-and-clock.md#mocks) or an
 * `http.*` call to a local service.
 * @internal
 */
export function unsupportedCallError(name: string): WorkflowError {
  return WorkflowError.of(
    'SystemError',
    `${name}: connectors are not emulated; mock it with a mock file (--mocks FILE, an entry ` +
      `{call: ${name}, result: ...} under "connectors"), or call a local service with http.* instead`,
  );
}

/**
 * Binds a `call` step's named `args` to a subworkflow's params, filling defaults (also the named parameters of
 * a test case that calls one routine directly: docs/testing.md#calling-one-subworkflow).
 * @throws WorkflowError tagged TypeError naming the subworkflow and the argument for an unknown or a missing
 *   required argument.
 * @internal
 */
export function bindSubworkflowNamed(wf: WorkflowDef, args: WMap | undefined): Value[] {
  if (args) {
    for (const k of args.keys()) {
      if (!wf.params.some((p) => p.name === k)) {
        throw WorkflowError.of('TypeError', `subworkflow '${wf.name}': unexpected argument '${k}'`);
      }
    }
  }
  return wf.params.map((p) => {
    const v = args?.get(p.name);
    if (v !== undefined) return v;
    if (p.hasDefault) return p.default ?? null;
    throw WorkflowError.of('TypeError', `subworkflow '${wf.name}': missing required argument '${p.name}'`);
  });
}

/**
 * Binds positional arguments (`${f(1, 2)}`) to a subworkflow's params, filling defaults.
 * @throws WorkflowError tagged TypeError for too many arguments or a missing required one.
 * @internal
 */
export function bindSubworkflowPositional(wf: WorkflowDef, args: readonly Value[]): Value[] {
  if (args.length > wf.params.length) {
    throw WorkflowError.of(
      'TypeError',
      `subworkflow '${wf.name}': expected at most ${wf.params.length} arguments, got ${args.length}`,
    );
  }
  return wf.params.map((p, i) => {
    if (i < args.length) return args[i]!;
    if (p.hasDefault) return p.default ?? null;
    throw WorkflowError.of('TypeError', `subworkflow '${wf.name}': missing required argument '${p.name}'`);
  });
}

/**
 * Runs a subworkflow with bound arguments in a fresh root scope (the caller's variables are invisible), one
 * call deeper than `frame`, and returns what it returns (null when it ends without `return`).
 *
 * @throws WorkflowError tagged RecursionError when the call depth would pass {@link MAX_CALL_DEPTH}; any
 *   error the subworkflow does not handle propagates to the caller unchanged.
 * @internal
 */
export function callSubworkflow(frame: Frame, wf: WorkflowDef, args: readonly Value[]): Value | Promise<Value> {
  if (frame.callDepth >= MAX_CALL_DEPTH) throw recursionError(wf.name);
  const callee = new Frame(
    frame.exec,
    frame.signal,
    frame.callDepth + 1,
    frame.parallelDepth,
    wf.name,
    frame.threadId,
    frame.entry,
  );
  const scope = new Scope(undefined, callee);
  return frame.exec.engine.runBody(wf, scope, args);
}

// ---------------------------------------------------------------------------------------------------------
// The call step

/** A call step's outcome once its call has settled and there is no result to assign: it goes on (one function for all). */
function normalEnd(): undefined {
  return undefined;
}

/**
 * Runs a `call` step: evaluates its named `args`, calls its target (a stdlib function, bound by name; a
 * subworkflow; a connector, which only an interceptor can answer) and assigns `result` when given.
 * @internal
 */
export function execCall(step: Extract<Step, { kind: 'call' }>, scope: Scope): Outcome {
  const args = step.args ? evalArgs(step.args, scope) : undefined;
  // The one field a call step checks for call logging (hooks.ts CallStepObserver).
  const call = scope.frame.exec.callSteps === undefined ? invoke : invokeObserved;
  const r = isPromise<WMap>(args) ? args.then((a) => call(step, scope, a)) : call(step, scope, args);
  if (step.result === undefined) return isPromise(r) ? r.then(normalEnd) : undefined;
  const name = step.result;
  if (isPromise<Value>(r)) {
    return r.then((v) => {
      scope.assign(name, v);
      return undefined;
    });
  }
  scope.assign(name, r);
  return undefined;
}

function evalArgs(args: readonly (readonly [string, Template])[], scope: Scope): WMap | Promise<WMap> {
  const m: WMap = new Map();
  for (let i = 0; i < args.length; i++) {
    const [k, t] = args[i]!;
    const v = evalTemplate(t, scope);
    if (isPromise<Value>(v)) return evalArgsAsync(args, i, m, v, scope);
    m.set(k, v);
  }
  return m;
}

async function evalArgsAsync(
  args: readonly (readonly [string, Template])[],
  from: number,
  m: WMap,
  pending: Promise<Value>,
  scope: Scope,
): Promise<WMap> {
  m.set(args[from]![0], await pending);
  for (let i = from + 1; i < args.length; i++) m.set(args[i]![0], await evalTemplate(args[i]![1], scope));
  return m;
}

function invoke(step: Extract<Step, { kind: 'call' }>, scope: Scope, args: WMap | undefined): Value | Promise<Value> {
  const target = step.target;
  const frame = scope.frame;
  switch (target.kind) {
    case 'stdlib': {
      const fn = frame.exec.functions.get(target.name);
      if (!fn) throw unsupportedCallError(target.name);
      const bound = bindNamedArgs(fn, args);
      if (fn.blocking === true && frame.exec.interceptor !== undefined) {
        return intercepted(frame, fn.name, args ?? new Map(), () => fn.impl(bound, frame.callContext()));
      }
      return fn.impl(bound, frame.callContext());
    }
    case 'subworkflow': {
      const wf = frame.exec.definition.workflows.get(target.name);
      if (!wf) throw unsupportedCallError(target.name);
      return callSubworkflow(frame, wf, bindSubworkflowNamed(wf, args));
    }
    case 'unsupported':
      if (frame.exec.interceptor !== undefined) {
        return intercepted(frame, target.name, args ?? new Map(), () => {
          throw unsupportedCallError(target.name);
        });
      }
      throw unsupportedCallError(target.name);
  }
}


/**
 * {@link invoke} bracketed by the execution's call-step observer (hooks.ts {@link CallStepObserver}): `begun`
 * with the evaluated args, then `succeeded` with the result or `raised` with what the call threw.
 */
function invokeObserved(step: Extract<Step, { kind: 'call' }>, scope: Scope, args: WMap | undefined): Value | Promise<Value> {
  const frame = scope.frame;
  const observer = frame.exec.callSteps!;
  const target = step.target;
  const event: CallStepEvent = {
    kind:
      target.kind === 'subworkflow'
        ? 'subworkflow'
        : target.kind === 'unsupported'
          ? 'connector'
          : target.name.startsWith('http.')
            ? 'http'
            : 'stdlib',
    name: target.name,
    args: args ?? new Map(),
    routine: frame.routine,
    step: step.name,
    threadId: frame.threadId,
    signal: frame.signal,
  };
  const handle = observer.begun(event);
  let r: Value | Promise<Value>;
  try {
    r = invoke(step, scope, args);
  } catch (e) {
    observer.raised(handle, e);
    throw e;
  }
  if (isPromise<Value>(r)) {
    return r.then(
      (v) => {
        observer.succeeded(handle, v);
        return v;
      },
      (e: unknown) => {
        observer.raised(handle, e);
        throw e;
      },
    );
  }
  observer.succeeded(handle, r);
  return r;
}
