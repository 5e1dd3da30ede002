// Import and export (docs/persistence.md#import-and-export): `POST /emulator/v1:export` and `--export-on-exit`
// write the state as plain files (sources as YAML, the rest as pretty JSON with sorted keys), and `--import` loads
// them into a new emulator, which answers every workflow, revision, execution, step entry and log as the first did.
// Black-box: the built bundle. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, until, type EmulatorProcess } from '../../support/emulator.ts';

const V1 = 'main:\n  params: [args]\n  steps:\n    - log:\n        call: sys.log\n        args:\n          json: ${args}\n    - done:\n        return: ${args.n * 2}\n';
const V2 = V1.replace('args.n * 2', 'args.n * 3');
const FAILS = 'main:\n  steps:\n    - boom:\n        raise: {code: 7, message: "no"}\n';

const s = suite<{ tmp: string }>('import and export: plain files that round-trip (docs/persistence.md#import-and-export)');

s.before.each((ctx) => {
  ctx.tmp = mkdtempSync(join(tmpdir(), 'wfemu-export-'));
});
s.after.each((ctx) => {
  rmSync(ctx.tmp, { recursive: true, force: true });
});

/** Everything the API answers about the state, to compare two emulators. */
async function everything(emu: EmulatorProcess): Promise<unknown> {
  const out: Record<string, unknown> = {};
  const workflows = (await emu.request('GET', '/workflows')).body.workflows;
  out.workflows = workflows;
  for (const w of workflows) {
    const id = w.name.split('/').pop();
    out[`${id}:revisions`] = (await emu.request('GET', `/workflows/${id}:listRevisions`)).body;
    const executions = (await emu.request('GET', `/workflows/${id}/executions?view=FULL`)).body.executions ?? [];
    out[`${id}:executions`] = executions;
    for (const e of executions) {
      out[`${e.name}:steps`] = (await emu.request('GET', `/v1/${e.name}/stepEntries`)).body;
      out[`${e.name}:calls`] = (await emu.request('GET', `/emulator/v1/${e.name}/calls`)).body;
    }
  }
  return out;
}

/** Deploys two workflows (one with two revisions), runs executions that succeed, log and fail. */
async function fill(emu: EmulatorProcess): Promise<void> {
  await emu.request('POST', '/workflows?workflowId=double', { sourceContents: V1, description: 'doubles' });
  const runs = [await emu.request('POST', '/workflows/double/executions', { argument: '{"n": 2}' })];
  await emu.request('PATCH', '/workflows/double?updateMask=sourceContents', { sourceContents: V2 });
  runs.push(await emu.request('POST', '/workflows/double/executions', { argument: '{"n": 5, "big": 12345678901234567}' }));
  await emu.request('POST', '/workflows?workflowId=fails', { sourceContents: FAILS });
  runs.push(await emu.request('POST', '/workflows/fails/executions', {}));
  for (const r of runs) {
    await until(async () => ((await emu.request('GET', `/v1/${r.body.name}`)).body.state === 'ACTIVE' ? undefined : true), 'the end');
  }
}

s('POST /emulator/v1:export writes readable files; --import answers every resource as before', async (ctx) => {
  const target = join(ctx.tmp, 'snap');
  const a = await startEmulator({ workflowsDir: false });
  let before: unknown;
  try {
    await fill(a);
    before = await everything(a);
    const r = await a.request('POST', '/emulator/v1:export', { directory: target });
    assert.is(r.status, 200, r.text);
    assert.equal({ ...r.body, directory: undefined }, { directory: undefined, workflows: 2, executions: 3 });
  } finally {
    await a.close();
  }
  const revisions = readdirSync(join(target, 'workflows', 'double')).sort();
  assert.is(revisions.filter((f) => f.endsWith('.yaml')).length, 2, revisions.join());
  const v2 = revisions.find((f) => f.startsWith('000002-') && f.endsWith('.yaml'))!;
  assert.is(readFileSync(join(target, 'workflows', 'double', v2), 'utf8'), V2, 'the source as written');
  const execFiles = readdirSync(join(target, 'executions', 'double'));
  const text = readFileSync(join(target, 'executions', 'double', execFiles[0]!), 'utf8');
  assert.match(text, /^\{\n {2}"/, 'pretty-printed');
  const keys = Object.keys(JSON.parse(text));
  assert.equal(keys, keys.slice().sort(), 'keys sorted');

  const b = await startEmulator({ workflowsDir: false, args: ['--import', target] });
  try {
    assert.equal(await everything(b), before);
    // The revision counter goes on: the next revision of `double` is the third.
    const up = await b.request('PATCH', '/workflows/double?updateMask=sourceContents', { sourceContents: V1 });
    assert.match(up.body.response.revisionId, /^000003-/, up.text);
  } finally {
    await b.close();
  }
});

s('--export-on-exit writes the export on SIGTERM; importing it into a data directory keeps it there', async (ctx) => {
  const target = join(ctx.tmp, 'on-exit');
  const data = join(ctx.tmp, 'data');
  const a = await startEmulator({ workflowsDir: false, args: ['--export-on-exit', target] });
  let before: unknown;
  try {
    await fill(a);
    before = await everything(a);
  } finally {
    assert.is(await a.close(), 0);
  }
  assert.match(a.stderr(), /exported 2 workflow\(s\) and 3 execution\(s\) to /);
  assert.ok(existsSync(join(target, 'FORMAT.json')));
  const b = await startEmulator({ workflowsDir: false, args: ['--import', target, '--data-dir', data] });
  try {
    assert.equal(await everything(b), before);
  } finally {
    await b.close();
  }
  const c = await startEmulator({ workflowsDir: false, args: ['--data-dir', data] });
  try {
    assert.equal(await everything(c), before, 'the data directory holds the import');
  } finally {
    await c.close();
  }
});

s('an export is not written over a directory that holds something else (400, nothing written)', async (ctx) => {
  writeFileSync(join(ctx.tmp, 'mine.txt'), 'keep\n');
  const a = await startEmulator({ workflowsDir: false });
  try {
    const r = await a.request('POST', '/emulator/v1:export', { directory: ctx.tmp });
    assert.is(r.status, 400);
    assert.match(r.body.error.message, /not empty and holds no export/);
    assert.equal(readdirSync(ctx.tmp), ['mine.txt']);
    const bad = await a.request('POST', '/emulator/v1:export', { dir: 'x' });
    assert.is(bad.status, 400);
  } finally {
    await a.close();
  }
});

s('a damaged export stops start-up with exit 2 naming the file and the byte offset', async (ctx) => {
  const target = join(ctx.tmp, 'snap');
  const a = await startEmulator({ workflowsDir: false });
  try {
    await fill(a);
    await a.request('POST', '/emulator/v1:export', { directory: target });
  } finally {
    await a.close();
  }
  const file = join(target, 'workflows', 'fails', 'workflow.json');
  writeFileSync(file, '{\n  "currentRevision": oops\n}\n');
  const b = startEmulator({ workflowsDir: false, args: ['--import', target] });
  const err = await b.then(
    () => '',
    (e: Error) => e.message,
  );
  assert.match(err, /exited with code 2/);
  assert.match(err, /workflow\.json at byte \d+: not JSON/);
});

s.run();
