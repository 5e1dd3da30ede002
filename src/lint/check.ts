/**
 * Checking one workflow source as `workflows-emulator lint` and the language server do (docs/lint.md): the
 * deploy checks of the real definition compiler (an error with its {@link DefinitionErrorCode}, the step,
 * the position and a "did you mean") and, for a definition that compiles, the lint warnings of rules.ts.
 */
import { compileLoadedSource } from '../lang/definition/compile.ts';
import { DefinitionError, type DefinitionErrorCode } from '../lang/definition/errors.ts';
import type { DefinitionLibrary } from '../lang/definition/library.ts';
import { loadSource, type LoadedSource, type SNode } from '../lang/definition/load.ts';
import { buildModel, KIND_FIELDS, type DocumentModel } from './model.ts';
import { lintWarnings, type LintWarningCode } from './rules.ts';

/** A problem found in a source: a deploy error or a lint warning, with a stable code and a span. */
export interface Problem {
  readonly severity: 'error' | 'warning';
  readonly code: DefinitionErrorCode | LintWarningCode;
  /** The problem alone (a deploy error's `reason`: without step and position). */
  readonly message: string;
  /** The step it is in, when it is in one. */
  readonly step?: string;
  /** 1-based line and column (UTF-16 code units) of its start and end (end exclusive). */
  readonly line: number;
  readonly col: number;
  readonly endLine: number;
  readonly endCol: number;
}

/** What checking a source found: its problems, and its shape when the source loaded (see model.ts). */
export interface SourceCheck {
  readonly problems: Problem[];
  readonly model: DocumentModel | undefined;
  /** True when the source deploys (no error). */
  readonly deploys: boolean;
}

/**
 * Checks a workflow source: compiles it with `library` (the deploy checks) and, when it compiles, runs the
 * lint rules. Never throws for a bad source; an exception that is not a DefinitionError (a bug of ours) is
 * rethrown.
 *
 * @param format `yaml` or `json`; detected from the content when omitted.
 */
export function checkSource(source: string, library: DefinitionLibrary, format?: 'yaml' | 'json'): SourceCheck {
  let load: LoadedSource | undefined;
  let model: DocumentModel | undefined;
  try {
    load = loadSource(source, format);
    model = buildModel(load);
    compileLoadedSource(load, library);
  } catch (e) {
    if (!(e instanceof DefinitionError)) throw e;
    return { problems: [errorProblem(e, source)], model, deploys: false };
  }
  const problems: Problem[] = lintWarnings(model).map((w) => {
    const start = load.posAt(w.offset);
    const end = load.posAt(w.end);
    const step: { step?: string } = w.step !== undefined ? { step: w.step } : {};
    return { severity: 'warning', code: w.code, message: w.message, ...step, line: start.line, col: start.col, endLine: end.line, endCol: end.col };
  });
  return { problems, model, deploys: true };
}

/** A deploy error as a problem spanning the word at its position (the whole first line when it has none). */
function errorProblem(e: DefinitionError, source: string): Problem {
  const line = e.line ?? 1;
  const col = e.col ?? 1;
  const text = lineText(source, line);
  let endCol = col;
  // The token at the position: a name, a quoted string, or up to the end of the line.
  const rest = text.slice(col - 1);
  const word = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s:,\]}]+)/.exec(rest);
  endCol = col + (word ? word[0].length : Math.max(rest.trimEnd().length, 1));
  const step: { step?: string } = e.step !== undefined ? { step: e.step } : {};
  return { severity: 'error', code: e.code, message: e.reason, ...step, line, col, endLine: line, endCol };
}

function lineText(source: string, line: number): string {
  let start = 0;
  for (let l = 1; l < line; l++) {
    const nl = source.indexOf('\n', start);
    if (nl < 0) return '';
    start = nl + 1;
  }
  const nl = source.indexOf('\n', start);
  return source.slice(start, nl < 0 ? source.length : nl).replace(/\r$/, '');
}

/**
 * Whether a loaded source has a workflow definition's shape (a map with `main`, or a list of steps that are
 * one-key maps of step fields), so tools can leave other YAML and JSON files alone.
 */
export function looksLikeWorkflow(root: SNode): boolean {
  if (root.kind === 'map') {
    return root.entries.some((e) => e.key === 'main') && root.entries.every((e) => e.value.kind === 'map');
  }
  if (root.kind === 'seq') {
    return root.items.length > 0 && root.items.every((i) => i.kind === 'map' && i.entries.length === 1 && isStepBody(i.entries[0]!.value));
  }
  return false;
}

function isStepBody(n: SNode): boolean {
  return n.kind === 'map' && n.entries.some((e) => KIND_FIELDS.includes(e.key) || e.key === 'next');
}

/**
 * Whether a source that does not load (a syntax error) still reads like a workflow definition: it names a
 * `main` workflow or a step field at the start of a line.
 */
export function textLooksLikeWorkflow(source: string): boolean {
  return /^main\s*:/m.test(source) || /^\s*-?\s*(assign|call|switch|steps|return|raise|try)\s*:/m.test(source);
}
