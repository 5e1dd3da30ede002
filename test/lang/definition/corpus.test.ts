// Real input: every published sample of Google's workflows-samples repository, which Google deploys to the
// real service nightly, compiles here too, in YAML and in JSON (issue 2, "Real input"; corpus README).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { compileDefinition } from '../../../src/lang/definition/compile.ts';

const s = suite('corpus: Google workflows-samples');

/** The corpus sits beside the clone (CI) or at /work/shared (this machine). */
const root = [
  resolve(new URL('../../../', import.meta.url).pathname, '../shared/corpus/workflows-samples'),
  '/work/shared/corpus/workflows-samples',
].find((p) => existsSync(p));
if (!root) throw new Error('corpus not found: expected ../shared/corpus/workflows-samples beside the clone');

const files = (['yaml', 'json'] as const).flatMap((format) =>
  readdirSync(join(root, format))
    .filter((f) => f.endsWith(`.${format}`))
    .sort()
    .map((f) => ({ format, name: `${format}/${f}`, path: join(root, format, f) })),
);

s('the corpus holds 94 workflows in YAML and in JSON', () => {
  assert.is(files.length, 188);
});

for (const f of files) {
  s(`${f.name} compiles (spec "Workflow definition language")`, () => {
    const source = readFileSync(f.path, 'utf8');
    const d = compileDefinition(source, { format: f.format });
    assert.ok(d.main.steps.steps.length > 0);
    // The format is detected the same way when not given.
    const detected = compileDefinition(source);
    assert.equal([...detected.workflows.keys()], [...d.workflows.keys()]);
  });
}

s.run();
