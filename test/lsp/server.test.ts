// `workflows-emulator lsp` (docs/editor.md), black-box: the built dist/emulator.js started as an editor starts
// it, driven over stdio by Microsoft's vscode-jsonrpc client (test/support/lsp-client.ts), on the examples and
// on the published samples. Run `npm run build` first.
import { readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { CompletionItem, DocumentSymbol, Hover, Location, TextEdit, WorkspaceEdit } from 'vscode-languageserver';
import { CORPUS, skipWithoutCorpus } from '../support/corpus.ts';
import { positionOf, startLspClient, type LspClient } from '../support/lsp-client.ts';

const s = suite('language server');
let c: LspClient;
s.before(async () => {
  c = await startLspClient();
});
s.after(async () => {
  await c.close();
});

const example = (name: string) => readFileSync(new URL(`../../examples/workflows/${name}`, import.meta.url), 'utf8');
const SAGA = example('order-saga.yaml');
const SAGA_URI = 'file:///examples/order-saga.yaml';
const at = (uri: string, text: string, needle: string, shift = 0, n = 0) => ({ textDocument: { uri }, position: positionOf(text, needle, shift, n) });
const lineOf = (text: string, needle: string, n = 0) => positionOf(text, needle, 0, n).line;

s('an example opens with no diagnostics (docs/editor.md "Diagnostics")', async () => {
  const d = await c.open(SAGA_URI, SAGA);
  assert.equal(d.diagnostics, []);
});

s('a change is checked at once: the deploy error with its code, range, docs link and did-you-mean (docs/editor.md "Diagnostics")', async () => {
  const broken = SAGA.replace('call: http.get', 'call: http.gett');
  const d = await c.change(SAGA_URI, broken);
  assert.is(d.diagnostics.length, 1);
  const x = d.diagnostics[0]!;
  assert.is(x.code, 'UNKNOWN_FUNCTION');
  assert.is(x.severity, 1);
  assert.match(String(x.message), /step "get_price": unknown function or subworkflow 'http\.gett' \(did you mean 'http\.get'\?\)/);
  const p = positionOf(broken, 'http.gett');
  assert.equal(x.range, { start: p, end: { line: p.line, character: p.character + 'http.gett'.length } });
  assert.match(x.codeDescription!.href, /docs\/lint\.md#unknown_function$/);
  const fixed = await c.change(SAGA_URI, SAGA);
  assert.equal(fixed.diagnostics, []);
});

s('a burst of changes sent back to back ends with the diagnostics of its last version; requests answer from it (docs/editor.md#speed)', async () => {
  const typed = ['http.g', 'http.ge', 'http.get', 'http.gett', 'http.gettt'];
  const texts = typed.map((name) => SAGA.replace('call: http.get', `call: ${name}`));
  const { last, earlier } = await c.changeBurst(SAGA_URI, texts.map((text) => [{ text }]));
  assert.equal(last.diagnostics.map((x) => x.code), ['UNKNOWN_FUNCTION']);
  assert.match(String(last.diagnostics[0]!.message), /'http\.gettt'/);
  assert.ok(earlier <= typed.length - 1);
  const hover = await c.request<Hover>('textDocument/hover', at(SAGA_URI, texts.at(-1)!, 'call: http.gettt', 8));
  assert.is(hover, null);
  assert.equal((await c.change(SAGA_URI, SAGA)).diagnostics, []);
});

s('lint warnings are diagnostics with their code, unused ones marked unnecessary (docs/lint.md)', async () => {
  const src = 'main:\n  steps:\n    - a:\n        assign:\n          - x: 1\n          - unused: 2\n        next: b\n    - b:\n        return: ${x}\n';
  const d = await c.open('file:///w/warn.yaml', src);
  const byCode = new Map(d.diagnostics.map((x) => [x.code, x]));
  assert.equal([...byCode.keys()].sort(), ['REDUNDANT_NEXT', 'UNUSED_VARIABLE']);
  assert.is(byCode.get('UNUSED_VARIABLE')!.severity, 2);
  assert.equal(byCode.get('UNUSED_VARIABLE')!.tags, [1]);
  assert.equal(byCode.get('UNUSED_VARIABLE')!.range.start, positionOf(src, 'unused'));
});

s('a YAML syntax error is one YAML_SYNTAX diagnostic; completion still offers the last good step names (docs/editor.md)', async () => {
  const uri = 'file:///w/typing.yaml';
  const good = 'main:\n  steps:\n    - first:\n        next: second\n    - second:\n        return: 1\n';
  await c.open(uri, good);
  const typing = good.replace('next: second', 'next: [') + '    - third:\n        next: \n';
  const d = await c.change(uri, typing);
  assert.equal(d.diagnostics.map((x) => x.code), ['YAML_SYNTAX']);
  const items = (await c.request<CompletionItem[]>('textDocument/completion', at(uri, typing, 'next: \n', 6))).map((i) => i.label);
  assert.ok(items.includes('first') && items.includes('second') && items.includes('end'), items.join());
});

s('documents that are not workflows get no diagnostics and no help, and do not crash the server (docs/editor.md)', async () => {
  const docs: [string, string, string][] = [
    ['file:///w/deploy.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n', 'yaml'],
    ['file:///w/hello.test.yaml', readFileSync(new URL('../../examples/tests/hello.test.yaml', import.meta.url), 'utf8'), 'yaml'],
    ['file:///w/package.json', '{"name": "x", "scripts": {"test": "uvu"}}', 'json'],
    ['file:///w/notes.yaml', 'just: [a, b\n  broken: }\n', 'yaml'],
  ];
  for (const [uri, text, lang] of docs) {
    const d = await c.open(uri, text, lang);
    assert.equal(d.diagnostics, [], uri);
    assert.equal(await c.request('textDocument/completion', { textDocument: { uri }, position: { line: 1, character: 2 } }), [], uri);
    assert.is(await c.request('textDocument/hover', { textDocument: { uri }, position: { line: 0, character: 1 } }), null, uri);
    assert.equal(await c.request('textDocument/documentSymbol', { textDocument: { uri } }), [], uri);
  }
  assert.is(c.child.exitCode, null);
});

s('odd and broken documents get answers, never a crash: every request at every line (docs/editor.md)', async () => {
  const odd = [
    'main: 5\n',
    '[1, 2, 3]\n',
    '- a: 5\n- b:\n    next: a\n',
    'main:\n  steps:\n    - a:\n        return: ${\n',
    'main:\n  steps:\n    - "\u00e9t\u00e9 \ud83d\ude00":\n        assign:\n          - "x.y[\'k\']": ${"\\u00e9" + 1}\n',
    'main:\n  steps:\n' + '    - s:\n        steps:\n'.repeat(3) + '          - t:\n              return: 1\n',
    '{"main": {"steps": [{"a": {"call": "sys.log", "args": {"text": "${x"}}}]}}',
    'main:\n  params: [a, a]\n  steps:\n    - x:\n        return: ${a}\nsub:\n  steps: 5\n',
  ];
  for (const [i, text] of odd.entries()) {
    const uri = `file:///w/odd-${i}.${text.startsWith('{') ? 'json' : 'yaml'}`;
    await c.open(uri, text, text.startsWith('{') ? 'json' : 'yaml');
    const lines = text.split('\n');
    for (let line = 0; line < lines.length; line++) {
      for (const character of [0, 4, lines[line]!.length]) {
        const pos = { textDocument: { uri }, position: { line, character } };
        await c.request('textDocument/completion', pos);
        await c.request('textDocument/hover', pos);
        await c.request('textDocument/definition', pos);
        await c.request('textDocument/references', { ...pos, context: { includeDeclaration: true } });
        await c.request('textDocument/prepareRename', pos);
      }
    }
    await c.request('textDocument/documentSymbol', { textDocument: { uri } });
  }
  assert.is(c.child.exitCode, null);
  assert.equal(c.logs().filter((m) => /internal error/.test(m)), []);
  assert.is(c.stderr(), '');
});

s('completion after call: lists functions with parameters and doc, and subworkflows (docs/editor.md "Completion")', async () => {
  const text = SAGA.replace('call: http.get', 'call: ht');
  await c.change(SAGA_URI, text);
  const items = await c.request<CompletionItem[]>('textDocument/completion', at(SAGA_URI, text, 'call: ht', 8));
  const get = items.find((i) => i.label === 'http.get')!;
  assert.is(get.detail, 'http.get(url, headers?, body?, query?, auth?, timeout?)');
  assert.match(String(get.documentation), /HTTP GET/);
  assert.ok(items.some((i) => i.label === 'release_stock' && /subworkflow/.test(i.detail ?? '')));
  await c.change(SAGA_URI, SAGA);
});

s('completion after next: lists the step names of the workflow (docs/editor.md "Completion")', async () => {
  const items = (await c.request<CompletionItem[]>('textDocument/completion', at(SAGA_URI, SAGA, 'next: ', 6))).map((i) => i.label);
  assert.ok(items.includes('reserve_stock') && items.includes('charge') && items.includes('end'), items.join());
  assert.not.ok(items.includes('transient'), 'steps of other workflows are not offered');
});

s('completion inside ${...} lists variables in scope at the cursor, namespaces and known fields (docs/editor.md "Completion")', async () => {
  const vars = (await c.request<CompletionItem[]>('textDocument/completion', at(SAGA_URI, SAGA, '${base + "/inventory/reserve"}', 2))).map((i) => i.label);
  for (const v of ['order', 'base', 'threshold', 'amount', 'reserved', 'len', 'text.split']) assert.ok(vars.includes(v), v);
  // A loop's variable, a name first assigned in its body and an except's `as` are in scope only inside their block.
  for (const v of ['item', 'product', 'e']) assert.not.ok(vars.includes(v), v);
  const inLoop = (await c.request<CompletionItem[]>('textDocument/completion', at(SAGA_URI, SAGA, '${base + "/catalog/"', 2))).map((i) => i.label);
  for (const v of ['item', 'product', 'order', 'amount']) assert.ok(inLoop.includes(v), v);
  const inExcept = (await c.request<CompletionItem[]>('textDocument/completion', at(SAGA_URI, SAGA, '${e.code == 409}', 2))).map((i) => i.label);
  assert.ok(inExcept.includes('e') && !inExcept.includes('item'), inExcept.join());
  const text = SAGA.replace('${base + "/catalog/" + item.sku}', '${text.}');
  await c.change(SAGA_URI, text);
  const ns = (await c.request<CompletionItem[]>('textDocument/completion', at(SAGA_URI, text, '${text.}', 7))).map((i) => i.label);
  assert.ok(ns.includes('text.split') && !ns.includes('len'), ns.join());
  const fields = text.replace('${text.}', '${product.}');
  await c.change(SAGA_URI, fields);
  const known = (await c.request<CompletionItem[]>('textDocument/completion', at(SAGA_URI, fields, '${product.}', 10))).map((i) => i.label);
  assert.equal(known.sort(), ['body', 'code', 'headers']);
  await c.change(SAGA_URI, SAGA);
});

s('completion under args: lists the called function\'s parameters; at a key, step keywords (docs/editor.md "Completion")', async () => {
  const text = SAGA.replace('            - get_price:\n                call: http.get\n                args:\n', '            - get_price:\n                call: http.get\n                args:\n                  he\n');
  await c.change(SAGA_URI, text);
  const args = (await c.request<CompletionItem[]>('textDocument/completion', at(SAGA_URI, text, '                  he\n', 20))).map((i) => i.label);
  assert.equal(args, ['url', 'headers', 'body', 'query', 'auth', 'timeout']);
  const kw = (await c.request<CompletionItem[]>('textDocument/completion', at(SAGA_URI, SAGA, '        assign:', 8))).map((i) => i.label);
  assert.ok(kw.includes('assign') && kw.includes('call') && kw.includes('switch'), kw.join());
  await c.change(SAGA_URI, SAGA);
});

s("hover shows a function's signature and doc, a variable's assignment sites, an error tag's meaning (docs/editor.md \"Hover\")", async () => {
  const fn = await c.request<Hover>('textDocument/hover', at(SAGA_URI, SAGA, 'call: http.get', 8));
  assert.match(JSON.stringify(fn.contents), /http\.get\(url, headers\?, body\?, query\?, auth\?, timeout\?\)/);
  const v = await c.request<Hover>('textDocument/hover', at(SAGA_URI, SAGA, '${amount + product', 3));
  const value = (v.contents as { value: string }).value;
  assert.match(value, /variable `amount`/);
  assert.match(value, new RegExp(`line ${lineOf(SAGA, '- amount: 0.0') + 1}, step \`init\``));
  assert.match(value, new RegExp(`line ${lineOf(SAGA, '- amount: ${amount') + 1}, step \`add_to_total\``));
  const src = 'main:\n  steps:\n    - t:\n        try:\n          return: ${1/0}\n        except:\n          as: e\n          steps:\n            - s:\n                return: ${"ZeroDivisionError" in e.tags}\n';
  await c.open('file:///w/tags.yaml', src);
  const tag = await c.request<Hover>('textDocument/hover', at('file:///w/tags.yaml', src, 'ZeroDivisionError', 4));
  assert.match((tag.contents as { value: string }).value, /error tag `ZeroDivisionError`: division by zero/);
});

s('go to definition: a subworkflow call, a next target, a variable (docs/editor.md "Navigation")', async () => {
  const sub = await c.request<Location[]>('textDocument/definition', at(SAGA_URI, SAGA, 'call: release_stock', 8));
  assert.equal(sub.map((l) => l.range.start), [positionOf(SAGA, 'release_stock:\n  params')]);
  const src = 'main:\n  steps:\n    - first:\n        next: last\n    - middle:\n        assign:\n          - n: 1\n    - last:\n        return: ${n}\n';
  const uri = 'file:///w/jump.yaml';
  await c.open(uri, src);
  const step = await c.request<Location[]>('textDocument/definition', at(uri, src, 'next: last', 7));
  assert.equal(step.map((l) => l.range.start), [positionOf(src, 'last:')]);
  const variable = await c.request<Location[]>('textDocument/definition', at(uri, src, '${n}', 2));
  assert.equal(variable.map((l) => l.range.start), [positionOf(src, 'n: 1')]);
});

s('find references: every call of a subworkflow and every read of a variable (docs/editor.md "Navigation")', async () => {
  const refs = await c.request<Location[]>('textDocument/references', { ...at(SAGA_URI, SAGA, 'release_stock:\n  params', 2), context: { includeDeclaration: false } });
  const calls = SAGA.split('call: release_stock').length - 1;
  assert.ok(calls >= 1);
  assert.is(refs.length, calls);
  const withDecl = await c.request<Location[]>('textDocument/references', { ...at(SAGA_URI, SAGA, 'release_stock:\n  params', 2), context: { includeDeclaration: true } });
  assert.is(withDecl.length, calls + 1);
  const reads = await c.request<Location[]>('textDocument/references', { ...at(SAGA_URI, SAGA, '- amount: 0.0', 3), context: { includeDeclaration: false } });
  assert.ok(reads.length >= 2);
  for (const r of reads) assert.is(SAGA.split('\n')[r.range.start.line]!.slice(r.range.start.character, r.range.end.character), 'amount');
});

s('rename of a step updates its next references; rename of a subworkflow its calls; other names are refused (docs/editor.md "Rename")', async () => {
  const src = 'main:\n  steps:\n    - first:\n        next: "last"\n    - skipped:\n        call: helper\n        next: last\n    - last:\n        return: ${helper()}\nhelper:\n  steps:\n    - r:\n        return: 1\n';
  const uri = 'file:///w/rename.yaml';
  await c.open(uri, src);
  const apply = (edit: WorkspaceEdit) => {
    const lines = src.split('\n');
    const edits = [...edit.changes![uri]!].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
    for (const e of edits) {
      const l = lines[e.range.start.line]!;
      lines[e.range.start.line] = l.slice(0, e.range.start.character) + e.newText + l.slice(e.range.end.character);
    }
    return lines.join('\n');
  };
  const prep = await c.request<{ placeholder: string }>('textDocument/prepareRename', at(uri, src, 'last:', 1));
  assert.is(prep.placeholder, 'last');
  const step = await c.request<WorkspaceEdit>('textDocument/rename', { ...at(uri, src, 'last:', 1), newName: 'finish' });
  assert.is(apply(step), src.replace('"last"', '"finish"').replace('next: last', 'next: finish').replace('- last:', '- finish:'));
  const sub = await c.request<WorkspaceEdit>('textDocument/rename', { ...at(uri, src, 'helper()', 1), newName: 'assist' });
  assert.is(apply(sub), src.replace('call: helper', 'call: assist').replace('${helper()}', '${assist()}').replace('helper:\n', 'assist:\n'));
  const renamed = apply(sub);
  assert.equal((await c.change(uri, renamed)).diagnostics.filter((d) => d.severity === 1), []);
  assert.is(await c.request('textDocument/prepareRename', at(uri, renamed, 'return: 1', 2)), null);
});

s('rename of a subworkflow used as a retry predicate updates the predicate too (docs/editor.md "Rename")', async () => {
  const edit = await c.request<WorkspaceEdit>('textDocument/rename', { ...at(SAGA_URI, SAGA, 'payment_may_retry:', 3), newName: 'charge_may_retry' });
  const edits = edit.changes![SAGA_URI]!;
  assert.is(edits.length, SAGA.split('payment_may_retry').length - 1);
  const lines = SAGA.split('\n');
  for (const e of [...edits].sort((a, b) => b.range.start.line - a.range.start.line)) {
    const l = lines[e.range.start.line]!;
    lines[e.range.start.line] = l.slice(0, e.range.start.character) + e.newText + l.slice(e.range.end.character);
  }
  const renamed = lines.join('\n');
  assert.is(renamed, SAGA.replaceAll('payment_may_retry', 'charge_may_retry'));
  assert.equal((await c.change(SAGA_URI, renamed)).diagnostics, []);
  const hover = await c.request<Hover>('textDocument/hover', at(SAGA_URI, renamed, '${charge_may_retry}', 3));
  assert.match((hover.contents as { value: string }).value, /subworkflow charge_may_retry\(e\)/);
  await c.change(SAGA_URI, SAGA);
});

s('document symbols: routines with their steps, nested as written (docs/editor.md "Outline")', async () => {
  const syms = await c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: SAGA_URI } });
  assert.equal(syms.map((x) => x.name), ['main', 'payment_may_retry', 'release_stock']);
  const main = syms[0]!;
  assert.is(main.children![0]!.name, 'init');
  const loop = main.children!.find((x) => x.name === 'price_items')!;
  assert.equal(loop.children!.map((x) => x.name), ['get_price', 'add_to_total']);
  assert.equal(loop.selectionRange.start, positionOf(SAGA, 'price_items'));
});

