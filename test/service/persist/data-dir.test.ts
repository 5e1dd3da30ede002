// The data directory's start-up and bounds (docs/persistence.md): a torn last journal record is dropped and
// reported on stderr; a damaged record elsewhere, a directory of a newer format, a non-empty directory that is not
// a data directory and one in use stop start-up with exit 2 naming the file (and byte offset); watched files
// unchanged across a restart get no new revision; `--max-executions` keeps the newest finished executions; the
// health endpoint reports the directory's size. Black-box: the built bundle. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { EMULATOR_JS, runToExit, startEmulator, until, type EmulatorProcess } from '../../support/emulator.ts';
import { tempDirEach } from '../../support/temp-dir.ts';

const TRIVIAL = 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args.n}\n';

const s = suite<{ dir: string }>('data directory: start-up, damage and bounds (docs/persistence.md)');

tempDirEach(s, 'wfemu-data-');

function start(dir: string, extra: string[] = [], files?: Record<string, string>, workflowsDir?: string): Promise<EmulatorProcess> {
  return startEmulator({ workflowsDir: workflowsDir ?? (files ? undefined : false), ...(files ? { files } : {}), args: ['--data-dir', dir, ...extra] } as Parameters<typeof startEmulator>[0]);
}

/** Fills `dir` with a workflow and a finished execution, then stops the emulator; the execution's name. */
async function seed(dir: string): Promise<string> {
  const emu = await start(dir);
  try {
    await emu.request('POST', '/workflows?workflowId=w', { sourceContents: TRIVIAL });
    const created = await emu.request('POST', '/workflows/w/executions', { argument: '{"n": 7}' });
    await until(async () => ((await emu.request('GET', `/v1/${created.body.name}`)).body.state === 'SUCCEEDED' ? true : undefined), 'the execution to end');
    return created.body.name;
  } finally {
    await emu.close();
  }
}

s('a torn last journal record is dropped and reported on stderr; everything before it is read (docs/persistence.md#recovery)', async (ctx) => {
  const name = await seed(ctx.dir);
  // Half a record: a header claiming 500 bytes, and 20 of them.
  const torn = Buffer.alloc(28);
  torn.writeUInt32LE(500, 0);
  torn.write('{"t":"w","id":"half', 8);
  appendFileSync(join(ctx.dir, 'journal-0.log'), torn);
  const emu = await start(ctx.dir);
  try {
    await emu.waitForOutput(/dropped a torn last record at byte \d+ \(28 bytes\)/);
    assert.match(emu.stderr(), /journal-0\.log/);
    const ex = (await emu.request('GET', `/v1/${name}`)).body;
    assert.is(ex.state, 'SUCCEEDED');
    assert.is(ex.result, '7');
  } finally {
    await emu.close();
  }
});

s('a damaged record before the end stops start-up with exit 2 naming the file and the byte offset', async (ctx) => {
  await seed(ctx.dir);
  const path = join(ctx.dir, 'journal-0.log');
  const bytes = readFileSync(path);
  bytes[12] = bytes[12]! ^ 0xff; // inside the first record's payload
  writeFileSync(path, bytes);
  const r = await runToExit(['--data-dir', ctx.dir]);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, /journal-0\.log at byte 0: a record's checksum does not match/);
});

s('a directory written by a newer format is refused with exit 2 and a message', async (ctx) => {
  writeFileSync(join(ctx.dir, 'FORMAT.json'), '{"format": 99}\n');
  const r = await runToExit(['--data-dir', ctx.dir]);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, /FORMAT\.json: this data directory was written by a newer version of the emulator \(format 99; this one reads format 1\)/);
});

s('a non-empty directory that is not a data directory is refused with exit 2 (nothing is written into it)', async (ctx) => {
  writeFileSync(join(ctx.dir, 'notes.txt'), 'mine\n');
  const r = await runToExit(['--data-dir', ctx.dir]);
  assert.is(r.code, 2, r.stderr);
  assert.match(r.stderr, /not a data directory of the emulator/);
});

s('a data directory in use by a running emulator is refused with exit 2', async (ctx) => {
  const emu = await start(ctx.dir);
  try {
    const r = await runToExit(['--data-dir', ctx.dir]);
    assert.is(r.code, 2, r.stderr);
    assert.match(r.stderr, /in use by process \d+/);
  } finally {
    await emu.close();
  }
});

