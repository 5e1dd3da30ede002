// Directory watching, black-box against the built bundle (docs/cli.md#directory-watching, rules 1–6): files
// deployed at start-up, hot reload of added, modified, broken, fixed and deleted files, upper-case and
// invalid names, other extensions, identical content, partial writes, and running executions that keep
// their revision.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const s = suite('directory watching (black-box)');

const RETURNS = (v: string) => `main:\n  steps:\n    - done:\n        return: "${v}"\n`;
const JSON_RETURNS = (v: string) => JSON.stringify({ main: { steps: [{ done: { return: v } }] } }, null, 2);
const SLEEP_RETURNS = (sec: number, v: string) =>
  `main:\n  steps:\n    - wait:\n        call: sys.sleep\n        args:\n          seconds: ${sec}\n    - done:\n        return: "${v}"\n`;

let emu: EmulatorProcess;
s.before(async () => {
  emu = await startEmulator({
    files: {
      'alpha.yaml': RETURNS('alpha'),
      'beta.json': JSON_RETURNS('beta'),
      'Gamma.yaml': RETURNS('gamma'),
      '1bad.yaml': RETURNS('no'),
      'has.dot.yaml': RETURNS('no'),
      'notes.txt': 'not a workflow',
      'other.yml': RETURNS('yml is not an extension of the spec'),
      'broken.yaml': 'main:\n  steps:\n    - oops:\n        bogus: 1\n',
    },
  });
});
s.after(async () => {
  await emu.close();
});

const dir = (): string => emu.workflowsDir!;
const ids = async (): Promise<string[]> => (await emu.request('GET', '/workflows')).body.workflows.map((w: any) => w.name.split('/').pop()).sort();
const workflow = async (id: string) => {
  const r = await emu.request('GET', `/workflows/${id}`);
  return r.status === 200 ? r.body : undefined;
};
async function runOnce(id: string): Promise<any> {
  const ex = (await emu.request('POST', `/workflows/${id}/executions`, {})).body;
  return until(async () => {
    const r = await emu.request('GET', `/v1/${ex.name}`);
    return r.body.state === 'ACTIVE' ? undefined : r.body;
  }, 'execution to finish');
}

s('at start-up every .yaml and .json file is deployed under its file name; other extensions are ignored (rules 1, 2)', async () => {
  assert.equal(await ids(), ['alpha', 'beta', 'gamma']);
  assert.is((await runOnce('alpha')).result, '"alpha"');
  assert.is((await runOnce('beta')).result, '"beta"');
  assert.match(emu.stdout(), /listening on .*3 workflow\(s\) from/);
});

s('an upper-case file name is lowercased with a warning (rule 5)', async () => {
  assert.ok(await workflow('gamma'));
  assert.match(emu.stderr(), /Gamma\.yaml.*upper-case.*"gamma"/);
});

s('names still invalid after lowercasing are skipped with a warning (rules 4, 5)', async () => {
  assert.match(emu.stderr(), /skipping .*1bad\.yaml/);
  assert.match(emu.stderr(), /skipping .*has\.dot\.yaml/);
});

s('a broken file is logged with file, line and reason and not deployed (docs/rest-api.md#endpoints)', async () => {
  assert.match(emu.stderr(), /broken\.yaml: invalid workflow definition: step "oops" \(line 4, column \d+\): .*bogus/);
  assert.is(await workflow('broken'), undefined);
});

s('an added file is deployed while running (rule 3)', async () => {
  writeFileSync(join(dir(), 'added.yaml'), RETURNS('added'));
  const wf = await until(() => workflow('added'), 'added to be deployed');
  assert.match(wf.revisionId, /^000001-/);
  assert.is((await runOnce('added')).result, '"added"');
});

s('a modified file makes a new revision; identical content makes none (rule 3, docs/rest-api.md#endpoints)', async () => {
  const before = (await workflow('alpha')).revisionId;
  writeFileSync(join(dir(), 'alpha.yaml'), RETURNS('alpha')); // same bytes
  writeFileSync(join(dir(), 'alpha.yaml'), RETURNS('alpha 2'));
  const after = await until(async () => {
    const wf = await workflow('alpha');
    return wf.revisionId !== before ? wf : undefined;
  }, 'a new revision of alpha');
  assert.match(after.revisionId, /^000002-/);
  assert.is((await runOnce('alpha')).result, '"alpha 2"');
  // Touching the file with the same content again: still revision 2.
  writeFileSync(join(dir(), 'alpha.yaml'), RETURNS('alpha 2'));
  writeFileSync(join(dir(), 'marker.yaml'), RETURNS('marker'));
  await until(() => workflow('marker'), 'marker to be deployed');
  assert.is((await workflow('alpha')).revisionId, after.revisionId);
});

