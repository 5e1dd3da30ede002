/**
 * The one error a workflow definition can fail with at deploy time (spec "Errors": "invalid workflow
 * definition", a 400; "Limits": the limits checked before the run). It names the step, the `line:col` of the
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
export class DefinitionError extends Error {
  /** 1-based line of the problem in the source, when known. */
  readonly line?: number;
  /** 1-based column of the problem in the source, when known. */
  readonly col?: number;
  /** Name of the step the problem is in, when it is in one. */
  readonly step?: string;
  /** The problem alone, without step or position. */
  readonly reason: string;

  constructor(reason: string, where: { pos?: SourcePos; step?: string } = {}) {
    let at = '';
    const lineCol = where.pos ? `line ${where.pos.line}, column ${where.pos.col}` : '';
    if (where.step !== undefined) at = `step ${JSON.stringify(where.step)}${lineCol ? ` (${lineCol})` : ''}: `;
    else if (lineCol) at = `${lineCol}: `;
    super(`invalid workflow definition: ${at}${reason}`);
    this.name = 'DefinitionError';
    this.reason = reason;
    if (where.pos) {
      this.line = where.pos.line;
      this.col = where.pos.col;
    }
    if (where.step !== undefined) this.step = where.step;
  }
}
