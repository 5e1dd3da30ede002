/**
 * The JSON text of a workflow error map, as the API shows it in `Execution.error.payload` and
 * `StepEntry.exception.payload` (docs/api-resources.md#execution: error payload). Always encodes: bytes inside the map are
 * shown as base64 text and non-finite doubles as strings.
 */
import { WorkflowError } from '../../lang/errors.ts';
import type { Value } from '../../lang/value.ts';
import { jsonSafe, toJson } from '../../lang/json.ts';

/** The payload of anything thrown inside an execution (coerced with `WorkflowError.from`). */
export function errorPayload(e: unknown): string {
  return encodeError(WorkflowError.from(e).value);
}

/**
 * The error map as JSON text, with any bytes inside shown as base64 text so it always encodes. Never throws:
 * a map that still cannot be written (too large for a string of the platform) is replaced by a SystemError
 * map saying so, so an execution always ends with an error the API can show.
 */
export function encodeError(v: Value): string {
  try {
    return toJson(v);
  } catch {
    try {
      return toJson(jsonSafe(v));
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      return toJson(WorkflowError.of('SystemError', `the error could not be encoded as JSON: ${why}`).value);
    }
  }
}