// Connectors: names, docs and arguments from the connector catalog (Google's connectors reference,
// https://cloud.google.com/workflows/docs/reference/googleapis).
const URI = 'file:///w/connector.yaml';
const SRC = [
  'main:',
  '  params: [args]',
  '  steps:',
  '    - get_workflow:',
  '        call: googleapis.workflows.v1.projects.locations.workflows.get',
  '        args:',
  '          name: ${args.name}',
  '        result: wf',
  '    - done:',
  '        return: ${wf}',
  '',
].join('\n');
const complete = (text: string, needle: string, shift: number) =>
  c.request<CompletionItem[]>('textDocument/completion', { textDocument: { uri: URI }, position: positionOf(text, needle, shift) });

s('completion after call: googleapis. offers the connectors, then versions, resources and methods (docs/editor.md#connectors)', async () => {
  await c.open(URI, SRC);
  const line = '        call: googleapis.workflows.v1.projects.locations.workflows.get';
  const typed = (name: string) => SRC.replace(line, `        call: ${name}`);
  const at = async (name: string) => {
    const text = typed(name);
    await c.change(URI, text);
    return complete(text, `call: ${name}`, 6 + name.length);
  };
  const apis = await at('googleapis.');
  for (const api of ['workflows', 'pubsub', 'bigquery', 'secretmanager', 'storage']) assert.ok(apis.some((i) => i.label === api), api);
  const pubsub = apis.find((i) => i.label === 'pubsub')!;
  assert.is(pubsub.detail, 'Cloud Pub/Sub API');
  assert.is((pubsub.textEdit as TextEdit).newText, 'googleapis.pubsub.');
  assert.is(pubsub.command?.command, 'editor.action.triggerSuggest');
  // A segment half typed: the whole name is replaced; the client filters on it.
  const partial = await at('googleapis.workf');
  assert.ok(partial.some((i) => (i.textEdit as TextEdit).newText === 'googleapis.workflows.' && i.filterText === 'googleapis.workflows'));
  assert.equal((await at('googleapis.workflows.')).map((i) => i.label), ['v1']);
  assert.equal((await at('googleapis.workflows.v1.projects.locations.')).map((i) => i.label).sort(), ['get', 'list', 'operations', 'workflows']);
  const methods = await at('googleapis.workflows.v1.projects.locations.workflows.');
  const create = methods.find((i) => i.label === 'create')!;
  assert.is(create.detail, 'googleapis.workflows.v1.projects.locations.workflows.create(parent, workflowId?, body?)');
  assert.is(create.documentation, 'Creates a new workflow.');
  assert.is((create.textEdit as TextEdit).newText, 'googleapis.workflows.v1.projects.locations.workflows.create');
  assert.is(create.command, undefined);
  assert.equal(await at('googleapis.nothing.'), []);
  // Inside an expression too.
  const expr = SRC.replace('return: ${wf}', 'return: ${googleapis.secretmanager.v1.projects.secrets.versions.}');
  await c.change(URI, expr);
  const inExpr = await complete(expr, 'versions.}', 9);
  assert.ok(inExpr.some((i) => i.label === 'accessString' && (i.textEdit as TextEdit).newText === 'googleapis.secretmanager.v1.projects.secrets.versions.accessString'));
  // Before any dot, googleapis is one of the callables.
  const callables = await at('goo');
  assert.ok(callables.some((i) => i.label === 'googleapis' && (i.textEdit as TextEdit).newText === 'googleapis.'));
  await c.change(URI, SRC);
});

