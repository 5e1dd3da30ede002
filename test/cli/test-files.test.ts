// Test files of `workflows-emulator test` (docs/testing.md#the-test-command), read in process: every key checked, an
// invalid file reported with file, line and column; expectations judged strictly (int ≠ double), subsets and
// subsequences as documented in src/cli/test-command/expectations.ts; JUnit XML and TAP reports well formed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseTestFile, TestFileError } from '../../src/service/recording/test-file.ts';
import { checkExpectations, equalDiff, subsetDiff, type CaseOutcome } from '../../src/cli/test-command/expectations.ts';
import { closingLine, formatCase, junitXml, tap, totalsOf, type CaseResult } from '../../src/cli/test-command/case-report.ts';
import { fromJs, mapOf, type Value } from '../../src/lang/value.ts';
import { parseJson } from '../../src/lang/json.ts';

const s = suite('cli test: test files, expectations and reports (docs/testing.md#the-test-command)');

const GOOD = `workflow: ../workflows/order.yaml
mocks: ./mocks.yaml
env: {REGION: eu, LIMIT: 3}
cases:
  - name: ships
    argument: {orderId: ord-1, qty: 2, price: 2.5}
    callbacks: [{body: {approved: true}}, {method: put, body: "text"}]
    env: {REGION: us}
    expect:
      result: {status: SHIPPED, total: 5.0}
      steps: [reserve, charge]
      calls: [{method: POST, url: "https://pay.example.com/charge"}]
      logs: [started, {level: 2}]
      callbacks: 1
  - name: fails
    skip: not yet
    expect:
      error: {tags: [HttpError], code: 503}
  - name: only this
    only: true
    timeout: 5
`;

function failure(text: string, file = 'x.test.yaml'): TestFileError {
  try {
    parseTestFile(file, text);
  } catch (e) {
    if (e instanceof TestFileError) return e;
    throw e;
  }
  throw new Error('expected a TestFileError');
}

s('reads every key of a test file, ints exact and doubles distinct, env laid over the file env', () => {
  const t = parseTestFile('order.test.yaml', GOOD);
  assert.is(t.workflow.value, '../workflows/order.yaml');
  assert.equal(t.workflow.pos, { line: 1, col: 11 });
  assert.is(t.mocks && 'value' in t.mocks ? t.mocks.value : undefined, './mocks.yaml');
  assert.equal({ ...t.env }, { REGION: 'eu', LIMIT: '3' });
  assert.is(t.cases.length, 3);
  const [a, b, c] = t.cases;
  assert.is(a!.name, 'ships');
  const arg = a!.argument as Map<string, Value>;
  assert.is(arg.get('qty'), 2n);
  assert.is(arg.get('price'), 2.5);
  assert.equal({ ...a!.env }, { REGION: 'us', LIMIT: '3' });
  assert.is(a!.callbacks.length, 2);
  assert.is(a!.callbacks[1]!.method, 'PUT');
  assert.is(a!.callbacks[1]!.body, 'text');
  assert.is((a!.expect.result!.value as Map<string, Value>).get('total'), 5.0);
  assert.equal(a!.expect.steps!.value, ['reserve', 'charge']);
  assert.is(a!.expect.callbacks!.value, 1);
  assert.is(b!.skip, 'not yet');
  assert.ok(b!.expect.error);
  assert.is(c!.only, true);
  assert.is(c!.timeoutSec, 5);
  assert.is(a!.timeoutSec, 30);
});

s('JSON test files are read with the same rules', () => {
  const t = parseTestFile('a.test.json', '{"workflow": "w.yaml", "cases": [{"name": "n", "argument": {"x": 1}, "expect": {"result": 2}}]}');
  assert.is(t.cases[0]!.expect.result!.value, 2n);
});