s('breaking a deployed file keeps the previous revision and logs file, line and reason; fixing it deploys (docs/rest-api.md#endpoints)', async () => {
  const good = await workflow('beta');
  writeFileSync(join(dir(), 'beta.json'), '{\n  "main": {\n    "steps": [\n      {"s": {"return": 1}},\n  }\n}\n');
  await emu.waitForOutput(/beta\.json: invalid workflow definition.*line \d+.*the revision deployed before stays/);
  assert.equal(await workflow('beta'), good);
  assert.is((await runOnce('beta')).result, '"beta"');
  writeFileSync(join(dir(), 'beta.json'), JSON_RETURNS('beta fixed'));
  const fixed = await until(async () => {
    const wf = await workflow('beta');
    return wf.revisionId !== good.revisionId ? wf : undefined;
  }, 'the fixed beta');
  assert.match(fixed.revisionId, /^000002-/);
  assert.is((await runOnce('beta')).result, '"beta fixed"');
});

s('a file written in pieces is deployed whole, never half-way (docs/cli.md#directory-watching: debounce)', async () => {
  const path = join(dir(), 'pieces.yaml');
  const full = RETURNS('complete');
  writeFileSync(path, full.slice(0, 12));
  writeFileSync(path, full.slice(0, 30));
  writeFileSync(path, full);
  const wf = await until(() => workflow('pieces'), 'pieces to be deployed');
  assert.is(wf.sourceContents, full);
  assert.is((await runOnce('pieces')).result, '"complete"');
});

s('an atomic save (write a temporary file, rename over) is picked up (rule 3)', async () => {
  const before = (await workflow('added')).revisionId;
  writeFileSync(join(dir(), '.added.yaml.tmp'), RETURNS('renamed in'));
  renameSync(join(dir(), '.added.yaml.tmp'), join(dir(), 'added.yaml'));
  await until(async () => ((await workflow('added')).revisionId !== before ? true : undefined), 'the renamed-in revision');
  assert.is((await runOnce('added')).result, '"renamed in"');
});

s('deleting the file deletes the workflow; its executions stay (rule 3, docs/rest-api.md#endpoints)', async () => {
  const ex = await runOnce('marker');
  rmSync(join(dir(), 'marker.yaml'));
  await until(async () => ((await workflow('marker')) === undefined ? true : undefined), 'marker to be deleted');
  assert.is((await emu.request('GET', `/v1/${ex.name}`)).body.state, 'SUCCEEDED');
});

s('an execution running when its file changes finishes with the definition it started with (rule 6)', async () => {
  writeFileSync(join(dir(), 'longrun.yaml'), SLEEP_RETURNS(0.5, 'original'));
  const v1 = await until(() => workflow('longrun'), 'longrun to be deployed');
  const ex = (await emu.request('POST', '/workflows/longrun/executions', {})).body;
  writeFileSync(join(dir(), 'longrun.yaml'), SLEEP_RETURNS(0, 'changed'));
  await until(async () => ((await workflow('longrun')).revisionId !== v1.revisionId ? true : undefined), 'longrun revision 2');
  const done = await until(async () => {
    const r = await emu.request('GET', `/v1/${ex.name}`);
    return r.body.state === 'ACTIVE' ? undefined : r.body;
  }, 'the long run');
  assert.is(done.result, '"original"');
  assert.is(done.workflowRevisionId, v1.revisionId);
  assert.is((await runOnce('longrun')).result, '"changed"');
});

s('a file added later with an invalid or upper-case name is skipped or lowercased (rules 4, 5)', async () => {
  writeFileSync(join(dir(), '9lives.yaml'), RETURNS('x'));
  writeFileSync(join(dir(), 'LateComer.json'), JSON_RETURNS('late'));
  await until(() => workflow('latecomer'), 'latecomer to be deployed');
  await emu.waitForOutput(/skipping .*9lives\.yaml/);
  assert.not.ok((await ids()).some((id) => id.startsWith('9')));
});

s('the last of several quick saves wins (rule 3)', async () => {
  for (let i = 0; i < 5; i++) writeFileSync(join(dir(), 'quick.yaml'), RETURNS(`save ${i}`));
  await until(async () => ((await workflow('quick'))?.sourceContents === RETURNS('save 4') ? true : undefined), 'the last save');
  assert.match((await workflow('quick')).revisionId, /^00000[12]-/);
});

s.run();
