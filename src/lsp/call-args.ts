/**
 * The arguments of the call whose `args:` map holds a line (docs/editor.md "Completion", "Hover"): a standard-library
 * function's parameters, a connector method's arguments (src/lint/connectors.ts) with `connector_params`, or a
 * subworkflow's parameters.
 */
import type { CompletionItem, Position } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { CONNECTOR_COMMON_ARGS, connectorMethod } from '../lint/connectors.ts';
import type { DocumentModel } from '../lint/model.ts';
import { STDLIB } from '../stdlib/index.ts';
import { CompletionItemKind, InsertTextFormat } from './protocol.ts';

/**
 * The argument names of the function (or subworkflow) of the `call` whose `args:` map holds the line at
 * `pos`, as snippets `name: `; undefined when the line is not under an `args:` of a call.
 */
export function argsOfEnclosingCall(doc: TextDocument, pos: Position, model: DocumentModel | undefined): CompletionItem[] | undefined {
  const lines = doc.getText({ start: { line: Math.max(0, pos.line - 60), character: 0 }, end: { line: pos.line, character: 0 } }).split('\n');
  const indent = doc.getText({ start: { line: pos.line, character: 0 }, end: pos }).search(/\S|$/);
  let argsIndent = -1;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const ind = line.search(/\S/);
    if (argsIndent < 0) {
      if (ind >= indent) continue;
      if (!/^\s*(?:-\s*)?args:\s*$/.test(line)) return undefined;
      argsIndent = ind;
      continue;
    }
    if (ind < argsIndent) return undefined;
    const call = /^\s*(?:-\s*)?call:\s*([\w.]+)\s*$/.exec(line);
    if (ind === argsIndent && call) return argItems(call[1]!, model);
  }
  return undefined;
}

function argItems(callee: string, model: DocumentModel | undefined): CompletionItem[] {
  const fn = STDLIB.get(callee);
  const connector = fn ? undefined : connectorMethod(callee);
  const params = fn
    ? fn.params.map((p) => ({ name: p.name, optional: p.optional === true }))
    : connector
      ? [...connector.args.map((a) => ({ name: a.name, optional: !a.required })), ...[...CONNECTOR_COMMON_ARGS.keys()].map((name) => ({ name, optional: true }))]
      : (model?.workflows.find((w) => w.name === callee)?.params.map((p) => ({ name: p.name, optional: false })) ?? []);
  return params.map((p) => ({
    label: p.name,
    kind: CompletionItemKind.Property,
    detail: `${callee} argument${p.optional ? ' (optional)' : ' (required)'}`,
    ...(connector && CONNECTOR_COMMON_ARGS.has(p.name) ? { documentation: CONNECTOR_COMMON_ARGS.get(p.name)! } : {}),
    sortText: `${p.optional ? 1 : 0}${p.name}`,
    insertText: `${p.name}: $0`,
    insertTextFormat: InsertTextFormat.Snippet,
  }));
}
