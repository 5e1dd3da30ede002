/**
 * The engine's side of the step observer (hooks.ts): the event of each step entry and the bracket that
 * enters an entry, runs what it covers, and leaves it however that ends. Used only when an observer is
 * attached; the engine's plain path never reaches this module.
 */
import { WorkflowError } from '../lang/errors.ts';
import type { SourcePos, Step } from '../lang/definition/ast.ts';
import type { Value } from '../lang/value.ts';
import type { GatedStep, StepEnd, StepEvent, StepType } from './hooks.ts';
import { compileExpression } from '../lang/expr/compile.ts';
import type { Env } from '../lang/expr/ast.ts';
import { isPromise } from './completion.ts';
import type { Frame, Scope } from './scope.ts';
import type { CancelSignal } from '../platform/cancellation.ts';

/**
 * A {@link StepEvent} as the engine builds it, one per entry: small and of one shape (every field set by the
 * constructor, in one order), so building it costs little and reading it is monomorphic. `routine`,
 * `threadId` and `callDepth` are read from the scope's frame. `expectedIterations` of a STEP_FOR or
 * STEP_PARALLEL_FOR entry is filled in once the loop's list or range is evaluated, before its first iteration
 * is entered.
 * @internal
 */
export class EntryEvent implements GatedStep {
  constructor(
    readonly step: string,
    readonly stepType: StepType,
    readonly pos: SourcePos,
    private readonly scope: Scope,
    public iteration: number | undefined = undefined,
    public expectedIterations: number | undefined = undefined,
    public retryAttempt: number | undefined = undefined,
    public branch: string | undefined = undefined,
  ) {}

  get routine(): string {
    return this.scope.frame.routine;
  }

  get threadId(): string {
    return this.scope.frame.threadId;
  }

  get callDepth(): number {
    return this.scope.frame.callDepth;
  }

  /** Every variable visible in the entry's scope, inner ones shadowing outer ones, read now. */
  variables(): ReadonlyMap<string, Value> {
    const chain: Scope[] = [];
    for (let s: Scope | undefined = this.scope; s; s = s.parent) chain.push(s);
    const out = new Map<string, Value>();
    for (let i = chain.length - 1; i >= 0; i--) for (const [k, v] of chain[i]!.vars) out.set(k, v);
    return out;
  }

  get signal(): CancelSignal {
    return this.scope.frame.signal;
  }

  /** The variables of each scope from the entry's own outwards (hooks.ts `GatedStep.scopes`). */
  scopes(): readonly ReadonlyMap<string, Value>[] {
    const out: ReadonlyMap<string, Value>[] = [];
    for (let s: Scope | undefined = this.scope; s; s = s.parent) out.push(s.vars);
    return out;
  }

  /** Assigns a variable as an assign step here would (hooks.ts `GatedStep.setVariable`). */
  setVariable(name: string, value: Value): void {
    this.scope.assign(name, value);
  }

  /** Evaluates an expression here without side effects (hooks.ts `GatedStep.evaluate`). */
  evaluate(text: string): Value | Promise<Value> {
    const exec = this.scope.frame.exec;
    const waits = (name: string): boolean => !isPure(exec.functions.get(name));
    let expr;
    try {
      expr = compileExpression(text, { isAsyncCall: waits, ...(exec.deps.compat !== undefined ? { compat: exec.deps.compat } : {}) });
    } catch (e) {
      if (e instanceof WorkflowError) throw e;
      throw WorkflowError.of('ValueError', `invalid expression: ${e instanceof Error ? e.message : String(e)}`);
    }
    const scope = this.scope;
    const env: Env = {
      lookup: (name) => scope.lookup(name),
      call: (name, args) => {
        const fn = exec.functions.get(name);
        if (!isPure(fn)) {
          throw WorkflowError.of('ValueError', `evaluating in the debugger calls nothing with side effects: ${name} is not called here`);
        }
        return scope.call(name, args);
      },
    };
    return expr.isAsync ? expr.evaluateAsync(env) : expr.evaluate(env);
  }
}