s('of emulators started at the same instant on one new directory, exactly one takes it; the others exit 2 (docs/persistence.md#the-data-directory)', async (ctx) => {
  // Several rounds, each on a directory of its own: the races (FORMAT.json written by two at once, a directory
  // made a data directory between another's two looks at it) only show in some of them.
  for (let round = 0; round < 3; round++) {
    const dir = join(ctx.dir, `round-${round}`);
    const outcomes = await Promise.all(Array.from({ length: 4 }, () => startOrExit(dir)));
    const listening = outcomes.filter((o) => o.child !== undefined);
    try {
      assert.is(listening.length, 1, outcomes.map((o) => o.stderr).join('\n'));
      for (const o of outcomes.filter((x) => x.child === undefined)) {
        assert.is(o.code, 2, o.stderr);
        assert.match(o.stderr, /in use by process \d+/, o.stderr);
      }
    } finally {
      for (const o of listening) o.child!.kill('SIGKILL');
    }
  }
});

/** Starts the bundle on `dir`: resolves with the child once it listens, or with its exit code and stderr. */
function startOrExit(dir: string): Promise<{ child?: ChildProcess; code?: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [EMULATOR_JS, '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1', '--data-dir', dir], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      if (/listening on/.test(d)) done({ child, stderr });
    });
    child.on('close', (code) => done({ code, stderr }));
  });
}

s('watched files unchanged across a restart on the same directory get no new revision; a changed one does', async (ctx) => {
  const files = { 'a.yaml': TRIVIAL, 'b.yaml': TRIVIAL.replace('args.n', 'args.n + 1') };
  const watched = mkdtempSync(join(tmpdir(), 'wfemu-watch-'));
  for (const [f, c] of Object.entries(files)) writeFileSync(join(watched, f), c);
  try {
    let emu = await start(ctx.dir, [], undefined, watched);
    const before = (await emu.request('GET', '/workflows/a')).body;
    await emu.close();
    writeFileSync(join(watched, 'b.yaml'), TRIVIAL.replace('args.n', 'args.n + 2'));
    emu = await start(ctx.dir, [], undefined, watched);
    try {
      const after = (await emu.request('GET', '/workflows/a')).body;
      assert.is(after.revisionId, before.revisionId);
      assert.is(after.updateTime, before.updateTime);
      assert.is((await emu.request('GET', '/workflows/a:listRevisions')).body.workflows.length, 1);
      assert.match((await emu.request('GET', '/workflows/b')).body.revisionId, /^000002-/);
    } finally {
      await emu.close();
    }
  } finally {
    rmSync(watched, { recursive: true, force: true });
  }
});

s('--max-executions N keeps the newest N finished executions, across a restart too; health reports the directory size', async (ctx) => {
  let emu = await start(ctx.dir, ['--max-executions', '5']);
  const names: string[] = [];
  try {
    await emu.request('POST', '/workflows?workflowId=w', { sourceContents: TRIVIAL });
    for (let i = 0; i < 12; i++) {
      const created = await emu.request('POST', '/workflows/w/executions', { argument: JSON.stringify({ n: i }) });
      names.push(created.body.name);
      await until(async () => ((await emu.request('GET', `/v1/${created.body.name}`)).body.state === 'ACTIVE' ? undefined : true), 'the end');
    }
    const health = (await emu.request('GET', '/emulator/v1/health')).body;
    assert.is(health.storage.dataDir, ctx.dir);
    assert.ok(health.storage.bytes > 1000, JSON.stringify(health));
  } finally {
    await emu.close();
  }
  emu = await start(ctx.dir, ['--max-executions', '5']);
  try {
    const listed = (await emu.request('GET', '/workflows/w/executions')).body.executions.map((e: { name: string }) => e.name);
    assert.ok(listed.length >= 5 && listed.length <= 6, `kept ${listed.length}`);
    assert.equal(listed.slice(0, 5), names.slice(-5).reverse(), 'the newest are kept');
    assert.is((await emu.request('GET', `/v1/${names[0]}`)).status, 404, 'the oldest is dropped');
  } finally {
    await emu.close();
  }
});

s('bad values of the options are one line and exit 2', async () => {
  const r = await runToExit(['--max-executions', 'lots']);
  assert.is(r.code, 2);
  assert.match(r.stderr, /invalid --max-executions \/ MAX_EXECUTIONS: "lots"/);
  const i = await runToExit(['--import', '/nonexistent/export']);
  assert.is(i.code, 2);
  assert.match(i.stderr, /import directory \(--import \/ IMPORT\) is not a directory/);
  const r2 = await runToExit(['--resume']);
  assert.is(r2.code, 2);
  assert.match(r2.stderr, /--resume \/ RESUME needs --data-dir or --import/);
});

s.run();
