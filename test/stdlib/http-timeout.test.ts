// http.* ends a request only at the workflow's own timeout (Google's http reference: "timeout", up to 1800 s,
// TimeoutError), never at a timeout of the platform's fetch: Node's fetch (undici) cuts a request off after
// 300 s without headers or without body data (its headersTimeout and bodyTimeout). The bundle runs a one-shot
// `run` under a preload (test/support/short-fetch-timeouts.mjs) that sets both to 300 ms for the whole process
// through undici's public setGlobalDispatcher; a plain fetch there fails on a slow response (checked first),
// http.* must not. undici checks those two timeouts on a coarse clock (its "fast timers" tick about every
// half second), so a 300 ms timeout fires within about a second and the slow responses here take 2.5 s.
// The four runs are started together in `before` (each test then checks its own): they only wait.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EMULATOR_JS } from '../support/emulator.ts';
import { startTestServer, type TestServer } from '../support/http-servers.ts';

const SHORT_FETCH_TIMEOUTS = resolve(new URL('../support/short-fetch-timeouts.mjs', import.meta.url).pathname);

const s = suite('http.* timeouts: the workflow\'s, not the platform fetch\'s');

/** How long the slow responses take: well past the 300 ms timeouts and the second it may take them to fire. */
const SLOW_MS = 2500;

type Outcome = { code: number | null; stdout: string; stderr: string };
let server: TestServer;
let dir: string;
let runs: { plainFetch: Promise<Outcome>; lateHeaders: Promise<Outcome>; lateBody: Promise<Outcome>; ownTimeout: Promise<Outcome> };
s.before(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'wfemu-http-timeout-'));
  const script = `fetch(${JSON.stringify(`${server.url}/slow?ms=${SLOW_MS}`)}).then(() => console.log('answered'), (e) => console.log(e.cause?.code))`;
  runs = {
    plainFetch: node(['-e', script]),
    lateHeaders: runGet('late-headers', `${server.url}/slow?ms=${SLOW_MS}`),
    lateBody: runGet('late-body', `${server.url}/slow-body?ms=${SLOW_MS}`, 20),
    ownTimeout: runGet('own-timeout', `${server.url}/slow?ms=${SLOW_MS + 500}`, 1),
  };
});
s.after(async () => {
  await Promise.all(Object.values(runs ?? {}));
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a workflow that GETs `url` (with `timeout` seconds when given) and returns its exit code and output. */
function runGet(name: string, url: string, timeout?: number): Promise<Outcome> {
  const file = join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    `main:
  steps:
    - get:
        call: http.get
        args:
          url: ${url}${timeout !== undefined ? `\n          timeout: ${timeout}` : ''}
        result: r
    - done:
        return: \${r.body}
`,
  );
  return node([EMULATOR_JS, 'run', file]);
}

/** Runs node with the preload and `args`; resolves to its exit code and output. */
function node(args: string[]): Promise<Outcome> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', SHORT_FETCH_TIMEOUTS, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

s('under the preload a plain fetch fails on a response slower than 300 ms: the timeouts below are in force', async () => {
  const r = await runs.plainFetch;
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout.trim(), 'UND_ERR_HEADERS_TIMEOUT');
});

s('a response whose headers come after the platform fetch\'s headersTimeout still arrives within the default timeout (Google\'s http reference: "timeout")', async () => {
  const r = await runs.lateHeaders;
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout), 'late');
});

s('a body that pauses for longer than the platform fetch\'s bodyTimeout still arrives within the workflow\'s timeout (Google\'s http reference: "timeout")', async () => {
  const r = await runs.lateBody;
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout), 'early late');
});

s('the workflow\'s own timeout ends the request with TimeoutError (Google\'s http reference: "Timeout exceeded: TimeoutError")', async () => {
  const r = await runs.ownTimeout;
  assert.is(r.code, 1, r.stderr);
  const payload = JSON.parse(r.stderr.trim().split('\n').pop()!);
  assert.equal(payload.tags, ['TimeoutError']);
  assert.match(payload.message, /timed out after 1 seconds/);
});

s.run();
