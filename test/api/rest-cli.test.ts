// The command line of the built bundle (docs/cli.md#configuration): environment variables and flags (a flag beats
// its variable), --help, --version, one-line errors with exit code 2, the listening line, API-only mode, and
// SIGINT/SIGTERM ending with exit code 0. Config parsing is also checked in process.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { parseConfig } from '../../src/cli/config.ts';
import { EMULATOR_JS, startEmulator } from '../support/emulator.ts';

const s = suite('command line and configuration');

const cli = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [EMULATOR_JS, ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', ...env }, timeout: 10_000 });

s('--help prints usage naming every option; --version prints the version (docs/cli.md#running-the-emulator)', () => {
  const help = cli(['--help']);
  assert.is(help.status, 0);
  for (const flag of ['--port', '--grpc-port', '--host', '--project', '--location', '--workflows-dir', '--version']) {
    assert.ok(help.stdout.includes(flag), flag);
  }
  const version = cli(['--version']);
  assert.is(version.status, 0);
  assert.match(version.stdout.trim(), /^\d+\.\d+\.\d+/);
});

s('bad values end start-up with a one-line error and exit code 2 (docs/cli.md#running-the-emulator)', () => {
  const cases: [string[], Record<string, string>, RegExp][] = [
    [['--port', 'abc'], {}, /port/],
    [['--port', '70000'], {}, /port/],
    [[], { PORT: 'eighty' }, /PORT/],
    [['--grpc-port', '-1'], {}, /gRPC port/],
    [['--workflows-dir', '/no/such/dir/here'], {}, /does not exist/],
    [[], { WORKFLOWS_DIR: '/no/such/dir/either' }, /does not exist/],
    [['--workflows-dir', EMULATOR_JS], {}, /not a directory/],
    [['--project', 'a/b'], {}, /project/],
    [['--location', ''], {}, /location/],
    [['--bogus'], {}, /unknown option/],
    [['--port'], {}, /needs a value/],
  ];
  for (const [args, env, message] of cases) {
    const r = cli(args, env);
    assert.is(r.status, 2, `${args.join(' ')} ${JSON.stringify(env)}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.is(r.stderr.trim().split('\n').length, 1, r.stderr);
  }
});

s('a flag beats its environment variable; defaults are the spec\'s (docs/cli.md#configuration)', () => {
  const d = parseConfig([], {});
  assert.equal(d, { kind: 'config', config: { port: 8787, host: '0.0.0.0', grpcPort: 8788, project: 'my-project', location: 'us-central1' } });
  const e = parseConfig([], { PORT: '9000', GRPC_PORT: '9001', HOST: '127.0.0.1', PROJECT: 'p', LOCATION: 'europe-west1' });
  assert.equal(e, { kind: 'config', config: { port: 9000, host: '127.0.0.1', grpcPort: 9001, project: 'p', location: 'europe-west1' } });
  const f = parseConfig(['--port=9100', '--project', 'flagged'], { PORT: 'not-even-a-number', PROJECT: 'p' });
  assert.is(f.kind, 'config');
  if (f.kind === 'config') {
    assert.is(f.config.port, 9100);
    assert.is(f.config.project, 'flagged');
  }
  const dir = parseConfig(['--workflows-dir', '.'], {});
  assert.ok(dir.kind === 'config' && dir.config.workflowsDir?.startsWith('/'));
});

s('start-up prints one line with the address; without a directory the service has zero workflows (docs/cli.md#configuration)', async () => {
  const emu = await startEmulator({ workflowsDir: false, project: 'proj-x', location: 'loc-y' });
  try {
    const lines = emu.stdout().trim().split('\n');
    assert.is(lines.length, 1);
    assert.match(lines[0]!, /listening on http:\/\/127\.0\.0\.1:\d+/);
    const r = await emu.request('GET', '/workflows');
    assert.is(r.status, 200);
    assert.equal(r.body, { workflows: [] });
    assert.ok(emu.api.includes('/projects/proj-x/locations/loc-y'));
  } finally {
    assert.is(await emu.close(), 0);
  }
});

s('SIGINT closes the listeners and exits 0 (docs/cli.md#running-the-emulator)', async () => {
  const emu = await startEmulator({ workflowsDir: false });
  const exited = new Promise<number | null>((r) => emu.child.on('exit', (code) => r(code)));
  emu.child.kill('SIGINT');
  assert.is(await exited, 0);
  await emu.close();
  await fetch(emu.url + '/ui').then(
    () => assert.unreachable('the port should be closed'),
    () => undefined,
  );
});

s('a port already in use ends start-up with an error, not a hang', async () => {
  const emu = await startEmulator({ workflowsDir: false });
  try {
    const r = cli(['--port', String(emu.port), '--grpc-port', '0', '--host', '127.0.0.1']);
    assert.is.not(r.status, 0);
    assert.match(r.stderr, /EADDRINUSE|in use/);
  } finally {
    await emu.close();
  }
});

s.run();
