/**
 * Conversion between the service core's resources (src/service/model.ts) and the published protobuf messages
 * of google.cloud.workflows.v1 and google.cloud.workflows.executions.v1 (gen/), for the gRPC API and Google's
 * REST transport (docs/grpc.md#the-grpc-api and docs/api-resources.md#resources-and-their-fields). Field meanings follow Google's API reference
 * (https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.workflows,
 * https://cloud.google.com/workflows/docs/reference/executions/rest/v1/projects.locations.workflows.executions).
 * Pure functions; every miss throws {@link ApiError}.
 */
import { create } from '@bufbuild/protobuf';
import type { Timestamp, Duration } from '@bufbuild/protobuf/wkt';
import { TimestampSchema, DurationSchema } from '@bufbuild/protobuf/wkt';
import {
  ExecutionHistoryLevel,
  Workflow_CallLogLevel,
  WorkflowSchema,
  Workflow_State,
  type Workflow as WorkflowMessage,
} from '../../gen/google/cloud/workflows/v1/workflows_pb.ts';
import {
  ExecutionSchema,
  Execution_CallLogLevel,
  Execution_ErrorSchema,
  Execution_StatusSchema,
  Execution_State,
  ExecutionView,
  type Execution as ExecutionMessage,
} from '../../gen/google/cloud/workflows/executions/v1/executions_pb.ts';
import type { Execution, ExecutionState, Workflow } from '../service/model.ts';
import { ApiError } from '../service/errors.ts';

const EXECUTION_STATES: Readonly<Record<ExecutionState, Execution_State>> = {
  ACTIVE: Execution_State.ACTIVE,
  SUCCEEDED: Execution_State.SUCCEEDED,
  FAILED: Execution_State.FAILED,
  CANCELLED: Execution_State.CANCELLED,
};

/**
 * An RFC 3339 timestamp (`2026-11-21T07:10:44.123456Z`, any offset, up to nanosecond fractions) as a
 * google.protobuf.Timestamp, keeping every fractional digit. Throws INVALID_ARGUMENT on text that is not a
 * timestamp (the core never produces one).
 */
export function timestampFromRfc3339(text: string): Timestamp {
  const m = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)$/i.exec(text);
  const wholeMs = m ? Date.parse(`${m[1]}${m[3]}`) : NaN;
  if (!m || Number.isNaN(wholeMs)) throw ApiError.invalidArgument(`invalid timestamp: ${text}`);
  const nanos = m[2] ? Number(m[2].padEnd(9, '0')) : 0;
  return create(TimestampSchema, { seconds: BigInt(Math.floor(wholeMs / 1000)), nanos });
}

/** The protobuf Timestamp for `date` (millisecond precision). */
export function timestampFromDate(date: Date): Timestamp {
  const ms = date.getTime();
  return create(TimestampSchema, { seconds: BigInt(Math.floor(ms / 1000)), nanos: (((ms % 1000) + 1000) % 1000) * 1e6 });
}

/** `end - start` as a google.protobuf.Duration (normalized: seconds and nanos share a sign). */
function durationBetween(start: Timestamp, end: Timestamp): Duration {
  const total = (end.seconds - start.seconds) * 1_000_000_000n + BigInt(end.nanos - start.nanos);
  return create(DurationSchema, { seconds: total / 1_000_000_000n, nanos: Number(total % 1_000_000_000n) });
}

/**
 * A workflow resource as a google.cloud.workflows.v1.Workflow message: name, description, state (ACTIVE),
 * revision_id, create_time, update_time, source_contents. Fields the emulator does not keep (labels,
 * service account, KMS keys, call log level, user env vars, revision_create_time) stay unset.
 */
