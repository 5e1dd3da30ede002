// Browser tests of the web UI (docs/web-ui.md#pages): Debian's Chromium, driven by playwright-core,
// against the built bundle (dist/emulator.js, so the embedded htmx and stylesheet are what is tested) started
// on a free loopback port. Workflows are deployed through the REST API; everything else happens in the page.
// Each page is saved as a screenshot at laptop and phone width in test/browser/screenshots/ (git-ignored).
//
// Usage: npm run test:browser   (builds first; needs `apt-get install -y chromium`, or CHROMIUM_PATH)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startEmulator, type EmulatorProcess } from '../support/emulator.ts';

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SHOTS = new URL('./screenshots/', import.meta.url).pathname;
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const HELLO = `main:
  params: [args]
  steps:
    - log:
        call: sys.log
        args:
          text: \${"Greeting " + args.name}
          severity: INFO
    - pause:
        call: sys.sleep
        args:
          seconds: 2
    - done:
        return:
          greeting: \${"Hello, " + args.name + "!"}
          letters: \${len(args.name)}
`;

const SLEEPER = `main:
  steps:
    - make:
        call: events.create_callback_endpoint
        result: cb
    - nap:
        call: sys.sleep
        args:
          seconds: 600
`;

const BROKEN = `main:
  params: [order]
  steps:
    - check:
        switch:
          - condition: \${order.total < 0}
            raise:
              code: 400
              message: \${"Order " + string(order.id) + " has a negative total"}
              tags: ["ValueError"]
    - done:
        return: ok
`;

interface Ctx {
  emu: EmulatorProcess;
  browser: Browser;
  page: Page;
  /** Console errors and page errors seen so far (CSP violations show up here). */
  errors: string[];
}

/** Set when the suite closes the emulator itself. */
let closing = false;

const s = suite<Ctx>('ui in Chromium (docs/web-ui.md#pages)');

async function deploy(emu: EmulatorProcess, id: string, sourceContents: string, description = ''): Promise<void> {
  const r = await emu.request('POST', `/workflows?workflowId=${id}`, { sourceContents, description });
  assert.is(r.status, 200, r.text);
}

async function startViaApi(emu: EmulatorProcess, id: string, argument?: unknown): Promise<string> {
  const r = await emu.request('POST', `/workflows/${id}/executions`, argument === undefined ? {} : { argument: JSON.stringify(argument) });
  assert.is(r.status, 200, r.text);
  return String(r.body.name).split('/').pop()!;
}

async function stateViaApi(emu: EmulatorProcess, id: string, executionId: string): Promise<string> {
  return (await emu.request('GET', `/workflows/${id}/executions/${executionId}`)).body.state;
}

