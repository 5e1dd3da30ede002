/**
 * Call logging (issue 12; Google's `callLogLevel` on workflows and executions, and the guide "Send logs to
 * Cloud Logging": call logs are EngineCallLog entries, https://github.com/googleapis/googleapis/blob/master/google/cloud/workflows/type/engine_call.proto).
 * With `LOG_ALL_CALLS` every call the engine makes through its interceptor seam (http.*, connectors and the
 * blocking built-ins such as sys.sleep and events.await_callback) writes a BEGUN line with its named
 * arguments, then a SUCCEEDED line with the response or an EXCEPTION_RAISED line with the exception; with
 * `LOG_ERRORS_ONLY` only the EXCEPTION_RAISED lines. Each line is one JSON object beside the sys.log lines:
 * `{"time", "severity", "workflowId", "executionId", "jsonPayload": {"@type": ".../EngineCallLog",
 * "executionId", "activityTime", "state", "step", "callee", "begun" | "succeeded" | "exceptionRaised"}}`.
 * Calls of subworkflows and of the non-blocking standard library are not call-logged (they never leave the
 * engine; the step history records them).
 */
import type { CallInterceptor, OutboundCall } from '../engine/hooks.ts';
import { WorkflowError } from '../lang/errors.ts';
import { toJson } from '../lang/json.ts';
import type { Value } from '../lang/value.ts';
import { ApiError } from './errors.ts';
import { timestamp } from './names.ts';

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

/**
 * Wraps `inner` (or the real call when there is none) so each call writes its call log lines at `level`.
 * Returns `inner` itself for LOG_NONE and unspecified levels.
 */
export function callLogInterceptor(inner: CallInterceptor | undefined, level: CallLogLevel | undefined, target: CallLogTarget): CallInterceptor | undefined {
  if (level !== 'LOG_ALL_CALLS' && level !== 'LOG_ERRORS_ONLY') return inner;
  const all = level === 'LOG_ALL_CALLS';
  const line = (call: OutboundCall, state: string, severity: string, details: Record<string, unknown>): void => {
    const now = timestamp(target.now());
    const payload = {
      '@type': 'type.googleapis.com/google.cloud.workflows.type.EngineCallLog',
      executionId: target.executionId,
      activityTime: now,
      state,
      step: call.step,
      callee: call.name,
      ...details,
    };
    target.write(
      JSON.stringify({ time: now, severity, workflowId: target.workflowId, executionId: target.executionId, jsonPayload: payload }),
    );
  };
  return {
    intercept(call, proceed) {
      const startTime = timestamp(target.now());
      if (all) {
        // A connector's args may name any key, `__proto__` included: an ordinary key here too.
        const namedArgs = Object.create(null) as Record<string, unknown>;
        for (const [k, v] of call.args) namedArgs[k] = text(v);
        line(call, 'BEGUN', 'INFO', { begun: { namedArgs } });
      }
      const ok = (v: Value): Value => {
        if (all) line(call, 'SUCCEEDED', 'INFO', { succeeded: { callStartTime: startTime, response: text(v) } });
        return v;
      };
      const raised = (e: unknown): never => {
        if (!call.signal.aborted) {
          const exception = text(WorkflowError.from(e).value);
          line(call, 'EXCEPTION_RAISED', 'ERROR', { exceptionRaised: { callStartTime: startTime, exception, origin: call.step } });
        }
        throw e;
      };
      let r: Value | Promise<Value>;
      try {
        r = inner ? inner.intercept(call, proceed) : proceed();
      } catch (e) {
        return raised(e);
      }
      return r instanceof Promise ? r.then(ok, raised) : ok(r);
    },
  };
}
