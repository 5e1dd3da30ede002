/**
 * Completion (docs/editor.md "Completion"), decided by the text of the line before the cursor:
 * - inside `${...}`: the workflow's variables in scope at the cursor (and the fields of a variable assigned a map, or of an http.*
 *   result), standard-library functions (by namespace after `text.`), subworkflows;
 * - after `call:`: functions with their parameters and one-line doc, subworkflows, and connectors segment by
 *   segment after `googleapis.` (api, version, resources, method with its arguments and doc: src/lint/connectors.ts);
 * - after `next:`: the workflow's step names, `end`, `break`, `continue`;
 * - after `retry:`: the named retry policies;
 * - at a key: the argument names of the enclosing `call`'s function, connector or subworkflow under `args:`, else
 *   step and field keywords.
 */
import type { CompletionItem, Position } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { connectorMethod, connectorSegments, isConnectorName } from '../lint/connectors.ts';
import type { DocumentModel } from '../lint/model.ts';
import { STDLIB } from '../stdlib/index.ts';
import { variablesInScope, workflowAt } from './analysis.ts';
import { argsOfEnclosingCall } from './call-args.ts';
import { FUNCTION_DOCS, RETRY_POLICY_DOCS } from './function-docs.ts';
import { connectorSignature, functionSignature } from './hover.ts';
import { CompletionItemKind } from './protocol.ts';

/** The keywords of steps and their fields, with what each is for. */
const KEYWORDS: readonly (readonly [string, string])[] = [
  ['assign', 'Assigns variables: a list of `name: value`.'],
  ['call', 'Calls a function, connector or subworkflow.'],
  ['args', "The named arguments of a 'call'."],
  ['result', "The variable that receives a 'call''s result."],
  ['switch', 'Conditions: a list of `condition` with `next`, `steps` or inline step content.'],
  ['condition', 'An expression: the first true condition of a switch is taken.'],
  ['next', "Where to go after the step: a step name, 'end', 'break' or 'continue'."],
  ['for', 'A loop: `value`, `index`, `in` or `range`, and `steps`.'],
  ['value', 'The loop variable of a for.'],
  ['index', 'The loop index variable of a for.'],
  ['in', 'The list (or map keys) a for iterates over.'],
  ['range', 'The inclusive [start, end] a for iterates over.'],
  ['steps', 'A list of steps.'],
  ['parallel', 'Runs branches or a for loop in parallel.'],
  ['branches', 'The branches of a parallel step.'],
  ['shared', 'Variables parallel branches may assign.'],
  ['concurrency_limit', 'How many branches or iterations run at once.'],
  ['exception_policy', "'continueAll': keep running the other branches after an error."],
  ['try', 'Steps whose errors `retry` and `except` handle.'],
  ['retry', 'A retry policy, or `predicate`, `max_retries` and `backoff`.'],
  ['predicate', 'The retry predicate: a function or subworkflow taking the error.'],
  ['max_retries', 'How many times to retry.'],
  ['backoff', '`initial_delay`, `max_delay` and `multiplier` in seconds.'],
  ['initial_delay', 'The first delay between attempts, in seconds.'],
  ['max_delay', 'The largest delay between attempts, in seconds.'],
  ['multiplier', 'The factor between one delay and the next.'],
  ['except', "Handles the try's error: `as` and `steps`."],
  ['as', 'The variable that receives the caught error.'],
  ['raise', 'Raises an error (a string or a map).'],
  ['return', "Ends the workflow with a value (the caller's result)."],
  ['params', 'The parameters of a workflow.'],
];

/** The completion items at `pos` of `doc`, using `model` for names (none: keywords only). */
export function completions(doc: TextDocument, pos: Position, model: DocumentModel | undefined): CompletionItem[] {
  const offset = doc.offsetAt(pos);
  const lineStart = doc.offsetAt({ line: pos.line, character: 0 });
  const before = doc.getText().slice(lineStart, offset);
  const workflow = model ? workflowAt(model, offset)?.name : undefined;
  const range = (len: number) => ({ start: { line: pos.line, character: pos.character - len }, end: pos });

  const open = before.lastIndexOf('${');
  if (open >= 0 && before.indexOf('}', open) < 0) {
    const word = /[A-Za-z_][\w]*(?:\.[A-Za-z_]?\w*)*$/.exec(before)?.[0] ?? '';
    return expressionItems(word, model, workflow, offset).map((i) => ({ ...i, textEdit: { range: range(word.length), newText: i.insertText ?? i.label } }));
  }
  let m = /^\s*(?:-\s*)?call:\s*([\w.]*)$/.exec(before);
  if (m) {
    const word = m[1]!;
    if (isConnectorName(word)) return connectorItems(word, range(word.length));
    return [...functionItems(), ...subworkflowItems(model), GOOGLEAPIS_ITEM].map((i) => ({ ...i, textEdit: { range: range(word.length), newText: i.insertText ?? i.label } }));
  }
  m = /^\s*(?:-\s*)?next:\s*([\w-]*)$/.exec(before);
  if (m) {
    const steps = model ? model.steps.filter((s) => s.workflow === workflow).map((s) => s.name.name) : [];
    return [...new Set(steps)]
      .map((label): CompletionItem => ({ label, kind: CompletionItemKind.Reference, detail: 'step' }))
      .concat(['end', 'break', 'continue'].map((label) => ({ label, kind: CompletionItemKind.Keyword })));
  }
  if (/^\s*(?:-\s*)?retry:\s*$/.test(before)) {
    return [...RETRY_POLICY_DOCS].filter(([n]) => n.startsWith('http.')).map(([n, doc]) => ({
      label: `\${${n}}`,
      kind: CompletionItemKind.Constant,
      documentation: doc,
    }));
  }
  if (/^\s*(?:-\s*)?[\w]*$/.test(before)) {
    const args = argsOfEnclosingCall(doc, pos, model);
    if (args) return args;
    return KEYWORDS.map(([label, doc]) => ({
      label,
      kind: CompletionItemKind.Keyword,
      documentation: doc,
      insertText: `${label}: `,
    }));
  }
  return [];
}