async function until(f: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await f())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Saves the current page at laptop and at phone width, full length. */
async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}${name}-laptop.png`, fullPage: true });
  await page.setViewportSize(PHONE);
  await page.screenshot({ path: `${SHOTS}${name}-phone.png`, fullPage: true });
  await page.setViewportSize(LAPTOP);
}

/** The text of the execution page's State field. */
async function shownState(page: Page): Promise<string> {
  return (await page.locator('dd[role="status"]').innerText()).trim();
}

s.before(async (ctx) => {
  mkdirSync(SHOTS, { recursive: true });
  ctx.emu = await startEmulator({ workflowsDir: false, args: ['--host', '127.0.0.1'] });
  ctx.emu.child.on('exit', (code, signal) => {
    if (!closing) process.stderr.write(`the emulator exited during the tests (code ${code}, signal ${signal}):\n${ctx.emu.stdout().slice(-4000)}\n${ctx.emu.stderr().slice(-4000)}\n`);
  });
  ctx.browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  ctx.page = await ctx.browser.newPage({ viewport: LAPTOP, reducedMotion: 'reduce' });
  ctx.page.setDefaultTimeout(15_000);
  ctx.errors = [];
  ctx.page.on('console', (m) => {
    // The 404 page and a form the service rejected (422) are expected; anything else is not.
    if (m.type() === 'error' && !/status of (404|422)\b/.test(m.text())) ctx.errors.push(m.text());
  });
  ctx.page.on('pageerror', (e) => ctx.errors.push(e.message));
});

s.after(async (ctx) => {
  closing = true;
  await ctx.browser?.close();
  const code = await ctx.emu?.close();
  // The emulator's own complaints, if any, help explain a failure above.
  if (ctx.emu && (code !== 0 || ctx.emu.stderr().trim())) {
    process.stderr.write(`emulator exit code ${code} (signal ${ctx.emu.child.signalCode}); stderr:\n${ctx.emu.stderr()}\n`);
  }
});

s('the dashboard opens from /, empty, then lists a workflow deployed through the API (docs/web-ui.md#pages /ui)', async ({ emu, page }) => {
  await page.goto(emu.url + '/');
  assert.is(new URL(page.url()).pathname, '/ui');
  assert.is(await page.title(), 'Dashboard · Workflows emulator');
  assert.match(await page.locator('main').innerText(), /No workflows yet/);
  await shoot(page, '01-dashboard-empty');

  await deploy(emu, 'hello', HELLO, 'Greets someone by name, slowly.');
  await deploy(emu, 'sleeper', SLEEPER, 'Creates a callback, then sleeps for ten minutes.');
  await deploy(emu, 'broken', BROKEN);
  await page.reload();
  for (const id of ['hello', 'sleeper', 'broken']) assert.ok(await page.getByRole('link', { name: id, exact: true }).isVisible(), id);
  assert.is(await page.locator('.count-active .count-n').innerText(), '0');
});

s('an execution started from the form goes from ACTIVE to SUCCEEDED without a reload (docs/web-ui.md#pages)', async ({ emu, page }) => {
  await page.goto(emu.url + '/ui/workflows/hello');
  assert.is(await page.title(), 'Workflow hello · Workflows emulator');
  await page.getByLabel('Argument (JSON)').fill('{"name": "Ada"}');
  await shoot(page, '02-workflow');
  await page.getByRole('button', { name: 'Start execution' }).click();
  await page.waitForURL(/\/ui\/executions\/hello\/[^/]+$/);
  assert.is(await shownState(page), 'Active');
  assert.match(await page.title(), /^Execution \S+ of hello · Workflows emulator$/);
  await page.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
  await shoot(page, '03-execution-active');

  await page.locator('dd[role="status"]', { hasText: 'Succeeded' }).waitFor();
  assert.ok(await page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument === true), 'no reload');
  const result = await page.locator('section[aria-labelledby="ex-result"] pre').innerText();
  assert.equal(JSON.parse(result), { greeting: 'Hello, Ada!', letters: 3 });
  assert.match(await page.locator('.logs').innerText(), /INFO\s+Greeting Ada/);
  assert.is(await page.locator('#live[hx-trigger]').count(), 0, 'polling stopped');
  await shoot(page, '04-execution-succeeded');

  // Run again…: the start form with the same argument (to edit, docs/web-ui.md#pages), then a new execution.
  const first = page.url();
  await page.getByRole('button', { name: 'Run again' }).click();
  await page.waitForURL(/\/ui\/workflows\/hello$/);
  await page.getByRole('button', { name: 'Start execution' }).click();
  await page.waitForURL((u) => u.href !== first && /\/ui\/executions\/hello\/[^/]+$/.test(u.pathname));
  assert.equal(JSON.parse(await page.locator('section[aria-labelledby="ex-argument"] pre').innerText()), { name: 'Ada' });
});

s('invalid JSON in the start form is shown as an error and nothing is sent (docs/web-ui.md#pages)', async ({ emu, page }) => {
  await page.goto(emu.url + '/ui/workflows/hello');
  const before = (await emu.request('GET', '/workflows/hello/executions')).body.executions.length;
  const posts: string[] = [];
  const onRequest = (r: { method(): string; url(): string }) => {
    if (r.method() === 'POST') posts.push(r.url());
  };
  page.on('request', onRequest);
  await page.getByLabel('Argument (JSON)').fill('{"name": Ada}');
  await page.getByRole('button', { name: 'Start execution' }).click();
  const error = page.locator('#argument-error');
  await error.waitFor({ state: 'visible' });
  assert.match(await error.innerText(), /^The argument is not valid JSON: /);
  assert.is(await page.getByLabel('Argument (JSON)').getAttribute('aria-invalid'), 'true');
  await page.waitForTimeout(300);
  page.off('request', onRequest);
  assert.equal(posts, []);
  assert.is((await emu.request('GET', '/workflows/hello/executions')).body.executions.length, before);
  assert.ok(new URL(page.url()).pathname === '/ui/workflows/hello');
  await shoot(page, '05-workflow-invalid-json');
});

s('an argument the service rejects comes back into the form without leaving the page (docs/api-resources.md#limits)', async ({ emu, page }) => {
  await page.goto(emu.url + '/ui/workflows/hello');
  const before = (await emu.request('GET', '/workflows/hello/executions')).body.executions.length;
  await page.getByLabel('Argument (JSON)').fill(JSON.stringify({ name: 'x'.repeat(33 * 1024) }));
  await page.getByRole('button', { name: 'Start execution' }).click();
  await page.locator('#argument-error', { hasText: '32 KB' }).waitFor();
  assert.is(new URL(page.url()).pathname, '/ui/workflows/hello');
  assert.is((await emu.request('GET', '/workflows/hello/executions')).body.executions.length, before);
  assert.ok((await page.getByLabel('Argument (JSON)').inputValue()).length > 33 * 1024, 'what was typed is kept');
});

s('the start form works from the keyboard alone (docs/web-ui.md#pages)', async ({ emu, page }) => {
  await page.goto(emu.url + '/ui/workflows/hello');
  await page.keyboard.press('Tab');
  assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
  await page.getByLabel('Argument (JSON)').focus();
  await page.keyboard.type('{"name": "Kay"}');
  await page.keyboard.press('Tab');
  // The Debug box sits between the argument and the button (docs/debugging.md); left unticked.
  assert.is(await page.evaluate(() => document.activeElement?.id), 'debug-start');
  await page.keyboard.press('Tab');
  assert.is(await page.evaluate(() => document.activeElement?.textContent), 'Start execution');
  await page.keyboard.press('Enter');
  await page.waitForURL(/\/ui\/executions\/hello\/[^/]+$/);
  await page.locator('dd[role="status"]', { hasText: 'Succeeded' }).waitFor();
  assert.match(await page.locator('section[aria-labelledby="ex-result"] pre').innerText(), /Hello, Kay!/);
});

s('a sleeping execution is cancelled with the Cancel button, in place (docs/api-resources.md#states-and-transitions)', async ({ emu, page }) => {
  const id = await startViaApi(emu, 'sleeper');
  await page.goto(`${emu.url}/ui/executions/sleeper/${id}`);
  assert.is(await shownState(page), 'Active');
  await page.locator('section[aria-labelledby="ex-callbacks"] td', { hasText: `${emu.url}/callbacks/` }).waitFor();
  await shoot(page, '06-execution-sleeping');
  // The region refreshes every second; the focus stays on the button.
  await page.locator('#cancel-button').focus();
  await page.waitForTimeout(2500);
  assert.is(await page.evaluate(() => document.activeElement?.id), 'cancel-button');
  const url = page.url();
  await page.getByRole('button', { name: 'Cancel execution' }).click();
  await page.locator('dd[role="status"]', { hasText: 'Cancelled' }).waitFor();
  assert.is(page.url(), url);
  assert.is(await page.getByRole('button', { name: 'Cancel execution' }).count(), 0);
  assert.is(await stateViaApi(emu, 'sleeper', id), 'CANCELLED');
  await shoot(page, '07-execution-cancelled');
});

s('the dashboard refreshes itself while an execution is ACTIVE (docs/web-ui.md#pages)', async ({ emu, page }) => {
  const id = await startViaApi(emu, 'sleeper');
  await page.goto(emu.url + '/ui');
  assert.is(await page.locator('.count-active .count-n').innerText(), '1');
  await shoot(page, '08-dashboard-active');
  await page.locator(`#ex-${id}`).focus();
  await emu.request('POST', `/workflows/sleeper/executions/${id}:cancel`);
  await until(async () => (await page.locator('.count-active .count-n').innerText()) === '0');
  assert.is(await page.evaluate(() => document.activeElement?.id), `ex-${id}`, 'focus kept across the refresh');
  assert.is(await page.locator('#live[hx-trigger]').count(), 0, 'polling stopped');
  assert.is(await page.locator('.count-cancelled .count-n').innerText(), '2');
  await shoot(page, '09-dashboard');
});

