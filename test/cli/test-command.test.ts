// `workflows-emulator test` of the built bundle (docs/testing.md#the-test-command): test files found under paths, cases run in
// isolation with mocks, callbacks and the virtual clock, the readable report, JUnit XML (parsed) and TAP,
// --filter, skip/only, exit codes 0/1/2, invalid test files with file:line:col, and --watch. Run
// `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { EMULATOR_JS } from '../support/emulator.ts';
import { parseXml, type XmlElement } from '../support/xml.ts';

const s = suite<{ dir: string }>('cli: workflows-emulator test (docs/testing.md#the-test-command)');

const EXAMPLES = new URL('../../examples', import.meta.url).pathname;

function write(dir: string, files: Record<string, string>): void {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
}

function runTest(cwd: string, ...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [EMULATOR_JS, 'test', ...args], { cwd, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

// A workflow that calls a service, sleeps an hour, retries a flaky call and waits for a callback.
const WORKFLOW = `main:
  params: [args]
  steps:
    - fetch_user:
        call: http.get
        args:
          url: \${"https://api.example.com/users/" + string(args.id)}
        result: user
    - nap:
        call: sys.sleep
        args:
          seconds: 3600
    - charge:
        try:
          call: http.post
          args:
            url: https://pay.example.com/charge
            body:
              amount: \${args.amount}
              currency: EUR
          result: paid
        retry: \${http.default_retry}
    - ask:
        call: events.create_callback_endpoint
        result: cb
    - wait:
        call: events.await_callback
        args:
          callback: \${cb}
          timeout: 60
        result: answer
    - log:
        call: sys.log
        args:
          json:
            user: \${user.body.name}
    - done:
        return:
          name: \${user.body.name}
          paid: \${paid.body.ok}
          approved: \${answer.http_request.body.approved}
          started: \${args.amount * 2}
`;

const MOCKS = `http:
  - match: {method: GET, url: "https://api.example.com/users/*"}
    respond: {status: 200, body: {name: Ada}}
  - match: {url: "https://pay.example.com/charge", body: {currency: EUR}}
    respond: [{status: 503}, {status: 200, body: {ok: true}}]
unmatched: {http: error}
`;

const TESTS = `workflow: ../workflows/flow.yaml
mocks: ./mocks.yaml
cases:
  - name: pays on the second try and is approved
    argument: {id: 7, amount: 5}
    callbacks: [{body: {approved: true}}]
    expect:
      result: {name: Ada, paid: true, approved: true, started: 10}
      steps: [fetch_user, nap, charge, wait, done]
      calls:
        - {method: GET, url: "https://api.example.com/users/7"}
        - {method: POST, url: "https://pay.example.com/charge", error: {code: 503}}
        - {method: POST, url: "https://pay.example.com/charge", body: {amount: 5, currency: EUR}}
      logs: [{user: Ada}]
      callbacks: 1
  - name: without a callback the wait times out
    argument: {id: 8, amount: 1}
    expect:
      error: {tags: [TimeoutError]}
  - name: a charge that keeps failing
    argument: {id: 9, amount: 1}
    mocks:
      http:
        - match: {url: "https://pay.example.com/charge"}
          respond: {status: 500, body: {error: down}}
    expect:
      error: {code: 500, tags: [HttpError], body: {error: down}}
`;

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfe-test-'));
});
s.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

s('runs every test file under a directory: mocks, retries, a virtual hour, callbacks; exit 0', ({ dir }) => {
  write(dir, { 'workflows/flow.yaml': WORKFLOW, 'tests/mocks.yaml': MOCKS, 'tests/flow.test.yaml': TESTS, 'node_modules/x/a.test.yaml': 'not: a test', '.hidden/b.test.yaml': 'nor: this' });
  const started = Date.now();
  const r = runTest(dir);
  assert.ok(Date.now() - started < 50_000, 'the hour of sleep passed on the virtual clock');
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^tests\/flow\.test\.yaml\n {2}✓ pays on the second try and is approved \(\d+ ms\)\n {2}✓ without a callback the wait times out \(\d+ ms\)\n {2}✓ a charge that keeps failing \(\d+ ms\)\n\n3 passed, 0 failed\n$/);
});

s('a failing case shows the structural difference, the steps that ran and the failing line; exit 1', ({ dir }) => {
  const wrong = TESTS.replace('started: 10}', 'started: 10.0}').replace('error: {tags: [TimeoutError]}', 'result: 1');
  write(dir, { 'workflows/flow.yaml': WORKFLOW, 'tests/mocks.yaml': MOCKS, 'tests/flow.test.yaml': wrong });
  const r = runTest(dir, 'tests');
  assert.is(r.code, 1);
  assert.match(r.stdout, /✗ pays on the second try and is approved \(\d+ ms\)\n {6}result:\n {8}result\.started: expected 10\.0 \(double\), got 10 \(int\)\n {6}steps that ran: fetch_user → nap → charge → charge → charge → ask → wait → log → done/);
  assert.match(r.stdout, /✗ without a callback the wait times out \(\d+ ms\)\n {6}result:\n {8}expected the execution to succeed, but it failed at step wait: \[TimeoutError\] .*\n {6}steps that ran: .*\n {6}at \.\.\/workflows\/flow\.yaml:26:7: - wait:/);
  assert.match(r.stdout, /\n1 passed, 2 failed\n$/);
});

