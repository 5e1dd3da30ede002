// Browser tests of the graphs (docs/graph.md "In the web UI"): Debian's Chromium, driven by playwright-core,
// against the built bundle (dist/emulator.js) on a free loopback port. Workflows are deployed and executions
// started through the REST API; the graphs are read in the page: nodes and edges of every example and of a
// generated 200-step workflow with every step kind, node states after a failed run, the live update of a
// running execution, picking a node, scrolling to a source line, dark scheme and a phone-width screen.
//
// Usage: npm run build && node --import tsx test/browser/graph.test.ts   (needs Chromium, or CHROMIUM_PATH)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startEmulator, type EmulatorProcess } from '../support/emulator.ts';
import { everyKindWorkflow } from '../support/every-kind.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const EXAMPLES = new URL('../../examples/workflows/', import.meta.url).pathname;

const SLOW = `main:
  steps:
    - before:
        assign:
          - n: 1
    - pause:
        call: sys.sleep
        args:
          seconds: 3
    - after:
        return: \${n}
`;

interface Ctx {
  emu: EmulatorProcess;
  browser: Browser;
  page: Page;
  errors: string[];
}

const s = suite<Ctx>('graphs in Chromium (docs/graph.md)');

async function deploy(emu: EmulatorProcess, id: string, sourceContents: string): Promise<void> {
  const r = await emu.request('POST', `/workflows?workflowId=${id}`, { sourceContents });
  assert.is(r.status, 200, r.text);
}

async function start(emu: EmulatorProcess, id: string, argument: unknown): Promise<string> {
  const r = await emu.request('POST', `/workflows/${id}/executions`, { argument: JSON.stringify(argument) });
  assert.is(r.status, 200, r.text);
  return String(r.body.name).split('/').pop()!;
}

async function settle(emu: EmulatorProcess, id: string, executionId: string): Promise<string> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const state = (await emu.request('GET', `/workflows/${id}/executions/${executionId}`)).body.state as string;
    if (state !== 'ACTIVE') return state;
    if (Date.now() > deadline) throw new Error(`${executionId} still ACTIVE`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The state the graph shows for `step` of `main`. */
function stateOf(page: Page, step: string): Promise<string | null> {
  return page.locator(`#ex-graph ~ * [data-node="main/${step}"], [data-node="main/${step}"]`).first().getAttribute('data-state');
}

s.before(async (ctx) => {
  ctx.emu = await startEmulator({ workflowsDir: false, args: ['--host', '127.0.0.1'] });
  ctx.browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  ctx.page = await ctx.browser.newPage({ viewport: { width: 1280, height: 800 }, reducedMotion: 'reduce' });
  ctx.page.setDefaultTimeout(30_000);
  ctx.errors = [];
  ctx.page.on('console', (m) => {
    if (m.type() === 'error') ctx.errors.push(m.text());
  });
  ctx.page.on('pageerror', (e) => ctx.errors.push(e.message));
});

s.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.emu?.close();
});

s('every example: a graph per workflow, a titled node per step reachable by keyboard, edges drawn, no console error (CSP included)', async ({ emu, page, errors }) => {
  for (const file of readdirSync(EXAMPLES).filter((f) => /\.ya?ml$/.test(f))) {
    const id = file.replace(/\.ya?ml$/, '');
    await deploy(emu, id, readFileSync(join(EXAMPLES, file), 'utf8'));
    await page.goto(`${emu.url}/ui/workflows/${id}`);
    const graphs = await page.locator('#wf-graph ~ figure svg.wf-graph, section[aria-labelledby="wf-graph"] svg.wf-graph').count();
    assert.ok(graphs >= 1, `${id}: ${graphs} graphs`);
    const nodes = page.locator('section[aria-labelledby="wf-graph"] .g-node');
    const n = await nodes.count();
    assert.ok(n >= 3, `${id}: ${n} nodes`);
    assert.is(await page.locator('section[aria-labelledby="wf-graph"] .g-node > title').count(), n, `${id}: every node titled`);
    assert.ok((await page.locator('section[aria-labelledby="wf-graph"] path.g-edge').count()) >= n - graphs, `${id}: edges`);
    // Keyboard: tabbing reaches a step node, and Enter follows it to its source line.
    const first = page.locator('section[aria-labelledby="wf-graph"] a.g-node').first();
    await first.focus();
    assert.ok(await first.evaluate((el) => el === document.activeElement), `${id}: a node takes focus`);
    const href = await first.getAttribute('href');
    await page.keyboard.press('Enter');
    await page.waitForFunction((h) => location.hash === h, href);
  }
  assert.equal(errors, []);
});