s('a failed execution is found through the state filter and its error read (docs/web-ui.md#pages)', async ({ emu, page }) => {
  const id = await startViaApi(emu, 'broken', { id: 42, total: -5 });
  await until(async () => (await stateViaApi(emu, 'broken', id)) === 'FAILED');
  await startViaApi(emu, 'broken', { id: 43, total: 5 });
  await page.goto(emu.url + '/ui/executions');
  assert.is(await page.title(), 'Executions · Workflows emulator');
  await shoot(page, '10-executions');
  await page.getByRole('navigation', { name: 'Filter by state' }).getByRole('link', { name: /^Failed/ }).click();
  await page.waitForURL(/state=FAILED/);
  assert.is(await page.title(), 'Executions · Failed · Workflows emulator');
  assert.is(await page.locator('table.list tbody tr').count(), 1);
  await shoot(page, '11-executions-failed');
  await page.getByRole('link', { name: id }).click();
  await page.waitForURL(new RegExp(`/ui/executions/broken/${id}$`));
  assert.is(await shownState(page), 'Failed');
  assert.is(await page.locator('.error-message').innerText(), 'Order 42 has a negative total');
  assert.match(await page.locator('.error-head').innerText(), /ValueError/);
  assert.match(await page.locator('.error-context').innerText(), /step: check/);
  const payload = JSON.parse(await page.locator('section[aria-labelledby="ex-error"] pre').innerText());
  assert.is(payload.code, 400);
  assert.equal(payload.tags, ['ValueError']);
  await shoot(page, '12-execution-failed');
  await page.emulateMedia({ colorScheme: 'dark' });
  await shoot(page, '12-execution-failed-dark');
  await page.emulateMedia({ colorScheme: 'light' });
});

