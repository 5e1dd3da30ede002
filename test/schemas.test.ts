// The JSON Schemas of schemas/ (draft 2020-12; docs/editor.md "JSON Schemas"), checked with ajv: every example
// workflow, test file and mock file and every published sample is valid; known-bad files are not.
import { readdirSync, readFileSync } from 'node:fs';
import Ajv2020Module from 'ajv/dist/2020.js';
import { parse as parseYaml } from 'yaml';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CORPUS, skipWithoutCorpus } from './support/corpus.ts';
import { TEST_FILE_KEYS } from '../src/service/recording/test-file.ts';

const s = suite('JSON Schemas');
const REPO = new URL('../', import.meta.url);
const schema = (name: string) => JSON.parse(readFileSync(new URL(`schemas/${name}.schema.json`, REPO), 'utf8'));

const Ajv2020 = Ajv2020Module.default;
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, allowUnionTypes: true });
ajv.addSchema(schema('mocks'));
const validators = {
  workflow: ajv.compile(schema('workflow')),
  test: ajv.compile(schema('test')),
  mocks: ajv.getSchema('https://unpkg.com/workflows-emulator/schemas/mocks.schema.json')!,
};

function valid(kind: keyof typeof validators, text: string, json = false): string | true {
  const v = validators[kind];
  return v(json ? JSON.parse(text) : parseYaml(text)) ? true : JSON.stringify(v.errors?.slice(0, 3));
}

const files = (dir: string, re: RegExp) => readdirSync(new URL(dir, REPO)).filter((f) => re.test(f)).map((f) => readFileSync(new URL(dir + f, REPO), 'utf8'));

s('every example workflow, test file and mock file is valid (docs/editor.md "JSON Schemas")', () => {
  const workflows = files('examples/workflows/', /\.yaml$/);
  const tests = files('examples/tests/', /\.test\.yaml$/);
  const mocks = files('examples/tests/mocks/', /\.yaml$/);
  assert.ok(workflows.length >= 5 && tests.length >= 5 && mocks.length >= 1);
  for (const t of workflows) assert.is(valid('workflow', t), true);
  for (const t of tests) assert.is(valid('test', t), true);
  for (const t of mocks) assert.is(valid('mocks', t), true);
});

if (!skipWithoutCorpus(s, 'every published sample is a valid workflow (docs/editor.md "JSON Schemas")')) {
  s('every published sample is a valid workflow (docs/editor.md "JSON Schemas")', () => {
    let n = 0;
    for (const sub of ['yaml', 'json']) {
      for (const f of readdirSync(`${CORPUS}/${sub}`)) {
        assert.is(valid('workflow', readFileSync(`${CORPUS}/${sub}/${f}`, 'utf8'), sub === 'json'), true, `${sub}/${f}`);
        n++;
      }
    }
    assert.ok(n > 100);
  });
}

