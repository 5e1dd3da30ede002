// `workflows-emulator lint` (docs/lint.md), black-box on the built dist/emulator.js: the text, JSON and SARIF
// reports (SARIF validated against the OASIS SARIF 2.1.0 schema in test/fixtures), the exit codes, and the
// directory walk that leaves test and mock files alone. Run `npm run build` first.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AjvModule from 'ajv-draft-04';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';

const EMULATOR_JS = new URL('../../dist/emulator.js', import.meta.url).pathname;
const REPO = new URL('../../', import.meta.url).pathname;

const s = suite('lint command');

function lint(args: string[], cwd = REPO) {
  const r = spawnSync(process.execPath, [EMULATOR_JS, 'lint', ...args], { cwd, encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

let dir = '';
s.before(() => {
  dir = mkdtempSync(join(tmpdir(), 'wf-lint-'));
  writeFileSync(join(dir, 'bad.yaml'), 'main:\n  steps:\n    - get:\n        call: http.gett\n        args: {url: x}\n');
  writeFileSync(join(dir, 'warn.yaml'), '- a:\n    assign:\n      - x: 1\n    next: b\n- b:\n    return: ${x}\n');
  writeFileSync(join(dir, 'clean.yaml'), '- a:\n    return: 1\n');
  writeFileSync(join(dir, 'cases.test.yaml'), 'workflow: clean.yaml\ncases: []\n');
  writeFileSync(join(dir, 'other.yaml'), 'apiVersion: v1\nkind: ConfigMap\n');
});
s.after(() => rmSync(dir, { recursive: true, force: true }));

s('the examples lint with exit 0 and a summary line (docs/lint.md "Exit codes")', () => {
  const r = lint(['examples/workflows']);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /0 errors, \d+ warnings? in 5 files/);
});

s('a deploy error is file:line:col, error, its code and did-you-mean, and exits 1 (docs/lint.md "Output")', () => {
  const r = lint(['bad.yaml'], dir);
  assert.is(r.code, 1);
  assert.match(r.stdout, /^bad\.yaml:4:15: error UNKNOWN_FUNCTION step "get": unknown function or subworkflow 'http\.gett' \(did you mean 'http\.get'\?\)$/m);
});

s('warnings exit 0 without --max-warnings, 1 above it, 0 at it (docs/lint.md "Exit codes")', () => {
  assert.is(lint(['warn.yaml'], dir).code, 0);
  const over = lint(['warn.yaml', '--max-warnings', '0'], dir);
  assert.is(over.code, 1);
  assert.match(over.stdout, /warn\.yaml:4:11: warning REDUNDANT_NEXT/);
  assert.is(lint(['warn.yaml', '--max-warnings=1'], dir).code, 0);
});

s('a directory is walked for workflow definitions only: test files and other YAML are left alone (docs/lint.md "Files")', () => {
  const r = lint(['--format', 'json'], dir);
  const files = (JSON.parse(r.stdout) as { file: string }[]).map((f) => f.file).sort();
  assert.equal(files, ['bad.yaml', 'clean.yaml', 'warn.yaml']);
  assert.is(r.code, 1);
});

s('bad usage exits 2: an unknown option, an unknown format, a bad number, a missing path (docs/lint.md "Exit codes")', () => {
  for (const args of [['--nope'], ['--format', 'xml'], ['--max-warnings', 'many'], ['missing.yaml']]) {
    const r = lint(args, dir);
    assert.is(r.code, 2, args.join(' '));
    assert.match(r.stderr, /workflows-emulator lint: /);
  }
});

s('--format sarif is valid SARIF 2.1.0 with a rule per code linked to docs/lint.md (https://docs.oasis-open.org/sarif/sarif/v2.1.0/)', () => {
  const r = lint(['--format', 'sarif', 'bad.yaml', 'warn.yaml'], dir);
  const log = JSON.parse(r.stdout) as { runs: any[] } & Record<string, unknown>;
  const schema = JSON.parse(readFileSync(new URL('../fixtures/sarif-schema-2.1.0.json', import.meta.url), 'utf8'));
  const Ajv = AjvModule.default;
  const ajv = new Ajv({ allErrors: true, strict: false });
  // The formats the schema names, checked rather than ignored.
  ajv.addFormat('uri', (v: string) => URL.canParse(v));
  ajv.addFormat('uri-reference', (v: string) => URL.canParse(v, 'file:///'));
  ajv.addFormat('date-time', (v: string) => !Number.isNaN(Date.parse(v)));
  const validate = ajv.compile(schema);
  assert.ok(validate(log), JSON.stringify(validate.errors, null, 2));
  const run = log.runs[0];
  assert.equal(run.tool.driver.rules.map((x: { id: string }) => x.id), ['REDUNDANT_NEXT', 'UNKNOWN_FUNCTION']);
  assert.match(run.tool.driver.rules[1].helpUri, /docs\/lint\.md#unknown_function$/);
  const err = run.results.find((x: { ruleId: string }) => x.ruleId === 'UNKNOWN_FUNCTION');
  assert.is(err.level, 'error');
  assert.equal(err.locations[0].physicalLocation.artifactLocation, { uri: 'bad.yaml', uriBaseId: '%SRCROOT%' });
  assert.equal(err.locations[0].physicalLocation.region, { startLine: 4, startColumn: 15, endLine: 4, endColumn: 24 });
  // The schema itself refuses a log that is not SARIF: the validation can fail.
  assert.not.ok(validate({ ...log, version: '2.0.0' }));
});

s.run();
