/**
 * The engine's seams for what watches and steers an execution (docs/architecture.md#layers-and-where-things-are): an
 * observer of step events (step history, current steps and stack traces build on it, docs/rest-api.md#step-history), an
 * interceptor around every outbound call (mocks and recorded calls build on it, docs/mocks-and-clock.md), an observer of
 * `call` steps' calls with their arguments and results (call logging builds on it, docs/rest-api.md#call-logs), and the clock
 * (already injected through {@link ExecutionDeps.clock}; the virtual clock, docs/mocks-and-clock.md#virtual-clock, is one).
 *
 * Hooks are optional. With none attached the engine does no extra work per step (no event objects, no
 * handles): the hot path checks one field for `undefined`.
 *
 * Event model. Every unit Google's step history records is one *entry*: entered once, left once, in
 * nesting order (an entry is left only after every entry entered inside it has been left). The engine
 * passes the handle of the enclosing entry as `parent`: undefined for the steps of `main`'s own list, which no
 * entry encloses; the STEP_PARALLEL_BRANCH_ENTRY for the steps of a parallel branch or iteration (its thread's
 * root); the calling step's entry for a subworkflow's steps. Entry kinds, with Google's
 * `stepType` names (REST reference `projects.locations.workflows.executions.stepEntries`):
 * - a step: STEP_ASSIGN, STEP_STD_LIB_CALL, STEP_CONNECTOR_CALL, STEP_SUBWORKFLOW_CALL, STEP_CALL (a call
 *   of anything else), STEP_SWITCH, STEP_FOR, STEP_PARALLEL_FOR, STEP_PARALLEL_BRANCH (a `parallel`
 *   step with `branches`), STEP_TRY (a `try` step without `retry`), STEP_TRY_RETRY_EXCEPT (a `try` step
 *   with `retry`), STEP_RAISE, STEP_RETURN, STEP_GOTO (a step with only `next`), STEP_TYPE_UNSPECIFIED (a
 *   nested `steps:` block, for which Google's enum has no name);
 * - inside a step: STEP_CONDITION (the switch condition that matched), STEP_FOR_ITERATION (one iteration,
 *   `iteration` 1-based), STEP_PARALLEL_BRANCH_ENTRY (one branch or parallel iteration, `threadId` set),
 *   STEP_RETRY (each retry attempt after the first, `retryAttempt` 1-based), STEP_EXCEPT (the except
 *   block).
 */
import type { SourcePos } from '../lang/definition/ast.ts';
import type { Value, WMap } from '../lang/value.ts';
import type { CancelSignal } from '../platform/cancellation.ts';

/**
 * Google's `StepEntry.stepType` names, in the enum's order (REST reference, enum StepType:
 * https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.workflows.executions.stepEntries#steptype).
 * The one list of them: the engine's events, the API's stepEntries filter and the test command read it.
 */
export const STEP_TYPES = [
  'STEP_TYPE_UNSPECIFIED',
  'STEP_ASSIGN',
  'STEP_STD_LIB_CALL',
  'STEP_CONNECTOR_CALL',
  'STEP_SUBWORKFLOW_CALL',
  'STEP_CALL',
  'STEP_SWITCH',
  'STEP_CONDITION',
  'STEP_FOR',
  'STEP_FOR_ITERATION',
  'STEP_PARALLEL_FOR',
  'STEP_PARALLEL_BRANCH',
  'STEP_PARALLEL_BRANCH_ENTRY',
  'STEP_TRY_RETRY_EXCEPT',
  'STEP_TRY',
  'STEP_RETRY',
  'STEP_EXCEPT',
  'STEP_RETURN',
  'STEP_RAISE',
  'STEP_GOTO',
] as const;

/** One of {@link STEP_TYPES}. */
export type StepType = (typeof STEP_TYPES)[number];

/**
 * The entry kinds that run inside a step rather than being one (a matched condition, an iteration, a branch,
 * a retry attempt, an except block; see the module header).
 */
