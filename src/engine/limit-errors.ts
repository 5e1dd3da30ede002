/**
 * The errors raised when an execution exceeds a run-time limit (docs/api-resources.md#limits; the numbers are in
 * src/lang/language-limits.ts).
 */
import { WorkflowError } from '../lang/errors.ts';
import { MAX_CALL_DEPTH, MAX_MEMORY_BYTES, MAX_STEPS } from '../lang/language-limits.ts';

/** ResourceLimitError for the step limit. @internal */
export function stepLimitError(): WorkflowError {
  return WorkflowError.of('ResourceLimitError', `execution exceeded the limit of ${MAX_STEPS} steps`);
}

/** ResourceLimitError for the variable-memory limit. @internal */
export function memoryLimitError(bytes: number): WorkflowError {
  return WorkflowError.of(
    'ResourceLimitError',
    `variables use ${bytes} bytes, over the memory limit of ${MAX_MEMORY_BYTES} bytes (512 KB)`,
  );
}

/** RecursionError for a call stack deeper than {@link MAX_CALL_DEPTH}. @internal */
export function recursionError(name: string): WorkflowError {
  return WorkflowError.of(
    'RecursionError',
    `calling '${name}' exceeds the maximum call stack depth of ${MAX_CALL_DEPTH} subworkflow calls`,
  );
}
