// The protocol constants src/lsp/protocol.ts writes out (so the bundle need not load the library for them)
// are vscode-languageserver's own (https://microsoft.github.io/language-server-protocol/specifications/lsp/3.17/specification/).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import * as lib from 'vscode-languageserver';
import * as ours from '../../src/lsp/protocol.ts';

const s = suite('protocol constants');

s('every constant of protocol.ts has the value vscode-languageserver gives it', () => {
  for (const [table, values] of Object.entries(ours)) {
    const theirs = (lib as unknown as Record<string, Record<string, number>>)[table];
    assert.ok(theirs, table);
    for (const [name, value] of Object.entries(values)) assert.is(value, theirs![name], `${table}.${name}`);
  }
});

s.run();
