/**
 * The engine's side of the step observer (hooks.ts): the event of each step entry and the bracket that
 * enters an entry, runs what it covers, and leaves it however that ends. Used only when an observer is
 * attached; the engine's plain path never reaches this module.
 */
import { WorkflowError } from '../lang/errors.ts';
import type { SourcePos, Step } from '../lang/definition/ast.ts';
import type { Value } from '../lang/value.ts';
import type { StepEnd, StepEvent, StepType } from './hooks.ts';
import type { Frame, Scope } from './scope.ts';

/**
 * A {@link StepEvent} as the engine builds it. `expectedIterations` of a STEP_FOR or STEP_PARALLEL_FOR entry
 * is filled in once the loop's list or range is evaluated, before its first iteration is entered.
 * @internal
 */
export class EntryEvent implements StepEvent {
  readonly routine: string;
  readonly threadId: string;
  readonly callDepth: number;
  iteration?: number;
  expectedIterations?: number;
  retryAttempt?: number;
  branch?: string;

  constructor(
    readonly step: string,
    readonly stepType: StepType,
    readonly pos: SourcePos,
    private readonly scope: Scope,
  ) {
    const frame = scope.frame;
    this.routine = frame.routine;
    this.threadId = frame.threadId;
    this.callDepth = frame.callDepth;
  }

  /** Every variable visible in the entry's scope, inner ones shadowing outer ones, read now. */
  variables(): ReadonlyMap<string, Value> {
    const chain: Scope[] = [];
    for (let s: Scope | undefined = this.scope; s; s = s.parent) chain.push(s);
    const out = new Map<string, Value>();
    for (let i = chain.length - 1; i >= 0; i--) for (const [k, v] of chain[i]!.vars) out.set(k, v);
    return out;
  }
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
 * Enters the entry `event` on `frame` (its parent: the frame's innermost open entry), runs `run` with the
 * entry as the frame's innermost one, and leaves it when `run`'s outcome settles: succeeded with a value or
 * completion, failed with its error, or cancelled. Returns `run`'s outcome unchanged (a promise only when
 * `run` returned one). Requires an observer on the frame's execution.
 * @internal
 */
export function observe<T>(frame: Frame, event: StepEvent, run: () => T | Promise<T>): T | Promise<T> {
  const observer = frame.exec.observer!;
  const parent = frame.entry;
  const handle = observer.enter(event, parent);
  frame.entry = handle;
  let r: T | Promise<T>;
  try {
    r = run();
  } catch (e) {
    frame.entry = parent;
    observer.leave(handle, endOf(e, frame));
    throw e;
  }
  if (r instanceof Promise) {
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
  frame.entry = parent;
  observer.leave(handle, SUCCEEDED);
  return r;
}
