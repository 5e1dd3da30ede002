// The one-shot command of the built bundle (docs/cli.md#one-shot-runs): `workflows-emulator run <file>
// [--data ...]` prints the result's JSON (only) on stdout, the error payload's JSON on stderr, and exits 0 for
// SUCCEEDED, 1 for FAILED, 2 for an invalid definition (file:line:col) or bad arguments; callbacks are served
// on PORT while the execution waits and their URL is printed on stderr. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMULATOR_JS } from '../support/emulator.ts';
import { startTestServer, type TestServer } from '../support/http-servers.ts';

const s = suite<{ dir: string; http: TestServer }>('cli: workflows-emulator run (docs/cli.md#one-shot-runs)');

const HELLO = `main:
  params: [args]
  steps:
    - log:
        call: sys.log
        args:
          text: \${"hi " + args.name}
    - done:
        return:
          greeting: \${"Hello, " + args.name}
          big: 9007199254740993
          half: 0.5
`;
const FAILING = `main:
  steps:
    - first:
        assign:
          - a: 1
    - explode:
        raise:
          message: boom
          code: 7
          tags: [Custom]
`;
const CALLBACK = `main:
  steps:
    - create:
        call: events.create_callback_endpoint
        args:
          http_callback_method: PUT
        result: cb
    - wait:
        call: events.await_callback
        args:
          callback: \${cb}
          timeout: 30
        result: req
    - done:
        return:
          body: \${req.http_request.body}
          method: \${req.http_request.method}
`;

/** The environment of every run: PATH only, so PORT and friends of the caller do not leak in. */
const baseEnv = (): Record<string, string> => ({ PATH: process.env.PATH ?? '' });

function write(ctx: { dir: string }, name: string, content: string): string {
  const path = join(ctx.dir, name);
  writeFileSync(path, content);
  return path;
}