export const INNER_STEP_TYPES: ReadonlySet<StepType> = new Set<StepType>([
  'STEP_CONDITION',
  'STEP_FOR_ITERATION',
  'STEP_PARALLEL_BRANCH_ENTRY',
  'STEP_RETRY',
  'STEP_EXCEPT',
]);

/** One entry as it begins. Built only when an observer is attached. */
export interface StepEvent {
  /** The workflow the entry runs in: `main` or a subworkflow's name (Google's `routine`). */
  readonly routine: string;
  /** The step's name (for inner entries, the name of the step they belong to). */
  readonly step: string;
  readonly stepType: StepType;
  /** Where the step is written in the source (1-based line and column of its name). */
  readonly pos: SourcePos;
  /**
   * The parallel thread the entry runs on: '' for the main thread; for a parallel branch or iteration, its
   * parent thread's id, a '.' when not empty, and its own 1-based number (`'2'`, `'2.3'`).
   */
  readonly threadId: string;
  /** Subworkflow call depth: 0 in `main`. */
  readonly callDepth: number;
  /** STEP_FOR_ITERATION and STEP_PARALLEL_BRANCH_ENTRY of a parallel for: the 1-based iteration number. */
  readonly iteration?: number | undefined;
  /**
   * STEP_FOR / STEP_PARALLEL_FOR and their iterations' entries: how many iterations the loop will run
   * (Google's "expected iteration"). On the loop's own event it is set once its list or range has been
   * evaluated, before the first iteration is entered: read it then or at leave time, not at enter.
   */
  readonly expectedIterations?: number | undefined;
  /** STEP_RETRY: the 1-based retry attempt (1 = the first retry, the second try overall). */
  readonly retryAttempt?: number | undefined;
  /** STEP_PARALLEL_BRANCH_ENTRY of `branches`: the branch's name. */
  readonly branch?: string | undefined;
  /**
   * The variables visible where the entry runs, read when called (so at leave time they show the values the
   * step left). Costly: call it only for detailed history.
   */
  variables(): ReadonlyMap<string, Value>;
}

/** How an entry ended. `error` is the WorkflowError (or cancellation reason) for 'failed' and 'cancelled'. */
export interface StepEnd {
  readonly state: 'succeeded' | 'failed' | 'cancelled';
  readonly error?: unknown;
}

/**
 * Watches step entries. `enter` returns the handle the engine passes back to `leave` and, as `parent`, to
 * the entries nested in it. Both are called synchronously on the engine's path: they must not throw and
 * must be cheap (record, do not format).
 */
export interface StepObserver<H = unknown> {
  enter(event: StepEvent, parent: H | undefined): H;
  leave(handle: H, end: StepEnd): void;
}

/** What the engine is about to call. */
export interface OutboundCall {
  /**
   * `http`: an http.* function; `connector`: a `googleapis.*` name (or another namespace the emulator does
   * not implement itself); `stdlib`: any other blocking built-in (sys.sleep, events.await_callback, ...).
   */
  readonly kind: 'http' | 'connector' | 'stdlib';
  /** The dotted name as written: `http.post`, `googleapis.bigquery.v2.jobs.query`. */
  readonly name: string;
  /**
   * The arguments by name (a `call` step's `args` as evaluated; for an expression call the positional
   * arguments bound to the function's parameter names, or `arg0`, `arg1`, ... for an unknown function).
   */
  readonly args: WMap;
  /** The step that makes the call. */
  readonly routine: string;
  readonly step: string;
  /** The parallel thread, as in {@link StepEvent.threadId}. */
  readonly threadId: string;
  /** Aborted when the execution is cancelled. */
  readonly signal: CancelSignal;
}

/**
 * Around every outbound call (http.*, connectors, and blocking built-ins): returns the call's result, by
 * calling `proceed()` (the real call; for a connector, the emulator's own implementation or its "not
 * emulated" error) or instead of it. A WorkflowError thrown (or a rejected promise) is what the workflow
 * sees, exactly as if the call had raised it.
 */
export interface CallInterceptor {
  intercept(call: OutboundCall, proceed: () => Value | Promise<Value>): Value | Promise<Value>;
}