/** Known-bad files, each with what is wrong (https://cloud.google.com/workflows/docs/reference/syntax). */
const BAD_WORKFLOWS: [string, string][] = [
  ['a map of workflows without main', 'helper:\n  steps:\n    - a:\n        return: 1\n'],
  ['a step with two kind fields', '- a:\n    assign:\n      - x: 1\n    return: ${x}\n'],
  ['a misspelled field', '- a:\n    call: sys.log\n    nxt: end\n'],
  ['args without call', '- a:\n    args: {x: 1}\n    return: 1\n'],
  ['an entry of steps with two names', '- a:\n    return: 1\n  b:\n    return: 2\n'],
  ['assign that is not a list', '- a:\n    assign: {x: 1}\n'],
  ['a switch condition without condition', '- a:\n    switch:\n      - next: end\n'],
  ['a for without steps', '- a:\n    for:\n      value: v\n      in: [1]\n'],
  ['a for with both in and range', '- a:\n    for:\n      value: v\n      in: [1]\n      range: [1, 2]\n      steps:\n        - b:\n            return: 1\n'],
  ['a parallel with an unknown exception policy', '- a:\n    parallel:\n      exception_policy: ignore\n      branches:\n        - b:\n            steps:\n              - c:\n                  return: 1\n'],
  ['a workflow with an unknown field', 'main:\n  parameters: [x]\n  steps:\n    - a:\n        return: 1\n'],
  ['an empty list of steps', 'main:\n  steps: []\n'],
  ['a retry with an unknown field', '- a:\n    try:\n      call: http.get\n      args: {url: x}\n    retry:\n      predicate: ${http.default_retry_predicate}\n      max_retry: 3\n'],
];
const BAD_TESTS: [string, string][] = [
  ['a test file without cases', 'workflow: w.yaml\n'],
  ['a case without a name', 'workflow: w.yaml\ncases:\n  - argument: 1\n'],
  ['an unknown expectation', 'workflow: w.yaml\ncases:\n  - name: x\n    expect: {reslt: 1}\n'],
];
const BAD_MOCKS: [string, string][] = [
  ['an http mock without match', 'http:\n  - respond: {status: 200}\n'],
  ['an http mock with both respond and raise', 'http:\n  - match: {url: x}\n    respond: {status: 200}\n    raise: {tags: [TimeoutError]}\n'],
  ['a status outside 200..599', 'http:\n  - match: {url: x}\n    respond: {status: 700}\n'],
  ['an unknown unmatched mode', 'unmatched: {http: ignore}\n'],
];

s('known-bad workflows, test files and mock files are invalid (docs/editor.md "JSON Schemas")', () => {
  for (const [what, text] of BAD_WORKFLOWS) assert.is.not(valid('workflow', text), true, what);
  for (const [what, text] of BAD_TESTS) assert.is.not(valid('test', text), true, what);
  for (const [what, text] of BAD_MOCKS) assert.is.not(valid('mocks', text), true, what);
  // A test file's inline mocks are checked by the mock schema.
  assert.is.not(valid('test', 'workflow: w.yaml\nmocks: {http: [{respond: {status: 200}}]}\ncases:\n  - name: x\n'), true);
});

s('a test file using every key the test command reads is valid: project, location, compat, routine with args, playback (docs/testing.md)', () => {
  const text = `workflow: w.yaml
project: shop-prod
location: europe-west1
compat: google
cases:
  - name: a routine
    routine: total
    args: {items: [], tax: 0.2}
  - name: recorded
    argument: {id: 1}
    playback: {times: [1764111111000.5], uuids: [0b0c], callbacks: ["http://localhost:8080/callbacks/abc"]}
    expect: {result: 1}
`;
  assert.is(valid('test', text), true);
  assert.is.not(valid('test', 'workflow: w.yaml\ncompat: aws\ncases:\n  - name: x\n'), true);
  assert.is.not(valid('test', 'workflow: w.yaml\ncases:\n  - name: x\n    playback: {clock: [1]}\n'), true);
});

s('the test file schema declares exactly the keys the test command reads, at every level (docs/testing.md#the-test-command)', () => {
  const t = schema('test');
  const item = t.properties.cases.items;
  const keys = (o: { properties: Record<string, unknown> }): string[] => Object.keys(o.properties).sort();
  assert.equal(keys(t), [...TEST_FILE_KEYS.file].sort());
  assert.equal(keys(item), [...TEST_FILE_KEYS.case].sort());
  assert.equal(keys(item.properties.playback), [...TEST_FILE_KEYS.playback].sort());
  assert.equal(keys(item.properties.expect), [...TEST_FILE_KEYS.expect].sort());
  assert.equal(keys(item.properties.callbacks.items), [...TEST_FILE_KEYS.callback].sort());
});

s('the schemas ship in the package (package.json files)', () => {
  const pkg = JSON.parse(readFileSync(new URL('package.json', REPO), 'utf8')) as { files: string[] };
  assert.ok(pkg.files.includes('schemas'));
});

s.run();
