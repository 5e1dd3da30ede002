// The JS API when what it is to load does not load (docs/persistence.md#import-and-export): startEmulator rejects
// with a DataDirError naming the file, and nothing stays open: its port can be listened on again, and the same
// call with a good export starts on it. Black-box through the JS API.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../../src/index.ts';
import { rejection } from '../support/rejection.ts';
import { freePort } from '../support/emulator.ts';

const ADD = 'main:\n  params: [args]\n  steps:\n    - add:\n        return: ${args.x + 1}\n';

const s = suite<{ dir: string }>('dist: JS API startEmulator with an export that does not load (docs/persistence.md#import-and-export)');

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-jsapi-bad-'));
});
s.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** Resolves once something can listen on `port` (and has stopped again); rejects with the listen error. */
function canListen(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve()));
  });
}

s('an export whose workflow source does not compile rejects with a DataDirError naming the .yaml, and leaves its port free', async (ctx) => {
  const exported = join(ctx.dir, 'export');
  const a = await startEmulator({ exportOnExit: exported });
  try {
    await a.deploy('add', ADD);
  } finally {
    await a.close();
  }
  const wfDir = join(exported, 'workflows', 'add');
  const yaml = join(wfDir, readdirSync(wfDir).find((f) => f.endsWith('.yaml'))!);
  writeFileSync(yaml, 'main:\n  steps:\n    - add:\n        nonsense: 1\n');
  const port = await freePort();
  const e = await rejection<Error>(startEmulator({ importDir: exported, dataDir: join(ctx.dir, 'data'), port }));
  assert.is(e.name, 'DataDirError');
  assert.match(e.message, yaml);
  await canListen(port);
  writeFileSync(yaml, ADD);
  const b = await startEmulator({ importDir: exported, dataDir: join(ctx.dir, 'data'), port });
  try {
    assert.is((await b.run('add', { x: 1 })).result, 2);
  } finally {
    await b.close();
  }
});

s.run();
