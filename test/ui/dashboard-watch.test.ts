// The dashboard keeps refreshing itself while a workflows directory is watched, so a watched file that breaks
// or is fixed shows there without a reload (docs/web-ui.md: the dashboard lists watched files that failed to
// deploy). In process: a real service core, the directory watcher and the UI handler.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { watchDirectory } from '../../src/service/watch/watch-directory.ts';
import { startUi } from './harness.ts';

const s = suite('ui dashboard of a watched directory');

const GOOD = 'main:\n  steps:\n    - a:\n        return: 1\n';
const BAD = 'main:\n  steps:\n    - a:\n        next: nowhere\n';

async function until(f: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await f())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

s('with no execution running, the dashboard polls while a directory is watched; its live region shows a file break and heal', async () => {
  const ui = await startUi();
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-dash-'));
  try {
    const idle = await ui.get('/ui');
    assert.not.ok(idle.text.includes('data-polling="true"'), 'nothing watched, nothing running: no polling');
    writeFileSync(join(dir, 'flaky.yaml'), GOOD);
    const w = await watchDirectory(ui.core, dir, { log: () => {}, debounceMs: 10 });
    const page = await ui.get('/ui');
    assert.ok(page.text.includes('data-polling="true"'), 'the dashboard polls');
    const live = (): Promise<string> => ui.get('/ui', { 'HX-Request': 'true', 'HX-Target': 'live' }).then((r) => r.text);
    writeFileSync(join(dir, 'flaky.yaml'), BAD);
    await until(async () => (await live()).includes('flaky.yaml'), 'the broken file on the dashboard');
    assert.ok((await live()).includes('data-polling="true"'), 'the fragment keeps polling');
    writeFileSync(join(dir, 'flaky.yaml'), GOOD);
    await until(async () => !(await live()).includes('flaky.yaml'), 'the fixed file to leave the dashboard');
    w.close();
    assert.not.ok((await ui.get('/ui')).text.includes('data-polling="true"'), 'no watcher, no polling');
  } finally {
    await ui.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

s.run();
