// Compaction of a data directory (docs/persistence.md#compaction), in-process on the service core: once the journal
// passes its size bound the state is written as a new snapshot beside it, renamed into place, and older journals
// are deleted; a core opened on the directory afterwards answers the same workflows, revisions, executions, step
// entries, calls and logs (finished executions of the snapshot read lazily, on first use).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServiceCore } from '../../../src/service/core.ts';
import { openDataDir, releaseLock, snapshotText } from '../../../src/service/persist/data-dir.ts';
import { encodeFrame } from '../../../src/service/persist/frame.ts';
import { Persistence } from '../../../src/service/persist/persistence.ts';

const LOGS = 'main:\n  params: [args]\n  steps:\n    - log:\n        call: sys.log\n        args:\n          text: ${"n=" + string(args.n)}\n    - done:\n        return: ${args.n}\n';
const PLAIN = 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args.n + 1}\n';

const s = suite<{ dir: string }>('data directory: compaction into a snapshot (docs/persistence.md#compaction)');

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-compact-'));
});
s.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** A service core on the data directory `dir`, compacting past `compactBytes`. */
function open(dir: string, compactBytes: number) {
  const persistence = new Persistence(openDataDir(dir), { compactBytes });
  const core = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {}, persistence });
  return { core, persistence };
}

/** What the core answers about everything, to compare two cores. */
function everything(core: ReturnType<typeof createServiceCore>): unknown {
  return core.listWorkflows().map((w) => {
    const id = w.name.split('/').pop()!;
    return {
      w,
      revisions: core.listWorkflowRevisions(id),
      executions: core.listExecutions(id).map((e) => {
        const eid = e.name.split('/').pop()!;
        return { e, steps: core.listStepEntries(id, eid, {}), logs: core.executionLogs(id, eid), calls: core.executionCalls(id, eid) };
      }),
    };
  });
}

s('past its bound the journal is compacted; the snapshot and the new journal restore the same state', async (ctx) => {
  const a = open(ctx.dir, 20_000);
  a.core.createWorkflow('logs', { sourceContents: LOGS });
  a.core.createWorkflow('plain', { sourceContents: PLAIN });
  a.core.updateWorkflow('plain', { sourceContents: PLAIN.replace('+ 1', '+ 2') });
  for (let i = 0; i < 60; i++) {
    const e = a.core.createExecution(i % 2 ? 'logs' : 'plain', { argument: JSON.stringify({ n: i }) });
    await new Promise((r) => setTimeout(r, 1));
    await a.core.whenDurable?.();
    void e;
  }
  // Every execution has ended, and the last change is on disk.
  while (a.core.listExecutions().some((e) => e.state === 'ACTIVE')) await new Promise((r) => setTimeout(r, 5));
  await a.core.whenDurable?.();
  const before = everything(a.core);
  await a.persistence.close();
  a.core.close();
  const files = readdirSync(ctx.dir).sort();
  assert.ok(files.includes('snapshot.jsonl'), files.join());
  const journals = files.filter((f) => f.startsWith('journal-'));
  assert.is(journals.length, 1, `older journals are deleted: ${files.join()}`);
  assert.not.equal(journals[0], 'journal-0.log', 'a later journal is in use');
  const b = open(ctx.dir, 20_000);
  try {
    assert.equal(everything(b.core), before);
  } finally {
    await b.persistence.close();
    b.core.close();
  }
});

s('a snapshot line damaged on disk later: that execution says its record cannot be read, every other one answers', async (ctx) => {
  const a = open(ctx.dir, 1 << 30);
  a.core.createWorkflow('plain', { sourceContents: PLAIN });
  for (let i = 0; i < 3; i++) a.core.createExecution('plain', { argument: JSON.stringify({ n: i }) });
  while (a.core.listExecutions().some((e) => e.state === 'ACTIVE')) await new Promise((r) => setTimeout(r, 5));
  await a.persistence.compactNow();
  await a.persistence.close();
  a.core.close();
  const path = join(ctx.dir, 'snapshot.jsonl');
  const lines = readFileSync(path, 'utf8').split('\n');
  const victim = lines.findIndex((l) => l.startsWith('{"t":"x"'));
  const id = /"id":"([^"]+)"/.exec(lines[victim]!)![1]!;
  lines[victim] = lines[victim]!.replace('"res":{', '"res":{{');
  writeFileSync(path, lines.join('\n'));
  const b = open(ctx.dir, 1 << 30);
  try {
    const listed = b.core.listExecutions('plain');
    assert.is(listed.length, 3);
    const damaged = b.core.getExecution('plain', id);
    assert.is(damaged.state, 'SUCCEEDED');
    assert.match(JSON.parse(damaged.error!.payload).message, /its saved record in the data directory cannot be read/);
    assert.ok(listed.filter((e) => !e.name.endsWith(id)).every((e) => e.result !== undefined), 'the others are read');
  } finally {
    await b.persistence.close();
    b.core.close();
  }
});

s('a crash at any point of a compaction leaves a directory that reads the same: before the rename, and after it with the old journal left', (ctx) => {
  const wf = (id: string, n: number) => ({ t: 'w', id, n, res: { name: `projects/p/locations/l/workflows/${id}`, state: 'ACTIVE', revisionId: `00000${n}-abc`, sourceContents: PLAIN, description: '', createTime: 't', updateTime: 't' } });
  const ids = (dir: string): string[] => {
    const opened = openDataDir(dir);
    opened.journal.close();
    releaseLock(dir);
    return [...opened.state.workflows.keys()].sort();
  };
  writeFileSync(join(ctx.dir, 'FORMAT.json'), '{"format": 1}');
  // Stopped after the new journal was started, before the snapshot was renamed into place: both journals count.
  writeFileSync(join(ctx.dir, 'journal-0.log'), Buffer.concat([encodeFrame(wf('a', 1)), encodeFrame(wf('b', 1))]));
  writeFileSync(join(ctx.dir, 'journal-1.log'), encodeFrame(wf('c', 1)));
  writeFileSync(join(ctx.dir, 'snapshot.jsonl.tmp'), 'half a snapsh');
  assert.equal(ids(ctx.dir), ['a', 'b', 'c']);
  // Stopped after the rename, before the old journal was deleted: the snapshot replaces it, and it goes.
  writeFileSync(join(ctx.dir, 'snapshot.jsonl'), snapshotText(1, [JSON.stringify(wf('a', 1)), JSON.stringify(wf('b', 1))]));
  assert.equal(ids(ctx.dir), ['a', 'b', 'c']);
  assert.not.ok(readdirSync(ctx.dir).includes('journal-0.log'), 'the journal the snapshot holds is deleted');
});

s('a reset is kept: a core opened afterwards has only what came after it (the executions it cancelled are gone)', async (ctx) => {
  const a = open(ctx.dir, 1 << 30);
  a.core.createWorkflow('old', { sourceContents: LOGS });
  a.core.createExecution('old', { argument: '{"n": 1}' });
  a.core.reset();
  a.core.createWorkflow('new', { sourceContents: PLAIN });
  await a.core.whenDurable?.();
  await a.persistence.close();
  a.core.close();
  const b = open(ctx.dir, 1 << 30);
  try {
    assert.equal(b.core.listWorkflows().map((w) => w.name.split('/').pop()), ['new']);
    assert.equal(b.core.listExecutions(), []);
  } finally {
    await b.persistence.close();
    b.core.close();
  }
});

s.run();
