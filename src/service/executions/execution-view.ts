/**
 * The fields of the Execution resource that come from its step history and its times (docs/rest-api.md#step-history; Google's
 * Execution resource, https://cloud.google.com/workflows/docs/reference/executions/rest/v1/projects.locations.workflows.executions):
 * `duration`, `status.currentSteps` and `error.stackTrace`, and which history level an execution records.
 */
import { ApiError } from '../errors.ts';
import { timestamp } from '../names.ts';
import type { Execution, StackTraceElement } from '../model.ts';
import type { ExecutionHistoryLevel, StepHistory } from '../history/step-history.ts';

/**
 * Checks an `executionHistoryLevel` field of a request; returns undefined for absent, empty or UNSPECIFIED.
 * @throws ApiError INVALID_ARGUMENT for any other value.
 */
export function checkHistoryLevel(value: unknown): Exclude<ExecutionHistoryLevel, 'EXECUTION_HISTORY_LEVEL_UNSPECIFIED'> | undefined {
  if (value === undefined || value === null || value === '' || value === 'EXECUTION_HISTORY_LEVEL_UNSPECIFIED') return undefined;
  if (value === 'EXECUTION_HISTORY_BASIC' || value === 'EXECUTION_HISTORY_DETAILED') return value;
  throw ApiError.invalidArgument(
    `invalid executionHistoryLevel ${JSON.stringify(value)}: use EXECUTION_HISTORY_BASIC or EXECUTION_HISTORY_DETAILED`,
  );
}

/**
 * The history an execution records: the execution's level if set, else the workflow's, else the service's
 * default (`basic` unless turned off or raised with --history).
 */
export function historyLevelOf(
  workflowLevel: ExecutionHistoryLevel | undefined,
  executionLevel: ExecutionHistoryLevel | undefined,
  defaultLevel: 'none' | 'basic' | 'detailed',
): 'none' | 'basic' | 'detailed' {
  const level = executionLevel ?? workflowLevel;
  if (level === 'EXECUTION_HISTORY_DETAILED') return 'detailed';
  if (level === 'EXECUTION_HISTORY_BASIC') return 'basic';
  return defaultLevel;
}

/**
 * A duration of `ms` whole milliseconds in Google's JSON form, the proto3 JSON mapping of
 * google.protobuf.Duration: seconds, then 0, 3, 6 or 9 fractional digits as the precision needs (3 for
 * milliseconds), and an `s` (`"1.250s"`, `"0.004s"`, `"2s"`).
 */
function durationText(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  const frac = ms - seconds * 1000;
  return frac === 0 ? `${seconds}s` : `${seconds}.${String(frac).padStart(3, '0')}s`;
}

/**
 * Google's Execution.Error.stackTrace elements, innermost first: the step where the error was raised, then
 * each subworkflow call it propagated through. `position` is where the step is written: 1-based line and
 * column of its name, and `length` the name's length in bytes. int64 fields are decimal strings.
 */
function stackTraceOf(history: StepHistory): StackTraceElement[] {
  return history.failurePath().map((e) => ({
    step: e.step,
    routine: e.routine,
    position: { line: String(e.pos.line), column: String(e.pos.col), length: String(Buffer.byteLength(e.step)) },
  }));
}

/**
 * The terminal resource of the ACTIVE `active`, frozen: its fields with `state` and `fields` (result or error),
 * `endTime` and `duration` from the clock readings `startMs` and `endMs` (milliseconds), and from the history
 * (when one was recorded) `status.currentSteps` (the last step entered) and, on FAILED, `error.stackTrace`.
 */
export function executionView(
  active: Execution,
  state: Exclude<Execution['state'], 'ACTIVE'>,
  fields: { readonly result?: string; readonly error?: Execution['error'] },
  startMs: number,
  endMs: number,
  history: StepHistory | undefined,
): Execution {
  const end = Math.trunc(endMs);
  let error = fields.error;
  if (error && history) {
    const elements = stackTraceOf(history);
    if (elements.length) error = { ...error, stackTrace: { elements } };
  }
  // Fields in the order the resource has always been written in.
  const out: { -readonly [K in keyof Execution]?: Execution[K] } = { name: active.name, state };
  if (active.argument !== undefined) out.argument = active.argument;
  if (fields.result !== undefined) out.result = fields.result;
  if (error !== undefined) out.error = error;
  out.startTime = active.startTime;
  out.createTime = active.createTime;
  out.endTime = timestamp(end);
  out.workflowRevisionId = active.workflowRevisionId;
  if (active.executionHistoryLevel !== undefined) out.executionHistoryLevel = active.executionHistoryLevel;
  if (active.labels !== undefined) out.labels = active.labels;
  if (active.callLogLevel !== undefined) out.callLogLevel = active.callLogLevel;
  out.duration = durationText(Math.max(0, end - startMs));
  if (history) {
    const currentSteps = history.currentSteps();
    if (currentSteps.length) out.status = { currentSteps };
  }
  return Object.freeze(out as Execution);
}

/**
 * The resource of an execution just created (ACTIVE), frozen; optional fields are left out when undefined.
 * Built field by field (no object spreads: this is on the path of every execution, docs/architecture.md).
 */
export function activeExecution(
  name: string,
  argument: string | undefined,
  startMs: number,
  workflowRevisionId: string,
  executionHistoryLevel: Execution['executionHistoryLevel'],
  labels: Execution['labels'],
  callLogLevel: Execution['callLogLevel'],
): Execution {
  const out: { -readonly [K in keyof Execution]?: Execution[K] } = { name, state: 'ACTIVE' };
  if (argument !== undefined) out.argument = argument;
  out.startTime = timestamp(startMs);
  out.createTime = out.startTime;
  out.workflowRevisionId = workflowRevisionId;
  if (executionHistoryLevel) out.executionHistoryLevel = executionHistoryLevel;
  if (labels) out.labels = labels;
  if (callLogLevel) out.callLogLevel = callLogLevel;
  return Object.freeze(out as Execution);
}

/** An ACTIVE execution as read now: `status.currentSteps` from the history (one per running parallel branch). */
export function activeView(resource: Execution, history: StepHistory | undefined): Execution {
  if (!history || resource.state !== 'ACTIVE') return resource;
  const currentSteps = history.currentSteps();
  return currentSteps.length ? { ...resource, status: { currentSteps } } : resource;
}
