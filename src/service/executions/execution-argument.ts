/**
 * An execution's `argument` as the API takes it: a string holding JSON, at most 32 KB
 * (https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.workflows.executions#Execution).
 */
import { JsonSyntaxError, parseJson } from '../../lang/json.ts';
import type { Value } from '../../lang/value.ts';
import { ApiError } from '../errors.ts';

/** Largest execution argument, in UTF-8 bytes (docs/rest-api.md; Google's Execution.argument: max 32 KB). */
export const MAX_ARGUMENT_BYTES = 32 * 1024;

/**
 * Reads an execution's `argument` field: its value (null when absent or empty) and the text to record on the
 * resource (undefined when absent or empty).
 * @throws ApiError INVALID_ARGUMENT when it is not a string, is over {@link MAX_ARGUMENT_BYTES} or is not JSON
 */
export function parseExecutionArgument(raw: unknown): { argument: Value; recorded: string | undefined } {
  if (raw === undefined || raw === null || raw === '') return { argument: null, recorded: undefined };
  if (typeof raw !== 'string') throw ApiError.invalidArgument('argument must be a string holding JSON');
  const bytes = Buffer.byteLength(raw, 'utf8');
  if (bytes > MAX_ARGUMENT_BYTES) {
    throw ApiError.invalidArgument(`argument is ${bytes} bytes; the limit is ${MAX_ARGUMENT_BYTES} bytes (32 KB)`);
  }
  try {
    return { argument: parseJson(raw), recorded: raw };
  } catch (e) {
    const why = e instanceof JsonSyntaxError ? e.message : String(e);
    throw ApiError.invalidArgument(`argument is not valid JSON: ${why}`);
  }
}
