// Real input: every published sample of Google's workflows-samples repository, which Google deploys to the
// real service nightly, compiles here too, in YAML and in JSON (docs/language.md#definitions, "Real input"; corpus README).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS, skipWithoutCorpus } from '../../support/corpus.ts';
import { compileDefinition } from '../../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../../src/stdlib/index.ts';

const s = suite('corpus: Google workflows-samples');

const root = CORPUS;
const files =
  root === undefined
    ? []
    : (['yaml', 'json'] as const).flatMap((format) =>
        readdirSync(join(root, format))
          .filter((f) => f.endsWith(`.${format}`))
          .sort()
          .map((f) => ({ format, name: `${format}/${f}`, path: join(root, format, f) })),
      );

if (!skipWithoutCorpus(s, 'every published sample compiles, in YAML and JSON')) {
  s('the corpus holds 94 workflows in YAML and in JSON', () => {
    assert.is(files.length, 188);
  });
}

for (const f of files) {
  s(`${f.name} compiles (docs/language.md#definitions)`, () => {
    const source = readFileSync(f.path, 'utf8');
    const d = compileDefinition(source, DEFINITION_LIBRARY, { format: f.format });
    assert.ok(d.main.steps.steps.length > 0);
    // The format is detected the same way when not given.
    const detected = compileDefinition(source, DEFINITION_LIBRARY);
    assert.equal([...detected.workflows.keys()], [...d.workflows.keys()]);
  });
}

s.run();