s('an invalid test file is reported with file, line and column and the problem', () => {
  let e = failure('workflow: w.yaml\ncases:\n  - name: a\n    expect:\n      reslt: 1\n');
  assert.is(e.message, "x.test.yaml:5:7: unknown key 'reslt' in 'expect' (expected one of: result, error, steps, calls, logs, callbacks)");
  e = failure('cases:\n  - name: a\n');
  assert.match(e.message, /^x\.test\.yaml:1:1: missing required key 'workflow'/);
  e = failure('workflow: w.yaml\ncases: []\n');
  assert.match(e.message, /^x\.test\.yaml:2:8: 'cases' must be a non-empty list/);
  e = failure('workflow: w.yaml\ncases:\n  - argument: 1\n');
  assert.match(e.message, /missing required key 'name'/);
  e = failure('workflow: w.yaml\ncases:\n  - name: a\n  - name: a\n');
  assert.match(e.message, /^x\.test\.yaml:4:5: two cases are named "a"/);
  e = failure('workflow: w.yaml\ncases:\n  - name: a\n    expect: {result: 1, error: {tags: [X]}}\n');
  assert.match(e.message, /'result' or 'error', not both/);
  e = failure('workflow: w.yaml\ncases:\n  - name: a\n    timeout: -1\n');
  assert.match(e.message, /'timeout' must be a number of seconds/);
  e = failure('workflow: [w.yaml\n');
  assert.match(e.message, /^x\.test\.yaml:\d+:\d+: YAML syntax error/);
  e = failure('workflow: w.yaml\nextra: 1\ncases:\n  - name: a\n');
  assert.match(e.message, /^x\.test\.yaml:2:1: unknown key 'extra' in test file/);
});

const outcome = (o: Partial<CaseOutcome>): CaseOutcome => ({ state: 'SUCCEEDED', steps: [], calls: [], logs: [], callbacksCreated: 0, ...o });
const v = (json: string): Value => parseJson(json);

s('result equality is strict: ints and doubles differ, map order does not matter', () => {
  assert.equal(equalDiff(v('{"a": 1, "b": [1, 2.5]}'), v('{"b": [1, 2.5], "a": 1}'), 'result'), []);
  assert.equal(equalDiff(v('{"a": 1}'), v('{"a": 1.0}'), 'result'), ['result.a: expected 1 (int), got 1.0 (double)']);
  assert.equal(equalDiff(v('[1, 2]'), v('[1]'), 'result'), ['result[1]: expected 2, but the list has only 1 item(s)']);
  assert.equal(equalDiff(v('{"a": 1}'), v('{"a": 1, "b": 2}'), 'result'), ['result.b: not expected, got 2']);
  assert.equal(equalDiff(v('{"a b": {"c": "x"}}'), v('{"a b": {"c": "y"}}'), 'result'), ['result["a b"].c: expected "x", got "y"']);
});

s('error and call expectations are subset matches (the match rule of mocks)', () => {
  const err = v('{"message": "boom", "code": 503, "tags": ["HttpError"], "body": {"x": 1, "y": [1, 2]}}');
  assert.equal(subsetDiff(v('{"code": 503, "tags": ["HttpError"], "body": {"y": [1, 2]}}'), err, 'error'), []);
  assert.equal(subsetDiff(v('{"code": 500}'), err, 'error'), ['error.code is 503, expected 500']);
  assert.equal(subsetDiff(v('{"tags": ["TimeoutError"]}'), err, 'error'), ['error.tags[0] is "HttpError", expected "TimeoutError"']);
  assert.equal(subsetDiff(v('{"missing": 1}'), err, 'error'), ['error.missing is missing']);
});

s('checkExpectations: a failing execution when a result was expected says how it failed', () => {
  const e = fromJs({ message: 'nope', code: 0, tags: ['KeyError'] });
  const m = checkExpectations({ result: { value: 1n, pos: { line: 1, col: 1 } } }, outcome({ state: 'FAILED', error: e, failedStep: 'read' }));
  assert.equal(m, [{ expectation: 'result', lines: ['expected the execution to succeed, but it failed at step read: [KeyError] nope'] }]);
  const m2 = checkExpectations({ error: { value: mapOf({ tags: ['KeyError'] }), pos: { line: 1, col: 1 } } }, outcome({ result: 3n }));
  assert.equal(m2[0]!.lines, ['expected the execution to fail, but it succeeded with 3']);
  assert.equal(checkExpectations({}, outcome({ result: null })), []);
});