function run(args: string[], options: { input?: string; env?: Record<string, string>; cwd?: string } = {}) {
  const r = spawnSync(process.execPath, [EMULATOR_JS, 'run', ...args], {
    encoding: 'utf8',
    env: { ...baseEnv(), ...options.env },
    timeout: 20_000,
    ...(options.input !== undefined ? { input: options.input } : {}),
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Starts `run` in the background; resolves with its output and exit code once it exits. */
function runAsync(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [EMULATOR_JS, 'run', ...args], { env: { ...baseEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  const waitFor = async (pattern: RegExp, timeoutMs = 10_000): Promise<RegExpExecArray> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const m = pattern.exec(stderr);
      if (m) return m;
      if (child.exitCode !== null || Date.now() > deadline) throw new Error(`no ${pattern} in stderr:\n${stderr}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { child, exited, waitFor };
}

s.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-run-'));
});
s.before(async (ctx) => {
  ctx.http = await startTestServer();
});
s.after(async (ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
  await ctx.http.close();
});

s('SUCCEEDED: the result JSON alone on stdout (ints exact), exit code 0; sys.log lines go to stderr (docs/cli.md#one-shot-runs)', (ctx) => {
  const file = write(ctx, 'hello.yaml', HELLO);
  const r = run([file, '--data', '{"name": "Ada"}']);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, '{"greeting":"Hello, Ada","big":9007199254740993,"half":0.5}\n');
  const log = JSON.parse(r.stderr.trim().split('\n')[0]!);
  assert.is(log.textPayload, 'hi Ada');
  assert.is(log.workflowId, 'hello');
  assert.is(log.severity, 'DEFAULT');
});

s('FAILED: nothing on stdout, the error payload JSON as the last line of stderr after the failing step, exit code 1 (docs/cli.md#one-shot-runs)', (ctx) => {
  const file = write(ctx, 'failing.yaml', FAILING);
  const r = run([file]);
  assert.is(r.status, 1, r.stderr);
  assert.is(r.stdout, '');
  const lines = r.stderr.trim().split('\n');
  assert.equal(JSON.parse(lines.at(-1)!), { message: 'boom', code: 7, tags: ['Custom'] });
  assert.match(lines.at(-2)!, /FAILED \(step: explode\)/);
});

s('FAILED by a runtime error: the payload carries the spec\'s tag (docs/api-resources.md#errors: KeyError)', (ctx) => {
  const file = write(ctx, 'keyerror.yaml', 'main:\n  steps:\n    - read:\n        return: ${sys.get_env("NOT_THERE_AT_ALL")}\n');
  const r = run([file]);
  assert.is(r.status, 1);
  const payload = JSON.parse(r.stderr.trim().split('\n').at(-1)!);
  assert.equal(payload.tags, ['KeyError']);
  assert.is(payload.code, 0);
});

s('a result that is bytes fails the execution with TypeError, as the service does (docs/language.md#data-types: bytes)', (ctx) => {
  const file = write(ctx, 'bytes.yaml', 'main:\n  steps:\n    - done:\n        return: ${text.encode("x")}\n');
  const r = run([file]);
  assert.is(r.status, 1);
  assert.equal(JSON.parse(r.stderr.trim().split('\n').at(-1)!).tags, ['TypeError']);
});

s('an invalid definition: exit code 2 and one message with file:line:col, step and reason (docs/cli.md#one-shot-runs)', (ctx) => {
  const bad = write(ctx, 'bad.yaml', 'main:\n  steps:\n    - a:\n        retrun: 1\n');
  const r = run([bad]);
  assert.is(r.status, 2);
  assert.is(r.stdout, '');
  assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  assert.ok(r.stderr.includes(`${bad}:4:9: invalid workflow definition: step "a" (line 4, column 9): unknown field 'retrun'`), r.stderr);

  const yaml = write(ctx, 'syntax.yaml', 'main:\n  steps: [\n');
  const y = run([yaml]);
  assert.is(y.status, 2);
  assert.match(y.stderr, new RegExp(`${yaml.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:3:1: invalid workflow definition: .*YAML syntax error`));

  const json = write(ctx, 'bad.json', '{"main": {"steps": [{"a": {"nope": 1}}]}}');
  const j = run([json]);
  assert.is(j.status, 2);
  assert.ok(j.stderr.includes(`${json}:1:28: invalid workflow definition: step "a"`), j.stderr);

  const expr = write(ctx, 'expr.yaml', 'main:\n  steps:\n    - a:\n        return: ${1 +}\n');
  const e = run([expr]);
  assert.is(e.status, 2);
  assert.ok(e.stderr.includes(`${expr}:4:22:`), e.stderr);
});

s('a JSON workflow file runs like a YAML one (docs/language.md#definitions: YAML or JSON)', (ctx) => {
  const file = write(ctx, 'sum.json', JSON.stringify({ main: { params: ['args'], steps: [{ add: { return: '${args.a + args.b}' } }] } }));
  const r = run([file, '--data', '{"a": 40, "b": 2}']);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, '42\n');
});

s('--data forms: inline, --data=, @file, @- from stdin; no --data is a null argument (docs/cli.md#one-shot-runs)', (ctx) => {
  const echo = write(ctx, 'echo.yaml', 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args}\n');
  assert.is(run([echo, '--data', '{"x": [1, 2.5, "y"]}']).stdout, '{"x":[1,2.5,"y"]}\n');
  assert.is(run(['--data={"x": 1}', echo]).stdout, '{"x":1}\n');
  const args = write(ctx, 'args.json', '{"from": "file", "n": 1234567890123456789}');
  assert.is(run([echo, '--data', `@${args}`]).stdout, '{"from":"file","n":1234567890123456789}\n');
  assert.is(run([echo, '--data', '@-'], { input: '{"from": "stdin"}' }).stdout, '{"from":"stdin"}\n');
  assert.is(run([echo]).stdout, 'null\n');
});

s('an argument given to a main without params is ignored, as by the service (docs/differences.md#resources-and-the-api)', (ctx) => {
  const file = write(ctx, 'noparams.yaml', 'main:\n  steps:\n    - done:\n        return: 1\n');
  const r = run([file, '--data', '{"unused": true}']);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, '1\n');
});

s('bad arguments: exit code 2 with a one-line message (docs/cli.md#one-shot-runs)', (ctx) => {
  const echo = write(ctx, 'echo2.yaml', 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args}\n');
  const cases: [string[], RegExp][] = [
    [[], /missing the workflow file/],
    [[join(ctx.dir, 'missing.yaml')], /cannot read .*missing\.yaml: ENOENT/],
    [[echo, '--data', '{oops'], /--data is not valid JSON/],
    [[echo, '--data', `@${join(ctx.dir, 'nope.json')}`], /cannot read .*nope\.json/],
    [[echo, '--data'], /--data needs a value/],
    [[echo, '--data', '1', '--data', '2'], /--data given twice/],
    [[echo, '--data', JSON.stringify({ s: 'x'.repeat(33 * 1024) })], /32 KB/],
    [[echo, echo], /one workflow file at a time/],
    [[echo, '--bogus'], /unknown option "--bogus"/],
    [[echo, '--port', 'abc'], /port/],
    [[write(ctx, 'empty.yaml', '  \n')], /empty/],
  ];
  for (const [args, message] of cases) {
    const r = run(args);
    assert.is(r.status, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.is(r.stdout, '');
  }
});

s('run --help prints the command\'s usage; the server\'s --help mentions run (docs/cli.md#one-shot-runs)', () => {
  const r = run(['--help']);
  assert.is(r.status, 0);
  assert.match(r.stdout, /Usage: workflows-emulator run <file\.yaml\|file\.json>/);
  assert.match(r.stdout, /--data @<file>/);
  const server = spawnSync(process.execPath, [EMULATOR_JS, '--help'], { encoding: 'utf8' });
  assert.match(server.stdout, /workflows-emulator run <file\.yaml\|file\.json>/);
});

s('http.* reaches a local server during a one-shot run (docs/standard-library.md#http)', async (ctx) => {
  const file = write(ctx, 'call.yaml', 'main:\n  params: [args]\n  steps:\n    - get:\n        call: http.post\n        args:\n          url: ${args.url}\n          body: {q: 1}\n        result: r\n    - done:\n        return: ${r.body.body}\n');
  // In the background: the test server lives in this process and must keep answering.
  const r = await runAsync([file, '--data', JSON.stringify({ url: `${ctx.http.url}/echo` })]).exited;
  assert.is(r.code, 0, r.stderr);
  assert.equal(JSON.parse(JSON.parse(r.stdout)), { q: 1 });
});

s('CLOUD_WORKFLOW_ID is the file name, CLOUD_PROJECT_ID and CLOUD_LOCATION come from PROJECT/LOCATION (docs/standard-library.md#sys)', (ctx) => {
  const file = write(ctx, 'Env_Check.yaml', 'main:\n  steps:\n    - done:\n        return: ${[sys.get_env("CLOUD_WORKFLOW_ID"), sys.get_env("CLOUD_PROJECT_ID"), sys.get_env("CLOUD_LOCATION")]}\n');
  const r = run([file, '--location', 'europe-west1'], { env: { PROJECT: 'proj-x' } });
  assert.is(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout), ['env_check', 'proj-x', 'europe-west1']);
});

s('callbacks: the URL is printed on stderr while the execution waits, a request to it resumes the run (docs/cli.md#one-shot-runs)', async (ctx) => {
  const file = write(ctx, 'callback.yaml', CALLBACK);
  const p = runAsync([file, '--port', '0', '--host', '127.0.0.1']);
  const m = await p.waitFor(/waiting for a callback: PUT (http:\/\/127\.0\.0\.1:\d+\/callbacks\/[0-9a-f]+)/);
  const url = m[1]!;
  const wrong = await fetch(url, { method: 'POST', body: '{}' });
  assert.is(wrong.status, 405);
  const other = await fetch(url.replace(/callbacks\/.*/, 'v1/projects/my-project/locations/us-central1/workflows'));
  assert.is(other.status, 404, 'no management API in a one-shot run');
  const ok = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '{"approved": true}' });
  assert.is(ok.status, 200);
  const r = await p.exited;
  assert.is(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout), { body: { approved: true }, method: 'PUT' });
});

s('callbacks: PORT sets the callback port; a workflow without callbacks opens no port (docs/cli.md#one-shot-runs, docs/cli.md#configuration)', async (ctx) => {
  // Hold a port: a callback workflow must fail to start on it (exit 2), a plain one must not care.
  const held: Server = createServer();
  await new Promise<void>((r) => held.listen(0, '127.0.0.1', r));
  const port = String((held.address() as AddressInfo).port);
  try {
    const plain = run([write(ctx, 'plain.yaml', 'main:\n  steps:\n    - done:\n        return: 1\n')], { env: { PORT: port, HOST: '127.0.0.1' } });
    assert.is(plain.status, 0, plain.stderr);
    const busy = run([write(ctx, 'cb-busy.yaml', CALLBACK)], { env: { PORT: port, HOST: '127.0.0.1' } });
    assert.is(busy.status, 2);
    assert.match(busy.stderr, new RegExp(`port ${port} is in use`));
  } finally {
    await new Promise<void>((r) => held.close(() => r()));
  }
  const p = runAsync([write(ctx, 'cb-port.yaml', CALLBACK)], { PORT: port, HOST: '127.0.0.1' });
  const m = await p.waitFor(/waiting for a callback: PUT (\S+)/);
  assert.ok(m[1]!.startsWith(`http://127.0.0.1:${port}/callbacks/`), m[1]);
  await fetch(m[1]!, { method: 'PUT', body: 'plain text' });
  const r = await p.exited;
  assert.is(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout), { body: 'plain text', method: 'PUT' });
});

s('callbacks: without --port or PORT the endpoint takes a free port, so a run works while 8787 is taken (docs/cli.md#one-shot-runs)', async (ctx) => {
  // Hold 8787 (the emulator's default port) if nothing else does; either way it is taken during the run.
  const held: Server = createServer();
  const holding = await new Promise<boolean>((r) => {
    held.once('error', () => r(false));
    held.listen(8787, () => r(true));
  });
  try {
    const p = runAsync([write(ctx, 'cb-free.yaml', CALLBACK), '--host', '127.0.0.1']);
    const m = await p.waitFor(/waiting for a callback: PUT (http:\/\/127\.0\.0\.1:(\d+)\/callbacks\/\S+)/);
    assert.is.not(m[2], '8787');
    await fetch(m[1]!, { method: 'PUT', body: '"ok"' });
    const r = await p.exited;
    assert.is(r.code, 0, r.stderr);
  } finally {
    if (holding) await new Promise<void>((r) => held.close(() => r()));
  }
});

s('callbacks: an await that times out fails the run with TimeoutError (docs/api-resources.md#events)', (ctx) => {
  const file = write(ctx, 'cb-timeout.yaml', CALLBACK.replace('timeout: 30', 'timeout: 0.05'));
  const r = run([file, '--port', '0', '--host', '127.0.0.1']);
  assert.is(r.status, 1, r.stderr);
  assert.equal(JSON.parse(r.stderr.trim().split('\n').at(-1)!).tags, ['TimeoutError']);
});

s('SIGINT cancels the waiting execution and exits 130 with nothing on stdout (docs/cli.md#one-shot-runs)', async (ctx) => {
  const file = write(ctx, 'sleepy.yaml', 'main:\n  steps:\n    - log:\n        call: sys.log\n        args:\n          text: sleeping\n    - wait:\n        call: sys.sleep\n        args:\n          seconds: 60\n');
  const p = runAsync([file]);
  await p.waitFor(/sleeping/);
  p.child.kill('SIGINT');
  const r = await p.exited;
  assert.is(r.code, 130);
  assert.is(r.stdout, '');
  assert.match(r.stderr, /interrupted; the execution was cancelled/);
});

const STEPS = `main:
  steps:
    - a:
        assign:
          - x: 1
    - b:
        call: text.split
        args:
          source: "a,b"
          separator: ","
        result: parts
    - c:
        return: \${len(parts) + x}
`;

/** The step entries `run --history` printed on stderr (lines `{"stepEntry": {...}}`), in order. */
function stepEntries(stderr: string): Record<string, unknown>[] {
  return stderr
    .split('\n')
    .filter((l) => l.startsWith('{"stepEntry":'))
    .map((l) => (JSON.parse(l) as { stepEntry: Record<string, unknown> }).stepEntry);
}

s('--history detailed prints every step entry on stderr as one JSON line, with the variables (docs/run.md "Step history")', (ctx) => {
  const r = run([write(ctx, 'steps.yaml', STEPS), '--history', 'detailed']);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, '3\n', 'stdout still holds the result alone');
  const entries = stepEntries(r.stderr);
  assert.equal(entries.map((e) => [e['step'], e['stepType'], e['state']]), [
    ['a', 'STEP_ASSIGN', 'STATE_SUCCEEDED'],
    ['b', 'STEP_STD_LIB_CALL', 'STATE_SUCCEEDED'],
    ['c', 'STEP_RETURN', 'STATE_SUCCEEDED'],
  ]);
  assert.match(String(entries[0]!['name']), /^projects\/my-project\/locations\/us-central1\/workflows\/steps\/executions\/[^/]+\/stepEntries\/1$/);
  assert.equal(entries[1]!['variableData'], { variables: { x: 1, parts: ['a', 'b'] } });
});

s('--history basic prints the entries without variables; no --history prints none (docs/run.md "Step history")', (ctx) => {
  const file = write(ctx, 'steps-basic.yaml', STEPS);
  const basic = run([file, '--history', 'basic']);
  assert.is(basic.status, 0, basic.stderr);
  const entries = stepEntries(basic.stderr);
  assert.is(entries.length, 3);
  assert.is(entries[1]!['variableData'], undefined);
  const none = run([file]);
  assert.is(none.status, 0, none.stderr);
  assert.is(stepEntries(none.stderr).length, 0);
  assert.is(stepEntries(run([file, '--history', 'none']).stderr).length, 0);
  assert.is(run([file, '--history', 'loud']).status, 2);
});

s('--history on a FAILED run: the entries come before the failure lines, the payload stays the last line (docs/run.md)', (ctx) => {
  const r = run([write(ctx, 'failing-history.yaml', FAILING), '--history', 'basic']);
  assert.is(r.status, 1, r.stderr);
  const lines = r.stderr.trim().split('\n');
  assert.equal(JSON.parse(lines.at(-1)!).tags, ['Custom']);
  assert.equal(stepEntries(r.stderr).map((e) => [e['step'], e['state']]), [['first', 'STATE_SUCCEEDED'], ['explode', 'STATE_FAILED']]);
});

s('--call-log LOG_ALL_CALLS writes EngineCallLog lines for call steps on stderr (https://cloud.google.com/workflows/docs/log-workflow)', (ctx) => {
  const file = write(ctx, 'calls.yaml', STEPS);
  const r = run([file, '--call-log', 'LOG_ALL_CALLS']);
  assert.is(r.status, 0, r.stderr);
  const logs = r.stderr
    .split('\n')
    .filter((l) => l.includes('EngineCallLog'))
    .map((l) => (JSON.parse(l) as { workflowId: string; jsonPayload: { state: string; step: string; callee: string } }));
  assert.equal(logs.map((l) => [l.workflowId, l.jsonPayload.state, l.jsonPayload.step, l.jsonPayload.callee]), [
    ['calls', 'BEGUN', 'b', 'text.split'],
    ['calls', 'SUCCEEDED', 'b', 'text.split'],
  ]);
  assert.not.match(run([file]).stderr, /EngineCallLog/, 'no call log by default');
  const errorsOnly = run([write(ctx, 'calls-fail.yaml', 'main:\n  steps:\n    - b:\n        call: json.decode\n        args:\n          data: "{"\n')]);
  assert.is(errorsOnly.status, 1);
  const errs = run([join(ctx.dir, 'calls-fail.yaml'), '--call-log', 'LOG_ERRORS_ONLY']);
  assert.match(errs.stderr, /"state":"EXCEPTION_RAISED","step":"b","callee":"json.decode"/);
  assert.not.match(errs.stderr, /"state":"BEGUN"/);
  assert.is(run([file, '--call-log', 'everything']).status, 2);
});

const PARENT = `main:
  steps:
    - start:
        call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.run
        args:
          workflow_id: double
          argument:
            n: 21
        result: r
    - done:
        return: \${r}
`;

s('child workflows: the Workflow Executions connector runs a workflow file beside the one run (https://cloud.google.com/workflows/docs/reference/googleapis/workflowexecutions/Overview)', (ctx) => {
  const dir = join(ctx.dir, 'children');
  mkdirSync(dir);
  writeFileSync(join(dir, 'double.yaml'), 'main:\n  params: [args]\n  steps:\n    - d:\n        return: ${args.n * 2}\n');
  writeFileSync(join(dir, 'parent.yaml'), PARENT);
  const r = run([join(dir, 'parent.yaml')]);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, '42\n');
});

s('child workflows: --workflows-dir names where they are found instead of the file\'s directory (docs/run.md "Child workflows")', (ctx) => {
  const here = join(ctx.dir, 'here');
  const there = join(ctx.dir, 'there');
  mkdirSync(here);
  mkdirSync(there);
  writeFileSync(join(here, 'double.yaml'), 'main:\n  params: [args]\n  steps:\n    - d:\n        return: ${args.n * 2}\n');
  writeFileSync(join(there, 'double.json'), '{"main": {"params": ["args"], "steps": [{"d": {"return": "${args.n + 1}"}}]}}');
  writeFileSync(join(here, 'parent.yaml'), PARENT);
  const r = run([join(here, 'parent.yaml'), '--workflows-dir', there]);
  assert.is(r.status, 0, r.stderr);
  assert.is(r.stdout, '22\n');
});

s('child workflows: a workflow ID no file gives fails the run with HttpError 404; a child that fails raises OperationError (Workflow Executions connector)', (ctx) => {
  const dir = join(ctx.dir, 'lonely');
  mkdirSync(dir);
  writeFileSync(join(dir, 'parent.yaml'), PARENT);
  const missing = run([join(dir, 'parent.yaml')]);
  assert.is(missing.status, 1, missing.stderr);
  const payload = JSON.parse(missing.stderr.trim().split('\n').at(-1)!) as { code: number; tags: string[] };
  assert.is(payload.code, 404);
  assert.equal(payload.tags, ['HttpError']);
  writeFileSync(join(dir, 'double.yaml'), 'main:\n  steps:\n    - boom:\n        raise: nope\n');
  const failed = run([join(dir, 'parent.yaml')]);
  assert.is(failed.status, 1, failed.stderr);
  assert.equal((JSON.parse(failed.stderr.trim().split('\n').at(-1)!) as { tags: string[] }).tags, ['OperationError']);
});

s('child workflows: a child that awaits a callback gets the run\'s callback endpoint, and a request to it resumes it (docs/run.md "Child workflows")', async (ctx) => {
  const dir = join(ctx.dir, 'waiting-child');
  mkdirSync(dir);
  writeFileSync(join(dir, 'double.yaml'), CALLBACK);
  writeFileSync(join(dir, 'parent.yaml'), PARENT);
  const p = runAsync([join(dir, 'parent.yaml'), '--host', '127.0.0.1']);
  const m = await p.waitFor(/waiting for a callback: PUT (http:\/\/127\.0\.0\.1:\d+\/callbacks\/\S+)/);
  const answer = await fetch(m[1]!, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: '"from outside"' });
  assert.is(answer.status, 200);
  const r = await p.exited;
  assert.is(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout), { body: 'from outside', method: 'PUT' });
});

s.run();
