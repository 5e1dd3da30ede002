/**
 * Names and where they are (docs/editor.md "Navigation"): the symbol under the cursor, go to definition,
 * find references, rename of a step or a subworkflow, and the outline of routines and steps.
 */
import type { DocumentSymbol, Location, Range, TextEdit } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentModel, NameRef, StepInfo, StepListInfo } from '../lint/model.ts';
import { STDLIB } from '../stdlib/index.ts';
import { SymbolKind } from './protocol.ts';

/** A name under the cursor: what it names, the reference itself, and the workflow it is in. */
export interface SymbolHit {
  readonly kind: 'function' | 'subworkflow' | 'variable' | 'step';
  readonly ref: NameRef;
  readonly workflow: string;
}

const within = (r: NameRef, offset: number): boolean => r.exact && r.offset <= offset && offset <= r.end;

/** The symbol at a source offset, if the offset is on a name the model knows. */
export function symbolAt(m: DocumentModel, offset: number): SymbolHit | undefined {
  for (const c of m.calls) {
    if (!within(c, offset)) continue;
    const sub = !STDLIB.has(c.name) && m.workflows.some((w) => w.name === c.name && w.key);
    return { kind: sub ? 'subworkflow' : 'function', ref: c, workflow: c.workflow };
  }
  for (const w of m.workflows) if (w.key && within(w.key, offset)) return { kind: 'subworkflow', ref: w.key, workflow: w.name };
  for (const j of m.jumps) if (within(j, offset)) return { kind: 'step', ref: j, workflow: j.from.workflow };
  for (const s of m.steps) if (within(s.name, offset)) return { kind: 'step', ref: s.name, workflow: s.workflow };
  for (const u of m.uses) if (within(u, offset)) return { kind: 'variable', ref: u, workflow: u.workflow };
  for (const d of m.defs) if (within(d, offset)) return { kind: 'variable', ref: d, workflow: d.workflow };
  return undefined;
}

/** Where a symbol is defined: a subworkflow's key, a step's name, a variable's assignment sites. */
export function definitionsOf(m: DocumentModel, hit: SymbolHit): NameRef[] {
  switch (hit.kind) {
    case 'subworkflow': {
      const key = m.workflows.find((w) => w.name === hit.ref.name)?.key;
      return key ? [key] : [];
    }
    case 'step':
      return m.steps.filter((s) => s.workflow === hit.workflow && s.name.name === hit.ref.name).map((s) => s.name);
    case 'variable':
      return m.defs.filter((d) => d.workflow === hit.workflow && d.name === hit.ref.name);
    case 'function':
      return [];
  }
}

/** Every reference to a symbol (calls, `next` values, reads and writes), its definitions included or not. */
export function referencesOf(m: DocumentModel, hit: SymbolHit, includeDeclaration: boolean): NameRef[] {
  const name = hit.ref.name;
  let refs: NameRef[];
  switch (hit.kind) {
    case 'subworkflow':
      refs = m.calls.filter((c) => c.name === name);
      break;
    case 'function':
      refs = m.calls.filter((c) => c.name === name);
      break;
    case 'step':
      refs = m.jumps.filter((j) => j.from.workflow === hit.workflow && j.name === name);
      break;
    case 'variable':
      refs = m.uses.filter((u) => u.workflow === hit.workflow && u.name === name);
      break;
  }
  const all = includeDeclaration ? [...definitionsOf(m, hit), ...refs] : refs;
  return all.filter((r) => r.exact).sort((a, b) => a.offset - b.offset);
}

/** The range of a name reference in a document. */
export function rangeOf(doc: TextDocument, r: NameRef): Range {
  return { start: doc.positionAt(r.offset), end: doc.positionAt(r.end) };
}

/** Name references as locations in the document `doc`. */
export function locations(doc: TextDocument, refs: readonly NameRef[]): Location[] {
  return refs.map((r) => ({ uri: doc.uri, range: rangeOf(doc, r) }));
}

/** Whether the symbol can be renamed: steps and subworkflows (`main` excepted). */
export function canRename(hit: SymbolHit): boolean {
  return hit.kind === 'step' ? !['end', 'break', 'continue'].includes(hit.ref.name) : hit.kind === 'subworkflow' && hit.ref.name !== 'main';
}

/**
 * The edits renaming a step or a subworkflow to `newName`: its definition and every reference.
 * @returns the edits, or an error message for a name that cannot be used.
 */
export function renameEdits(m: DocumentModel, doc: TextDocument, hit: SymbolHit, newName: string): TextEdit[] | string {
  if (hit.kind === 'subworkflow' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(newName)) {
    return `'${newName}' is not a subworkflow name (letters, digits and underscores, not starting with a digit)`;
  }
  if (hit.kind === 'step' && (!/^[\w-]+$/.test(newName) || ['end', 'break', 'continue'].includes(newName))) {
    return `'${newName}' is not a step name for next (letters, digits, '_' and '-'; not end, break or continue)`;
  }
  const taken = hit.kind === 'step' ? m.steps.some((s) => s.workflow === hit.workflow && s.name.name === newName) : m.workflows.some((w) => w.name === newName) || STDLIB.has(newName);
  if (taken) return `'${newName}' is already taken`;
  return referencesOf(m, hit, true).map((r) => ({ range: rangeOf(doc, r), newText: newName }));
}

/** The outline: each workflow with its steps, nested as written. */
export function documentSymbols(m: DocumentModel, doc: TextDocument): DocumentSymbol[] {
  const stepSymbol = (s: StepInfo): DocumentSymbol => ({
    name: s.name.name,
    detail: s.kind ?? 'next',
    kind: SymbolKind.Field,
    range: { start: doc.positionAt(s.name.offset), end: doc.positionAt(Math.max(s.end, s.name.end)) },
    selectionRange: rangeOf(doc, s.name),
    children: s.children.flatMap((l: StepListInfo) => l.steps.map(stepSymbol)),
  });
  return m.workflows.map((w) => {
    const selection = w.key ? rangeOf(doc, w.key) : { start: doc.positionAt(w.offset), end: doc.positionAt(w.offset) };
    return {
      name: w.name,
      detail: `(${w.params.map((p) => p.name).join(', ')})`,
      kind: SymbolKind.Function,
      range: { start: doc.positionAt(w.offset), end: doc.positionAt(Math.max(w.end, w.offset)) },
      selectionRange: selection,
      children: w.steps.steps.map(stepSymbol),
    };
  });
}