s('a 200-step workflow of every kind: every node and edge drawn; after a failed run the states, the failing node and line, steps not run', async ({ emu, page }) => {
  const source = everyKindWorkflow(10);
  await deploy(emu, 'every-kind', source);
  await page.goto(`${emu.url}/ui/workflows/every-kind`);
  const main = page.locator('svg.wf-graph[data-workflow="main"]').first();
  assert.ok((await main.locator('.g-node').count()) >= 200);
  assert.ok((await main.locator('path.g-edge').count()) >= 280);
  for (const kind of ['assign', 'call', 'switch', 'for', 'parallel', 'try', 'raise', 'return', 'steps', 'jump']) {
    assert.ok((await main.locator(`.g-kind-${kind}`).count()) > 0, `a ${kind} node`);
  }
  for (const cluster of ['for', 'parallel', 'branch', 'try', 'except', 'steps']) {
    assert.ok((await main.locator(`.g-cluster-${cluster}`).count()) > 0, `a ${cluster} cluster`);
  }
  const id = await start(emu, 'every-kind', { fail: true });
  assert.is(await settle(emu, 'every-kind', id), 'FAILED');
  await page.goto(`${emu.url}/ui/executions/every-kind/${id}`);
  assert.is(await stateOf(page, 'a_0'), 'succeeded');
  assert.is(await stateOf(page, 'maybe_fail'), 'failed');
  assert.is(await stateOf(page, 'finish'), 'not-run');
  assert.match((await page.locator('[data-node="main/f_0"] > title').textContent()) ?? '', /, 3 iterations/, 'the third iteration breaks');
  assert.ok((await page.locator('#ex-graph ~ * .g-taken, .g-taken').count()) > 20, 'the path taken');
  const failing = page.locator('.source .line.failing');
  assert.is(await failing.count(), 1);
  const failLine = source.split('\n').findIndex((l) => l.includes('"fail" in args')) + 1; // the condition that raised
  assert.is(await failing.getAttribute('id'), `src-L${failLine}`);
});

s('a running execution: the graph updates without a reload until the run ends', async ({ emu, page }) => {
  await deploy(emu, 'slow', SLOW);
  const id = await start(emu, 'slow', {});
  await page.goto(`${emu.url}/ui/executions/slow/${id}`);
  await page.evaluate(() => {
    (window as unknown as { same: boolean }).same = true;
  });
  assert.is(await stateOf(page, 'pause'), 'running');
  assert.is(await stateOf(page, 'after'), 'not-run');
  await page.waitForFunction(() => document.querySelector('[data-node="main/after"]')?.getAttribute('data-state') === 'succeeded', undefined, { timeout: 20_000 });
  assert.is(await page.evaluate(() => (window as unknown as { same?: boolean }).same), true, 'the same document');
  assert.is(await stateOf(page, 'pause'), 'succeeded');
});

s('clicking a node narrows the timeline to its entries, marks its source lines and scrolls to them; a timeline row and a stack frame scroll to their line', async ({ emu, page }) => {
  const id = await start(emu, 'every-kind', { fail: true });
  await settle(emu, 'every-kind', id);
  await page.goto(`${emu.url}/ui/executions/every-kind/${id}`);
  const visible = (sel: string): Promise<boolean> =>
    page.evaluate((q) => {
      const r = document.querySelector(q)!.getBoundingClientRect();
      const box = document.querySelector(q)!.closest('.source-wrap')!.getBoundingClientRect();
      return r.top >= Math.max(0, box.top) - 1 && r.bottom <= Math.min(innerHeight, box.bottom) + 1;
    }, sel);
  await page.locator('[data-node="main/fa_3"]').click();
  await page.waitForURL(/node=main%2Ffa_3/);
  await page.locator('#timeline-filter').waitFor();
  const steps = await page.locator('#timeline tr.entry .step-name').allInnerTexts();
  assert.ok(steps.length >= 2, `${steps.length} entries`);
  for (const step of steps) assert.is(step.trim(), 'fa_3');
  assert.ok((await page.locator('.source .line.picked').count()) >= 3, 'its lines');
  assert.match((await page.locator('.source .line.picked').first().innerText()) ?? '', /- fa_3:/);
  assert.ok(await visible(`#${await page.locator('.source .line.picked').first().getAttribute('id')}`), 'scrolled to the node\'s first line');

  const row = page.locator('#timeline a.step-line').first();
  const target = (await row.getAttribute('href'))!;
  await row.click();
  await page.waitForFunction((h) => location.hash === h, target);
  assert.ok(await visible(target), 'the row\'s line is scrolled into view');

  await page.goto(`${emu.url}/ui/executions/every-kind/${id}`);
  await page.locator('a.frame-line').first().click();
  const frame = (await page.locator('a.frame-line').first().getAttribute('href'))!;
  await page.waitForFunction((h) => location.hash === h, frame);
  assert.ok(await visible(frame), 'the frame\'s line is scrolled into view');
});

s('dark scheme colours and a phone-width screen: the graph follows the page\'s colours and shrinks to fit', async ({ emu, browser }) => {
  const dark = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  await dark.goto(`${emu.url}/ui/workflows/every-kind`);
  const fill = await dark.locator('svg.wf-graph .g-node rect').first().evaluate((el) => getComputedStyle(el).fill);
  assert.is(fill, 'rgb(25, 29, 35)', 'node boxes take the dark surface colour');
  const width = await dark.locator('svg.wf-graph').first().evaluate((el) => el.getBoundingClientRect().width);
  assert.ok(width <= 390, `the drawing fits the screen (${width} px)`);
  await dark.close();
});

s.run();