s("completion under a connector call's args: offers its arguments, required ones first, and connector_params (docs/editor.md#connectors)", async () => {
  const text = SRC.replace('workflows.get', 'workflows.create').replace('          name: ${args.name}\n', '          na\n');
  await c.change(URI, text);
  const items = await complete(text, '          na\n', 12);
  const byLabel = new Map(items.map((i) => [i.label, i]));
  assert.equal([...byLabel.keys()].sort(), ['body', 'connector_params', 'parent', 'workflowId']);
  assert.is(byLabel.get('parent')!.detail, 'googleapis.workflows.v1.projects.locations.workflows.create argument (required)');
  assert.match(byLabel.get('workflowId')!.detail!, /\(optional\)$/);
  const sorted = items.map((i) => i.label).sort((a, b) => byLabel.get(a)!.sortText!.localeCompare(byLabel.get(b)!.sortText!));
  assert.is(sorted[0], 'parent');
  assert.match(String(byLabel.get('connector_params')!.documentation), /timeout/);
  await c.change(URI, SRC);
});

s("hover on a connector call shows its arguments, its API and its doc; on an argument, what it is (docs/editor.md#connectors)", async () => {
  const h = await c.request<Hover>('textDocument/hover', { textDocument: { uri: URI }, position: positionOf(SRC, 'googleapis.workflows', 3) });
  const value = (h.contents as { value: string }).value;
  assert.match(value, /googleapis\.workflows\.v1\.projects\.locations\.workflows\.get\(name, revisionId\?\)/);
  assert.match(value, /Workflows API: Gets details of a single workflow\./);
  assert.equal(h.range!.start, positionOf(SRC, 'googleapis.workflows'));
  // An argument under args: which argument of what, required or not.
  const arg = await c.request<Hover>('textDocument/hover', { textDocument: { uri: URI }, position: positionOf(SRC, 'name: ${args', 1) });
  assert.is((arg.contents as { value: string }).value, '`name`: googleapis.workflows.v1.projects.locations.workflows.get argument (required)');
  assert.equal(arg.range, { start: positionOf(SRC, 'name: ${args'), end: positionOf(SRC, 'name: ${args', 4) });
  const url = await c.request<Hover>('textDocument/hover', at(SAGA_URI, SAGA, 'url: ${base + "/catalog/"', 2));
  assert.is((url.contents as { value: string }).value, '`url`: http.get argument (required)');
});

