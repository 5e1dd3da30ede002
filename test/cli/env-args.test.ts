// User environment variables and Google's built-in ones on every surface: `run --env NAME=VALUE` (repeatable)
// and `--env-file FILE` (https://cloud.google.com/workflows/docs/use-environment-variables), GOOGLE_CLOUD_PROJECT_NUMBER
// (`--project-number` / PROJECT_NUMBER) and GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME (the workflow's serviceAccount,
// else the default compute account; https://cloud.google.com/workflows/docs/reference/environment-variables),
// and `--compat google` through `run`, the server (JS API and REST), `test` files and `runWorkflow`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig } from '../../src/cli/config.ts';
import { runCommand, type RunIO } from '../../src/cli/run.ts';
import { testCommand } from '../../src/cli/test-command/test-command.ts';
import { runWorkflow, startEmulator } from '../../src/index.ts';

const s = suite<{ dir: string }>('env vars and --compat on every surface');

s.before((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wf-env-'));
});
s.after((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

const ENV_WORKFLOW = `main:
  steps:
    - r:
        return:
          mode: \${sys.get_env("MODE")}
          region: \${sys.get_env("REGION", "none")}
          number: \${sys.get_env("GOOGLE_CLOUD_PROJECT_NUMBER")}
          account: \${sys.get_env("GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME")}
`;
const COMPAT_WORKFLOW = `main:
  steps:
    - r:
        return: \${"Hello world" + 1}
`;

/** Runs `run` in process; exit code, stdout and stderr. */
async function run(args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: RunIO = {
    stdout: async (t) => void (stdout += t),
    stderr: async (t) => void (stderr += t),
    env,
    readStdin: async () => '',
  };
  const code = await runCommand(args, io);
  return { code, stdout, stderr };
}

s('run --env NAME=VALUE (repeatable, the last wins) over --env-file lines; sys.get_env reads them', async ({ dir }) => {
  const wf = join(dir, 'env.yaml');
  writeFileSync(wf, ENV_WORKFLOW);
  const file = join(dir, 'vars.env');
  writeFileSync(file, '# comment\n\nMODE=from-file\nexport REGION="eu-west1"\n');
  const r = await run([wf, '--env-file', file, '--env', 'MODE=first', '--env=MODE=a=b']);
  assert.is(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout), {
    mode: 'a=b',
    region: 'eu-west1',
    number: '123456789012',
    account: '123456789012-compute@developer.gserviceaccount.com',
  });
});

s('run --project-number (or PROJECT_NUMBER) sets GOOGLE_CLOUD_PROJECT_NUMBER and the default account', async ({ dir }) => {
  const wf = join(dir, 'env.yaml');
  writeFileSync(wf, ENV_WORKFLOW);
  const r = await run([wf, '--env', 'MODE=x', '--project-number', '42']);
  assert.equal(JSON.parse(r.stdout).number, '42');
  assert.equal(JSON.parse(r.stdout).account, '42-compute@developer.gserviceaccount.com');
  const v = await run([wf, '--env', 'MODE=x'], { PROJECT_NUMBER: '7' });
  assert.equal(JSON.parse(v.stdout).number, '7');
});

s('run refuses a bad --env, a reserved name, an unreadable --env-file and a bad project number with exit 2', async ({ dir }) => {
  const wf = join(dir, 'env.yaml');
  writeFileSync(wf, ENV_WORKFLOW);
  for (const [args, message] of [
    [['--env', 'NOVALUE'], /--env "NOVALUE": expected NAME=VALUE/],
    [['--env', 'GOOGLE_X=1'], /reserved/],
    [['--env-file', join(dir, 'missing.env')], /cannot read --env-file/],
    [['--project-number', 'abc'], /invalid project number/],
  ] as const) {
    const r = await run([wf, ...args]);
    assert.is(r.code, 2, r.stderr);
    assert.match(r.stderr, message);
  }
  writeFileSync(join(dir, 'bad.env'), 'A=1\nnot an assignment\n');
  const r = await run([wf, '--env-file', join(dir, 'bad.env')]);
  assert.match(r.stderr, /bad\.env:2: expected NAME=VALUE/);
});

s('run --compat google (or COMPAT=google) switches to Google; without it the spec holds', async ({ dir }) => {
  const wf = join(dir, 'compat.yaml');
  writeFileSync(wf, COMPAT_WORKFLOW);
  assert.is((await run([wf])).code, 1);
  const g = await run([wf, '--compat', 'google']);
  assert.is(g.code, 0, g.stderr);
  assert.is(JSON.parse(g.stdout), 'Hello world1');
  assert.is(JSON.parse((await run([wf], { COMPAT: 'google' })).stdout), 'Hello world1');
  assert.match((await run([wf, '--compat', 'gcp'])).stderr, /invalid compat/);
});

s('the server: --compat and --project-number parse from flags and variables; a bad value is an error', () => {
  const c = parseConfig(['--compat', 'google', '--project-number', '99'], {});
  assert.is(c.kind === 'config' && c.config.compat, 'google');
  assert.is(c.kind === 'config' && c.config.projectNumber, '99');
  const e = parseConfig([], { COMPAT: 'google', PROJECT_NUMBER: '5' });
  assert.equal(e.kind === 'config' && [e.config.compat, e.config.projectNumber], ['google', '5']);
  const d = parseConfig([], {});
  assert.equal(d.kind === 'config' && [d.config.compat, d.config.projectNumber], [undefined, undefined]);
  assert.is(parseConfig(['--compat', 'x'], {}).kind, 'error');
});

s("the JS API and REST: compat and projectNumber options; the service account is the workflow's serviceAccount, else the default compute account", async () => {
  const emu = await startEmulator({ compat: 'google', projectNumber: '555', env: { MODE: 'api' } });
  try {
    await emu.deploy('compat', COMPAT_WORKFLOW);
    assert.is((await emu.run('compat')).result, 'Hello world1');
    await emu.deploy('env', ENV_WORKFLOW);
    const plain = (await emu.run('env')).result as Record<string, string>;
    assert.equal([plain.number, plain.account], ['555', '555-compute@developer.gserviceaccount.com']);
    const res = await fetch(`${emu.url}/v1/${emu.parent}/workflows?workflowId=sa`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sourceContents: ENV_WORKFLOW, serviceAccount: 'projects/p/serviceAccounts/runner@p.iam.gserviceaccount.com' }),
    });
    assert.is(res.status, 200, await res.clone().text());
    assert.is(((await emu.run('sa')).result as Record<string, string>).account, 'runner@p.iam.gserviceaccount.com');
  } finally {
    await emu.close();
  }
  const spec = await startEmulator();
  try {
    await spec.deploy('compat', COMPAT_WORKFLOW);
    assert.is((await spec.run('compat')).state, 'FAILED');
  } finally {
    await spec.close();
  }
});

