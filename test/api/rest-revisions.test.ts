// Revisions and workflow settings over the REST API against the built bundle (docs/rest-api.md#workflow-settings-and-revisions; Google's Workflows v1
// reference: workflows.get revisionId, workflows.listRevisions, Workflow.labels/userEnvVars/callLogLevel/
// serviceAccount/cryptoKeyName/revisionCreateTime, Execution.labels/callLogLevel).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator, type EmulatorProcess } from '../support/emulator.ts';
import { runToEnd as runOn } from '../support/run-to-end.ts';

const s = suite('REST API: revisions and workflow settings (black-box)');

let emu: EmulatorProcess;
s.before(async () => {
  emu = await startEmulator({ workflowsDir: false });
});
s.after(async () => {
  await emu.close();
});

const RETURNS = (v: string) => `main:\n  steps:\n    - r:\n        return: ${v}\n`;

s('every revision is kept: :listRevisions newest first and paged, ?revisionId= returns that revision, executions stay on theirs', async () => {
  assert.is((await emu.request('POST', '/workflows?workflowId=rev', { sourceContents: RETURNS('1') })).status, 200);
  const ids: string[] = [(await emu.request('GET', '/workflows/rev')).body.revisionId];
  for (const v of ['2', '3']) {
    const r = await emu.request('PATCH', '/workflows/rev', { sourceContents: RETURNS(v) });
    assert.is(r.status, 200, r.text);
    ids.push(r.body.response.revisionId);
  }
  // A description change alone makes no revision.
  await emu.request('PATCH', '/workflows/rev?updateMask=description', { description: 'third' });
  const list = await emu.request('GET', '/workflows/rev:listRevisions');
  assert.is(list.status, 200, list.text);
  assert.equal(list.body.workflows.map((w: any) => w.revisionId), ids.slice().reverse());
  assert.equal(list.body.workflows.map((w: any) => w.sourceContents), [RETURNS('3'), RETURNS('2'), RETURNS('1')]);
  const page = await emu.request('GET', '/workflows/rev:listRevisions?pageSize=2');
  assert.is(page.body.workflows.length, 2);
  const rest = await emu.request('GET', `/workflows/rev:listRevisions?pageSize=2&pageToken=${page.body.nextPageToken}`);
  assert.equal(rest.body.workflows.map((w: any) => w.revisionId), [ids[0]]);
  const first = await emu.request('GET', `/workflows/rev?revisionId=${ids[0]}`);
  assert.equal([first.body.revisionId, first.body.sourceContents], [ids[0], RETURNS('1')]);
  const current = await emu.request('GET', '/workflows/rev');
  assert.equal([current.body.revisionId, current.body.description], [ids[2], 'third']);
  assert.ok(Date.parse(current.body.revisionCreateTime) <= Date.parse(current.body.updateTime));
  const missing = await emu.request('GET', '/workflows/rev?revisionId=000042-abc');
  assert.is(missing.status, 404);
  assert.is((await emu.request('GET', '/workflows/nothing:listRevisions')).status, 404);
});

s('labels, userEnvVars, callLogLevel, serviceAccount and cryptoKeyName: stored, returned, validated; sys.get_env reads userEnvVars; executions inherit labels', async () => {
  const settings = {
    labels: { team: 'data' },
    userEnvVars: { API_URL: 'http://localhost:9', MODE: 'test' },
    callLogLevel: 'LOG_ALL_CALLS',
    serviceAccount: 'runner@my-project.iam.gserviceaccount.com',
    cryptoKeyName: 'projects/my-project/locations/us-central1/keyRings/r/cryptoKeys/k',
  };
  const created = await emu.request('POST', '/workflows?workflowId=settings', {
    sourceContents: RETURNS('${[sys.get_env("API_URL"), sys.get_env("MODE"), sys.get_env("CLOUD_WORKFLOW_ID")]}'),
    ...settings,
  });
  assert.is(created.status, 200, created.text);
  for (const [k, v] of Object.entries(settings)) assert.equal(created.body[k], v, k);
  const ex = await runOn(emu, 'settings', { labels: { run: 'nightly' }, callLogLevel: 'LOG_ERRORS_ONLY' });
  assert.is(ex.result, '["http://localhost:9","test","settings"]');
  assert.equal(ex.labels, { run: 'nightly', team: 'data' });
  assert.is(ex.callLogLevel, 'LOG_ERRORS_ONLY');
  const byLabel = await emu.request('GET', '/workflows/settings/executions?filter=labels.run%3D%22nightly%22');
  assert.equal(byLabel.body.executions.map((e: any) => e.name), [ex.name]);
  const byWorkflowLabel = await emu.request('GET', `/workflows?filter=${encodeURIComponent('labels.team="data"')}`);
  assert.equal(byWorkflowLabel.body.workflows.map((w: any) => w.name.split('/').pop()), ['settings']);
  const bad: [unknown, RegExp][] = [
    [{ labels: { 'Bad-Key': 'x' } }, /labels: key "Bad-Key"/],
    [{ labels: { k: 'UPPER' } }, /labels: the value of "k"/],
    [{ labels: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`k${i}`, 'v'])) }, /at most 64 labels/],
    [{ userEnvVars: { GOOGLE_CLOUD_PROJECT_ID: 'x' } }, /reserved/],
    [{ userEnvVars: { WORKFLOWS_X: 'x' } }, /reserved/],
    [{ userEnvVars: { '': 'x' } }, /must not be empty/],
    [{ userEnvVars: { BIG: 'x'.repeat(4097) } }, /4097 bytes; the limit is 4096/],
    [{ userEnvVars: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`V${i}`, 'v'])) }, /at most 20 variables/],
    [{ callLogLevel: 'LOUD' }, /invalid callLogLevel/],
    [{ cryptoKeyName: 'my-key' }, /cryptoKeyName must be projects/],
    [{ labels: ['x'] }, /labels must be a map/],
  ];
  for (const [i, [body, want]] of bad.entries()) {
    const r = await emu.request('POST', `/workflows?workflowId=bad-${i}`, { sourceContents: RETURNS('1'), ...(body as object) });
    assert.is(r.status, 400, `${JSON.stringify(body).slice(0, 80)}: ${r.text}`);
    assert.match(r.body.error.message, want);
  }
  const badRun = await emu.request('POST', '/workflows/settings/executions', { labels: { X: '1' } });
  assert.is(badRun.status, 400);
  // userEnvVars belong to a revision: changing them makes one, and an execution reads its revision's values.
  const before = (await emu.request('GET', '/workflows/settings')).body.revisionId;
  const upd = await emu.request('PATCH', '/workflows/settings?updateMask=userEnvVars', { userEnvVars: { API_URL: 'http://other', MODE: 'prod' } });
  assert.is(upd.status, 200, upd.text);
  assert.is.not(upd.body.response.revisionId, before);
  assert.equal(upd.body.response.labels, { team: 'data' }, 'fields outside the mask stay');
  assert.is((await runOn(emu, 'settings')).result, '["http://other","prod","settings"]');
});

s.run();