s('the workflow list, the executions of one workflow and the 404 page render (docs/web-ui.md#pages)', async ({ emu, page }) => {
  await page.goto(emu.url + '/ui/workflows');
  assert.is(await page.title(), 'Workflows · Workflows emulator');
  assert.match(await page.locator('main').innerText(), /sleeper/);
  await shoot(page, '13-workflows');
  await page.goto(emu.url + '/ui/workflows/broken/executions');
  assert.is(await page.title(), 'Executions of broken · Workflows emulator');
  assert.is(await page.locator('table.list tbody tr').count(), 2);
  await shoot(page, '14-workflow-executions');
  const r = await page.goto(emu.url + '/ui/workflows/missing');
  assert.is(r?.status(), 404);
  assert.is(await page.title(), 'Not found · Workflows emulator');
  await shoot(page, '15-not-found');
});

const NESTED = `main:
  steps:
    - prepare:
        assign:
          - items: [1, 2]
          - last: 0
    - each:
        for:
          value: i
          in: \${items}
          steps:
            - note:
                assign:
                  - last: \${i}
    - delegate:
        call: validate
        args:
          n: \${last}
validate:
  params: [n]
  steps:
    - reject:
        raise:
          message: \${"value " + string(n) + " is not allowed"}
          tags: [ValidationError]
`;

const TWO_NAPS = `main:
  steps:
    - first_nap:
        call: sys.sleep
        args:
          seconds: 1.5
    - second_nap:
        call: sys.sleep
        args:
          seconds: 60
`;

s('the execution page shows the step timeline: types, states, iterations, nesting, and the exception on the failing entry (docs/web-ui.md#pages)', async ({ emu, page }) => {
  await deploy(emu, 'nested', NESTED);
  const id = await startViaApi(emu, 'nested');
  await until(async () => (await stateViaApi(emu, 'nested', id)) === 'FAILED');
  await page.goto(`${emu.url}/ui/executions/nested/${id}`);
  const rows = page.locator('#timeline tbody tr');
  assert.is(await rows.count(), 8);
  const text = await page.locator('#timeline').innerText();
  for (const word of ['prepare', 'assign', 'for iteration', 'iteration 2', 'subworkflow call', 'raise']) assert.match(text, word);
  const failing = page.locator('#timeline tr.entry-failed', { hasText: 'reject' });
  assert.match(await failing.innerText(), /ValidationError/);
  assert.match(await failing.innerText(), /value 2 is not allowed/);
  assert.match(await failing.innerText(), /in validate/);
  assert.ok(await page.locator('#timeline td.depth-1', { hasText: 'reject' }).count(), 'the subworkflow step nests under its call');
  assert.ok(await page.locator('#timeline td.depth-2', { hasText: 'note' }).count(), 'a loop body nests under its iteration');
  assert.match(await page.locator('#stack-trace').innerText(), /reject in validate — line 22, column 7[\s\S]*delegate in main — line 15/);
  await shoot(page, '16-execution-timeline');
});

