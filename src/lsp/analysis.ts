/**
 * What the language server knows about one open document (docs/editor.md): the check of the source (the
 * deploy error or the lint warnings, src/lint/check.ts) and its model (names and where they are written).
 * A document whose text does not load keeps the names of its last version that did, so completion still
 * offers steps and variables while a line is half typed. A document that is not a workflow definition gets no
 * diagnostics and no help.
 */
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { checkSource, looksLikeWorkflow, textLooksLikeWorkflow, type Problem } from '../lint/check.ts';
import type { DocumentModel, StepInfo, VariableDef, WorkflowInfo } from '../lint/model.ts';
import { DEFINITION_LIBRARY } from '../stdlib/index.ts';

/** The analysis of one version of a document. */
export interface Analysis {
  /** False for a YAML or JSON file that is not a workflow definition: no diagnostics, no help. */
  readonly isWorkflow: boolean;
  readonly problems: readonly Problem[];
  /** The model of this version, or of the last version that loaded (`stale` then). */
  readonly model: DocumentModel | undefined;
  readonly stale: boolean;
}

/** The source format of a document: JSON for a `.json` file or the `json` language, else YAML. */
export function formatOf(doc: TextDocument): 'yaml' | 'json' {
  return doc.languageId === 'json' || doc.languageId === 'jsonc' || /\.json$/i.test(doc.uri) ? 'json' : 'yaml';
}

/** Analyses a document's text; `previous` is the analysis of its previous version, if any. */
export function analyze(doc: TextDocument, previous: Analysis | undefined): Analysis {
  const text = doc.getText();
  const check = checkSource(text, DEFINITION_LIBRARY, formatOf(doc));
  if (check.model) {
    if (!looksLikeWorkflow(check.model.load.root)) return { isWorkflow: false, problems: [], model: undefined, stale: false };
    return { isWorkflow: true, problems: check.problems, model: check.model, stale: false };
  }
  // The text does not load (a syntax error while typing): a workflow if it was one or reads like one.
  const isWorkflow = previous?.isWorkflow === true || textLooksLikeWorkflow(text);
  if (!isWorkflow) return { isWorkflow: false, problems: [], model: undefined, stale: false };
  return { isWorkflow: true, problems: check.problems, model: previous?.model, stale: previous?.model !== undefined };
}

/** The workflow holding a source offset (the last one starting at or before it), if any. */
export function workflowAt(model: DocumentModel, offset: number): WorkflowInfo | undefined {
  let found: WorkflowInfo | undefined;
  for (const w of model.workflows) if (w.offset <= offset) found = w;
  return found ?? model.workflows[0];
}

/** The innermost step holding a source offset, if any. */
export function stepAt(model: DocumentModel, offset: number): StepInfo | undefined {
  let found: StepInfo | undefined;
  for (const s of model.steps) if (s.name.offset <= offset && offset <= s.end && (!found || s.name.offset >= found.name.offset)) found = s;
  return found;
}

/**
 * The variables of a workflow in scope at a source offset (parameters and assigned names), first such assignment
 * site each. A name created inside a `for` body, an `except` block or a parallel branch belongs to that block
 * (https://cloud.google.com/workflows/docs/reference/syntax/variables#variable-scope), and so does a loop's
 * `value`/`index` and an `except`'s `as`: it is in scope inside the block, unless it is also assigned outside.
 */
export function variablesInScope(model: DocumentModel, workflow: string, offset: number): VariableDef[] {
  const seen = new Map<string, VariableDef>();
  const lists = scopeLists(model, workflow);
  for (const d of model.defs) {
    if (d.workflow !== workflow || seen.has(d.name)) continue;
    const scope = scopeOf(model, lists, d);
    if (!scope || (scope[0] <= offset && offset <= scope[1])) seen.set(d.name, d);
  }
  return [...seen.values()];
}

/** The step lists of a workflow that keep what is created in them (for bodies, except blocks, branches), as spans. */
function scopeLists(model: DocumentModel, workflow: string): [number, number][] {
  const out: [number, number][] = [];
  for (const s of model.steps) {
    if (s.workflow !== workflow) continue;
    for (const l of s.children) {
      const first = l.steps[0];
      const last = l.steps.at(-1);
      if (first && last && (l.role === 'for' || l.role === 'except' || l.role === 'branch')) out.push([first.name.offset, last.end]);
    }
  }
  return out;
}

/** The span a variable assignment is visible in: undefined for the whole workflow. */
function scopeOf(model: DocumentModel, lists: readonly [number, number][], d: VariableDef): [number, number] | undefined {
  if (d.how === 'param') return undefined;
  if (d.how === 'for' || d.how === 'except') {
    // Written in the loop's own fields (the whole step), or in the `except` of a try step (from there on).
    const s = stepAt(model, d.offset);
    return s ? [d.how === 'for' ? s.name.offset : d.offset, s.end] : undefined;
  }
  let best: [number, number] | undefined;
  for (const span of lists) {
    if (span[0] <= d.offset && d.offset <= span[1] && (!best || span[1] - span[0] < best[1] - best[0])) best = span;
  }
  return best;
}
