// http.* ends a request only at the workflow's own timeout (Google's http reference: "timeout", up to 1800 s,
// TimeoutError), never at a timeout of the platform's fetch: Node's fetch (undici) cuts a request off after
// 300 s without headers or without body data (its headersTimeout and bodyTimeout). The bundle runs a one-shot
// `run` under a preload (test/support/short-fetch-timeouts.mjs) that sets both to 300 ms for the whole process
// through undici's public setGlobalDispatcher; undici counts them on its own coarse clock (a tick every 499 ms,
// counted whether or not the process got the CPU), so they fire after two ticks, about 1 s. A plain fetch there
// fails on a server that never answers (checked first, for headers and body); http.* must not fail on responses
// that come well after that (3 s), and ends only at the workflow's own timeout.
//
// No assertion rests on how fast this machine runs: the checks of a timeout use a server that never answers,
// so only that timeout can end the request; the late responses are late by seconds beyond undici's two ticks,
// and a loaded machine only makes undici's ticks later still (then those two tests pin less, never fail
// wrongly). Every child process is killed after CHILD_LIMIT_MS, so a timeout that is not in force fails the
// test instead of hanging it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EMULATOR_JS } from '../support/emulator.ts';
import { startTestServer, type TestServer } from '../support/http-servers.ts';

const SHORT_FETCH_TIMEOUTS = resolve(new URL('../support/short-fetch-timeouts.mjs', import.meta.url).pathname);

/** `ms` for /slow and /slow-body that no run here outlasts: the server in effect never answers (an hour). */
const NEVER_MS = 3_600_000;
/** How late the late responses are, in ms: three times undici's two 499 ms ticks, however fast the machine. */
const LATE_MS = 3_000;
/** A child process still running after this long (ms) is killed: the timeout it waits for is not in force. */
const CHILD_LIMIT_MS = 60_000;

const s = suite('http.* timeouts: the workflow\'s, not the platform fetch\'s');

let server: TestServer;
let dir: string;
s.before(async () => {
  server = await startTestServer();
  dir = mkdtempSync(join(tmpdir(), 'wfemu-http-timeout-'));
});
s.after(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a workflow that GETs `url` (with `timeout` seconds when given) and returns its exit code and output. */
function runGet(name: string, url: string, timeout?: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
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

/** Runs node with the preload and `args`; resolves to its exit code (null when killed) and output. */
function node(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', SHORT_FETCH_TIMEOUTS, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: CHILD_LIMIT_MS,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

/** Runs a plain fetch of `path` under the preload, reading the whole body; resolves to what it printed: `answered` or the error's code. */
async function plainFetch(path: string): Promise<string> {
  const url = JSON.stringify(`${server.url}${path}`);
  const r = await node(['-e', `fetch(${url}).then((r) => r.text()).then(() => console.log('answered'), (e) => console.log(e.cause?.code))`]);
  assert.is(r.code, 0, `the plain fetch of ${path} did not end within ${CHILD_LIMIT_MS} ms (killed: ${r.code === null}): ${r.stderr}`);
  return r.stdout.trim();
}

s('under the preload a plain fetch fails on a server that never sends headers: the headersTimeout below is in force', async () => {
  assert.is(await plainFetch(`/slow?ms=${NEVER_MS}`), 'UND_ERR_HEADERS_TIMEOUT');
});

s('under the preload a plain fetch fails on a body that never ends: the bodyTimeout below is in force', async () => {
  assert.is(await plainFetch(`/slow-body?ms=${NEVER_MS}`), 'UND_ERR_BODY_TIMEOUT');
});

s('a response whose headers come after the platform fetch\'s headersTimeout still arrives within the default timeout (Google\'s http reference: "timeout")', async () => {
  const r = await runGet('late-headers', `${server.url}/slow?ms=${LATE_MS}`);
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout), 'late');
});

s('a body that pauses for longer than the platform fetch\'s bodyTimeout still arrives within the workflow\'s timeout (Google\'s http reference: "timeout")', async () => {
  const r = await runGet('late-body', `${server.url}/slow-body?ms=${LATE_MS}`, 20);
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout), 'early late');
});

s('the workflow\'s own timeout ends the request with TimeoutError (Google\'s http reference: "Timeout exceeded: TimeoutError")', async () => {
  const r = await runGet('own-timeout', `${server.url}/slow?ms=${NEVER_MS}`, 1);
  assert.is(r.code, 1, `killed: ${r.code === null}; ${r.stderr}`);
  const payload = JSON.parse(r.stderr.trim().split('\n').pop()!);
  assert.equal(payload.tags, ['TimeoutError']);
  assert.match(payload.message, /timed out after 1 seconds/);
});

s.run();