/**
 * A `call` step's call as it begins: what {@link CallStepObserver.begun} receives. `routine`, `step` (the
 * `call` step), `threadId` and `signal` as in {@link OutboundCall}.
 */
export interface CallStepEvent extends Pick<OutboundCall, 'routine' | 'step' | 'threadId' | 'signal'> {
  /**
   * `subworkflow`: a subworkflow of the definition; `http`: an http.* function; `stdlib`: any other
   * standard-library function (pure or blocking); `connector`: a `googleapis.*` name (or another namespace
   * the emulator does not implement itself).
   */
  readonly kind: 'subworkflow' | 'http' | 'stdlib' | 'connector';
  /** The callee as written in `call:`: `sub_total`, `text.split`, `http.get`, `googleapis.bigquery.v2.jobs.query`. */
  readonly name: string;
  /** The step's `args` as evaluated, by name (empty when the step has none); defaults are not filled in. */
  readonly args: WMap;
}

/**
 * Watches the calls of `call` steps, of every target: subworkflows, standard-library functions, http.* and
 * connectors (Google's call logging, "Send logs to Cloud Logging": only explicit call steps are logged; calls
 * made inside expressions, inside standard-library functions and inside connectors are not, and do not reach
 * this hook). `begun` runs after the step's `args` are evaluated and before the callee is bound and run; its
 * handle comes back to exactly one of `succeeded` (with the call's result, before `result` is assigned) or
 * `raised` (with what the call threw: a WorkflowError, or the cancellation reason). Calls nest: a
 * subworkflow's own call steps begin and end between its `begun` and its end. All three are called
 * synchronously on the engine's path and must not throw. With none attached a call step costs one field check.
 */
export interface CallStepObserver<H = unknown> {
  begun(call: CallStepEvent): H;
  succeeded(handle: H, result: Value): void;
  raised(handle: H, error: unknown): void;
}

/**
 * A step about to run, as a debugger's {@link StepGate} sees it: its {@link StepEvent} plus the scope it runs
 * in, which a paused debugger reads, changes and evaluates in (docs/debugging.md).
 */
export interface GatedStep extends StepEvent {
  /** Aborted when the execution is cancelled: a pause must end then. */
  readonly signal: CancelSignal;
  /**
   * The variables of each scope from the step's own outwards (an except block's or loop's scope, then the
   * routine's root scope); a parallel branch sees its parent routine's scopes after its own.
   */
  scopes(): readonly ReadonlyMap<string, Value>[];
  /**
   * Assigns a variable as an assign step here would (an existing variable where it lives, else a new one here).
   * @throws WorkflowError tagged ResourceLimitError when variable memory would go over 512 KB.
   */
  setVariable(name: string, value: Value): void;
  /**
   * Evaluates the text of a workflow expression (without `${}`) in the step's scope, refusing side effects:
   * a call of `http.*`, a connector, a subworkflow or any function that waits or writes (sys.log) is not made.
   * @throws WorkflowError (as the expression raises it: KeyError, TypeError...), tagged ValueError for a
   *   syntax error or a refused call, whose message says so.
   */
  evaluate(text: string): Value | Promise<Value>;
}

/**
 * Where a debugger holds an execution (docs/debugging.md): `before` is called as each step entry of a step
 * (not the inner entries) begins, after the observer's `enter` (so `entry` is that step's own handle), and the
 * step runs when the returned promise resolves (at once when it returns nothing). `raised` is called once per
 * error, at the step that first raised it, before the error travels on; a returned promise holds it there.
 * Both must not throw. Only used together with a step observer, whose handles `entry` are.
 */
export interface StepGate {
  before(step: GatedStep, entry: unknown): void | Promise<void>;
  raised(step: GatedStep, entry: unknown, error: unknown): void | Promise<void>;
}

/** The optional hooks of one execution (see the module header). */
export interface ExecutionHooks {
  readonly observer?: StepObserver | undefined;
  readonly interceptor?: CallInterceptor | undefined;
  readonly callSteps?: CallStepObserver | undefined;
  /** A debugger's gate (requires `observer`; ignored without one). */
  readonly gate?: StepGate | undefined;
}
