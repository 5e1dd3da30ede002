/**
 * The one error a workflow definition can fail with at deploy time (docs/api-resources.md#errors: "invalid workflow
 * definition", a 400; docs/api-resources.md#limits: the limits checked before the run). It names the step, the `line:col` of the
 * source and the problem, so that the service's 400 message points the author at the exact place.
 */
import type { SourcePos } from './ast.ts';

/**
 * A workflow definition that cannot be deployed: a YAML or JSON syntax error, an unknown or conflicting
 * field, a bad jump, an unknown function, a broken expression, or a limit exceeded.
 *
 * The message reads `invalid workflow definition: step "check" (line 12, column 9): unknown field 'nxt'`;
 * outside any step it reads `invalid workflow definition: line 3, column 1: YAML syntax error: ...`, and the
 * position is left out when there is none (a source over 128 KB). `reason` is the problem alone (`unknown field 'nxt'`). Lines and columns are 1-based; columns
 * count UTF-16 code units, as editors and the `yaml` package do.
 */
/**
 * The kind of a definition error, stable across releases while messages improve: tests and tools assert the
 * code, people read the message.
 * - `YAML_SYNTAX`, `JSON_SYNTAX`: the text is not YAML or JSON (repeated keys in YAML included);
 * - `SOURCE_TOO_LARGE` (over 128 KB), `EMPTY_SOURCE`, `NESTING_TOO_DEEP`;
 * - `MISSING_MAIN`: a map of workflows without `main`;
 * - `DUPLICATE_STEP`: a step name used twice in one workflow;
 * - `UNKNOWN_FIELD`, `CONFLICTING_FIELDS`: a field no step kind has, or two that exclude each other;
 * - `BAD_JUMP`: `next` to a missing or unreachable step, `break`/`continue` outside a loop;
 * - `UNKNOWN_FUNCTION`: a call of something that is neither a function nor a subworkflow;
 * - `UNKNOWN_RETRY`: an unknown retry policy, predicate or backoff;
 * - `BAD_EXPRESSION`: an expression that does not parse, is empty or nested, or a bad assignment target;
 * - `LIMIT_EXCEEDED`: a limit of docs/api-resources.md#limits visible in the source (assignments, conditions,
 *   branches, parallel nesting, expression length), or the emulator's bound on what aliases may expand to
 *   (docs/limits.md);
 * - `EXCEPT_VARIABLE_OUT_OF_SCOPE`, `UNSHARED_PARENT_ASSIGNMENT`, `SIBLING_BRANCH_VARIABLE`: the scope rules
 *   Google checks at deploy (scope-check.ts): a variable created in an `except` block read after it, a
 *   parallel branch assigning a parent variable not in `shared`, a branch reading a sibling's variable;
 * - `INVALID_DEFINITION`: any other wrong shape (a missing field, a value of the wrong type, a bad name).
 */
export type DefinitionErrorCode =
  | 'YAML_SYNTAX'
  | 'JSON_SYNTAX'
  | 'SOURCE_TOO_LARGE'
  | 'EMPTY_SOURCE'
  | 'NESTING_TOO_DEEP'
  | 'MISSING_MAIN'
  | 'DUPLICATE_STEP'
  | 'UNKNOWN_FIELD'
  | 'CONFLICTING_FIELDS'
  | 'BAD_JUMP'
  | 'UNKNOWN_FUNCTION'
  | 'UNKNOWN_RETRY'
  | 'BAD_EXPRESSION'
  | 'LIMIT_EXCEEDED'
  | 'EXCEPT_VARIABLE_OUT_OF_SCOPE'
  | 'UNSHARED_PARENT_ASSIGNMENT'
  | 'SIBLING_BRANCH_VARIABLE'
  | 'INVALID_DEFINITION';

export class DefinitionError extends Error {
  /** The kind of problem (see {@link DefinitionErrorCode}). */
  readonly code: DefinitionErrorCode;
  /** 1-based line of the problem in the source, when known. */
  readonly line?: number;
  /** 1-based column of the problem in the source, when known. */
  readonly col?: number;
  /** Name of the step the problem is in, when it is in one. */
  readonly step?: string;
  /** The problem alone, without step or position. */
  readonly reason: string;

  constructor(reason: string, where: { pos?: SourcePos; step?: string; code?: DefinitionErrorCode } = {}) {
    let at = '';
    const lineCol = where.pos ? `line ${where.pos.line}, column ${where.pos.col}` : '';
    if (where.step !== undefined) at = `step ${JSON.stringify(where.step)}${lineCol ? ` (${lineCol})` : ''}: `;
    else if (lineCol) at = `${lineCol}: `;
    super(`invalid workflow definition: ${at}${reason}`);
    this.name = 'DefinitionError';
    this.reason = reason;
    this.code = where.code ?? 'INVALID_DEFINITION';
    if (where.pos) {
      this.line = where.pos.line;
      this.col = where.pos.col;
    }
    if (where.step !== undefined) this.step = where.step;
  }
}