export function workflowToMessage(workflow: Workflow): WorkflowMessage {
  return create(WorkflowSchema, {
    name: workflow.name,
    description: workflow.description,
    state: Workflow_State.ACTIVE,
    revisionId: workflow.revisionId,
    createTime: timestampFromRfc3339(workflow.createTime),
    updateTime: timestampFromRfc3339(workflow.updateTime),
    ...(workflow.revisionCreateTime ? { revisionCreateTime: timestampFromRfc3339(workflow.revisionCreateTime) } : {}),
    sourceCode: { case: 'sourceContents', value: workflow.sourceContents },
    executionHistoryLevel: ExecutionHistoryLevel[workflow.executionHistoryLevel ?? 'EXECUTION_HISTORY_LEVEL_UNSPECIFIED'],
    callLogLevel: Workflow_CallLogLevel[workflow.callLogLevel ?? 'CALL_LOG_LEVEL_UNSPECIFIED'],
    labels: { ...workflow.labels },
    userEnvVars: { ...workflow.userEnvVars },
    serviceAccount: workflow.serviceAccount ?? '',
    cryptoKeyName: workflow.cryptoKeyName ?? '',
  });
}

/**
 * The workflow settings of a Workflow message, as the service core takes them (workflow-settings.ts checks
 * them): every one, empty ones included, so an update without a mask replaces them all.
 */
export function workflowSettingsOf(message: WorkflowMessage): Record<string, unknown> {
  return {
    labels: message.labels,
    userEnvVars: message.userEnvVars,
    serviceAccount: message.serviceAccount,
    cryptoKeyName: message.cryptoKeyName,
  };
}

/**
 * An execution resource as a google.cloud.workflows.executions.v1.Execution message. `view` BASIC keeps only
 * name, start/end time, duration, state and workflow_revision_id (as Google's ExecutionView says); FULL and
 * UNSPECIFIED add argument, result, error (payload, context, stack_trace) and status (current_steps; docs/rest-api.md#step-history).
 * `duration` is set once the execution ended.
 */
export function executionToMessage(execution: Execution, view: ExecutionView = ExecutionView.FULL): ExecutionMessage {
  const startTime = timestampFromRfc3339(execution.startTime);
  const endTime = execution.endTime === undefined ? undefined : timestampFromRfc3339(execution.endTime);
  const message = create(ExecutionSchema, {
    name: execution.name,
    state: EXECUTION_STATES[execution.state],
    startTime,
    endTime,
    duration: endTime && durationBetween(startTime, endTime),
    workflowRevisionId: execution.workflowRevisionId,
    labels: { ...execution.labels },
  });
  if (view === ExecutionView.BASIC) return message;
  message.argument = execution.argument ?? '';
  message.callLogLevel = Execution_CallLogLevel[execution.callLogLevel ?? 'CALL_LOG_LEVEL_UNSPECIFIED'];
  message.result = execution.result ?? '';
  if (execution.error) {
    const elements = execution.error.stackTrace?.elements ?? [];
    message.error = create(Execution_ErrorSchema, {
      payload: execution.error.payload,
      context: execution.error.context,
      ...(elements.length
        ? {
            stackTrace: {
              elements: elements.map((e) => ({
                step: e.step,
                routine: e.routine,
                position: { line: BigInt(e.position.line), column: BigInt(e.position.column), length: BigInt(e.position.length) },
              })),
            },
          }
        : {}),
    });
  }
  if (execution.status) {
    message.status = create(Execution_StatusSchema, {
      currentSteps: execution.status.currentSteps.map((c) => ({ routine: c.routine, step: c.step })),
    });
  }
  return message;
}

/**
 * The resource's field names (`sourceContents`, `description`) for an update mask of Workflow proto field
 * paths (`source_contents`, `description`; the JSON names are accepted too), for
 * {@link ServiceCore.updateWorkflow}, which rejects fields it cannot update (`labels`, ...) with
 * INVALID_ARGUMENT. Throws INVALID_ARGUMENT for a path that names no Workflow field.
 */
export function workflowUpdateMask(paths: readonly string[]): string[] {
  return paths.map((path) => {
    const field = WorkflowSchema.fields.find((f) => f.name === path || f.jsonName === path);
    if (!field) throw ApiError.invalidArgument(`update_mask: unknown field '${path}' of Workflow`);
    return field.jsonName;
  });
}
