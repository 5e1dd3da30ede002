// Browser tests of the web UI pages (docs/web-ui.md#pages), in Debian's Chromium through
// playwright-core, against the built bundle on a free loopback port with a watched workflows directory:
// a watched file that failed to deploy is shown on the dashboard and its workflow page; executions lists
// page; a waiting execution's callback is sent from its page; "Run again…" lets the argument be edited first.
//
// Usage: npm run test:browser   (builds first; needs `apt-get install -y chromium`, or CHROMIUM_PATH)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';
import { CALLBACK_WAITER } from '../support/workflows.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const ECHO = 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args}\n';

interface Ctx {
  emu: EmulatorProcess;
  browser: Browser;
  page: Page;
  errors: string[];
}
const s = suite<Ctx>('ui in Chromium: the pages users work in (docs/web-ui.md#pages)', {} as Ctx);

s.before(async (ctx) => {
  ctx.emu = await startEmulator({ files: { 'echo.yaml': ECHO, 'waiter.yaml': CALLBACK_WAITER, 'changing.yaml': ECHO }, args: ['--host', '127.0.0.1'] });
  ctx.browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  ctx.page = await ctx.browser.newPage({ viewport: { width: 1280, height: 800 } });
  ctx.page.setDefaultTimeout(15_000);
  ctx.errors = [];
  ctx.page.on('pageerror', (e) => ctx.errors.push(e.message));
  ctx.page.on('console', (m) => {
    if (m.type() === 'error' && !/status of (404|422)\b/.test(m.text())) ctx.errors.push(m.text());
  });
});
s.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.emu?.close();
});

async function start(emu: EmulatorProcess, id: string, argument?: unknown): Promise<string> {
  const r = await emu.request('POST', `/workflows/${id}/executions`, argument === undefined ? {} : { argument: JSON.stringify(argument) });
  assert.is(r.status, 200, r.text);
  return String(r.body.name).split('/').pop()!;
}

s('a watched file saved broken is shown with its file, line and column on the dashboard and its page; fixing it clears that', async ({ emu, page }) => {
  const file = join(emu.workflowsDir!, 'changing.yaml');
  writeFileSync(file, 'main:\n  steps:\n    - first:\n        call: sys.lgo\n        args: {text: "<b>x</b>"}\n');
  await emu.waitForOutput(/changing\.yaml: invalid workflow definition/);
  await page.goto(`${emu.url}/ui`);
  const problem = page.locator('#problem-changing');
  await problem.waitFor();
  const text = await problem.innerText();
  assert.match(text, 'changing.yaml failed to deploy at line 4, column 15');
  assert.match(text, "did you mean 'sys.log'");
  assert.match(text, 'is still the one that runs');
  await problem.getByRole('link', { name: 'changing' }).click();
  await page.waitForURL(/\/ui\/workflows\/changing$/);
  assert.match(await page.locator('#problem-changing').innerText(), 'line 4, column 15');
  writeFileSync(file, ECHO.replace('${args}', '${"fixed"}'));
  await until(async () => ((await emu.request('GET', '/workflows/changing')).body.sourceContents.includes('fixed') ? true : undefined), 'the fix to deploy');
  await page.goto(`${emu.url}/ui/workflows/changing`);
  assert.is(await page.locator('#problem-changing').count(), 0);
});

s('an executions list shows 100 at a time; Older and Newer move between the pages', async ({ emu, page }) => {
  for (let i = 0; i < 130; i++) await start(emu, 'echo', { i });
  await page.goto(`${emu.url}/ui/workflows/echo/executions`);
  assert.is(await page.locator('table.list tbody tr').count(), 100);
  assert.match(await page.locator('nav.pager').innerText(), 'Showing 1–100 of 130');
  await page.click('#page-older');
  await page.waitForURL(/page=2/);
  assert.is(await page.locator('table.list tbody tr').count(), 30);
  await page.click('#page-newer');
  await page.waitForURL(/\/executions$/);
  assert.is(await page.locator('table.list tbody tr').count(), 100);
});

s("a waiting execution's callback is sent from its page, and the execution resumes with that body", async ({ emu, page }) => {
  const id = await start(emu, 'waiter');
  await until(async () => ((await emu.request('GET', `/workflows/waiter/executions/${id}/callbacks`)).body.callbacks[0] as unknown), 'the callback');
  await page.goto(`${emu.url}/ui/executions/waiter/${id}`);
  const form = page.locator('form.send-callback');
  await form.locator('textarea').fill('{"approved": true, "by": "<ada>"}');
  await form.getByRole('button', { name: 'Send POST' }).click();
  await page.locator('dd[role="status"]', { hasText: /succeeded/i }).waitFor();
  const done = (await emu.request('GET', `/workflows/waiter/executions/${id}`)).body;
  assert.is(done.state, 'SUCCEEDED');
  assert.equal(JSON.parse(done.result), { approved: true, by: '<ada>' });
  assert.match(await page.locator('section[aria-labelledby="ex-result"]').innerText(), '<ada>');
  assert.is(await page.locator('form.send-callback').count(), 0);
});

s('"Run again…" opens the start form with the argument, which can be edited before starting', async ({ emu, page }) => {
  const id = await start(emu, 'echo', { name: 'first' });
  await until(async () => ((await emu.request('GET', `/workflows/echo/executions/${id}`)).body.state !== 'ACTIVE' ? true : undefined), 'the first run');
  await page.goto(`${emu.url}/ui/executions/echo/${id}`);
  await page.click('#rerun-button');
  await page.waitForURL(/\/ui\/workflows\/echo$/);
  const argument = page.locator('#argument');
  assert.equal(JSON.parse(await argument.inputValue()), { name: 'first' });
  await argument.fill('{"name": "second"}');
  await page.getByRole('button', { name: 'Start execution' }).click();
  await page.waitForURL(/\/ui\/executions\/echo\/(?!.*\b${id}\b)/);
  await until(async () => ((await page.locator('#ex-result').count()) > 0 ? true : undefined), 'the result');
  const newId = page.url().split('/').pop()!;
  assert.is.not(newId, id);
  const again = (await emu.request('GET', `/workflows/echo/executions/${newId}`)).body;
  assert.equal(JSON.parse(again.argument), { name: 'second' });
});

s('no console errors and no CSP violations on these pages', ({ errors }) => {
  assert.equal(errors, []);
});

s.run();
