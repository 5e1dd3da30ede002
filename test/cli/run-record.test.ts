// `workflows-emulator run FILE --record TEST_FILE` (docs/recording.md): the run is written as a test case
// (ints and doubles, text and JSON bodies, a connection failure, the steps), appended to an existing test file
// without losing its comments or quoting, and `workflows-emulator test` passes it once the server it called
// is gone. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMULATOR_JS } from '../support/emulator.ts';
import { closedPortUrl, startTestServer, type TestServer } from '../support/http-servers.ts';

const s = suite<{ dir: string; http: TestServer; closed: string }>('cli: run --record writes a test case (docs/recording.md)');

const WORKFLOW = `main:
  params: [args]
  steps:
    - init:
        assign:
          - failure: null
    - get_json:
        call: http.get
        args:
          url: \${args.base + "/json"}
        result: j
    - get_text:
        call: http.get
        args:
          url: \${args.base + "/text"}
        result: t
    - post:
        call: http.post
        args:
          url: \${args.base + "/echo"}
          body:
            n: \${args.n}
        result: e
    - gone:
        try:
          call: http.get
          args:
            url: \${args.closed}
        except:
          as: err
          steps:
            - keep:
                assign:
                  - failure: \${err.tags}
    - done:
        return:
          i: \${j.body.i}
          d: \${j.body.d}
          text: \${t.body}
          echoed: \${json.decode(e.body.body)}
          failure: \${failure}
`;

// A test file written by hand: its comment, quoting and skipped case must survive the appends.
const EXISTING = `# Hand-written: keep this comment
workflow: ./calls.yaml
cases:
  - name: 'by hand'   # quoted on purpose
    skip: "written before the recording"
`;

/** Runs the bundle without blocking this process (whose test server the run calls). */
function cli(cwd: string, ...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [EMULATOR_JS, ...args], { cwd, env: { ...process.env, NO_COLOR: '1' } });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

s.before(async (ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'run-record-'));
  ctx.http = await startTestServer();
  ctx.closed = await closedPortUrl();
  writeFileSync(join(ctx.dir, 'calls.yaml'), WORKFLOW);
  writeFileSync(join(ctx.dir, 'other.yaml'), 'main:\n  steps:\n    - done:\n        return: 1\n');
});

s.after(async (ctx) => {
  await ctx.http.close();
  rmSync(ctx.dir, { recursive: true, force: true });
});

s('a run is recorded into a new test file, its workflow named relative to it', async (ctx) => {
  const data = JSON.stringify({ base: ctx.http.url, closed: ctx.closed, n: 1 });
  const r = await cli(ctx.dir, 'run', 'calls.yaml', '--data', data, '--record', 'tests/calls.test.yaml');
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stderr, /recorded as a test case in tests\/calls\.test\.yaml/);
  const text = readFileSync(join(ctx.dir, 'tests/calls.test.yaml'), 'utf8');
  assert.match(text, /^workflow: \.\.\/calls\.yaml$/m);
  assert.match(text, /body: \{i: 2, d: 2\.0\}/, 'a double keeps its fraction digit');
  assert.match(text, /raise:\n\s+tags: \[ConnectionFailedError\]/, text);
  assert.match(text, /steps: \[init, get_json, get_text, post, gone, (gone, )?keep, done\]/);
});

s('recording into an existing file appends a case and keeps its comments and quoting', async (ctx) => {
  writeFileSync(join(ctx.dir, 'calls.test.yaml'), EXISTING);
  for (const n of [2, 3]) {
    const data = JSON.stringify({ base: ctx.http.url, closed: ctx.closed, n });
    const r = await cli(ctx.dir, 'run', 'calls.yaml', '--data', data, '--record', 'calls.test.yaml');
    assert.is(r.code, 0, r.stderr);
  }
  const text = readFileSync(join(ctx.dir, 'calls.test.yaml'), 'utf8');
  assert.ok(text.startsWith("# Hand-written: keep this comment\nworkflow: ./calls.yaml\ncases:\n  - name: 'by hand' # quoted on purpose\n    skip: \"written before the recording\"\n"), text);
  assert.is(text.match(/- name: run /g)?.length, 2);
  assert.match(text, /result:\n\s+i: 2\n\s+d: 2\.0\n\s+text: hello\n\s+echoed: \{n: 3\}\n\s+failure: \[ConnectionFailedError\]/);
});

s('a test file of another workflow is refused with exit 2', async (ctx) => {
  const r = await cli(ctx.dir, 'run', 'other.yaml', '--record', 'calls.test.yaml');
  assert.is(r.code, 2);
  assert.match(r.stderr, /--record: calls\.test\.yaml: the file tests "\.\/calls\.yaml", not "other\.yaml"/);
});

s('with the server gone, `test` passes the recorded cases', async (ctx) => {
  await ctx.http.close();
  const r = await cli(ctx.dir, 'test', '.');
  assert.is(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /3 passed/);
  assert.match(r.stdout, /1 skipped/);
});

s.run();
