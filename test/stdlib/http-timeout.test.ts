// http.* ends a request only at the workflow's own timeout (Google's http reference: "timeout", up to 1800 s,
// TimeoutError), never at a timeout of the platform's fetch: Node's fetch (undici) cuts a request off after
// 300 s without headers or without body data (its headersTimeout and bodyTimeout). The bundle runs a one-shot
// `run` under a preload (test/support/short-fetch-timeouts.mjs) that sets both to 300 ms for the whole process
// through undici's public setGlobalDispatcher; a plain fetch there fails on a 1 s response (checked first),
// http.* must not.
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

/** Runs node with the preload and `args`; resolves to its exit code and output. */
function node(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
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
  const script = `fetch(${JSON.stringify(`${server.url}/slow?ms=1000`)}).then(() => console.log('answered'), (e) => console.log(e.cause?.code))`;
  const r = await node(['-e', script]);
  assert.is(r.code, 0, r.stderr);
  assert.is(r.stdout.trim(), 'UND_ERR_HEADERS_TIMEOUT');
});

s('a response whose headers come after the platform fetch\'s headersTimeout still arrives within the default timeout (Google\'s http reference: "timeout")', async () => {
  const r = await runGet('late-headers', `${server.url}/slow?ms=1000`);
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout), 'late');
});

s('a body that pauses for longer than the platform fetch\'s bodyTimeout still arrives within the workflow\'s timeout (Google\'s http reference: "timeout")', async () => {
  const r = await runGet('late-body', `${server.url}/slow-body?ms=1000`, 20);
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout), 'early late');
});

s('the workflow\'s own timeout ends the request with TimeoutError (Google\'s http reference: "Timeout exceeded: TimeoutError")', async () => {
  const r = await runGet('own-timeout', `${server.url}/slow?ms=3000`, 1);
  assert.is(r.code, 1, r.stderr);
  const payload = JSON.parse(r.stderr.trim().split('\n').pop()!);
  assert.equal(payload.tags, ['TimeoutError']);
  assert.match(payload.message, /timed out after 1 seconds/);
});

s.run();
