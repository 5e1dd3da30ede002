// Connectors in the language server (docs/editor.md#connectors), black-box: the built dist/emulator.js driven over
// stdio by vscode-jsonrpc (test/support/lsp-client.ts). Names, docs and arguments come from the connector catalog
// (Google's connectors reference, https://cloud.google.com/workflows/docs/reference/googleapis). Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { CompletionItem, Hover, TextEdit } from 'vscode-languageserver';
import { positionOf, startLspClient, type LspClient } from '../support/lsp-client.ts';

const s = suite('language server: connectors');
let c: LspClient;
s.before(async () => {
  c = await startLspClient();
});
s.after(async () => {
  await c.close();
});

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

s("hover on a connector call shows its arguments, its API and its doc (docs/editor.md#connectors)", async () => {
  const h = await c.request<Hover>('textDocument/hover', { textDocument: { uri: URI }, position: positionOf(SRC, 'googleapis.workflows', 3) });
  const value = (h.contents as { value: string }).value;
  assert.match(value, /googleapis\.workflows\.v1\.projects\.locations\.workflows\.get\(name, revisionId\?\)/);
  assert.match(value, /Workflows API: Gets details of a single workflow\./);
  assert.equal(h.range!.start, positionOf(SRC, 'googleapis.workflows'));
});

s('an unknown connector method and a missing required argument are warnings on the call (docs/lint.md#unknown_connector)', async () => {
  const unknown = SRC.replace('workflows.get', 'workflows.gett');
  const d = await c.change(URI, unknown);
  assert.equal(d.diagnostics.map((x) => [x.code, x.severity]), [['UNKNOWN_CONNECTOR', 2]]);
  assert.match(d.diagnostics[0]!.message, /did you mean 'projects\.locations\.workflows\.get'/);
  assert.equal(d.diagnostics[0]!.range.start, positionOf(unknown, 'googleapis.'));
  assert.match(d.diagnostics[0]!.codeDescription!.href, /docs\/lint\.md#unknown_connector$/);
  const missing = SRC.replace('          name: ${args.name}\n', '          revisionId: "000001-a4d"\n');
  const m = await c.change(URI, missing);
  assert.equal(m.diagnostics.map((x) => x.code), ['MISSING_CONNECTOR_ARG']);
  assert.match(m.diagnostics[0]!.message, /needs argument 'name'/);
  assert.equal((await c.change(URI, SRC)).diagnostics, []);
});

s.run();
