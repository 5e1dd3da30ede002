// Test files may set `project` and `location` (docs/testing.md "The test command"); without them a case runs
// in the server's defaults, `my-project` and `us-central1`, as `sys.get_env` shows. In process, through the
// command's function.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testCommand } from '../../src/cli/test/command.ts';

const s = suite<{ dir: string }>('cli: a test file sets the project and location its cases run in');

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

s.run();