s('an unknown connector method and a missing required argument are warnings on the call (docs/lint.md#unknown_connector)', async () => {
  const unknown = SRC.replace('workflows.get', 'workflows.gett');
  const d = await c.change(URI, unknown);
  assert.equal(d.diagnostics.map((x) => [x.code, x.severity]), [['UNKNOWN_CONNECTOR', 2]]);
  assert.match(String(d.diagnostics[0]!.message), /did you mean 'projects\.locations\.workflows\.get'/);
  assert.equal(d.diagnostics[0]!.range.start, positionOf(unknown, 'googleapis.'));
  assert.match(d.diagnostics[0]!.codeDescription!.href, /docs\/lint\.md#unknown_connector$/);
  const missing = SRC.replace('          name: ${args.name}\n', '          revisionId: "000001-a4d"\n');
  const m = await c.change(URI, missing);
  assert.equal(m.diagnostics.map((x) => x.code), ['MISSING_CONNECTOR_ARG']);
  assert.match(String(m.diagnostics[0]!.message), /needs argument 'name'/);
  assert.equal((await c.change(URI, SRC)).diagnostics, []);
});

/** A text with LSP edits applied (each on one line, as renames are). */
function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const lines = text.split('\n');
  const sorted = [...edits].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
  for (const e of sorted) {
    const l = lines[e.range.start.line]!;
    lines[e.range.start.line] = l.slice(0, e.range.start.character) + e.newText + l.slice(e.range.end.character);
  }
  return lines.join('\n');
}

