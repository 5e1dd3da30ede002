// The journal of a data directory, in-process (docs/persistence.md#the-journal, docs/persistence.md#a-full-disk):
// records appended in one turn share one fdatasync (group commit); a write the file system refuses (ENOSPC,
// injected) is cut back off the file, answered UNAVAILABLE, refused up front until the disk takes writes again,
// and then written whole; frames tell a torn end from damage in the middle.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Journal, NODE_JOURNAL_FS, type JournalFs } from '../../../src/service/persist/journal.ts';
import { encodeFrame, FrameError, scanFrames } from '../../../src/service/persist/frame.ts';
import { ApiError } from '../../../src/service/errors.ts';

const s = suite<{ dir: string }>('journal: group commit, a full disk, torn and damaged frames (docs/persistence.md#the-journal)');

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-journal-'));
});
s.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** node:fs's operations, counting syncs, with writes failing ENOSPC while `full.now` is set. */
function faultyFs(full: { now: boolean }, counts: { syncs: number; writes: number }): JournalFs {
  return {
    write: (fd, data, done) => {
      counts.writes++;
      if (!full.now) return NODE_JOURNAL_FS.write(fd, data, done);
      // Half the batch reaches the file before the disk is full, as a real short write would leave it.
      NODE_JOURNAL_FS.write(fd, data.subarray(0, data.length >> 1), () => done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' })));
    },
    fdatasync: (fd, done) => {
      counts.syncs++;
      NODE_JOURNAL_FS.fdatasync(fd, done);
    },
    ftruncate: NODE_JOURNAL_FS.ftruncate,
  };
}

s('records appended in one turn are written with one fdatasync, and all are durable when it resolves', async (ctx) => {
  const path = join(ctx.dir, 'j.log');
  const counts = { syncs: 0, writes: 0 };
  const journal = new Journal(openSync(path, 'a'), 0, path, faultyFs({ now: false }, counts));
  const waits: (Promise<void> | undefined)[] = [];
  for (let i = 0; i < 200; i++) {
    journal.append({ t: 'x', i });
    waits.push(journal.whenDurable());
  }
  await Promise.all(waits);
  assert.is(counts.syncs, 1);
  assert.is(counts.writes, 1);
  assert.is(journal.whenDurable(), undefined, 'nothing waits once everything is on disk');
  const scan = scanFrames(readFileSync(path));
  assert.equal(scan.records.map((r) => r.value.i), Array.from({ length: 200 }, (_, i) => i));
  journal.close();
});

s('ENOSPC: the waiters get UNAVAILABLE, the partial write is cut off, writes are refused until the disk has room, then every record is written', async (ctx) => {
  const path = join(ctx.dir, 'j.log');
  const full = { now: false };
  const journal = new Journal(openSync(path, 'a'), 0, path, faultyFs(full, { syncs: 0, writes: 0 }));
  journal.append({ t: 'x', i: 0 });
  await journal.whenDurable();
  const durableSize = statSync(path).size;
  full.now = true;
  journal.append({ t: 'x', i: 1 });
  const err = await journal.whenDurable()!.then(
    () => undefined,
    (e: unknown) => e,
  );
  assert.instance(err, ApiError);
  assert.is((err as ApiError).code, 'UNAVAILABLE');
  assert.match((err as ApiError).message, /ENOSPC/);
  await new Promise((r) => setTimeout(r, 50));
  assert.is(statSync(path).size, durableSize, 'the partial write is cut back off');
  assert.throws(() => journal.checkWritable(), (e: unknown) => e instanceof ApiError && e.code === 'UNAVAILABLE');
  full.now = false;
  await journal.drain().catch(async () => {
    // The retry comes within a second.
    await new Promise((r) => setTimeout(r, 1100));
    await journal.drain();
  });
  journal.checkWritable();
  assert.equal(scanFrames(readFileSync(path)).records.map((r) => r.value.i), [0, 1]);
  journal.close();
});

s('frames: a torn end (cut short, or zeros after the last record) is told apart from damage before the end', () => {
  const a = encodeFrame({ t: 'w', id: 'a' });
  const b = encodeFrame({ t: 'w', id: 'b' });
  const whole = Buffer.concat([a, b]);
  assert.is(scanFrames(whole).records.length, 2);
  const cut = scanFrames(whole.subarray(0, whole.length - 3));
  assert.equal([cut.records.length, cut.tornAt], [1, a.length]);
  const zeros = scanFrames(Buffer.concat([a, Buffer.alloc(4096)]));
  assert.equal([zeros.records.length, zeros.tornAt], [1, a.length]);
  const damaged = Buffer.from(whole);
  damaged[10] = damaged[10]! ^ 1;
  assert.throws(() => scanFrames(damaged), (e: unknown) => e instanceof FrameError && e.offset === 0 && /checksum/.test(e.message));
});

s.run();