s('an unmatched call under unmatched.http: error fails, naming the call and the nearest mock', ({ dir }) => {
  const tests = `workflow: flow.yaml\nmocks:\n  http: [{match: {url: "https://api.example.com/users/1"}, respond: {status: 200, body: {name: A}}}]\n  unmatched: {http: error}\ncases:\n  - name: other user\n    argument: {id: 2, amount: 1}\n    expect: {result: 1}\n`;
  write(dir, { 'flow.yaml': WORKFLOW, 'flow.test.yaml': tests });
  const r = runTest(dir);
  assert.is(r.code, 1);
  assert.match(r.stdout, /GET https:\/\/api\.example\.com\/users\/2/);
  assert.match(r.stdout, /nearest mock/);
});

s('JUnit XML parses, with one testsuite per file and a failure element per failed case', ({ dir }) => {
  const wrong = TESTS.replace('started: 10}', 'started: 11}');
  write(dir, { 'workflows/flow.yaml': WORKFLOW, 'tests/mocks.yaml': MOCKS, 'tests/flow.test.yaml': wrong, 'tests/hello.test.json': JSON.stringify({ workflow: 'hello.yaml', cases: [{ name: 'says <hi> & "bye"', expect: { result: 'hi' } }] }), 'tests/hello.yaml': 'main:\n  steps:\n    - r:\n        return: hi\n' });
  const r = runTest(dir, '--reporter', 'junit', '--output', join(dir, 'out', 'junit.xml'));
  assert.is(r.code, 1, r.stderr);
  assert.match(r.stdout, /^3 passed, 1 failed \(junit report in .*junit\.xml\)\n$/, r.stdout + r.stderr);
  const root = parseXml(readFileSync(join(dir, 'out', 'junit.xml'), 'utf8'));
  assert.is(root.name, 'testsuites');
  assert.is(root.attrs.tests, '4');
  assert.is(root.attrs.failures, '1');
  const suites = root.children.filter((c): c is XmlElement => typeof c !== 'string');
  assert.equal(suites.map((x) => x.attrs.name), ['tests/flow.test.yaml', 'tests/hello.test.json']);
  const cases = suites.flatMap((x) => x.children.filter((c): c is XmlElement => typeof c !== 'string'));
  assert.equal(cases.map((c) => c.attrs.name), ['pays on the second try and is approved', 'without a callback the wait times out', 'a charge that keeps failing', 'says <hi> & "bye"']);
  const failure = cases[0]!.children.find((c): c is XmlElement => typeof c !== 'string' && c.name === 'failure');
  assert.ok(failure, 'a failure element');
  assert.match(failure!.attrs.message!, /result\.started: expected 11, got 10/);
  assert.ok(cases.slice(1).every((c) => c.children.length === 0));
});

