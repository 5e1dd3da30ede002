/**
 * Every code a problem of `workflows-emulator lint` and the language server may carry, with a one-line
 * description and its entry in docs/lint.md: the deploy errors of the definition compiler
 * (src/lang/definition/errors.ts) and the lint warnings (rules.ts).
 */
import type { DefinitionErrorCode } from '../lang/definition/errors.ts';
import type { LintWarningCode } from './rules.ts';

/** A problem code: a deploy error's or a lint warning's. */
export type ProblemCode = DefinitionErrorCode | LintWarningCode;

/** One code's description. */
export interface CodeInfo {
  readonly severity: 'error' | 'warning';
  /** What the code means, in one line. */
  readonly summary: string;
}

/** The codes, errors first, in docs/lint.md's order. */
export const PROBLEM_CODES: Readonly<Record<ProblemCode, CodeInfo>> = {
  YAML_SYNTAX: { severity: 'error', summary: 'The source is not valid YAML (a repeated key included).' },
  JSON_SYNTAX: { severity: 'error', summary: 'The source is not valid JSON.' },
  SOURCE_TOO_LARGE: { severity: 'error', summary: 'The source is over 128 KB of UTF-8.' },
  EMPTY_SOURCE: { severity: 'error', summary: 'The source is empty.' },
  NESTING_TOO_DEEP: { severity: 'error', summary: 'The source is nested too deeply.' },
  MISSING_MAIN: { severity: 'error', summary: "A map of workflows without 'main'." },
  DUPLICATE_STEP: { severity: 'error', summary: 'A step name used twice in one workflow.' },
  UNKNOWN_FIELD: { severity: 'error', summary: 'A field no step kind has.' },
  CONFLICTING_FIELDS: { severity: 'error', summary: 'Two fields that exclude each other in one step.' },
  BAD_JUMP: { severity: 'error', summary: "A 'next' to a missing or unreachable step, or 'break'/'continue' outside a loop." },
  UNKNOWN_FUNCTION: { severity: 'error', summary: 'A call of something that is neither a function nor a subworkflow.' },
  UNKNOWN_RETRY: { severity: 'error', summary: 'An unknown retry policy, predicate or backoff.' },
  BAD_EXPRESSION: { severity: 'error', summary: 'An expression that does not parse, is empty or nested, or a bad assignment target.' },
  LIMIT_EXCEEDED: { severity: 'error', summary: 'A limit of the service visible in the source (assignments, conditions, branches, nesting, expression length).' },
  EXCEPT_VARIABLE_OUT_OF_SCOPE: { severity: 'error', summary: "A variable created in an 'except' block read after it." },
  UNSHARED_PARENT_ASSIGNMENT: { severity: 'error', summary: "A parallel branch assigning a parent variable that is not in 'shared'." },
  SIBLING_BRANCH_VARIABLE: { severity: 'error', summary: "A parallel branch reading a variable created by a sibling branch." },
  INVALID_DEFINITION: { severity: 'error', summary: 'Any other wrong shape: a missing field, a value of the wrong type, a bad name.' },
  UNREACHABLE_STEP: { severity: 'warning', summary: 'No path of the workflow reaches the step.' },
  UNUSED_VARIABLE: { severity: 'warning', summary: 'A variable assigned and never read.' },
  REDUNDANT_NEXT: { severity: 'warning', summary: "A 'next' to the step that follows anyway." },
  SHADOWED_PARAMETER: { severity: 'warning', summary: "An assignment to a workflow's parameter." },
  NON_IDEMPOTENT_RETRY: { severity: 'warning', summary: 'A POST or PATCH request retried by http.default_retry.' },
  UNKNOWN_CONNECTOR: { severity: 'warning', summary: 'A call of a googleapis.* name that is no method of Google\'s connectors.' },
  MISSING_CONNECTOR_ARG: { severity: 'warning', summary: 'A connector call without an argument its method requires.' },
};

/** Where docs/lint.md is published; each code's entry is `#` and the code in lower case. */
export const LINT_DOCS_URL = 'https://github.com/workflows-emulator/workflows-emulator/blob/main/docs/lint.md';

/** The docs/lint.md entry of a code (`UNUSED_VARIABLE` → `…/docs/lint.md#unused_variable`). */
export function codeDocsUrl(code: ProblemCode): string {
  return `${LINT_DOCS_URL}#${code.toLowerCase()}`;
}
