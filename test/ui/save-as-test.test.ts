// The execution page's "Save as test…" action (docs/recording.md "Saving a run as a test case"): an ended
// execution's page links to the control API's `:testCase` as a download named after the workflow; an ACTIVE
// execution's page has no such link. Replay and Replay with the current revision start a replay or a redrive, whose page links to its source
// (docs/recording.md "Replay and redrive").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startUi, type UiHarness } from './harness.ts';

const s = suite<{ ui: UiHarness }>('ui: Save as test…, Replay and redrive on the execution page');

s.before.each(async (ctx) => {
  ctx.ui = await startUi();
  ctx.ui.core.createWorkflow('hello', { sourceContents: 'main:\n  steps:\n    - done:\n        return: hi\n' });
  ctx.ui.core.createWorkflow('waiter', { sourceContents: 'main:\n  steps:\n    - nap:\n        call: sys.sleep\n        args:\n          seconds: 600\n' });
});

s.after.each(async (ctx) => {
  await ctx.ui.close();
});

s('an ended execution links to its test case as a download', async ({ ui }) => {
  const e = ui.core.createExecution('hello', {});
  const id = e.name.split('/').pop()!;
  await ui.settle('hello', id);
  const page = await ui.get(`/ui/executions/hello/${id}`);
  assert.is(page.status, 200);
  const link = /<a class="save-test" id="save-test" href="([^"]+)" download="([^"]+)"[^>]*>Save as test…<\/a>/.exec(page.text);
  assert.ok(link, 'the link is on the page');
  assert.is(link![1], `/emulator/v1/${e.name}:testCase`);
  assert.is(link![2], 'hello.test.yaml');
});

s('a replay links to the execution it replays', async ({ ui }) => {
  const e = ui.core.createExecution('hello', {});
  const id = e.name.split('/').pop()!;
  await ui.settle('hello', id);
  const replay = ui.core.replayExecution('hello', id, { latest: false, strict: false });
  const page = await ui.get(`/ui/executions/hello/${replay.name.split('/').pop()}`);
  assert.match(page.text, new RegExp(`<dt>Replay of</dt><dd><a class="mono break" id="replay-of-link" href="/ui/executions/hello/${id}">${id}</a>`));
});

s('Replay starts a replay and shows it; after a new revision it is refused with a notice, and the redrive runs', async ({ ui }) => {
  const e = ui.core.createExecution('hello', {});
  const id = e.name.split('/').pop()!;
  await ui.settle('hello', id);
  const before = await ui.get(`/ui/executions/hello/${id}`);
  assert.match(before.text, /<form class="replay" method="post" action="\/ui\/executions\/hello\/[^"]+\/replay"/);
  assert.match(before.text, /id="replay-button" [^>]*>Replay<\/button>/);
  assert.match(before.text, /name="revision" value="latest" id="redrive-button" [^>]*>Replay with the current revision<\/button>/);
  const r = await ui.post(`/ui/executions/hello/${id}/replay`, {});
  assert.is(r.status, 303);
  const replayId = r.headers.get('location')!.split('/').pop()!;
  assert.is((await ui.settle('hello', replayId)).state, 'SUCCEEDED');
  ui.core.updateWorkflow('hello', { sourceContents: 'main:\n  steps:\n    - done:\n        return: hello again\n' }, ['sourceContents']);
  const refused = await ui.post(`/ui/executions/hello/${id}/replay`, {});
  assert.is(refused.status, 409);
  assert.match(refused.text, /Not replayed: .*&quot;latest&quot;|Not replayed: .*"latest"/);
  const redrive = await ui.post(`/ui/executions/hello/${id}/replay`, { revision: 'latest' });
  assert.is(redrive.status, 303);
  const done = await ui.settle('hello', redrive.headers.get('location')!.split('/').pop()!);
  assert.is(done.result, '"hello again"');
});

s('an ACTIVE execution has no Save as test…', async ({ ui }) => {
  const e = ui.core.createExecution('waiter', {});
  const page = await ui.get(`/ui/executions/waiter/${e.name.split('/').pop()}`);
  assert.not.match(page.text, /save-test/);
  ui.core.cancelExecution('waiter', e.name.split('/').pop()!);
});

s.run();
