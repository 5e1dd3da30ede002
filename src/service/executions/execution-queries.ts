/**
 * The read-only execution methods of the service core (core.ts): an execution's resource, the list per
 * workflow, its callbacks (docs/callbacks.md), sys.log entries, step entries (docs/rest-api.md#step-history),
 * outbound calls, recording (docs/recording.md) and parent. Each finds the execution in the core's
 * {@link ExecutionStore} and changes nothing; the core starts, ends and cancels executions itself.
 */
import { INNER_STEP_TYPES } from '../../engine/hooks.ts';
import type { CallbackRegistry } from '../callbacks/callback-registry.ts';
import { EMPTY_HISTORY } from '../history/settled-history.ts';
import { getStepEntry, listStepEntries, stepEntryOutlines } from '../history/step-entries.ts';
import type { Execution, ServiceCore } from '../model.ts';
import { activeView } from './execution-view.ts';
import type { ExecutionStore } from './execution-store.ts';
import type { LogRecord } from './log-sink.ts';

/** The {@link ServiceCore} methods that read executions; each throws {@link ApiError} NOT_FOUND for an unknown one. */
export type ExecutionQueries = Pick<
  ServiceCore,
  | 'getExecution'
  | 'listExecutions'
  | 'listCallbacks'
  | 'executionLogs'
  | 'listStepEntries'
  | 'stepEntryOutlines'
  | 'getStepEntry'
  | 'executionCalls'
  | 'executionParent'
  | 'executionRecording'
>;

/** What the queries read: the core's executions, callbacks and kept sys.log entries. */
export interface QueriedState {
  readonly executions: ExecutionStore;
  readonly callbacks: CallbackRegistry;
  readonly logRecord: LogRecord;
}

/**
 * The read-only execution methods over `state`, as {@link ServiceCore} describes them. An ACTIVE execution
 * shows its step count so far (execution-view.ts); lists are newest first.
 */
export function executionQueries({ executions, callbacks, logRecord }: QueriedState): ExecutionQueries {
  return {
    getExecution: (workflowId, executionId) => {
      const ex = executions.find(workflowId, executionId);
      return activeView(ex.resource, ex.recording);
    },
    listExecutions: (workflowId) => {
      const out: Execution[] = [];
      for (const ex of executions.list(workflowId)) out.push(activeView(ex.resource, ex.recording));
      return out.reverse();
    },
    listCallbacks: (workflowId, executionId) => callbacks.list(executions.find(workflowId, executionId).name),
    executionLogs: (workflowId, executionId) => logRecord.read(executions.find(workflowId, executionId)).entries,
    listStepEntries: (workflowId, executionId, request) => {
      const ex = executions.find(workflowId, executionId);
      return listStepEntries(ex.history ?? EMPTY_HISTORY, ex.name, request);
    },
    stepEntryOutlines: (workflowId, executionId) => stepEntryOutlines(executions.find(workflowId, executionId).history ?? EMPTY_HISTORY),
    getStepEntry: (workflowId, executionId, entryId, view) => {
      const ex = executions.find(workflowId, executionId);
      return getStepEntry(ex.history ?? EMPTY_HISTORY, ex.name, entryId, view);
    },
    executionCalls: (workflowId, executionId) => executions.find(workflowId, executionId).calls?.records.slice() ?? [],
    executionParent: (workflowId, executionId) => executions.find(workflowId, executionId).parent,
    executionRecording: (workflowId, executionId) => {
      const ex = executions.find(workflowId, executionId);
      // The main thread's steps: parallel branches interleave differently from one run to the next.
      const steps = ex.history
        ?.entries()
        .filter((e) => e.threadId === '' && !INNER_STEP_TYPES.has(e.stepType))
        .map((e) => e.step);
      return { execution: ex.resource, calls: ex.calls?.records ?? [], steps, inputs: ex.inputs };
    },
  };
}
