// http.* ends a request only at the workflow's own timeout (spec "Limits": HTTP request timeout 1800 s,
// default and maximum, TimeoutError; issue 11 item 6), never at a timeout of the platform's fetch: Node's
// fetch (undici) cuts a request off after 300 s without headers or without body data. The bundle runs a
// one-shot `run` under a preload that makes undici's clock about 500 times faster than real time
// (test/support/fast-undici-clock.mjs), so undici's 300 s pass in well under a second of real time while the
// workflow's timeout stays real.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EMULATOR_JS } from '../support/emulator.ts';
import { startTestServer, type TestServer } from '../support/http-servers.ts';

const FAST_UNDICI_CLOCK = resolve(new URL('../support/fast-undici-clock.mjs', import.meta.url).pathname);

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
  return new Promise((done) => {
    const child = spawn(process.execPath, ['--import', FAST_UNDICI_CLOCK, EMULATOR_JS, 'run', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

s('a response whose headers come after more than undici\'s 300 s (sped up) still arrives within the default timeout (spec "Limits")', async () => {
  const r = await runGet('late-headers', `${server.url}/slow?ms=2500`);
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout), 'late');
});

s('a body that pauses for more than undici\'s 300 s (sped up) still arrives within the workflow\'s timeout (spec "Limits")', async () => {
  const r = await runGet('late-body', `${server.url}/slow-body?ms=2500`, 20);
  assert.is(r.code, 0, r.stderr);
  assert.is(JSON.parse(r.stdout), 'early late');
});

s('the workflow\'s own timeout ends the request with TimeoutError (spec "http": "Timeout exceeded: TimeoutError")', async () => {
  const r = await runGet('own-timeout', `${server.url}/slow?ms=5000`, 1);
  assert.is(r.code, 1, r.stderr);
  const payload = JSON.parse(r.stderr.trim().split('\n').pop()!);
  assert.equal(payload.tags, ['TimeoutError']);
  assert.match(payload.message, /timed out after 1 seconds/);
});

s.run();
