// The web UI's debugger in Chromium (docs/debugging.md#in-the-web-ui): an execution started with the start
// form's Debug box waits at its first step; its page shows the source with breakpoint buttons, the threads
// with continue and step buttons, the variables and an expression box, all as htmx fragments, against the
// built bundle. Usage: npm run test:browser (builds first; needs Chromium at /usr/bin/chromium or CHROMIUM_PATH)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startEmulator, type EmulatorProcess } from '../support/emulator.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

const SOURCE = `main:
  params: [args]
  steps:
    - init:
        assign:
          - total: 0
          - order: {id: "A-1", items: [3, 4]}
    - add:
        for:
          value: n
          in: \${order.items}
          steps:
            - sum:
                assign:
                  - total: \${total + n}
    - done:
        return: \${total}
`;

const s = suite<{ emu: EmulatorProcess; browser: Browser; page: Page; errors: string[] }>('ui debugger in Chromium (docs/debugging.md#in-the-web-ui)');

s.before(async (c) => {
  c.emu = await startEmulator({ workflowsDir: false, args: ['--host', '127.0.0.1'] });
  const r = await c.emu.request('POST', '/workflows?workflowId=summer', { sourceContents: SOURCE });
  assert.is(r.status, 200, r.text);
  c.browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
  c.page = await c.browser.newPage({ viewport: { width: 1280, height: 900 } });
  c.page.setDefaultTimeout(15_000);
  c.errors = [];
  c.page.on('pageerror', (e) => c.errors.push(e.message));
  c.page.on('console', (m) => {
    if (m.type() === 'error') c.errors.push(m.text());
  });
});

s.after(async (c) => {
  await c.browser?.close();
  await c.emu?.close();
});

const lineOf = (name: string): number => SOURCE.split('\n').findIndex((l) => l.trim() === `- ${name}:`) + 1;

s('start with Debug, set a breakpoint, continue to it, read variables, evaluate, step, and run to the end', async (c) => {
  const page = c.page;
  await page.goto(`${c.emu.url}/ui/workflows/summer`);
  await page.fill('#argument', '{}');
  await page.check('#debug-start');
  await page.click('#start-form button[type=submit]');
  await page.waitForURL(/\/ui\/executions\/summer\//);
  // Held at the first step.
  const mainRow = page.locator('tr[data-thread="main"]');
  await mainRow.getByText('held at').waitFor();
  assert.match(await mainRow.innerText(), /main\.init/);
  assert.match(await page.locator(`#D${lineOf('init')}`).getAttribute('class') ?? '', /current/);
  // A breakpoint on the loop body's step.
  await page.click(`button.bp[data-line="${lineOf('sum')}"]`);
  await page.locator(`button.bp.on[data-line="${lineOf('sum')}"]`).waitFor();
  await mainRow.locator('button[data-action="continue"]').click();
  await page.locator('tr[data-thread="main"]', { hasText: 'main.sum' }).waitFor();
  // Variables: the loop's n, and the routine's order, expandable.
  const vars = page.locator('#debug-vars');
  await vars.locator('li[data-var="n"]').waitFor();
  assert.match(await vars.locator('li[data-var="n"]').innerText(), /n = 3/);
  await vars.locator('li[data-var="order"] summary').first().click();
  assert.match(await vars.locator('li[data-var="order"]').innerText(), /"A-1"/);
  // The expression box.
  await page.fill('#debug-expression', 'total + n * 10');
  await page.click('#debug-eval button');
  await page.locator('#debug-eval-result', { hasText: '30' }).waitFor();
  await page.fill('#debug-expression', 'http.get("http://127.0.0.1:9/")');
  await page.click('#debug-eval button');
  await page.locator('#debug-eval-result', { hasText: 'side effects' }).waitFor();
  // Step over: the loop's next iteration stops at the breakpoint again (n = 4).
  await page.locator('tr[data-thread="main"] button[data-action="continue"]').click();
  await page.locator('#debug-vars li[data-var="n"]', { hasText: 'n = 4' }).waitFor();
  // Clear the breakpoint and run to the end.
  await page.click(`button.bp[data-line="${lineOf('sum')}"]`);
  await page.locator(`button.bp:not(.on)[data-line="${lineOf('sum')}"]`).waitFor();
  await page.locator('tr[data-thread="main"] button[data-action="next"]').click();
  await page.locator('tr[data-thread="main"]', { hasText: 'main.done' }).waitFor();
  await page.locator('tr[data-thread="main"] button[data-action="continue"]').click();
  const executionId = page.url().split('/').pop()!;
  for (let i = 0; i < 100; i++) {
    const r = await c.emu.request('GET', `/workflows/summer/executions/${executionId}`);
    if (r.body.state !== 'ACTIVE') {
      assert.is(r.body.state, 'SUCCEEDED');
      assert.is(r.body.result, '7');
      break;
    }
    await new Promise((x) => setTimeout(x, 50));
  }
  assert.equal(c.errors, []);
});

s.run();