s('the failing step links to the workflow source with line numbers, that line highlighted (docs/web-ui.md#pages)', async ({ emu, page }) => {
  const id = (await emu.request('GET', '/workflows/nested/executions')).body.executions[0].name.split('/').pop();
  await page.goto(`${emu.url}/ui/executions/nested/${id}`);
  await page.locator('#failing-step-link').click();
  await page.waitForURL(/\/ui\/workflows\/nested\?revision=000001-[0-9a-f]{3}#L22$/);
  const line = page.locator('#L22');
  assert.match(await line.innerText(), /- reject:/);
  const targeted = await line.evaluate((el) => el.matches(':target'));
  assert.ok(targeted, 'line 22 is the :target');
  const [lit, plain] = await Promise.all([
    line.evaluate((el) => getComputedStyle(el).backgroundColor),
    page.locator('#L21').evaluate((el) => getComputedStyle(el).backgroundColor),
  ]);
  assert.is.not(lit, plain, 'the targeted line is highlighted');
  await shoot(page, '17-source-line');
});

s('the failing step of an execution of revision 1 links to revision 1\'s source at its line after revision 2 shifted the lines (docs/web-ui.md#pages)', async ({ emu, page }) => {
  const shifted = (pad: number): string => `${'# a line added above\n'.repeat(pad)}main:
  steps:
    - delegate:
        call: check
check:
  steps:
    - fail_here:
        raise: "out of stock"
`;
  await deploy(emu, 'shifting', shifted(0));
  const rev1 = (await emu.request('GET', '/workflows/shifting')).body.revisionId;
  const id = await startViaApi(emu, 'shifting');
  await until(async () => (await stateViaApi(emu, 'shifting', id)) === 'FAILED');
  const r = await emu.request('PATCH', '/workflows/shifting', { sourceContents: shifted(4) });
  assert.is(r.status, 200, r.text);
  const rev2 = (await emu.request('GET', '/workflows/shifting')).body.revisionId;
  assert.is.not(rev2, rev1);

  await page.goto(`${emu.url}/ui/executions/shifting/${id}`);
  await page.locator('#failing-step-link').click();
  await page.waitForURL(new RegExp(`/ui/workflows/shifting\\?revision=${rev1}#L7$`));
  const line = page.locator('#L7');
  assert.match(await line.innerText(), /- fail_here:/, 'line 7 of revision 1 is the failing step');
  assert.ok(await line.evaluate((el) => el.matches(':target')), 'line 7 is the :target');
  const [lit, plain] = await Promise.all([
    line.evaluate((el) => getComputedStyle(el).backgroundColor),
    page.locator('#L6').evaluate((el) => getComputedStyle(el).backgroundColor),
  ]);
  assert.is.not(lit, plain, 'the targeted line is highlighted');
  assert.match(await page.locator('#wf-source').innerText(), new RegExp(`Source of revision ${rev1}`));
  assert.match(await page.locator('#L1').innerText(), /^main:/, 'revision 1\'s source, not the current one');
  await shoot(page, '17b-source-line-of-revision');
});

s('an ACTIVE execution shows the step running now, updating live as it moves on (docs/web-ui.md#pages)', async ({ emu, page }) => {
  await deploy(emu, 'naps', TWO_NAPS);
  const id = await startViaApi(emu, 'naps');
  await page.goto(`${emu.url}/ui/executions/naps/${id}`);
  await page.locator('#current-steps', { hasText: 'first_nap' }).waitFor();
  await page.locator('#current-steps', { hasText: 'second_nap' }).waitFor({ timeout: 10_000 });
  assert.match(await page.locator('#timeline tr.entry-succeeded', { hasText: 'first_nap' }).innerText(), /Succeeded/);
  assert.match(await page.locator('#timeline tr.entry-active', { hasText: 'second_nap' }).innerText(), /Running/);
  await shoot(page, '18-execution-current-steps');
  await emu.request('POST', `/workflows/naps/executions/${id}:cancel`, {});
});

s('a long history pages: 200 entries at a time with links to the later ones (docs/web-ui.md#pages)', async ({ emu, page }) => {
  await deploy(emu, 'long', `main:
  steps:
    - loop:
        for:
          value: i
          range: [1, 150]
          steps:
            - tick:
                assign:
                  - x: \${i}
`);
  const id = await startViaApi(emu, 'long');
  await until(async () => (await stateViaApi(emu, 'long', id)) === 'SUCCEEDED');
  await page.goto(`${emu.url}/ui/executions/long/${id}`);
  assert.is(await page.locator('#timeline tbody tr').count(), 200);
  assert.match(await page.locator('.pager').first().innerText(), /Entries 1–200 of 301/);
  await page.locator('#steps-next').first().click();
  await page.waitForURL(/from=200$/);
  assert.is(await page.locator('#timeline tbody tr').count(), 101);
  assert.match(await page.locator('#timeline tbody tr').last().innerText(), /tick/);
});

s('no console errors and no CSP violations on any page (docs/web-ui.md#pages: security)', async ({ errors }) => {
  assert.equal(errors, []);
});

s.run();
