/**
 * The one execution runner (docs/architecture.md#layers-and-where-things-are): runs a compiled definition with the engine and settles it
 * into what the execution resource shows at its end (docs/api-resources.md#execution: `result` as JSON text, or `error` with
 * its `payload` and `context`). The service core, the one-shot `run` command (src/cli/run.ts) and the test
 * runner all run executions through it, so the three agree on results, error payloads and sys.log lines.
 */
import type { Definition } from '../../lang/definition/ast.ts';
import { WorkflowError } from '../../lang/errors.ts';
import { toJson } from '../../lang/json.ts';
import type { Value } from '../../lang/value.ts';
import { runExecution, type RoutineEntry } from '../../engine/run.ts';
import type { ExecutionDeps } from '../../engine/types.ts';
import type { LogEntry } from '../../stdlib/types.ts';
import { encodeError } from './error-payload.ts';
import type { CancelSignal } from '../../platform/cancellation.ts';

/** How an execution ended, as its resource shows it (docs/api-resources.md#execution). */
export type ExecutionOutcome =
  | {
      readonly state: 'SUCCEEDED';
      /** The result as JSON text, as `Execution.result`. */
      readonly result: string;
      /** The result itself. */
      readonly value: Value;
    }
  | {
      readonly state: 'FAILED';
      /** As `Execution.error`: the error map as JSON text, and `step: <name>`. */
      readonly error: { readonly payload: string; readonly context: string };
      /** The step that raised it (`main` when none is known). */
      readonly stepName: string;
      /** The error itself (its map is `raised.value`; `raised.stepName` is undefined when no step is known). */
      readonly raised: WorkflowError;
    };

/**
 * Runs one execution to its end and resolves with its outcome; it never rejects.
 *
 * - SUCCEEDED: `result` is the returned value as JSON text (ints exact).
 * - FAILED: `error.payload` is the error map as JSON text (bytes as base64, so it always encodes) and
 *   `error.context` is `step: <name>` of the step that raised it (`main` when none); a result that cannot be
 *   JSON (bytes, NaN) fails the execution with a TypeError, as Google's service does ("Bytes can't be
 *   returned by a workflow").
 *
 * When `signal` aborts (cancellation), the engine stops and the outcome is FAILED with the abort reason as
 * the error; callers that cancelled check `signal.aborted` first and report the cancellation instead.
 *
 * @param deps everything the execution reads and calls: clock, fetch, env, sys.log sink, callback hub and
 *   the hooks (src/engine/hooks.ts `ExecutionHooks`: step observer, call interceptor), passed to the engine
 *   unchanged.
 * @param entry the routine to start in instead of `main`, with its named parameters (a test case's
 *   `routine`: docs/testing.md#calling-one-subworkflow); it must be a routine of `definition`.
 */
export function runToOutcome(
  definition: Definition,
  argument: Value | undefined,
  deps: ExecutionDeps,
  signal: CancelSignal,
  entry?: RoutineEntry,
): Promise<ExecutionOutcome> {
  // Not an async function: one reaction on the run's promise is all a suspended execution holds here, where
  // an await would keep a generator and its registers too (docs/architecture.md#start-up-and-memory-beside-their-floors).
  let run: Promise<Value>;
  try {
    run = runExecution(definition, argument, deps, signal, entry);
  } catch (e) {
    return Promise.resolve(failed(WorkflowError.from(e)));
  }
  return run.then(
    (value) => succeeded(value, entry?.routine ?? definition.main.name),
    (e: unknown) => failed(WorkflowError.from(e)),
  );
}

/** The outcome of a run that returned `value`: FAILED with a TypeError when it cannot be JSON. */
function succeeded(value: Value, stepName: string): ExecutionOutcome {
  try {
    return { state: 'SUCCEEDED', result: toJson(value), value };
  } catch (e) {
    const err = WorkflowError.of('TypeError', `the result cannot be encoded as JSON: ${(e as Error).message}`);
    err.stepName = stepName;
    return failed(err);
  }
}

function failed(err: WorkflowError): ExecutionOutcome {
  const stepName = err.stepName ?? 'main';
  return { state: 'FAILED', error: { payload: encodeError(err.value), context: `step: ${stepName}` }, stepName, raised: err };
}

/**
 * A sys.log entry as one JSON line, as the server prints it on stdout and the one-shot run on stderr:
 * `{"time","severity","workflowId","executionId","textPayload"|"jsonPayload"}` (no trailing newline). A payload
 * that cannot be JSON is printed as its text.
 */
export function logLine(entry: LogEntry, workflowId: string, executionId: string): string {
  let payload: string;
  try {
    payload = toJson(entry.payload);
  } catch {
    payload = JSON.stringify(String(entry.payload));
  }
  return (
    `{"time":${JSON.stringify(entry.time)},"severity":${JSON.stringify(entry.severity)},` +
    `"workflowId":${JSON.stringify(workflowId)},"executionId":${JSON.stringify(executionId)},` +
    `${entry.structured ? '"jsonPayload"' : '"textPayload"'}:${payload}}`
  );
}
