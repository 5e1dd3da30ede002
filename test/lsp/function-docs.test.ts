// The one-line docs completion and hover show (docs/editor.md "Completion"): one per standard-library function,
// none for a name the library does not have.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { FUNCTION_DOCS, RETRY_POLICY_DOCS } from '../../src/lsp/function-docs.ts';
import { RETRY_POLICIES, STDLIB } from '../../src/stdlib/index.ts';

const s = suite('function docs');

s('every standard-library function has a one-line doc, and every doc names a function (docs/standard-library.md)', () => {
  assert.equal([...STDLIB.keys()].filter((n) => !FUNCTION_DOCS.has(n)), []);
  assert.equal([...FUNCTION_DOCS.keys()].filter((n) => !STDLIB.has(n)), []);
  for (const [name, doc] of FUNCTION_DOCS) assert.ok(!doc.includes('\n') && doc.length < 140, name);
});

s('every named retry policy has a doc (https://cloud.google.com/workflows/docs/reference/syntax/retrying)', () => {
  for (const name of RETRY_POLICIES.keys()) assert.ok(RETRY_POLICY_DOCS.has(name), name);
});

s.run();
