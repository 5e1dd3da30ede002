/**
 * The JSON text of a workflow error map, as the API shows it in `Execution.error.payload` and
 * `StepEntry.exception.payload` (spec "Execution": error payload). Always encodes: bytes inside the map are
 * shown as base64 text and non-finite doubles as strings.
 */
import { WorkflowError } from '../lang/errors.ts';
import type { Value } from '../lang/value.ts';
import { toJson } from '../lang/json.ts';

/** The payload of anything thrown inside an execution (coerced with `WorkflowError.from`). */
export function errorPayload(e: unknown): string {
  return encodeError(WorkflowError.from(e).value);
}

/** The error map as JSON text, with any bytes inside shown as base64 text so it always encodes. */
export function encodeError(v: Value): string {
  try {
    return toJson(v);
  } catch {
    return toJson(jsonSafe(v));
  }
}

function jsonSafe(v: Value): Value {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v instanceof Map) {
    const m = new Map<string, Value>();
    for (const [k, e] of v) m.set(k, jsonSafe(e));
    return m;
  }
  return v;
}