s("a test file's compat key and runWorkflow's compat option switch to Google", async ({ dir }) => {
  writeFileSync(join(dir, 'compat.yaml'), COMPAT_WORKFLOW);
  const file = (compat: string) => `workflow: ./compat.yaml\n${compat}cases:\n  - name: joins\n    expect:\n      result: Hello world1\n`;
  writeFileSync(join(dir, 'google.test.yaml'), file('compat: google\n'));
  writeFileSync(join(dir, 'spec.test.yaml'), file(''));
  let out = '';
  const io = { stdout: (t: string) => void (out += t), stderr: (t: string) => void (out += t), cwd: dir };
  assert.is(await testCommand([join(dir, 'google.test.yaml')], io), 0, out);
  assert.is(await testCommand([join(dir, 'spec.test.yaml')], io), 1, out);
  writeFileSync(join(dir, 'bad.test.yaml'), file('compat: gcp\n'));
  assert.is(await testCommand([join(dir, 'bad.test.yaml')], io), 2);
  assert.match(out, /bad\.test\.yaml:2:9: 'compat' must be spec or google/);
  assert.is((await runWorkflow({ source: COMPAT_WORKFLOW, compat: 'google' })).result, 'Hello world1');
  assert.is((await runWorkflow({ source: COMPAT_WORKFLOW })).state, 'FAILED');
});

s.run();
