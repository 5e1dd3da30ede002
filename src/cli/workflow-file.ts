/**
 * A workflow file as the command line's runs see it (`run`, the `test` command and the JS API's
 * `runWorkflow`): the workflow ID its executions get from the file name, and its definition compiled with a
 * problem reported as `<file>:<line>:<col>: invalid workflow definition: ...`.
 */
import { basename, extname } from 'node:path';
import type { Definition } from '../lang/definition/ast.ts';
import { compileDefinition } from '../lang/definition/compile.ts';
import type { Compat } from '../lang/compat.ts';
import { DefinitionError } from '../lang/definition/errors.ts';
import { DEFINITION_LIBRARY } from '../stdlib/index.ts';
import { MAX_WORKFLOW_ID_CHARS } from '../service/names.ts';

/**
 * The workflow ID for CLOUD_WORKFLOW_ID and log lines of a run of `file` (docs/cli.md#one-shot-runs: the file name,
 * lowercased): the base name without its extension, lowercased, every character a workflow ID may not hold
 * made `-`, `w` put before a name that does not start with a letter, at most 128 characters. `source` (a
 * workflow given as text) stays `source`.
 */
export function workflowIdOfFile(file: string): string {
  let id = basename(file, extname(file)).toLowerCase().replace(/[^a-z0-9_-]/g, '-');
  if (!/^[a-z]/.test(id)) id = 'w' + id;
  return id.slice(0, MAX_WORKFLOW_ID_CHARS);
}

/**
 * Compiles the workflow `source` read from `file` (`.json` as JSON, `.yaml`/`.yml` as YAML, anything else by
 * its content), as Google's service reads it where the specification differs when `compat` is `google`.
 * @returns the definition, or `error`: `<file>:<line>:<col>: invalid workflow definition: step "check" (line
 *   12, column 9): ...` (line and column when the problem has them); an exception that is not a
 *   DefinitionError is a bug of the emulator and its `error` says so (`<file>: internal error while compiling
 *   ...`) with the stack.
 */
export function compileWorkflowFile(
  file: string,
  source: string,
  compat?: Compat,
): { readonly definition: Definition } | { readonly error: string } {
  const ext = extname(file).toLowerCase();
  const format = ext === '.json' ? 'json' : ext === '.yaml' || ext === '.yml' ? 'yaml' : undefined;
  try {
    return { definition: compileDefinition(source, DEFINITION_LIBRARY, { ...(format ? { format } : {}), ...(compat === 'google' ? { compat } : {}) }) };
  } catch (e) {
    if (!(e instanceof DefinitionError)) {
      // A bug of ours, not of the workflow: say so, never "invalid workflow definition".
      return { error: `${file}: internal error while compiling the workflow definition (a bug in the emulator, not in the workflow): ${(e as Error)?.stack ?? String(e)}` };
    }
    const at = e.line !== undefined ? `:${e.line}${e.col !== undefined ? `:${e.col}` : ''}` : '';
    return { error: `${file}${at}: ${e.message}` };
  }
}
