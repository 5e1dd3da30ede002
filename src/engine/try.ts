/**
 * try / retry / except (docs/language.md#try-retry-and-except: the retry block; docs/api-resources.md#states-and-transitions:
 * error propagation order).
 *
 * An error in the try body goes first to the retry block: when attempts remain and the predicate (a stdlib
 * predicate, a named policy, or a subworkflow taking the error map) says yes, the engine waits
 * min(initial_delay * multiplier^attempt, max_delay) seconds on the injected clock and re-runs the whole try
 * body from its beginning (`max_retries: N` is 1 + N attempts). Then the error goes to `except`, which runs in
 * a child scope holding the `as` variable (variables first assigned there end with it), and then outward. A
 * cancellation is never retried nor caught.
 */
import { WorkflowError, typeError } from '../lang/errors.ts';
import type { RetrySpec, Step } from '../lang/definition/ast.ts';
import { typeName, type Value } from '../lang/value.ts';
import type { RetryPolicy } from '../stdlib/types.ts';
import { bindSubworkflowPositional, callSubworkflow, unsupportedCallError } from './calls.ts';
import { isPromise, then, type Completion, type Outcome } from './completion.ts';
import { evalTemplate } from './eval-template.ts';
import { EntryEvent, observe } from './observe.ts';
import { Scope } from './scope.ts';

type TryStep = Extract<Step, { kind: 'try' }>;


/** A retry block with its numbers evaluated. @internal */
interface Retry {
  readonly predicate: (error: Value, scope: Scope) => boolean | Promise<boolean>;
  readonly maxRetries: number;
  readonly initialDelaySec: number;
  readonly maxDelaySec: number;
  readonly multiplier: number;
}

/** Runs a try step: its body, with retry and except as the module header says. @internal */
export function execTry(step: TryStep, scope: Scope): Outcome {
  return attempt(step, scope, 0, undefined);
}

function attempt(step: TryStep, scope: Scope, n: number, retry: Retry | undefined): Outcome {
  let r: Outcome;
  try {
    if (n > 0 && scope.frame.exec.observer !== undefined) {
      // Each attempt after the first is a STEP_RETRY entry holding that run of the body.
      const event = new EntryEvent(step.name, 'STEP_RETRY', step.pos, scope, undefined, undefined, n);
      r = observe(scope.frame, event, scope.frame.exec.engine.runList, step.body, 0, scope);
    } else {
      r = scope.frame.exec.engine.runList(step.body, 0, scope);
    }
  } catch (e) {
    return onError(step, scope, e, n, retry);
  }
  if (isPromise<Completion>(r)) return r.then(undefined, (e: unknown) => onError(step, scope, e, n, retry));
  return r;
}

/**
 * The spec's propagation order for an error in a try body: retry (when the predicate says so and attempts
 * remain, after the backoff delay), then `except`, then outward.
 */
function onError(
  step: TryStep,
  scope: Scope,
  e: unknown,
  n: number,
  retry: Retry | undefined,
): Outcome {
  const signal = scope.frame.signal;
  if (signal.aborted || !(e instanceof WorkflowError)) throw e;
  if (step.retry !== undefined) {
    const spec = retry ?? resolveRetry(step.retry, scope);
    const go = (rs: Retry): Outcome => {
      if (n >= rs.maxRetries) return handle(step, scope, e);
      return then(rs.predicate(e.value, scope), (yes): Outcome => {
        if (!yes) return handle(step, scope, e);
        const delaySec = Math.min(rs.initialDelaySec * rs.multiplier ** n, rs.maxDelaySec);
        const clock = scope.frame.exec.deps.clock;
        return clock.sleep(delaySec * 1000, signal).then(() => attempt(step, scope, n + 1, rs));
      });
    };
    return isPromise<Retry>(spec) ? spec.then(go) : go(spec);
  }
  return handle(step, scope, e);
}

function handle(step: TryStep, scope: Scope, e: WorkflowError): Outcome {
  const ex = step.except;
  if (ex === undefined) throw e;
  // Variables first assigned inside `except` (and the `as` variable) end with it (docs/language.md#try-retry-and-except 4).
  const inner = new Scope(scope, scope.frame);
  return inner.releasing((): Outcome => {
    if (ex.as !== undefined) inner.declare(ex.as, e.value);
    if (scope.frame.exec.observer === undefined) return scope.frame.exec.engine.runList(ex.steps, 0, inner);
    const event = new EntryEvent(step.name, 'STEP_EXCEPT', step.pos, inner);
    return observe(scope.frame, event, scope.frame.exec.engine.runList, ex.steps, 0, inner);
  });
}

/** The predicate of a named policy for this execution: Google's under `--compat google` where it differs. */
function policyPredicate(p: RetryPolicy, scope: Scope): string {
  return (scope.frame.exec.deps.compat === 'google' ? p.googlePredicate : undefined) ?? p.predicate;
}

function resolveRetry(spec: RetrySpec, scope: Scope): Retry | Promise<Retry> {
  if (spec.kind === 'policy') {
    const p = scope.frame.exec.retryPolicies.get(spec.name);
    if (!p) throw typeError(`retry: unknown retry policy '${spec.name}'`);
    return {
      predicate: stdlibPredicate(policyPredicate(p, scope)),
      maxRetries: p.maxRetries,
      initialDelaySec: p.initialDelaySec,
      maxDelaySec: p.maxDelaySec,
      multiplier: p.multiplier,
    };
  }
  const pred = spec.predicate;
  let predicate: Retry['predicate'];
  if (pred.kind === 'stdlib') {
    // `predicate: ${http.default_retry}` names a policy; its predicate function decides.
    const exec = scope.frame.exec;
    const policy = exec.functions.has(pred.name) ? undefined : exec.retryPolicies.get(pred.name);
    predicate = stdlibPredicate(policy ? policyPredicate(policy, scope) : pred.name);
  } else {
    const name = pred.name;
    predicate = (error, s) => {
      const wf = s.frame.exec.definition.workflows.get(name);
      if (!wf) throw unsupportedCallError(name);
      return then(callSubworkflow(s.frame, wf, bindSubworkflowPositional(wf, [error])), (v) => asBool(v, name));
    };
  }
  const values = [spec.maxRetries, spec.initialDelaySec, spec.maxDelaySec, spec.multiplier].map((t) =>
    evalTemplate(t, scope),
  );
  const build = (vs: Value[]): Retry => {
    const [maxRetries, initialDelaySec, maxDelaySec, multiplier] = vs.map((v, i) =>
      asNumber(v, ['max_retries', 'initial_delay', 'max_delay', 'multiplier'][i]!),
    ) as [number, number, number, number];
    return { predicate, maxRetries, initialDelaySec, maxDelaySec, multiplier };
  };
  return values.some(isPromise) ? Promise.all(values).then(build) : build(values as Value[]);
}

function stdlibPredicate(name: string): Retry['predicate'] {
  return (error, scope) => {
    const fn = scope.frame.exec.functions.get(name);
    if (!fn) throw unsupportedCallError(name);
    return then(fn.impl([error], scope.frame.callContext()), (v) => asBool(v, name));
  };
}

function asBool(v: Value, name: string): boolean {
  if (typeof v !== 'boolean') throw typeError(`retry predicate ${name} returned a ${typeName(v)}, not a bool`);
  return v;
}

function asNumber(v: Value, field: string): number {
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number') return v;
  throw typeError(`retry: ${field} must be a number, not a ${typeName(v)}`);
}
