/**
 * Call logging (docs/rest-api.md#call-logs; Google's `callLogLevel` on workflows and executions, and the guide "Send logs to
 * Cloud Logging": call logs are EngineCallLog entries, https://github.com/googleapis/googleapis/blob/master/google/cloud/workflows/type/engine_call.proto).
 * Google logs "only explicit call steps ... for example, calls to subworkflows or library functions"; calls
 * from within expressions, within standard-library functions and inside connectors are not logged. So here
 * every `call` step (a subworkflow, any standard-library function, http.*, a connector; the engine's
 * CallStepObserver seam) writes, with `LOG_ALL_CALLS`, a BEGUN line with its named arguments, then a SUCCEEDED
 * line with the response or an EXCEPTION_RAISED line with the exception; with `LOG_ERRORS_ONLY` only the
 * EXCEPTION_RAISED lines. The value of an http.* call's Authorization header is redacted, as Google's is. Each
 * line is one JSON object beside the sys.log lines:
 * `{"time", "severity", "workflowId", "executionId", "jsonPayload": {"@type": ".../EngineCallLog",
 * "executionId", "activityTime", "state", "step", "callee", "begun" | "succeeded" | "exceptionRaised"}}`.
 */
import type { CallStepEvent, CallStepObserver } from '../../engine/hooks.ts';
import { WorkflowError } from '../../lang/errors.ts';
import { toJson } from '../../lang/json.ts';
import type { Value } from '../../lang/value.ts';
import { ApiError } from '../errors.ts';
import { timestamp } from '../names.ts';

/** Google's CallLogLevel names. */
export type CallLogLevel = 'CALL_LOG_LEVEL_UNSPECIFIED' | 'LOG_ALL_CALLS' | 'LOG_ERRORS_ONLY' | 'LOG_NONE';

/** Longest argument, response or exception text in a call log line, in characters (Google truncates too). */
const MAX_CALL_LOG_TEXT = 4096;

/**
 * Checks a `callLogLevel` field of a request; undefined for absent, empty or CALL_LOG_LEVEL_UNSPECIFIED.
 * @throws ApiError INVALID_ARGUMENT for any other value than Google's names.
 */
export function checkCallLogLevel(value: unknown): Exclude<CallLogLevel, 'CALL_LOG_LEVEL_UNSPECIFIED'> | undefined {
  if (value === undefined || value === null || value === '' || value === 'CALL_LOG_LEVEL_UNSPECIFIED') return undefined;
  if (value === 'LOG_ALL_CALLS' || value === 'LOG_ERRORS_ONLY' || value === 'LOG_NONE') return value;
  throw ApiError.invalidArgument(`invalid callLogLevel ${JSON.stringify(value)}: use LOG_ALL_CALLS, LOG_ERRORS_ONLY or LOG_NONE`);
}

/** Who the lines are about, and where they go. */
export interface CallLogTarget {
  readonly workflowId: string;
  readonly executionId: string;
  /** Milliseconds since the epoch (the execution's clock). */
  readonly now: () => number;
  /** One JSON line, without the newline. */
  readonly write: (line: string) => void;
}

function text(v: Value): string {
  let s: string;
  try {
    s = toJson(v);
  } catch {
    s = String(v);
  }
  return s.length > MAX_CALL_LOG_TEXT ? s.slice(0, MAX_CALL_LOG_TEXT) : s;
}

/** What stands in the call log for the value of an http.* call's Authorization header. */
export const REDACTED = 'REDACTED';

/**
 * An http.* call's `headers` argument as logged: an `Authorization` header (any case) has its value replaced by
 * {@link REDACTED} (Google's call logging guide: "HTTP Authorization request headers are redacted from the
 * logs for HTTP calls"). Anything else is returned as is.
 */
function redactHeaders(headers: Value): Value {
  if (!(headers instanceof Map)) return headers;
  let out: Map<string, Value> | undefined;
  for (const k of headers.keys()) {
    if (k.toLowerCase() !== 'authorization') continue;
    out ??= new Map(headers);
    out.set(k, REDACTED);
  }
  return out ?? headers;
}

interface Begun {
  readonly call: CallStepEvent;
  /** The call's start, as Google's `callStartTime` (RFC 3339). */
  readonly startTime: string;
}

/**
 * The call-step observer that writes the call log lines of one execution at `level` (hooks.ts
 * {@link CallStepObserver}): undefined for LOG_NONE and unspecified levels, so the engine does no work.
 * LOG_ALL_CALLS writes BEGUN (with `begun.namedArgs`), then SUCCEEDED (`succeeded.callStartTime`,
 * `succeeded.response`) or EXCEPTION_RAISED; LOG_ERRORS_ONLY only EXCEPTION_RAISED (`exceptionRaised.callStartTime`,
 * `exception`, `origin`: the step where the error was first raised, inside the subworkflow for a subworkflow
 * call). A call ended by the execution's cancellation writes no line.
 */
export function callLogObserver(level: CallLogLevel | undefined, target: CallLogTarget): CallStepObserver<Begun> | undefined {
  if (level !== 'LOG_ALL_CALLS' && level !== 'LOG_ERRORS_ONLY') return undefined;
  const all = level === 'LOG_ALL_CALLS';
  const line = (call: CallStepEvent, state: string, severity: string, time: string, details: Record<string, unknown>): void => {
    const payload = {
      '@type': 'type.googleapis.com/google.cloud.workflows.type.EngineCallLog',
      executionId: target.executionId,
      activityTime: time,
      state,
      step: call.step,
      callee: call.name,
      ...details,
    };
    target.write(
      JSON.stringify({ time, severity, workflowId: target.workflowId, executionId: target.executionId, jsonPayload: payload }),
    );
  };
  return {
    begun(call) {
      const startTime = timestamp(target.now());
      if (all) {
        // Arguments may have any name, `__proto__` included: an ordinary key here too.
        const namedArgs = Object.create(null) as Record<string, unknown>;
        for (const [k, v] of call.args) namedArgs[k] = text(call.kind === 'http' && k === 'headers' ? redactHeaders(v) : v);
        line(call, 'BEGUN', 'INFO', startTime, { begun: { namedArgs } });
      }
      return { call, startTime };
    },
    succeeded({ call, startTime }, result) {
      if (all) line(call, 'SUCCEEDED', 'INFO', timestamp(target.now()), { succeeded: { callStartTime: startTime, response: text(result) } });
    },
    raised({ call, startTime }, error) {
      if (call.signal.aborted) return;
      const we = WorkflowError.from(error);
      line(call, 'EXCEPTION_RAISED', 'ERROR', timestamp(target.now()), {
        exceptionRaised: { callStartTime: startTime, exception: text(we.value), origin: we.stepName ?? call.step },
      });
    },
  };
}
