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

/** The variables of a workflow (parameters and every assigned name), first assignment site each. */
export function variablesOf(model: DocumentModel, workflow: string): VariableDef[] {
  const seen = new Map<string, VariableDef>();
  for (const d of model.defs) if (d.workflow === workflow && !seen.has(d.name)) seen.set(d.name, d);
  return [...seen.values()];
}
