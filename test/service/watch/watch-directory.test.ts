// The directory watcher in process (docs/cli.md#directory-watching, rules 1–5): file names to workflow IDs, and
// the cases the black-box suite does not reach: two files claiming one ID, subdirectories, dotfiles, a
// workflow deleted through the API and its file saved again.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceCore } from '../../../src/service/core.ts';
import { watchDirectory, workflowIdForFile } from '../../../src/service/watch/watch-directory.ts';

const s = suite('directory watcher');

const RETURNS = (v: string) => `main:\n  steps:\n    - done:\n        return: "${v}"\n`;

async function until<T>(f: () => T | undefined, what: string, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

s('file names map to workflow IDs: extension, lowercasing, invalid names, dotfiles (rules 1, 2, 4, 5)', () => {
  assert.equal(workflowIdForFile('order-saga.yaml'), { id: 'order-saga', lowercased: false });
  assert.equal(workflowIdForFile('my_flow.json'), { id: 'my_flow', lowercased: false });
  assert.equal(workflowIdForFile('MyFlow.yaml'), { id: 'myflow', lowercased: true });
  assert.equal(workflowIdForFile('upper.YAML'), { id: 'upper', lowercased: false });
  assert.ok('skip' in (workflowIdForFile('1abc.yaml') as object));
  assert.ok('skip' in (workflowIdForFile('a.b.yaml') as object));
  assert.ok('skip' in (workflowIdForFile('-x.yaml') as object));
  assert.ok('skip' in (workflowIdForFile('a'.repeat(129) + '.yaml') as object));
  assert.equal(workflowIdForFile('a'.repeat(128) + '.yaml'), { id: 'a'.repeat(128), lowercased: false });
  assert.is(workflowIdForFile('notes.txt'), undefined);
  assert.is(workflowIdForFile('flow.yml'), undefined);
  assert.is(workflowIdForFile('flow.yaml~'), undefined);
  assert.is(workflowIdForFile('.#flow.yaml'), undefined);
  assert.is(workflowIdForFile('.flow.yaml.swp'), undefined);
});

s('two files for one ID: the first keeps it, the other is skipped with a warning; subdirectories are ignored (rule 2)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-watch-'));
  try {
    writeFileSync(join(dir, 'same.json'), JSON.stringify({ main: { steps: [{ r: { return: 'json' } }] } }));
    writeFileSync(join(dir, 'same.yaml'), RETURNS('yaml'));
    mkdirSync(join(dir, 'nested.yaml'));
    mkdirSync(join(dir, 'sub'));
    writeFileSync(join(dir, 'sub', 'deep.yaml'), RETURNS('deep'));
    const lines: string[] = [];
    const core = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {} });
    const w = await watchDirectory(core, dir, { log: (l) => lines.push(l), debounceMs: 10 });
    assert.equal(w.initial, ['same']);
    assert.equal(core.listWorkflows().map((x) => x.name.split('/').pop()), ['same']);
    assert.ok(core.getWorkflow('same').sourceContents.startsWith('{'), 'same.json comes first in name order');
    assert.ok(lines.some((l) => /skipping .*same\.yaml: workflow "same" is already deployed from same\.json/.test(l)), lines.join('\n'));
    // When the owner goes, the other file takes the ID.
    rmSync(join(dir, 'same.json'));
    await until(() => {
      try {
        return core.getWorkflow('same').sourceContents === RETURNS('yaml') ? true : undefined;
      } catch {
        return undefined;
      }
    }, 'same.yaml to take over');
    w.close();
    core.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('a workflow deleted through the API comes back when its file is saved again (rule 3)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-watch-'));
  try {
    writeFileSync(join(dir, 'back.yaml'), RETURNS('one'));
    const core = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {} });
    const w = await watchDirectory(core, dir, { log: () => {}, debounceMs: 10 });
    core.deleteWorkflow('back');
    writeFileSync(join(dir, 'back.yaml'), RETURNS('two'));
    const wf = await until(() => {
      try {
        return core.getWorkflow('back');
      } catch {
        return undefined;
      }
    }, 'back to be re-deployed');
    assert.is(wf.sourceContents, RETURNS('two'));
    assert.match(wf.revisionId, /^000002-/);
    w.close();
    core.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('a file saved without pause, faster than the debounce, is still deployed while the saving goes on (docs/architecture.md#running-fairness-and-value-semantics)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-watch-'));
  try {
    const core = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {} });
    // Default debounce (60 ms) and maximum wait (1 s); a save every 10 ms never leaves 60 ms of quiet.
    const w = await watchDirectory(core, dir, { log: () => {} });
    const deployedWhileSaving = (): boolean => {
      try {
        return core.getWorkflow('busy').sourceContents.startsWith('main:');
      } catch {
        return false;
      }
    };
    let saves = 0;
    const stopAt = Date.now() + 5000;
    while (!deployedWhileSaving() && Date.now() < stopAt) {
      writeFileSync(join(dir, 'busy.yaml'), RETURNS(`save ${++saves}`));
      await new Promise((r) => setTimeout(r, 10));
    }
    assert.ok(deployedWhileSaving(), `no deploy during ${saves} saves without pause`);
    w.close();
    core.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('a file that fails to deploy is recorded with file, line, column and the kept revision; fixing or removing it clears that (docs/web-ui.md#pages)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-watch-'));
  try {
    writeFileSync(join(dir, 'flaky.yaml'), RETURNS('one'));
    writeFileSync(join(dir, 'never.yaml'), 'main:\n  steps:\n    - a:\n        call: sys.lgo\n');
    const core = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {} });
    const w = await watchDirectory(core, dir, { log: () => {}, debounceMs: 10 });
    const never = core.sourceProblems.get('never')!;
    assert.ok(never, 'a file that never deployed is recorded');
    assert.is(never.file, join(dir, 'never.yaml'));
    assert.equal([never.line, never.column, never.step], [4, 15, 'a']);
    assert.match(never.message, /unknown function or subworkflow 'sys.lgo' \(did you mean 'sys.log'\?\)/);
    assert.is(never.keptRevisionId, undefined);
    const kept = core.getWorkflow('flaky').revisionId;
    writeFileSync(join(dir, 'flaky.yaml'), 'main:\n  steps:\n    - a:\n        next: nowhere\n');
    const problem = await until(() => core.sourceProblems.get('flaky'), 'the broken save to be recorded');
    assert.equal([problem.line, problem.keptRevisionId], [4, kept]);
    assert.is(core.getWorkflow('flaky').revisionId, kept, 'the revision deployed before stays');
    writeFileSync(join(dir, 'flaky.yaml'), RETURNS('two'));
    await until(() => (core.sourceProblems.get('flaky') ? undefined : true), 'the fixed save to clear it');
    rmSync(join(dir, 'never.yaml'));
    await until(() => (core.sourceProblems.get('never') ? undefined : true), 'the removed file to clear it');
    assert.equal(core.sourceProblems.list(), []);
    w.close();
    core.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('after close() nothing is deployed any more', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-watch-'));
  try {
    const core = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {} });
    const w = await watchDirectory(core, dir, { log: () => {}, debounceMs: 10, rescanMs: 20 });
    w.close();
    writeFileSync(join(dir, 'late.yaml'), RETURNS('late'));
    await new Promise((r) => setTimeout(r, 150));
    assert.equal(core.listWorkflows(), []);
    core.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s.run();
