// The execution page's "Save as test…", "Replay" and "Replay with the current revision" buttons in Chromium
// (docs/recording.md "Saving a run as a test case", "Replay and redrive"), against the built bundle and a real
// local HTTP service that counts its requests: the saved file runs with `test` with the service gone; a
// replay gives the same result with no request out and links to its source; a replay of an older revision is
// refused with a notice; a redrive runs the new revision with the recorded answer.
// Usage: npm run build && node --import tsx test/browser/ui-replay.test.ts (Chromium at /usr/bin/chromium or CHROMIUM_PATH)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { EMULATOR_JS, startEmulator, type EmulatorProcess } from '../support/emulator.ts';
import { openChromiumPage } from '../support/chromium.ts';

const source = (url: string, factor: number): string => `main:
  steps:
    - get:
        call: http.get
        args:
          url: ${url}
        result: r
    - stamp:
        assign:
          - t: \${sys.now()}
          - id: \${uuid.generate()}
    - done:
        return:
          n: \${r.body.n * ${factor}}
          t: \${t}
          id: \${id}
`;

interface Ctx {
  emu: EmulatorProcess;
  browser: Browser;
  page: Page;
  service: Server;
  url: string;
  hits: number;
  dir: string;
  errors: string[];
}

const s = suite<Ctx>('ui: Save as test…, Replay and redrive in Chromium (docs/recording.md)');

s.before(async (c) => {
  c.hits = 0;
  c.service = createServer((_req, res) => {
    c.hits++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ n: c.hits }));
  });
  await new Promise<void>((r) => c.service.listen(0, '127.0.0.1', r));
  c.url = `http://127.0.0.1:${(c.service.address() as AddressInfo).port}/count`;
  c.dir = mkdtempSync(join(tmpdir(), 'ui-replay-'));
  c.emu = await startEmulator({ workflowsDir: false, args: ['--host', '127.0.0.1'] });
  const r = await c.emu.request('POST', '/workflows?workflowId=counter', { sourceContents: source(c.url, 1) });
  assert.is(r.status, 200, r.text);
  ({ browser: c.browser, page: c.page, errors: c.errors } = await openChromiumPage());
});

s.after(async (c) => {
  await c.browser?.close();
  await c.emu?.close();
  await new Promise((r) => c.service?.close(r));
  if (c.dir) rmSync(c.dir, { recursive: true, force: true });
});

/** Starts an execution of counter over the API and waits for it to end; its ID and result. */
async function runToEnd(c: Ctx): Promise<{ id: string; result: string }> {
  const r = await c.emu.request('POST', '/workflows/counter/executions', {});
  assert.is(r.status, 200, r.text);
  const id = String(r.body.name).split('/').pop()!;
  for (;;) {
    const e = await c.emu.request('GET', `/workflows/counter/executions/${id}`);
    if (e.body.state !== 'ACTIVE') {
      assert.is(e.body.state, 'SUCCEEDED', e.text);
      return { id, result: e.body.result };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The result JSON shown on the execution page now open, once it has ended. */
async function shownResult(page: Page): Promise<unknown> {
  const result = page.locator('section[aria-labelledby="ex-result"] pre.json');
  await result.waitFor();
  return JSON.parse(await result.innerText());
}

let sourceId = '';
let sourceResult: unknown;

s('"Save as test…" downloads a test file that passes with `test` once the service is gone', async (c) => {
  const run = await runToEnd(c);
  sourceId = run.id;
  sourceResult = JSON.parse(run.result);
  assert.is(c.hits, 1);
  await c.page.goto(`${c.emu.url}/ui/executions/counter/${run.id}`);
  const [download] = await Promise.all([c.page.waitForEvent('download'), c.page.click('#save-test')]);
  assert.is(download.suggestedFilename(), 'counter.test.yaml');
  const file = join(c.dir, 'counter.test.yaml');
  await download.saveAs(file);
  const text = readFileSync(file, 'utf8');
  assert.match(text, /^workflow: counter\.yaml$/m);
  assert.ok(text.includes(c.url), text);
  // The workflow file beside it, the service unreachable: the case runs from its mocks and playback alone.
  writeFileSync(join(c.dir, 'counter.yaml'), source(c.url, 1));
  const t = spawnSync(process.execPath, [EMULATOR_JS, 'test', file], { cwd: c.dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  assert.is(t.status, 0, t.stdout + t.stderr);
  assert.match(t.stdout, /1 passed, 0 failed/);
  assert.is(c.hits, 1, 'the test made no request');
});

s('"Replay" opens a new execution with the same result, no request out, linked to its source', async (c) => {
  await c.page.goto(`${c.emu.url}/ui/executions/counter/${sourceId}`);
  await c.page.click('#replay-button');
  await c.page.waitForURL((u) => /\/ui\/executions\/counter\//.test(u.pathname) && !u.pathname.endsWith(sourceId));
  assert.equal(await shownResult(c.page), sourceResult);
  assert.is(c.hits, 1, 'the replay made no request');
  assert.is(await c.page.locator('#replay-of-link').innerText(), sourceId);
  await c.page.click('#replay-of-link');
  await c.page.waitForURL((u) => u.pathname.endsWith(`/counter/${sourceId}`));
});

s('after a new revision, "Replay" is refused with a notice and "Replay with the current revision" redrives it', async (c) => {
  const r = await c.emu.request('PATCH', '/workflows/counter', { sourceContents: source(c.url, 10) });
  assert.is(r.status, 200, r.text);
  await c.page.goto(`${c.emu.url}/ui/executions/counter/${sourceId}`);
  await c.page.click('#replay-button');
  await c.page.locator('p.notice', { hasText: 'Not replayed' }).waitFor();
  assert.match(await c.page.locator('p.notice').innerText(), /ran revision 000001-\w+; the workflow is now at 000002-\w+: replay with \{"revision": "latest"\}/);
  assert.ok(c.page.url().endsWith(sourceId));
  await c.page.click('#redrive-button');
  await c.page.waitForURL((u) => !u.pathname.endsWith(sourceId));
  const result = (await shownResult(c.page)) as { n: number; t: number; id: string };
  const was = sourceResult as { n: number; t: number; id: string };
  assert.equal(result, { ...was, n: was.n * 10 }, 'the new revision, the recorded answer, time and UUID');
  assert.is(c.hits, 1, 'the recorded call was not repeated');
  assert.equal(c.errors, []);
});

s.run();