/**
 * A standard-library function the debugger may call while evaluating: one that neither waits (http.*,
 * sys.sleep, callbacks) nor writes (sys.log). Subworkflows and connectors are not in the library.
 */
function isPure(fn: { readonly name: string; readonly blocking?: boolean } | undefined): boolean {
  return fn !== undefined && fn.blocking !== true && fn.name !== 'sys.log' && !fn.name.startsWith('http.');
}

/**
 * Google's `stepType` of a step (hooks.ts module header): a call by what it calls, a `try` by whether it
 * retries, a nested `steps:` block STEP_TYPE_UNSPECIFIED.
 * @internal
 */
export function stepTypeOf(step: Step): StepType {
  switch (step.kind) {
    case 'assign':
      return 'STEP_ASSIGN';
    case 'call':
      switch (step.target.kind) {
        case 'stdlib':
          return 'STEP_STD_LIB_CALL';
        case 'subworkflow':
          return 'STEP_SUBWORKFLOW_CALL';
        case 'unsupported':
          return 'STEP_CONNECTOR_CALL';
      }
      return 'STEP_CALL';
    case 'switch':
      return 'STEP_SWITCH';
    case 'for':
      return 'STEP_FOR';
    case 'parallel':
      return step.branches !== undefined ? 'STEP_PARALLEL_BRANCH' : 'STEP_PARALLEL_FOR';
    case 'try':
      return step.retry !== undefined ? 'STEP_TRY_RETRY_EXCEPT' : 'STEP_TRY';
    case 'raise':
      return 'STEP_RAISE';
    case 'return':
      return 'STEP_RETURN';
    case 'jump':
      return 'STEP_GOTO';
    case 'steps':
      return 'STEP_TYPE_UNSPECIFIED';
  }
}

const SUCCEEDED: StepEnd = { state: 'succeeded' };

/** How an entry ended by `e`: cancelled when the frame's signal fired and `e` is not a workflow error. */
function endOf(e: unknown, frame: Frame): StepEnd {
  if (frame.signal.aborted && !(e instanceof WorkflowError)) return { state: 'cancelled', error: e };
  return { state: 'failed', error: WorkflowError.from(e) };
}

/**
 * Enters the entry `event` on `frame` (its parent: the frame's innermost open entry), runs `run(a, b, c)`
 * with the entry as the frame's innermost one, and leaves it when its outcome settles: succeeded with a value
 * or completion, failed with its error, or cancelled. Returns the outcome unchanged (a promise only when
 * `run` returned one). `run` takes its arguments rather than closing over them, so a step that does not wait
 * allocates no closure. Requires an observer on the frame's execution.
 * @internal
 */
export function observe<T, A, B, C>(
  frame: Frame,
  event: StepEvent,
  run: (a: A, b: B, c: C) => T | Promise<T>,
  a: A,
  b: B,
  c: C,
): T | Promise<T> {
  const observer = frame.exec.observer!;
  const parent = frame.entry;
  const handle = observer.enter(event, parent);
  frame.entry = handle;
  let r: T | Promise<T>;
  try {
    r = run(a, b, c);
  } catch (e) {
    frame.entry = parent;
    observer.leave(handle, endOf(e, frame));
    throw e;
  }
  if (isPromise<T>(r)) return leaveWhenSettled(frame, parent, handle, r);
  frame.entry = parent;
  observer.leave(handle, SUCCEEDED);
  return r;
}

/** The rest of {@link observe} when the entry waits: leaves it when `r` settles. */
function leaveWhenSettled<T>(frame: Frame, parent: unknown, handle: unknown, r: Promise<T>): Promise<T> {
  const observer = frame.exec.observer!;
  return r.then(
    (v: T) => {
      frame.entry = parent;
      observer.leave(handle, SUCCEEDED);
      return v;
    },
    (e: unknown) => {
      frame.entry = parent;
      observer.leave(handle, endOf(e, frame));
      throw e;
    },
  );
}