s('steps, calls and logs are ordered subsequences; callbacks an exact count', () => {
  const o = outcome({
    result: null,
    steps: ['init', 'reserve', 'log', 'charge', 'ship'],
    calls: [fromJs({ kind: 'http', method: 'GET', url: 'https://a/x' }) as Map<string, Value>, fromJs({ kind: 'http', method: 'POST', url: 'https://pay/charge', body: { amount: 5 } }) as Map<string, Value>],
    logs: ['started', fromJs({ level: 2, msg: 'x' })],
    callbacksCreated: 2,
  });
  const at = { line: 1, col: 1 };
  assert.equal(checkExpectations({ steps: { value: ['reserve', 'ship'], pos: at } }, o), []);
  const bad = checkExpectations({ steps: { value: ['ship', 'reserve'], pos: at } }, o);
  assert.equal(bad[0]!.lines[0], 'expected step 2 of 2, reserve, after the ones before it, but it was not found');
  assert.equal(bad[0]!.lines[1], 'actual steps: init, reserve, log, charge, ship');
  assert.equal(checkExpectations({ calls: { value: [fromJs({ method: 'POST', body: { amount: 5 } }) as Map<string, Value>], pos: at } }, o), []);
  assert.is(checkExpectations({ calls: { value: [fromJs({ method: 'DELETE' }) as Map<string, Value>], pos: at } }, o).length, 1);
  assert.equal(checkExpectations({ logs: { value: ['started', fromJs({ level: 2 })], pos: at } }, o), []);
  assert.is(checkExpectations({ logs: { value: ['start'], pos: at } }, o).length, 1);
  assert.equal(checkExpectations({ callbacks: { value: 1, pos: at } }, o)[0]!.lines, ['expected 1 callback endpoint(s) created, got 2']);
});

const RESULTS: CaseResult[] = [
  { file: 'a.test.yaml', name: 'passes <ok>', status: 'passed', durationMs: 12 },
  { file: 'a.test.yaml', name: 'fails & "quotes"', status: 'failed', durationMs: 3, mismatches: [{ expectation: 'result', lines: ['result.a: expected 1 (int), got 1.0 (double)'] }], steps: ['one', 'two'], sourceLine: 'w.yaml:3:7: - two:' },
  { file: 'b.test.yaml', name: 'skipped', status: 'skipped', durationMs: 0, message: 'later' },
  { file: 'b.test.yaml', name: '(test file)', status: 'error', durationMs: 0, message: 'b.test.yaml:1:1: bad' },
];

s('the default report: one line per case, details under a failure, a closing line', () => {
  assert.is(formatCase(RESULTS[0]!), '  ✓ passes <ok> (12 ms)');
  const f = formatCase(RESULTS[1]!);
  assert.match(f, /✗ fails & "quotes" \(3 ms\)\n      result:\n        result\.a: expected 1 \(int\), got 1\.0 \(double\)\n      steps that ran: one → two\n      at w\.yaml:3:7: - two:/);
  assert.is(formatCase(RESULTS[2]!), '  - skipped (skipped: later)');
  assert.is(closingLine(totalsOf(RESULTS)), '1 passed, 2 failed, 1 skipped');
});

s('JUnit XML: one testsuite per file, failure/error/skipped children, everything escaped', () => {
  const x = junitXml(RESULTS);
  assert.match(x, /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="workflows-emulator test" tests="4" failures="1" errors="1" skipped="1"/);
  assert.match(x, /<testsuite name="a\.test\.yaml" tests="2" failures="1" errors="0" skipped="0"/);
  assert.match(x, /<testcase classname="a\.test\.yaml" name="passes &lt;ok&gt;" time="0\.012"\/>/);
  assert.match(x, /<testcase classname="a\.test\.yaml" name="fails &amp; &quot;quotes&quot;" time="0\.003">\n {6}<failure message="result: result\.a: expected 1 \(int\), got 1\.0 \(double\)">/);
  assert.match(x, /<skipped message="later"\/>/);
  assert.match(x, /<error message="b\.test\.yaml:1:1: bad">/);
  // Balanced: every opened testcase/testsuite is closed.
  assert.is((x.match(/<testsuite /g) ?? []).length, (x.match(/<\/testsuite>/g) ?? []).length);
});

s('TAP: a plan, ok / not ok with a YAML block, # SKIP', () => {
  const t = tap(RESULTS);
  const lines = t.split('\n');
  assert.is(lines[0], 'TAP version 13');
  assert.is(lines[1], '1..4');
  assert.is(lines[2], 'ok 1 - a.test.yaml > passes <ok>');
  assert.is(lines[3], 'not ok 2 - a.test.yaml > fails & "quotes"');
  assert.ok(t.includes('ok 3 - b.test.yaml > skipped # SKIP later'));
  assert.ok(t.includes('not ok 4 - b.test.yaml > (test file)'));
  assert.match(t, /# 1 passed, 2 failed, 1 skipped\n$/);
});

s.run();
