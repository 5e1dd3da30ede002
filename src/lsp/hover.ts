/**
 * Hover (docs/editor.md "Hover"): a function's or connector's signature and doc, a subworkflow's parameters, a
 * variable's assignment sites, a step's kind, an argument under `args:`, an error tag's meaning.
 */
import type { Hover } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { errorTagMeaning } from '../lang/errors.ts';
import { connectorMethod, isConnectorName } from '../lint/connectors.ts';
import type { DocumentModel } from '../lint/model.ts';
import { STDLIB } from '../stdlib/index.ts';
import { argsOfEnclosingCall } from './call-args.ts';
import { FUNCTION_DOCS, RETRY_POLICY_DOCS } from './function-docs.ts';
import { symbolAt } from './navigation.ts';

/** `name(param, optional?)` of a standard-library function, or undefined for another name. */
export function functionSignature(name: string): string | undefined {
  const f = STDLIB.get(name);
  return f ? `${f.name}(${f.params.map((p) => p.name + (p.optional ? '?' : '')).join(', ')})` : undefined;
}

/** `name(arg, optional?)` of a connector method: its arguments, `?` after an optional one. */
export function connectorSignature(method: { name: string; args: readonly { name: string; required: boolean }[] }): string {
  return `${method.name}(${method.args.map((a) => a.name + (a.required ? '' : '?')).join(', ')})`;
}

/** The hover at `offset` of `doc`, or null when there is nothing to say. */
export function hoverAt(doc: TextDocument, offset: number, model: DocumentModel | undefined): Hover | null {
  const text = doc.getText();
  const md = (value: string, from: number, to: number): Hover => ({
    contents: { kind: 'markdown', value },
    range: { start: doc.positionAt(from), end: doc.positionAt(to) },
  });
  const sym = model ? symbolAt(model, offset) : undefined;
  if (sym && model) {
    const { ref } = sym;
    switch (sym.kind) {
      case 'function': {
        const sig = functionSignature(ref.name);
        if (sig) return md(`\`\`\`\n${sig}\n\`\`\`\n${FUNCTION_DOCS.get(ref.name) ?? ''}`, ref.offset, ref.end);
        if (isConnectorName(ref.name)) return md(connectorHover(ref.name), ref.offset, ref.end);
        break;
      }
      case 'subworkflow': {
        const w = model.workflows.find((x) => x.name === ref.name)!;
        return md(`\`\`\`\nsubworkflow ${w.name}(${w.params.map((p) => p.name).join(', ')})\n\`\`\``, ref.offset, ref.end);
      }
      case 'variable': {
        const sites = model.defs.filter((d) => d.workflow === sym.workflow && d.name === ref.name);
        const lines = sites.map((d) => {
          const line = doc.positionAt(d.offset).line + 1;
          return d.how === 'param' ? `- parameter of \`${d.workflow}\` (line ${line})` : `- line ${line}${d.step !== undefined ? `, step \`${d.step}\`` : ''} (${d.how})`;
        });
        return md(`variable \`${ref.name}\`, assigned at:\n${lines.join('\n') || '- nowhere in this workflow'}`, ref.offset, ref.end);
      }
      case 'step': {
        const s = model.steps.find((x) => x.workflow === sym.workflow && x.name.name === ref.name);
        if (s) return md(`step \`${s.name.name}\` (${s.kind ?? 'next'}) in workflow \`${s.workflow}\``, ref.offset, ref.end);
        break;
      }
    }
  }
  const arg = argumentHover(doc, offset, model);
  if (arg) return md(arg.value, arg.start, arg.end);
  // Words inside strings and expressions: error tags and retry policies.
  const word = wordAt(text, offset);
  if (!word) return null;
  const meaning = errorTagMeaning(word.text);
  if (meaning !== undefined) return md(`error tag \`${word.text}\`: ${meaning}`, word.start, word.end);
  const policy = RETRY_POLICY_DOCS.get(word.text);
  if (policy !== undefined) return md(`retry policy \`${word.text}\`: ${policy}`, word.start, word.end);
  const sig = functionSignature(word.text);
  if (sig) return md(`\`\`\`\n${sig}\n\`\`\`\n${FUNCTION_DOCS.get(word.text) ?? ''}`, word.start, word.end);
  return null;
}

/**
 * A connector call's hover: its signature (`?` after an optional argument), its API and doc, and what the
 * emulator does with it (docs/differences.md#the-service).
 */
function connectorHover(name: string): string {
  const m = connectorMethod(name);
  const note = 'The emulator answers connector calls from mocks (the Workflow Executions connector runs child workflows).';
  if (!m) return `connector \`${name}\`: not a method of Google's connectors reference.\n\n${note}`;
  return `\`\`\`\n${connectorSignature(m)}\n\`\`\`\n${m.api}: ${m.doc}\n\n${note}`;
}

/** A key under a call's `args:`: which argument of what it is, required or not, and its doc when known. */
function argumentHover(doc: TextDocument, offset: number, model: DocumentModel | undefined): { value: string; start: number; end: number } | undefined {
  const pos = doc.positionAt(offset);
  const lineStart = offset - pos.character;
  const line = doc.getText({ start: { line: pos.line, character: 0 }, end: { line: pos.line + 1, character: 0 } });
  const key = /^(\s*)([\w-]+)\s*:/.exec(line);
  if (!key || pos.character < key[1]!.length || pos.character > key[1]!.length + key[2]!.length) return undefined;
  const start = lineStart + key[1]!.length;
  const item = argsOfEnclosingCall(doc, doc.positionAt(start), model)?.find((i) => i.label === key[2]);
  if (!item) return undefined;
  const docs = typeof item.documentation === 'string' && item.documentation ? `\n\n${item.documentation}` : '';
  return { value: `\`${key[2]}\`: ${item.detail ?? 'argument'}${docs}`, start, end: start + key[2]!.length };
}

/** The dotted word (`http.default_retry`, `KeyError`) around `offset`. */
function wordAt(text: string, offset: number): { text: string; start: number; end: number } | undefined {
  const isWord = (c: string | undefined) => c !== undefined && /[\w.]/.test(c);
  let start = offset;
  let end = offset;
  while (isWord(text[start - 1])) start--;
  while (isWord(text[end])) end++;
  const w = text.slice(start, end).replace(/^\.+|\.+$/g, '');
  return w ? { text: w, start, end } : undefined;
}