/**
 * On one example or published sample: a connector call's hover (its catalog entry), the definition of a `next` target, the
 * references of a subworkflow, the rename of a step, and completion after `next:` and inside `${...}`.
 */
async function navigationChecks(uri: string, text: string, f: string): Promise<void> {
  const connector = /call: (googleapis\.[\w.]+)/.exec(text);
  if (connector) {
    const h = await c.request<Hover>('textDocument/hover', at(uri, text, connector[0], 7));
    assert.match((h.contents as { value: string }).value, new RegExp(`${connector[1]!.replaceAll('.', '\\.')}\\(`), f);
  }
  const jump = /next: ([A-Za-z_]\w*)\s*$/m.exec(text);
  if (jump && !['end', 'break', 'continue'].includes(jump[1]!)) {
    const defs = await c.request<Location[]>('textDocument/definition', at(uri, text, jump[0], 6));
    assert.is(defs.length, 1, `${f}: next ${jump[1]}`);
    const line = text.split('\n')[defs[0]!.range.start.line]!;
    assert.is(line.slice(defs[0]!.range.start.character, defs[0]!.range.end.character), jump[1], f);
    const steps = (await c.request<CompletionItem[]>('textDocument/completion', at(uri, text, jump[0], 6))).map((i) => i.label);
    assert.ok(steps.includes(jump[1]!), `${f}: completion after next:`);
    // Renaming the target step renames every next naming it: the sample still deploys, and no name is left behind.
    const edit = await c.request<WorkspaceEdit>('textDocument/rename', { ...at(uri, text, jump[0], 6), newName: `${jump[1]}_renamed` });
    const renamed = applyEdits(text, edit.changes![uri]!);
    assert.equal((await c.change(uri, renamed)).diagnostics.filter((d) => d.severity === 1), [], `${f}: renamed`);
    assert.not.match(renamed, new RegExp(`next: ${jump[1]}\\s*$`, 'm'), f);
    await c.change(uri, text);
  }
  const sub = /call: ([A-Za-z_]\w*)\s*$/m.exec(text);
  if (sub && new RegExp(`^${sub[1]}:`, 'm').test(text)) {
    const refs = await c.request<Location[]>('textDocument/references', { ...at(uri, text, sub[0], 6), context: { includeDeclaration: true } });
    assert.ok(refs.length >= 2, `${f}: references of ${sub[1]}`);
  }
  const expr = text.indexOf('${');
  if (expr >= 0 && f.endsWith('.yaml')) {
    const items = await c.request<CompletionItem[]>('textDocument/completion', { textDocument: { uri }, position: positionOf(text, '${', 2) });
    assert.ok(items.some((i) => i.label === 'len'), `${f}: completion inside \${...}`);
  }
}