s('TAP on stdout; --filter runs the matching cases only; skip and only', ({ dir }) => {
  const tests = `workflow: hello.yaml
cases:
  - name: first
    expect: {result: hi}
  - name: second
    skip: waiting for a fix
    expect: {result: nope}
  - name: third
    expect: {result: nope}
`;
  write(dir, { 'hello.yaml': 'main:\n  steps:\n    - r:\n        return: hi\n', 'a.test.yaml': tests });
  let r = runTest(dir, '--reporter', 'tap');
  assert.is(r.code, 1);
  assert.match(r.stdout, /^TAP version 13\n1\.\.3\nok 1 - a\.test\.yaml > first\nok 2 - a\.test\.yaml > second # SKIP waiting for a fix\nnot ok 3 - a\.test\.yaml > third\n {2}---\n/);
  r = runTest(dir, '--filter', 'first');
  assert.is(r.code, 0);
  assert.match(r.stdout, /✓ first/);
  assert.not.match(r.stdout, /third/);
  assert.match(r.stdout, /1 passed, 0 failed\n$/);
  write(dir, { 'a.test.yaml': tests.replace('  - name: first\n', '  - name: first\n    only: true\n') });
  r = runTest(dir);
  assert.is(r.code, 0, r.stdout);
  assert.match(r.stdout, /1 passed, 0 failed, 2 skipped\n$/);
});

s('cases are isolated: each execution starts the mock sequences again; cases run concurrently', ({ dir }) => {
  const wf = `main:\n  steps:\n    - a:\n        call: http.get\n        args: {url: "https://x.example/n"}\n        result: r\n    - nap:\n        call: sys.sleep\n        args: {seconds: 86400}\n    - t:\n        return: \${r.body}\n`;
  const mocks = `http:\n  - match: {url: "https://x.example/n"}\n    respond: [{status: 200, body: 1}, {status: 200, body: 2}]\n`;
  // Every case sees the first answer of the sequence, however many run at once.
  const t = `workflow: w.yaml\nmocks: ./m.yaml\ncases:\n${Array.from({ length: 30 }, (_, i) => `  - name: c${i}\n    expect: {result: 1}\n`).join('')}`;
  write(dir, { 'w.yaml': wf, 'm.yaml': mocks, 'w.test.yaml': t });
  const r = runTest(dir, '--concurrency', '30');
  assert.is(r.code, 0, r.stdout);
  assert.match(r.stdout, /30 passed, 0 failed/);
});

s('virtual time is exact: parallel branches sleeping different times wake at their own time', ({ dir }) => {
  const wf = `main:
  steps:
    - start:
        assign:
          - t0: \${sys.now()}
          - woke: {}
    - both:
        parallel:
          shared: [woke]
          branches:
            - long:
                steps:
                  - sleep_long:
                      call: sys.sleep
                      args: {seconds: 10}
                  - mark_long:
                      assign:
                        - woke.long: \${int(sys.now() - t0)}
            - short:
                steps:
                  - sleep_short:
                      call: sys.sleep
                      args: {seconds: 4}
                  - mark_short:
                      assign:
                        - woke.short: \${int(sys.now() - t0)}
    - done:
        return: \${woke}
`;
  write(dir, { 'p.yaml': wf, 'p.test.yaml': 'workflow: p.yaml\ncases:\n  - name: each branch wakes at its own time\n    expect: {result: {long: 10, short: 4}}\n' });
  const r = runTest(dir);
  assert.is(r.code, 0, r.stdout + r.stderr);
});

s('an invalid test file is reported with file:line:col and exit 2; other files still run', ({ dir }) => {
  write(dir, {
    'hello.yaml': 'main:\n  steps:\n    - r:\n        return: hi\n',
    'a.test.yaml': 'workflow: hello.yaml\ncases:\n  - name: ok\n    expect: {result: hi}\n',
    'b.test.yaml': 'workflow: hello.yaml\ncases:\n  - name: typo\n    expect:\n      reslt: hi\n',
    'c.test.yaml': 'workflow: missing.yaml\ncases:\n  - name: x\n',
    'd.test.yaml': 'workflow: hello.yaml\nmocks: {http: [{match: {url: "/[/"}, respond: {status: 200}}]}\ncases:\n  - name: x\n',
  });
  const r = runTest(dir);
  assert.is(r.code, 2);
  assert.match(r.stdout, /a\.test\.yaml\n {2}✓ ok/);
  assert.match(r.stderr, /invalid test file: b\.test\.yaml:5:7: unknown key 'reslt' in 'expect'/);
  assert.match(r.stderr, /invalid test file: c\.test\.yaml:1:11: cannot read the workflow missing\.yaml: ENOENT/);
  assert.match(r.stderr, /invalid test file: d\.test\.yaml:2:\d+: /);
});

s('a workflow that does not deploy fails its cases with file:line:col; exit 1', ({ dir }) => {
  write(dir, { 'bad.yaml': 'main:\n  steps:\n    - r:\n        retrun: 1\n', 'bad.test.yaml': 'workflow: bad.yaml\ncases:\n  - name: x\n' });
  const r = runTest(dir);
  assert.is(r.code, 1);
  assert.match(r.stdout, /✗ x .*\n {6}bad\.yaml:4:9: invalid workflow definition: /);
});

s('usage errors exit 2: an unknown option, a bad reporter, a path that does not exist, no test files', ({ dir }) => {
  assert.is(runTest(dir, '--nope').code, 2);
  assert.match(runTest(dir, '--reporter', 'xml').stderr, /--reporter must be default, junit or tap/);
  assert.match(runTest(dir, 'nowhere').stderr, /no such file or directory: nowhere/);
  const r = runTest(dir);
  assert.is(r.code, 2);
  assert.match(r.stderr, /no test files/);
  assert.match(runTest(dir, '--help').stdout, /^Usage: workflows-emulator test/);
});

s('the example test files pass with no example service running', () => {
  const r = runTest(EXAMPLES);
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /\n(\d+) passed, 0 failed\n$/);
});

s('--watch runs again when a watched file changes, and stops on SIGINT', async ({ dir }) => {
  write(dir, { 'hello.yaml': 'main:\n  steps:\n    - r:\n        return: hi\n', 'a.test.yaml': 'workflow: hello.yaml\ncases:\n  - name: greets\n    expect: {result: hi}\n' });
  const child = spawn(process.execPath, [EMULATOR_JS, 'test', '--watch'], { cwd: dir, env: { ...process.env, NO_COLOR: '1' } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  const until = async (re: RegExp): Promise<void> => {
    const end = Date.now() + 20_000;
    while (!re.test(out)) {
      if (Date.now() > end) throw new Error(`timed out waiting for ${re}; output:\n${out}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  try {
    await until(/1 passed, 0 failed\n\nwatching/);
    writeFileSync(join(dir, 'hello.yaml'), 'main:\n  steps:\n    - r:\n        return: bye\n');
    await until(/change detected[\s\S]*✗ greets[\s\S]*0 passed, 1 failed/);
    const exited = new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    child.kill('SIGINT');
    assert.is(await exited, 1);
  } finally {
    child.kill('SIGKILL');
  }
});

s.run();
