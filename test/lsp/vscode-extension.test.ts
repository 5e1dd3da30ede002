// The VS Code extension package (editors/vscode/, docs/editor.md#vs-code) starts the language server for workflow
// files: its manifest activates it on YAML, JSON and the Cloud Workflows language (workflow file names), and its
// language client runs the bundled emulator (server/emulator.mjs, copied from dist/emulator.js by its build) with
// `lsp` on stdio for those documents. VS Code itself is not run here: the language server's own sessions are
// pinned by server.test.ts.
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const s = suite('VS Code extension');
const file = (path: string) => readFileSync(new URL(`../../editors/vscode/${path}`, import.meta.url), 'utf8');

s('the manifest activates the extension for YAML and JSON and names workflow files Cloud Workflows (docs/editor.md#vs-code)', () => {
  const manifest = JSON.parse(file('package.json')) as {
    main: string;
    activationEvents: string[];
    contributes: { languages: { id: string; filenamePatterns: string[] }[] };
  };
  assert.ok(manifest.activationEvents.includes('onLanguage:yaml') && manifest.activationEvents.includes('onLanguage:json'));
  const lang = manifest.contributes.languages.find((l) => l.id === 'cloud-workflows')!;
  for (const p of ['*.workflow.yaml', '*.workflows.yaml', '**/workflows/*.yaml']) assert.ok(lang.filenamePatterns.includes(p), p);
  assert.is(manifest.main, './out/extension.js');
});

s('the language client runs the bundled emulator with lsp on stdio for workflow, YAML and JSON documents (docs/editor.md#vs-code)', () => {
  const client = file('src/language-client.ts');
  assert.match(client, /module: context\.asAbsolutePath\('server\/emulator\.mjs'\), args: \['lsp'\], transport: TransportKind\.stdio, options: \{ execArgv: SERVER_NODE_FLAGS \}/);
  assert.match(client, /command, args: \['lsp'\], transport: TransportKind\.stdio/);
  for (const language of ['cloud-workflows', 'yaml', 'json']) assert.match(client, new RegExp(`language: '${language}'`));
  assert.match(file('src/extension.ts'), /startLanguageClient\(context\)/);
  assert.match(file('build.mjs'), /copyFileSync\(emulator, new URL\('\.\/server\/emulator\.mjs'/);
});

s.run();
