/**
 * The line the emulator prints on stderr when an execution ends (docs/cli.md#failures-on-the-terminal): always for FAILED,
 * for every end with --verbose. One line, so a terminal or CI log shows at a glance what failed and where:
 *
 *   workflows-emulator: execution FAILED: workflow order-saga, execution 1b2c...: KeyError: key not found: sku (order-saga.yaml:12:9, step "lookup" in "main")
 *   workflows-emulator: execution SUCCEEDED: workflow hello, execution 9f0e... (0.012s)
 */
import type { Execution } from '../model.ts';

/**
 * The end line of `execution` (terminal state). `file` is the path of the workflow's file when it was
 * deployed from the watched directory; the position comes from the innermost element of error.stackTrace.
 */
export function executionEndLine(workflowId: string, execution: Execution, file?: string): string {
  const executionId = execution.name.slice(execution.name.lastIndexOf('/') + 1);
  let line = `workflows-emulator: execution ${execution.state}: workflow ${workflowId}, execution ${executionId}`;
  if (execution.state === 'FAILED' && execution.error) {
    line += `: ${describeError(execution.error.payload)}`;
    const top = execution.error.stackTrace?.elements[0];
    if (top) {
      const where = `${top.position.line}:${top.position.column}`;
      line += ` (${file ? `${file}:${where}` : `line ${where}`}, step "${top.step}" in "${top.routine}")`;
    } else line += ` (${execution.error.context})`;
  } else if (execution.duration !== undefined) line += ` (${execution.duration})`;
  return line;
}

/** `Tag: message` from an error payload's JSON (the first tag; the payload itself when it is not a map). */
function describeError(payload: string): string {
  let value: unknown;
  try {
    value = JSON.parse(payload);
  } catch {
    return payload;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return payload;
  const map = value as { tags?: unknown; message?: unknown };
  const tag = Array.isArray(map.tags) && typeof map.tags[0] === 'string' ? map.tags[0] : undefined;
  const message = typeof map.message === 'string' ? map.message : payload;
  return tag ? `${tag}: ${message}` : message;
}
