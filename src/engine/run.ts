/**
 * The engine's entry point (docs/api-resources.md#states-and-transitions): run a compiled definition with an argument to its
 * result or its error. The service, the one-shot `run` command and tests all call {@link runExecution}.
 */
import { WorkflowError } from '../lang/errors.ts';
import type { Definition } from '../lang/definition/ast.ts';
import { sizeOf, type Value, type WMap } from '../lang/value.ts';
import { bindSubworkflowNamed } from './calls.ts';
import { ENGINE } from './interpreter.ts';
import { MAX_MEMORY_BYTES } from '../lang/language-limits.ts';
import { Execution, Frame, Scope } from './scope.ts';
import type { ExecutionDeps } from './types.ts';
import type { CancelSignal } from '../platform/cancellation.ts';

/**
 * Runs one execution of `definition`.
 *
 * `argument` is the decoded execution argument (undefined or null when none was given). When `main` declares
 * its one parameter, the argument is bound to it (null when none was given). When `main` declares no
 * parameter, the argument is ignored: the spec says the argument "must be null or omitted" and leaves the
 * outcome open, and Google's documentation only says that a workflow receives runtime arguments through
 * `main`'s `params` ("Runtime arguments"), describing no error for an argument nobody reads.
 *
 * Resolves to the value `main` returns (null when it ends without `return`). Rejects with a
 * {@link WorkflowError} whose `stepName` names the step where the error was raised (the service reports
 * `error.context` = `step: <stepName>` and `error.payload` = the JSON of `error.value`); a result over the
 * 512 KB variable-memory limit is a ResourceLimitError. When `signal` aborts, rejects with `signal.reason`
 * promptly wherever the execution is (between steps, in sys.sleep, an HTTP request, a retry backoff, a callback
 * wait), and no further step runs.
 *
 * Runs synchronously until a step waits: a workflow that never waits has finished when this returns.
 *
 * With `entry`, the execution starts in that routine instead of `main`, its parameters bound by name from
 * `entry.args` as a `call` step binds them (defaults filled; an unknown or missing one is a TypeError), and
 * `argument` is not read: a test case that unit-tests one subworkflow (docs/testing.md#calling-one-subworkflow).
 * @throws Error (synchronously) when `entry.routine` is not a workflow of the definition; callers check it.
 */
export function runExecution(
  definition: Definition,
  argument: Value | undefined,
  deps: ExecutionDeps,
  signal: CancelSignal,
  entry?: RoutineEntry,
): Promise<Value> {
  if (signal.aborted) return Promise.reject(signal.reason);
  const exec = new Execution(definition, deps, ENGINE);
  const main = entry ? definition.workflows.get(entry.routine) : definition.main;
  if (!main) throw new Error(`no routine named ${JSON.stringify(entry!.routine)} in the definition`);
  const scope = new Scope(undefined, new Frame(exec, signal, 0, 0, main.name, '', undefined));
  let r: Value | Promise<Value>;
  try {
    const args = entry ? bindSubworkflowNamed(main, entry.args) : main.params.length > 0 ? [argument ?? null] : [];
    r = ENGINE.runBody(main, scope, args);
  } catch (e) {
    return Promise.reject(settleError(e, signal, main.name));
  }
  if (r instanceof Promise) {
    return r.then(
      (v) => checkResult(v, main.name),
      (e: unknown) => {
        throw settleError(e, signal, main.name);
      },
    );
  }
  try {
    return Promise.resolve(checkResult(r, main.name));
  } catch (e) {
    return Promise.reject(e);
  }
}

/** Where an execution starts when not in `main`: a routine of the definition and its named parameters. */
export interface RoutineEntry {
  /** The routine's name (a key of `Definition.workflows`). */
  readonly routine: string;
  /** Its parameters by name (none: every parameter takes its default). */
  readonly args?: WMap | undefined;
}

function checkResult(v: Value, stepName: string): Value {
  const bytes = sizeOf(v);
  if (bytes > MAX_MEMORY_BYTES) {
    const e = WorkflowError.of(
      'ResourceLimitError',
      `the result is ${bytes} bytes, over the memory limit of ${MAX_MEMORY_BYTES} bytes (512 KB)`,
    );
    e.stepName = stepName;
    throw e;
  }
  return v;
}

// Cancellation wins over anything else; any other failure becomes a WorkflowError that names a step.
function settleError(e: unknown, signal: CancelSignal, fallbackStep: string): unknown {
  if (signal.aborted) return signal.reason;
  const we = WorkflowError.from(e);
  if (we.stepName === undefined) we.stepName = fallbackStep;
  return we;
}
