// The web UI's coverage view (docs/coverage.md#in-the-web-ui) in Debian's Chromium, driven by playwright-core,
// against the built bundle: after executions over REST, the workflow page marks the lines whose steps never ran
// and the branches never taken, with a summary above the source; step names are shown escaped.
//
// Usage: npm run test:browser   (builds first; needs `apt-get install -y chromium`, or CHROMIUM_PATH)
import { readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SOURCE = readFileSync(new URL('../fixtures/coverage/every-branch.yaml', import.meta.url), 'utf8');
const ESCAPED = 'main:\n  steps:\n    - "<img src=x onerror=window.hacked=1>":\n        switch:\n          - condition: ${false}\n            next: end\n    - done:\n        return: 1\n';

const s = suite<{ emu: EmulatorProcess; browser: Browser; page: Page; errors: string[] }>('ui: coverage on the workflow source (Chromium)');

s.before(async (ctx) => {
  ctx.emu = await startEmulator({ workflowsDir: false, args: ['--host', '127.0.0.1', '--clock', 'virtual'] });
  ctx.browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
  ctx.page = await ctx.browser.newPage();
  ctx.page.setDefaultTimeout(15_000);
  ctx.errors = [];
  ctx.page.on('pageerror', (e) => ctx.errors.push(e.message));
});

s.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.emu?.close();
});

async function deployAndRun(emu: EmulatorProcess, id: string, source: string, argument: unknown): Promise<void> {
  const d = await emu.request('POST', `/workflows?workflowId=${id}`, { sourceContents: source });
  assert.is(d.status, 200, d.text);
  const r = await emu.request('POST', `/workflows/${id}/executions`, { argument: JSON.stringify(argument) });
  assert.is(r.status, 200, r.text);
  await until(async () => ((await emu.request('GET', `/v1/${r.body.name}`)).body.state === 'ACTIVE' ? undefined : true), 'the execution to end');
}

s('lines whose steps never ran and branches never taken are marked, with what missed in their tooltip', async ({ emu, page, errors }) => {
  await deployAndRun(emu, 'branches', SOURCE, { mode: 'a', items: [1], fail: false });
  await page.goto(`${emu.url}/ui/workflows/branches`);
  const summary = (await page.locator('#coverage-summary').innerText()).replace(/\s+/g, ' ');
  assert.match(summary, 'over 1 execution since start or the last reset: steps 70.58% (12/17) branches 50% (6/12) routines 50% (2/4)');
  const missed = await page.locator('.source .line.cov-miss').evaluateAll((els) => els.map((e) => e.id));
  assert.equal(missed, ['L13', 'L16', 'L49', 'L70', 'L79']);
  const partial = await page.locator('.source .line.cov-partial').evaluateAll((els) => els.map((e) => [e.id, e.getAttribute('title')]));
  assert.equal(partial, [
    ['L7', 'switch pick: no condition true never taken'],
    ['L11', 'switch pick: condition 2 never taken'],
    ['L24', 'for sum: zero iterations never taken'],
    ['L37', 'switch risky: condition 1 never taken'],
    ['L40', 'try guarded: retried never taken'],
  ]);
  assert.is(await page.locator('#L79').getAttribute('title'), 'step never never ran');
  // The marks are visible: a missed line has a background of its own.
  const bg = await page.locator('#L79').evaluate((e) => getComputedStyle(e).backgroundColor);
  assert.is.not(bg, await page.locator('#L1').evaluate((e) => getComputedStyle(e).backgroundColor));
  assert.equal(errors, []);
});

s('step names are shown as text, never as markup', async ({ emu, page }) => {
  await deployAndRun(emu, 'escaped', ESCAPED, {});
  await page.goto(`${emu.url}/ui/workflows/escaped`);
  assert.is(await page.locator('#L5').getAttribute('title'), 'switch <img src=x onerror=window.hacked=1>: condition 1 never taken');
  assert.is(await page.locator('.source img').count(), 0);
  assert.is(await page.evaluate(() => (window as unknown as { hacked?: number }).hacked), undefined);
});

s('after DELETE /emulator/v1/coverage the page shows every step as never run', async ({ emu, page }) => {
  assert.is((await emu.request('DELETE', '/emulator/v1/coverage')).status, 200);
  await page.goto(`${emu.url}/ui/workflows/branches`);
  assert.match((await page.locator('#coverage-summary').innerText()).replace(/\s+/g, ' '), 'over 0 executions');
  assert.is(await page.locator('.source .line.cov-miss').count(), 17);
});

s.run();
