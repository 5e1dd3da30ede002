// The JS API with a data directory (docs/persistence.md#options): startEmulator({dataDir}) keeps what was deployed
// and run across close() and a new startEmulator on the same directory; exportOnExit writes an export on close(),
// and importDir loads it; a damaged directory rejects with a DataDirError naming the file.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../../src/index.ts';
import { rejection } from '../support/rejection.ts';

const ADD = 'main:\n  params: [args]\n  steps:\n    - add:\n        return: ${args.x + 1}\n';

const s = suite<{ dir: string }>('dist: JS API startEmulator with dataDir, exportOnExit and importDir (docs/persistence.md#options)');

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'wfemu-jsapi-data-'));
});
s.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

s('what was deployed and run is there after close() and a new start on the same dataDir; exportOnExit and importDir round-trip', async (ctx) => {
  const dataDir = join(ctx.dir, 'data');
  const exported = join(ctx.dir, 'export');
  const a = await startEmulator({ dataDir, exportOnExit: exported });
  let name: string;
  try {
    await a.deploy('add', ADD);
    const done = await a.run('add', { x: 41 });
    assert.is(done.result, 42);
    name = done.name;
  } finally {
    await a.close();
  }
  assert.ok(existsSync(join(exported, 'FORMAT.json')), 'the export is written on close()');
  for (const options of [{ dataDir }, { importDir: exported }]) {
    const b = await startEmulator(options);
    try {
      const r = await fetch(`${b.url}/v1/${name}`);
      const ex = (await r.json()) as { state: string; result: string };
      assert.equal([ex.state, ex.result], ['SUCCEEDED', '42'], JSON.stringify(options));
    } finally {
      await b.close();
    }
  }
});

s('a data directory of a newer format rejects with a DataDirError naming FORMAT.json', async (ctx) => {
  writeFileSync(join(ctx.dir, 'FORMAT.json'), '{"format": 2}');
  const e = await rejection<Error>(startEmulator({ dataDir: ctx.dir }));
  assert.is(e.name, 'DataDirError');
  assert.match(e.message, /FORMAT\.json: this data directory was written by a newer version/);
});

s.run();
