// The web UI debugger's stepping buttons in Chromium (docs/debugging.md#in-the-web-ui): Step over, Step into a
// subworkflow call, Step out back to the caller, Continue, and Pause on a running thread, which holds it at its
// next step; then the execution runs to its end. Against the built bundle.
// Usage: npm run build && node --import tsx test/browser/ui-debugger-steps.test.ts (Chromium at /usr/bin/chromium or CHROMIUM_PATH)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';
import { openChromiumPage } from '../support/chromium.ts';

// Real clock: the loop naps 100 × 50 ms, long enough to be paused while it runs.
const SOURCE = `main:
  steps:
    - init:
        assign:
          - n: 0
    - call_sub:
        call: twice
        args:
          x: 2
        result: y
    - spin:
        for:
          value: i
          range: [1, 100]
          steps:
            - nap:
                call: sys.sleep
                args:
                  seconds: 0.05
    - done:
        return: \${y}
twice:
  params: [x]
  steps:
    - mul:
        return: \${x * 2}
`;

const s = suite<{ emu: EmulatorProcess; browser: Browser; page: Page; errors: string[] }>('ui debugger stepping and pause in Chromium (docs/debugging.md#in-the-web-ui)');

s.before(async (c) => {
  c.emu = await startEmulator({ workflowsDir: false, args: ['--host', '127.0.0.1'] });
  const r = await c.emu.request('POST', '/workflows?workflowId=stepper', { sourceContents: SOURCE });
  assert.is(r.status, 200, r.text);
  ({ browser: c.browser, page: c.page, errors: c.errors } = await openChromiumPage());
});

s.after(async (c) => {
  await c.browser?.close();
  await c.emu?.close();
});

s('step over, step into a subworkflow, step out, continue, pause a running thread, and run to the end', async (c) => {
  const page = c.page;
  await page.goto(`${c.emu.url}/ui/workflows/stepper`);
  await page.check('#debug-start');
  await page.click('#start-form button[type=submit]');
  await page.waitForURL(/\/ui\/executions\/stepper\//);
  const main = page.locator('tr[data-thread="main"]');
  const heldAt = (where: string) => page.locator('tr[data-thread="main"]', { hasText: `held at ${where}` }).waitFor();
  await heldAt('main.init');
  await main.locator('button[data-action="next"]').click();
  await heldAt('main.call_sub');
  await main.locator('button[data-action="stepIn"]').click();
  await heldAt('twice.mul');
  assert.match(await page.locator('#debug-vars').innerText(), /x = 2/);
  await main.locator('button[data-action="stepOut"]').click();
  await heldAt('main.spin');
  assert.match(await page.locator('#debug-vars').innerText(), /y = 4/);
  // Continue: the thread runs (its row offers Pause), and Pause holds it at its next step.
  await main.locator('button[data-action="continue"]').click();
  await main.locator('button[data-action="pause"]').click();
  await heldAt('main.nap');
  assert.match(await main.innerText(), /pause/);
  await main.locator('button[data-action="continue"]').click();
  const id = page.url().split('/').pop()!;
  const ended = await until(async () => {
    const r = await c.emu.request('GET', `/workflows/stepper/executions/${id}`);
    return r.body.state === 'ACTIVE' ? undefined : r.body;
  }, 'the execution to end', 20_000);
  assert.is(ended.state, 'SUCCEEDED');
  assert.is(ended.result, '4');
  assert.equal(c.errors, []);
});

s.run();
