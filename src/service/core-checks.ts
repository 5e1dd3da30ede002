/**
 * Small checks of the service core (core.ts): the createExecution field `debug`, the workflow methods refused
 * while a data directory cannot be written (docs/persistence.md#a-full-disk), and the error of an execution
 * `--resume` cannot run again (docs/persistence.md#executions-running-when-the-emulator-stopped).
 */
import { ApiError } from './errors.ts';
import type { Execution } from './model.ts';
import type { ExecutionRecord } from './executions/execution-store.ts';
import type { WorkflowMethods } from './store/workflow-store.ts';

/** The workflow methods that change state, refused first while the data directory cannot be written. */
export function checkedWrites(m: WorkflowMethods, check: () => void): WorkflowMethods {
  return {
    ...m,
    createWorkflow: (id, input) => (check(), m.createWorkflow(id, input)),
    updateWorkflow: (id, input, mask) => (check(), m.updateWorkflow(id, input, mask)),
    deleteWorkflow: (id) => (check(), m.deleteWorkflow(id)),
  };
}

/**
 * The error of an execution `--resume` cannot run again: its workflow has another revision now
 * (`workflowGone` false), or has been deleted (true).
 */
export function notResumed(ex: ExecutionRecord, workflowGone: boolean): NonNullable<Execution['error']> {
  const why = workflowGone ? `its workflow ${ex.workflowId} has been deleted` : `its revision ${ex.resource.workflowRevisionId} is not the workflow's current one`;
  const message = `the emulator stopped during the run, and it cannot run again: ${why} (docs/persistence.md#executions-running-when-the-emulator-stopped)`;
  return { payload: JSON.stringify({ message, code: 0, tags: ['SystemError'] }), context: '' };
}

/** The createExecution field `debug` (docs/debugging.md): a bool when given. */
export function checkDebug(v: unknown): boolean {
  if (v === undefined || v === null || v === false) return false;
  if (v === true) return true;
  throw ApiError.invalidArgument(`debug must be a bool, not ${JSON.stringify(v)}`);
}
