// Test files may set `project` and `location` (docs/testing.md "The test command"); without them a case runs
// in the server's defaults, `my-project` and `us-central1`, as `sys.get_env` shows. In `test`, an unmatched
// http.* call fails unless the mocks say `unmatched: {http: passthrough}`. In process, through the command's
// function.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testCommand } from '../../src/cli/test-command/test-command.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const s = suite<{ dir: string }>('cli: a test file sets the project and location; unmatched http calls fail in test');

const WHERE = 'main:\n  steps:\n    - done:\n        return:\n          - ${sys.get_env("GOOGLE_CLOUD_PROJECT_ID")}\n          - ${sys.get_env("GOOGLE_CLOUD_LOCATION")}\n';

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'test-project-'));
  writeFileSync(join(ctx.dir, 'where.yaml'), WHERE);
});
s.after.each((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

async function run(dir: string): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await testCommand(['.'], { stdout: (t) => void (out += t), stderr: (t) => void (out += t), cwd: dir });
  return { code, out };
}

s('by default a case runs in my-project and us-central1, the server defaults', async (ctx) => {
  writeFileSync(join(ctx.dir, 'where.test.yaml'), 'workflow: ./where.yaml\ncases:\n  - name: defaults\n    expect: {result: [my-project, us-central1]}\n');
  const r = await run(ctx.dir);
  assert.is(r.code, 0, r.out);
});

s('project and location set in the file are what its cases read', async (ctx) => {
  writeFileSync(join(ctx.dir, 'where.test.yaml'), 'workflow: ./where.yaml\nproject: shop-prod\nlocation: europe-west1\ncases:\n  - name: set\n    expect: {result: [shop-prod, europe-west1]}\n');
  const r = await run(ctx.dir);
  assert.is(r.code, 0, r.out);
});

s('an unmatched http.* call fails the case, naming the nearest mock, unless the mocks opt into passthrough', async (ctx) => {
  const server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"live": true}'));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/live`;
  try {
    writeFileSync(join(ctx.dir, 'call.yaml'), `main:\n  steps:\n    - get:\n        call: http.get\n        args:\n          url: ${url}\n        result: r\n    - done:\n        return: \${r.body.live}\n`);
    const cases = `  - name: no mock\n    mocks: {http: [{match: {url: "https://elsewhere.test/*"}, respond: {status: 200}}]}\n    expect: {result: true}\n  - name: passthrough\n    mocks: {unmatched: {http: passthrough}}\n    expect: {result: true}\n`;
    writeFileSync(join(ctx.dir, 'call.test.yaml'), `workflow: ./call.yaml\ncases:\n${cases}`);
    const r = await run(ctx.dir);
    assert.is(r.code, 1, r.out);
    assert.match(r.out, /✗ no mock/);
    assert.match(r.out, new RegExp(`no http mock matches GET ${url.replace(/[.]/g, '\\.')} \\(unmatched\\.http is error\\): the nearest mock \\(call\\.test\\.yaml:\\d+:\\d+\\) did not match`));
    assert.match(r.out, /✓ passthrough/);
  } finally {
    await new Promise((r) => server.close(r));
  }
});

s.run();
