/**
 * The run-time limits of one execution (spec "Limits") and the errors raised when one is exceeded. Deploy-time
 * limits (assignments per step, switch conditions, expression length, source size) belong to the definition
 * compiler; the engine re-checks the branch count because a definition may be built by hand.
 */
import { WorkflowError } from '../lang/errors.ts';

/** Steps per execution; the next step raises ResourceLimitError (spec "Limits"). */
export const MAX_STEPS = 100_000;
/** Subworkflow call depth below `main` (main is depth 0); deeper raises RecursionError (spec "Limits"). */
export const MAX_CALL_DEPTH = 20;
/** Total size of all live variables, in bytes as `sizeOf` estimates them (spec "Limits": 512 KB). */
export const MAX_MEMORY_BYTES = 512 * 1024;
/** Branches per parallel step (spec "Limits"). */
export const MAX_BRANCHES = 10;
/** Concurrent branches or iterations of one parallel step; also the default `concurrency_limit`. */
export const MAX_CONCURRENCY = 20;
/** Parallel steps nested inside each other, also through subworkflow calls (spec "Limits"). */
export const MAX_PARALLEL_DEPTH = 2;
/** Unhandled branch errors a `continueAll` parallel step collects before it gives up (spec "Limits"). */
export const MAX_BRANCH_ERRORS = 100;

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