s('every example opens without an error diagnostic, with an outline, navigation, rename and completion (docs/editor.md)', async () => {
  const dir = new URL('../../examples/workflows/', import.meta.url);
  const names = readdirSync(dir).filter((n) => n.endsWith('.yaml'));
  assert.ok(names.length >= 5);
  for (const f of names) {
    const text = readFileSync(new URL(f, dir), 'utf8');
    const uri = `file:///examples/all/${f}`;
    const d = await c.open(uri, text);
    assert.equal(d.diagnostics.filter((x) => x.severity === 1), [], f);
    const syms = await c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.ok(syms.length > 0 && syms[0]!.children!.length > 0, f);
    await navigationChecks(uri, text, f);
    await c.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }
});

if (!skipWithoutCorpus(s, 'every published sample opens without an error diagnostic and with an outline, hover on its calls (docs/editor.md)')) {
  s('every published sample opens without an error diagnostic and with an outline, hover on its calls (docs/editor.md)', async () => {
    let n = 0;
    for (const sub of ['yaml', 'json']) {
      for (const f of readdirSync(`${CORPUS}/${sub}`)) {
        const text = readFileSync(`${CORPUS}/${sub}/${f}`, 'utf8');
        const uri = `file:///corpus/${sub}/${f}`;
        const d = await c.open(uri, text, sub);
        assert.equal(d.diagnostics.filter((x) => x.severity === 1), [], f);
        const syms = await c.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
        assert.ok(syms.length > 0 && syms[0]!.children!.length > 0, f);
        const call = /call: (sys\.log|http\.\w+|text\.\w+|sys\.\w+)/.exec(text);
        if (call) {
          const h = await c.request<Hover>('textDocument/hover', at(uri, text, call[0], 7));
          assert.match(JSON.stringify(h.contents), new RegExp(call[1]!.replace('.', '\\.') + '\\('), f);
        }
        await navigationChecks(uri, text, f);
        await c.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
        n++;
      }
    }
    assert.ok(n > 100);
  });
}

s.run();