function functionItems(): CompletionItem[] {
  return [...STDLIB.values()].map((f) => ({
    label: f.name,
    kind: CompletionItemKind.Function,
    detail: functionSignature(f.name) ?? f.name,
    documentation: FUNCTION_DOCS.get(f.name) ?? '',
  }));
}

/** The `googleapis` namespace among the callables, completing on to its connectors. */
const GOOGLEAPIS_ITEM: CompletionItem = {
  label: 'googleapis',
  kind: CompletionItemKind.Module,
  detail: 'connectors',
  documentation: "Google Cloud APIs through Workflows' connectors: googleapis.<api>.<version>.<resource>.<method>.",
  insertText: 'googleapis.',
  command: { title: 'Suggest', command: 'editor.action.triggerSuggest' },
};

/**
 * The items for a connector name being written (`word`, from `googleapis.` on): the next segment after its last
 * dot, each replacing the whole word with the name up to it (a segment that is not yet a method with a dot after
 * it, to complete on).
 */
function connectorItems(word: string, range: { start: Position; end: Position }): CompletionItem[] {
  const prefix = word.slice(0, word.lastIndexOf('.'));
  return connectorSegments(prefix).map((s): CompletionItem => {
    const name = `${prefix}.${s.segment}`;
    if (s.kind !== 'method') {
      return {
        label: s.segment,
        kind: CompletionItemKind.Module,
        detail: s.kind === 'api' ? s.detail : `${s.kind} of ${s.detail}`,
        filterText: name,
        textEdit: { range, newText: `${name}.` },
        command: { title: 'Suggest', command: 'editor.action.triggerSuggest' },
      };
    }
    const method = connectorMethod(name);
    return {
      label: s.segment,
      kind: CompletionItemKind.Function,
      detail: method ? connectorSignature(method) : name,
      documentation: s.detail,
      filterText: name,
      textEdit: { range, newText: name },
    };
  });
}

function subworkflowItems(model: DocumentModel | undefined): CompletionItem[] {
  if (!model) return [];
  return model.workflows
    .filter((w) => w.name !== 'main')
    .map((w) => ({ label: w.name, kind: CompletionItemKind.Module, detail: `subworkflow ${w.name}(${w.params.map((p) => p.name).join(', ')})` }));
}

/** The items inside an expression for the dotted `word` before the cursor. */
function expressionItems(word: string, model: DocumentModel | undefined, workflow: string | undefined, offset: number): CompletionItem[] {
  const dot = word.lastIndexOf('.');
  if (dot >= 0) {
    const prefix = word.slice(0, dot);
    if (prefix === 'googleapis' || isConnectorName(prefix)) {
      // Connectors may be called in expressions too (with their arguments in order).
      return connectorSegments(prefix).map((c) => ({
        label: c.segment,
        kind: c.kind === 'method' ? CompletionItemKind.Function : CompletionItemKind.Module,
        detail: c.detail,
        insertText: `${prefix}.${c.segment}`,
      }));
    }
    const inNamespace = functionItems().filter((i) => i.label.startsWith(prefix + '.'));
    if (inNamespace.length > 0) return inNamespace.map((i) => ({ ...i, insertText: i.label }));
    const fields = model && workflow !== undefined ? knownFields(model, workflow, prefix) : [];
    return fields.map((f) => ({ label: f, kind: CompletionItemKind.Field, insertText: `${prefix}.${f}` }));
  }
  const vars: CompletionItem[] =
    model && workflow !== undefined
      ? variablesInScope(model, workflow, offset).map((d) => ({ label: d.name, kind: CompletionItemKind.Variable, detail: d.how === 'param' ? 'parameter' : `assigned in step ${d.step ?? ''}` }))
      : [];
  return [...vars, ...functionItems(), ...subworkflowItems(model)];
}

/** The fields known of variable `name`: the keys of a map it is assigned, or `code`, `headers`, `body` of an http.* result. */
function knownFields(model: DocumentModel, workflow: string, name: string): string[] {
  const out = new Set<string>();
  for (const d of model.defs) {
    if (d.workflow !== workflow || d.name !== name) continue;
    if (d.value?.kind === 'map') for (const e of d.value.entries) out.add(e.key);
    if (d.how === 'result') {
      const call = model.calls.find((c) => c.callStep && c.step?.name.name === d.step && c.workflow === workflow);
      if (call?.name.startsWith('http.')) for (const f of ['code', 'headers', 'body']) out.add(f);
    }
  }
  return [...out];
}
