import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { idOf, startUi, type UiHarness, type UiResponse } from './harness.ts';
import { CALLBACK_WAITER } from '../support/workflows.ts';

// docs/web-ui.md#pages (and docs/web-ui.md#pages): every route of the UI handler, in process, over a real ServiceCore.
const s = suite<{ ui: UiHarness }>('ui routes (docs/web-ui.md#pages)');

const HELLO = `main:
  params: [args]
  steps:
    - log:
        call: sys.log
        args:
          text: \${"Hello, " + args.name}
          severity: INFO
    - done:
        return:
          greeting: \${"Hello, " + args.name}
          count: 3
`;

const WAITER = CALLBACK_WAITER;

const FAILING = `main:
  steps:
    - first:
        assign:
          - a: 1
    - explode:
        raise:
          code: 7
          message: "boom: value was bad"
          tags: ["ValueError"]
`;

const XSS = `main:
  params: [args]
  steps:
    - log:
        call: sys.log
        args:
          text: "<script>alert('log')</script>"
    - check:
        switch:
          - condition: \${"fail" in args}
            raise: "<script>alert('error')</script>"
    - done:
        return: "<script>alert('result')</script>"
`;

const HTML = 'text/html; charset=utf-8';
const LIVE = { 'hx-request': 'true', 'hx-target': 'live' };
const HTMX = { 'hx-request': 'true', 'hx-target': 'start-form' };

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isHtmlPage(r: UiResponse, status = 200): void {
  assert.is(r.status, status, r.text.slice(0, 500));
  assert.is(r.headers.get('content-type'), HTML);
  assert.ok(r.text.startsWith('<!doctype html>'), 'a whole page');
}

async function until<T>(f: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = f();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await sleep(10);
  }
}

function title(r: UiResponse): string {
  return /<title>([^<]*)<\/title>/.exec(r.text)?.[1] ?? '';
}

/**
 * The text of the page as read: inline tags dropped, other tags as spaces, the escaper's entities undone,
 * whitespace collapsed.
 */
function plain(markup: string): string {
  return markup
    .replace(/<\/?(span|a|code|time|strong)\b[^>]*>/g, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');
}

/** The dashboard's counts by state label. */
function counts(r: UiResponse): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of r.text.matchAll(/<span class="count-n">(\d+)<\/span><span class="count-label">(\w+)<\/span>/g)) out[m[2]!] = Number(m[1]);
  return out;
}

function start(ui: UiHarness, workflowId: string, argument?: unknown): string {
  const e = ui.core.createExecution(workflowId, argument === undefined ? {} : { argument: JSON.stringify(argument) });
  return idOf(e);
}

async function waitForCallback(ui: UiHarness, workflowId: string, executionId: string): Promise<void> {
  for (let i = 0; i < 500 && ui.core.listCallbacks(workflowId, executionId).length === 0; i++) await sleep(5);
}

s.before.each(async (ctx) => {
  ctx.ui = await startUi();
  ctx.ui.core.createWorkflow('hello', { sourceContents: HELLO, description: 'Greets someone by name.' });
  ctx.ui.core.createWorkflow('waiter', { sourceContents: WAITER });
  ctx.ui.core.createWorkflow('failing', { sourceContents: FAILING });
});

s.after.each(async (ctx) => {
  await ctx.ui.close();
});

// ---------------------------------------------------------------------------------------------------------
// Navigation

s('/ redirects to /ui (docs/web-ui.md#pages: "/ ... redirects")', async ({ ui }) => {
  const r = await ui.get('/');
  assert.is(r.status, 302);
  assert.is(r.headers.get('location'), '/ui');
});

s('unknown UI paths get the 404 page with status 404 (docs/web-ui.md#pages)', async ({ ui }) => {
  for (const path of ['/ui/nope', '/ui/workflows/hello/elsewhere', '/ui/executions/hello', '/ui/%E0%A4%A']) {
    const r = await ui.get(path);
    isHtmlPage(r, 404);
    assert.is(title(r), 'Not found · Workflows emulator', path);
  }
});

s('a wrong method is answered 405 with Allow (docs/web-ui.md#pages: pages are HTTP GET)', async ({ ui }) => {
  const r = await ui.request('DELETE', '/ui/workflows');
  assert.is(r.status, 405);
  assert.is(r.headers.get('allow'), 'GET, HEAD');
  const p = await ui.request('PUT', '/ui/executions/hello/x/cancel');
  assert.is(p.status, 405);
  assert.is(p.headers.get('allow'), 'POST');
});

s('HEAD is answered like GET without a body (docs/web-ui.md#pages)', async ({ ui }) => {
  const r = await ui.request('HEAD', '/ui');
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-type'), HTML);
  assert.is(r.text, '');
});

s('pages carry a CSP allowing only same-origin scripts and styles, and no-store (docs/web-ui.md#pages: security)', async ({ ui }) => {
  const r = await ui.get('/ui');
  const csp = r.headers.get('content-security-policy') ?? '';
  assert.match(csp, /script-src 'self'/);
  assert.match(csp, /style-src 'self'/);
  assert.not.match(csp, /unsafe-inline|unsafe-eval/);
  assert.is(r.headers.get('cache-control'), 'no-store');
  assert.is(r.headers.get('x-content-type-options'), 'nosniff');
  // Only our two asset scripts; no inline script at all.
  assert.equal(r.text.match(/<script[^>]*>/g), [
    r.text.match(/<script src="\/ui\/assets\/htmx\.min\.js\?v=[0-9a-f]+" defer>/)![0],
    r.text.match(/<script src="\/ui\/assets\/ui\.js\?v=[0-9a-f]+" defer>/)![0],
  ]);
  assert.not.match(r.text, / on[a-z]+="/);
  assert.not.match(r.text, / style="/);
});

// ---------------------------------------------------------------------------------------------------------
// Assets

s('htmx is served from the emulator, from the htmx.org package (docs/web-ui.md#pages)', async ({ ui }) => {
  const page = await ui.get('/ui');
  const src = /src="(\/ui\/assets\/htmx\.min\.js\?v=([0-9a-f]+))"/.exec(page.text)!;
  const r = await ui.get(src[1]!);
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-type'), 'text/javascript; charset=utf-8');
  assert.match(r.text, /htmx/);
  assert.ok(r.text.length > 20_000);
  assert.is(r.headers.get('etag'), `"${src[2]}"`);
  assert.match(r.headers.get('cache-control') ?? '', /immutable/);
  assert.not.match(page.text, /https?:\/\/(?!localhost|127\.0\.0\.1)[a-z]/i, 'no external URL in the page');
});

s('the stylesheet and ui.js are served; an ETag match is 304; unknown assets 404 (docs/web-ui.md#pages)', async ({ ui }) => {
  const css = await ui.get('/ui/assets/styles.css');
  assert.is(css.status, 200);
  assert.is(css.headers.get('content-type'), 'text/css; charset=utf-8');
  assert.match(css.text, /--accent/);
  assert.not.match(css.text, /@import|url\(http/);
  assert.is(css.headers.get('cache-control'), 'no-cache');
  const again = await ui.get('/ui/assets/styles.css', { 'if-none-match': css.headers.get('etag')! });
  assert.is(again.status, 304);
  const js = await ui.get('/ui/assets/ui.js');
  assert.is(js.status, 200);
  assert.match(js.text, /JSON\.parse/);
  assert.is((await ui.get('/ui/assets/nope.js')).status, 404);
  assert.is((await ui.get('/ui/assets/__proto__')).status, 404);
});

// ---------------------------------------------------------------------------------------------------------
// Dashboard

s('dashboard shows counts by state, every workflow and recent executions (docs/web-ui.md#pages /ui)', async ({ ui }) => {
  const ok = start(ui, 'hello', { name: 'Ada' });
  await ui.settle('hello', ok);
  const bad = start(ui, 'failing');
  await ui.settle('failing', bad);
  const waiting = start(ui, 'waiter');
  const r = await ui.get('/ui');
  isHtmlPage(r);
  assert.is(title(r), 'Dashboard · Workflows emulator');
  assert.equal(counts(r), { Active: 1, Succeeded: 1, Failed: 1, Cancelled: 0 });
  for (const id of ['hello', 'waiter', 'failing', ok, bad, waiting]) assert.ok(r.text.includes(id), id);
  assert.match(r.text, /href="\/ui\/executions\/hello\/[^"]+"/);
  assert.match(r.text, /href="\/ui\/executions\?state=FAILED"/);
});

s('dashboard polls itself while an execution is ACTIVE and stops when none is (docs/web-ui.md#pages)', async ({ ui }) => {
  const waiting = start(ui, 'waiter');
  const r = await ui.get('/ui');
  assert.match(r.text, /<div id="live" hx-get="\/ui" hx-trigger="every \d+s" hx-target="this" hx-swap="outerHTML"/);
  ui.core.cancelExecution('waiter', waiting);
  const after = await ui.get('/ui');
  assert.match(after.text, /<div id="live">/);
  assert.not.match(after.text, /hx-trigger="every/);
});

s('a poll of a live region gets that region alone (docs/web-ui.md#pages: htmx fragments)', async ({ ui }) => {
  start(ui, 'waiter');
  const r = await ui.get('/ui', LIVE);
  assert.is(r.status, 200);
  assert.is(r.headers.get('content-type'), HTML);
  assert.ok(r.text.startsWith('<div id="live"'), r.text.slice(0, 80));
  assert.not.match(r.text, /<html|<title/);
  assert.is(counts(r).Active, 1);
  assert.match(r.headers.get('vary') ?? '', /HX-Target/);
});

s('dashboard without workflows explains how to deploy one (docs/cli.md#configuration: API-only mode)', async () => {
  const empty = await startUi();
  try {
    const r = await empty.get('/ui');
    isHtmlPage(r);
    assert.match(r.text, /No workflows yet/);
    assert.match(r.text, /\/v1\/projects\/my-project\/locations\/us-central1\/workflows\?workflowId=hello/);
    assert.equal(counts(r), { Active: 0, Succeeded: 0, Failed: 0, Cancelled: 0 });
  } finally {
    await empty.close();
  }
});

// ---------------------------------------------------------------------------------------------------------
// Workflows

s('/ui/workflows lists ID, state, total and active execution counts, update time (docs/web-ui.md#pages)', async ({ ui }) => {
  start(ui, 'waiter');
  start(ui, 'waiter');
  const done = start(ui, 'hello', { name: 'x' });
  await ui.settle('hello', done);
  const r = await ui.get('/ui/workflows');
  isHtmlPage(r);
  assert.is(title(r), 'Workflows · Workflows emulator');
  const row = (id: string) => plain(new RegExp(`<tr><td><a class="mono" id="wf-${id}" href="/ui/workflows/${id}">.*?</tr>`).exec(r.text)?.[0] ?? '');
  assert.match(row('waiter'), /^ waiter ACTIVE 2 2 Active \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC $/);
  assert.match(row('hello'), /^ hello Greets someone by name\. ACTIVE 1 0 Succeeded /);
  assert.match(row('failing'), /^ failing ACTIVE 0 0 None yet /);
  const w = ui.core.getWorkflow('hello');
  assert.ok(r.text.includes(`datetime="${w.updateTime}"`));
  // Sorted by ID.
  assert.ok(r.text.indexOf('>failing<') < r.text.indexOf('>hello<'));
  assert.ok(r.text.indexOf('>hello<') < r.text.indexOf('>waiter<'));
});

s('workflow page shows description, revision, update time, numbered source, history newest first, form (docs/web-ui.md#pages)', async ({ ui }) => {
  const first = start(ui, 'hello', { name: 'one' });
  await ui.settle('hello', first);
  await sleep(5);
  const second = start(ui, 'hello', { name: 'two' });
  await ui.settle('hello', second);
  const w = ui.core.getWorkflow('hello');
  const r = await ui.get('/ui/workflows/hello');
  isHtmlPage(r);
  assert.is(title(r), 'Workflow hello · Workflows emulator');
  assert.match(r.text, /Greets someone by name\./);
  assert.ok(r.text.includes(w.revisionId));
  assert.ok(r.text.includes(`datetime="${w.updateTime}"`));
  const lines = HELLO.trimEnd().split('\n');
  assert.match(r.text, new RegExp(`${lines.length} lines`));
  for (let i = 0; i < lines.length; i++) {
    const escaped = lines[i]!.replace(/&/g, '&amp;').replace(/"/g, '&quot;');
    assert.ok(r.text.includes(`<span class="line" id="L${i + 1}">${escaped}</span>`), `line ${i + 1}`);
  }
  assert.ok(r.text.indexOf(second) < r.text.indexOf(first), 'newest first');
  assert.match(r.text, /<form id="start-form"[^>]* method="post" action="\/ui\/workflows\/hello\/executions" hx-post="\/ui\/workflows\/hello\/executions"/);
  assert.match(r.text, /<textarea id="argument" name="argument"/);
  assert.match(r.text, /<label for="argument">/);
});

s('workflow page lists the revisions newest first; ?revision= shows that revision\'s source, escaped (docs/rest-api.md#workflow-settings-and-revisions)', async ({ ui }) => {
  ui.core.createWorkflow('revised', { sourceContents: 'main:\n  steps:\n    - r:\n        return: "<one>"\n' });
  const first = ui.core.getWorkflow('revised').revisionId;
  const second = ui.core.updateWorkflow('revised', { sourceContents: 'main:\n  steps:\n    - r:\n        return: "<two>"\n' }).revisionId;
  const r = await ui.get('/ui/workflows/revised');
  isHtmlPage(r);
  assert.ok(r.text.indexOf(second) < r.text.indexOf(`?revision=${first}`), 'newest first, older ones linked');
  assert.ok(r.text.includes('&lt;two&gt;') && !r.text.includes('&lt;one&gt;'), 'the current source by default');
  const old = await ui.get(`/ui/workflows/revised?revision=${first}`);
  isHtmlPage(old);
  assert.ok(old.text.includes('&lt;one&gt;') && !old.text.includes('&lt;two&gt;'), 'that revision\'s source');
  assert.match(plain(old.text), new RegExp(`Source of revision ${first}`));
  const missing = await ui.get('/ui/workflows/revised?revision=000099-zzz');
  assert.is(missing.status, 404);
});

s('unknown workflow: 404 page, for the page and its executions (docs/web-ui.md#pages)', async ({ ui }) => {
  const r = await ui.get('/ui/workflows/nope');
  isHtmlPage(r, 404);
  assert.match(r.text, /There is no workflow “nope”/);
  isHtmlPage(await ui.get('/ui/workflows/nope/executions'), 404);
});

s('a poll whose workflow was deleted gets 404 and HX-Refresh (docs/web-ui.md#pages)', async ({ ui }) => {
  ui.core.deleteWorkflow('failing');
  const r = await ui.get('/ui/workflows/failing', LIVE);
  assert.is(r.status, 404);
  assert.is(r.headers.get('hx-refresh'), 'true');
});

// ---------------------------------------------------------------------------------------------------------
// Executions lists

s('/ui/executions lists all executions newest first (docs/web-ui.md#pages: sorted by start time)', async ({ ui }) => {
  const ids: string[] = [];
  for (const wf of ['hello', 'failing', 'waiter']) {
    ids.push(start(ui, wf, wf === 'hello' ? { name: 'n' } : undefined));
    await sleep(5);
  }
  const r = await ui.get('/ui/executions');
  isHtmlPage(r);
  assert.is(title(r), 'Executions · Workflows emulator');
  const positions = ids.map((id) => r.text.indexOf(id));
  assert.ok(positions.every((p) => p > 0));
  assert.ok(positions[2]! < positions[1]! && positions[1]! < positions[0]!, 'newest first');
  assert.match(r.text, /href="\/ui\/workflows\/failing"/);
});

s('/ui/executions?state= filters by state, with counts per state (docs/web-ui.md#pages)', async ({ ui }) => {
  const ok = start(ui, 'hello', { name: 'n' });
  const bad = start(ui, 'failing');
  await ui.settle('hello', ok);
  await ui.settle('failing', bad);
  const r = await ui.get('/ui/executions?state=FAILED');
  isHtmlPage(r);
  assert.is(title(r), 'Executions · Failed · Workflows emulator');
  assert.ok(r.text.includes(bad));
  assert.not.ok(r.text.includes(ok));
  assert.match(r.text, /<a id="filter-FAILED" href="\/ui\/executions\?state=FAILED" aria-current="true">Failed <span class="chip-n">1<\/span>/);
  assert.match(r.text, /All <span class="chip-n">2<\/span>/);
  const lower = await ui.get('/ui/executions?state=succeeded');
  assert.ok(lower.text.includes(ok));
  assert.not.ok(lower.text.includes(bad));
  const none = await ui.get('/ui/executions?state=CANCELLED');
  assert.match(none.text, /No cancelled executions\./);
});

s('/ui/workflows/{id}/executions lists the executions of one workflow, filterable (docs/web-ui.md#pages)', async ({ ui }) => {
  const mine = start(ui, 'hello', { name: 'n' });
  const other = start(ui, 'failing');
  await ui.settle('hello', mine);
  await ui.settle('failing', other);
  const r = await ui.get('/ui/workflows/hello/executions');
  isHtmlPage(r);
  assert.is(title(r), 'Executions of hello · Workflows emulator');
  assert.ok(r.text.includes(mine));
  assert.not.ok(r.text.includes(other));
  const filtered = await ui.get('/ui/workflows/hello/executions?state=FAILED');
  assert.not.ok(filtered.text.includes(mine));
  assert.match(filtered.text, /No failed executions of this workflow\./);
  assert.match(filtered.text, /href="\/ui\/workflows\/hello\/executions\?state=SUCCEEDED"/);
});

// ---------------------------------------------------------------------------------------------------------
// Execution page

s('a succeeded execution shows state, times, duration, argument and pretty result (docs/web-ui.md#pages)', async ({ ui }) => {
  const id = start(ui, 'hello', { name: 'Ada' });
  const e = await ui.settle('hello', id);
  const r = await ui.get(`/ui/executions/hello/${id}`);
  isHtmlPage(r);
  assert.is(title(r), `Execution ${id} of hello · Workflows emulator`);
  const text = plain(r.text);
  assert.match(text, /State Succeeded/);
  assert.ok(r.text.includes(`datetime="${e.startTime}"`));
  assert.ok(r.text.includes(`datetime="${e.endTime}"`));
  assert.match(text, /Duration \d+(\.\d)? m?s/);
  assert.ok(r.text.includes(e.workflowRevisionId));
  // Pretty JSON, exact ints.
  assert.match(text, /Result \{ "greeting": "Hello, Ada", "count": 3 \}/);
  assert.match(r.text, /\n  <span class="j-key">&quot;count&quot;<\/span>: <span class="j-num">3<\/span>\n/);
  assert.match(text, /Argument \{ "name": "Ada" \}/);
  assert.not.match(r.text, /hx-trigger/);
  assert.not.match(r.text, /Cancel execution/);
});

s('an execution shows its sys.log lines with time and severity (docs/web-ui.md#pages)', async ({ ui }) => {
  const id = start(ui, 'hello', { name: 'Bo' });
  await ui.settle('hello', id);
  const log = ui.core.executionLogs('hello', id)[0]!;
  const r = await ui.get(`/ui/executions/hello/${id}`);
  assert.match(plain(r.text), /Logs 1 \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC INFO Hello, Bo/);
  assert.ok(r.text.includes(`datetime="${log.time}"`));
});

s('an execution with more sys.log lines than the page shows lists the newest ones (docs/web-ui.md#pages)', async ({ ui }) => {
  ui.core.createWorkflow('chatty', {
    sourceContents: `main:
  steps:
    - loop:
        for:
          value: i
          range: [1, 1005]
          steps:
            - say:
                call: sys.log
                args:
                  text: \${"line " + string(i)}
`,
  });
  const id = start(ui, 'chatty');
  await ui.settle('chatty', id);
  const r = await ui.get(`/ui/executions/chatty/${id}`);
  assert.match(r.text, /Logs <span class="muted">1005<\/span>/);
  assert.match(r.text, /Showing the last 1000 of 1005 lines\./);
  assert.is(r.text.match(/<li class="log /g)?.length, 1000);
  assert.ok(r.text.includes('>line 1005</pre>'));
  assert.ok(r.text.includes('>line 6</pre>'));
  assert.not.ok(r.text.includes('>line 5</pre>'));
});

s('a failed execution shows the error message, tags, context and pretty payload (docs/web-ui.md#pages)', async ({ ui }) => {
  const id = start(ui, 'failing');
  const e = await ui.settle('failing', id);
  assert.is(e.state, 'FAILED');
  const r = await ui.get(`/ui/executions/failing/${id}`);
  isHtmlPage(r);
  const text = plain(r.text);
  assert.match(text, /State Failed/);
  assert.match(r.text, /<p class="error-message">boom: value was bad<\/p>/);
  assert.match(r.text, /<span class="tag">ValueError<\/span>/);
  assert.match(r.text, /<span class="tag">code 7<\/span>/);
  assert.ok(text.includes(`at ${e.error!.context}`), e.error!.context);
  assert.match(text, /"message": "boom: value was bad"/);
  assert.match(text, /Argument None\./);
});

s('an ACTIVE execution shows its callbacks with URLs, a Cancel button, and polls itself (docs/web-ui.md#pages)', async ({ ui }) => {
  const id = start(ui, 'waiter');
  await waitForCallback(ui, 'waiter', id);
  const cb = ui.core.listCallbacks('waiter', id)[0]!;
  assert.ok(cb.url.startsWith(ui.url + '/callbacks/'));
  const r = await ui.get(`/ui/executions/waiter/${id}`);
  isHtmlPage(r);
  const text = plain(r.text);
  assert.match(text, /State Active/);
  assert.match(text, /Ended — /);
  assert.match(text, /so far/);
  assert.match(text, new RegExp(`Callbacks 1 .*Method URL Created POST ${cb.url.replace(/[.]/g, '\\.')} `));
  assert.match(
    r.text,
    new RegExp(`<form class="cancel" method="post" action="/ui/executions/waiter/${id}/cancel" hx-post="/ui/executions/waiter/${id}/cancel" hx-target="#live"`),
  );
  assert.match(r.text, new RegExp(`<div id="live" hx-get="/ui/executions/waiter/${id}" hx-trigger="every 1s"`));
});

s('Run again opens the start form filled in with the same argument, to edit before starting (docs/web-ui.md#pages)', async ({ ui }) => {
  const first = start(ui, 'hello', { name: `<i>"Q"</i>` });
  await ui.settle('hello', first);
  const page = await ui.get(`/ui/executions/hello/${first}`);
  const form = /<form class="rerun" method="post" action="\/ui\/workflows\/hello"><input type="hidden" name="argument" value="([^"]*)">/.exec(page.text);
  assert.ok(form, 'the form');
  assert.is(form![1], '{&quot;name&quot;:&quot;&lt;i&gt;\\&quot;Q\\&quot;&lt;/i&gt;&quot;}');
  const argument = ui.core.getExecution('hello', first).argument!;
  const r = await ui.post('/ui/workflows/hello', { argument });
  isHtmlPage(r, 200);
  const textarea = /<textarea id="argument"[^>]*>\n([^<]*)<\/textarea>/.exec(r.text);
  assert.is(textarea?.[1], '{&quot;name&quot;:&quot;&lt;i&gt;\\&quot;Q\\&quot;&lt;/i&gt;&quot;}', 'the argument, escaped, ready to edit');
  assert.is(ui.core.listExecutions('hello').length, 1, 'nothing started yet');
  const edited = await ui.post('/ui/workflows/hello/executions', { argument: '{"name": "edited"}' });
  assert.is(edited.status, 303);
  assert.is(ui.core.listExecutions('hello').find((e) => idOf(e) !== first)!.argument, '{"name": "edited"}');
});

s('an executions list pages: 100 a page, newest first, with links to the older and newer pages (docs/web-ui.md#pages)', async ({ ui }) => {
  for (let i = 0; i < 250; i++) ui.core.createExecution('hello', { argument: JSON.stringify({ name: `n${i}` }) });
  const first = await ui.get('/ui/executions');
  isHtmlPage(first);
  const rows = (t: string) => (t.match(/<tr><td>/g) ?? []).length;
  assert.is(rows(first.text), 100);
  assert.match(first.text, /Showing 1–100 of 250 · page 1 of 3/);
  assert.match(first.text, /id="page-older" href="\/ui\/executions\?page=2"/);
  const last = await ui.get('/ui/executions?page=3');
  assert.is(rows(last.text), 50);
  assert.match(last.text, /Showing 201–250 of 250/);
  assert.match(last.text, /id="page-newer" href="\/ui\/executions\?page=2"/);
  const wf = await ui.get('/ui/workflows/hello/executions?page=2');
  assert.match(wf.text, /id="page-newer" href="\/ui\/workflows\/hello\/executions"/);
  assert.match(wf.text, /id="page-older" href="\/ui\/workflows\/hello\/executions\?page=3"/);
  assert.ok(first.text.length < 200_000, `one page is small: ${first.text.length} bytes`);
  const beyond = await ui.get('/ui/executions?page=99');
  assert.match(beyond.text, /page 3 of 3/);
});

s('a waiting execution offers a form per callback; sending it resumes the execution with that body (docs/web-ui.md#pages)', async ({ ui }) => {
  const id = start(ui, 'waiter');
  const callback = await until(() => ui.core.listCallbacks('waiter', id)[0]);
  const cbId = callback.name.split('/').pop()!;
  const page = await ui.get(`/ui/executions/waiter/${id}`);
  assert.match(page.text, `action="/ui/executions/waiter/${id}/callbacks/${cbId}"`);
  assert.match(page.text, `Send POST`);
  const sent = await ui.post(`/ui/executions/waiter/${id}/callbacks/${cbId}`, { body: '{"approved": true}' });
  assert.is(sent.status, 303);
  const done = await ui.settle('waiter', id);
  assert.is(done.state, 'SUCCEEDED');
  assert.equal(JSON.parse(done.result!), { approved: true });
  const after = await ui.get(`/ui/executions/waiter/${id}`);
  assert.not.match(after.text, 'class="send-callback"', 'no form once the execution has ended');
  const unknown = await ui.post(`/ui/executions/waiter/${id}/callbacks/nope`, { body: '' });
  assert.is(unknown.status, 404);
});

s('a callback body that is not JSON is sent as text; htmx gets the live region with a notice', async ({ ui }) => {
  const id = start(ui, 'waiter');
  const cbId = (await until(() => ui.core.listCallbacks('waiter', id)[0])).name.split('/').pop()!;
  const r = await ui.post(`/ui/executions/waiter/${id}/callbacks/${cbId}`, { body: 'plain <b>text</b>' }, { 'hx-request': 'true', 'hx-target': 'live' });
  assert.is(r.status, 200);
  assert.match(r.text, 'Callback sent.');
  assert.is(JSON.parse((await ui.settle('waiter', id)).result!), 'plain <b>text</b>');
});

s('a watched file that failed to deploy is shown, escaped, on the dashboard and on its workflow page (docs/web-ui.md#pages)', async ({ ui }) => {
  ui.core.sourceProblems.set({
    workflowId: 'hello',
    file: '/tmp/flows/hello.yaml',
    message: `invalid workflow definition: step "<img src=x onerror=alert(1)>" (line 7, column 9): unknown function`,
    line: 7,
    column: 9,
    keptRevisionId: ui.core.getWorkflow('hello').revisionId,
    time: new Date().toISOString(),
  });
  const dash = await ui.get('/ui');
  assert.match(dash.text, 'Files that failed to deploy');
  assert.match(dash.text, '/tmp/flows/hello.yaml</span> failed to deploy at line 7, column 9');
  assert.match(dash.text, '&lt;img src=x onerror=alert(1)&gt;');
  assert.not.match(dash.text, '<img src=x');
  const wf = await ui.get('/ui/workflows/hello');
  assert.match(wf.text, 'id="problem-hello"');
  assert.match(wf.text, `${ui.core.getWorkflow('hello').revisionId}</span>, is still the one that runs`);
  ui.core.sourceProblems.clear('hello');
  assert.not.match((await ui.get('/ui')).text, 'failed to deploy');
});

s('an execution page for an unknown execution or workflow is a 404 page (docs/web-ui.md#pages)', async ({ ui }) => {
  const r = await ui.get('/ui/executions/hello/no-such-id');
  isHtmlPage(r, 404);
  assert.match(r.text, /There is no execution “no-such-id” of workflow “hello”/);
  isHtmlPage(await ui.get('/ui/executions/nope/no-such-id'), 404);
});

// ---------------------------------------------------------------------------------------------------------
// Starting and cancelling

s('the start form creates an execution with the JSON argument and redirects to it (docs/web-ui.md#pages)', async ({ ui }) => {
  const r = await ui.post('/ui/workflows/hello/executions', { argument: ' {"name": "Form"} ' });
  assert.is(r.status, 303);
  const [e] = ui.core.listExecutions('hello');
  assert.ok(e);
  assert.is(r.headers.get('location'), `/ui/executions/hello/${idOf(e)}`);
  assert.is(e.argument, '{"name": "Form"}');
  const done = await ui.settle('hello', idOf(e));
  assert.match(done.result ?? '', /Hello, Form/);
});

s('the start form over htmx answers HX-Redirect to the new execution (docs/web-ui.md#pages)', async ({ ui }) => {
  const r = await ui.post('/ui/workflows/hello/executions', { argument: '{"name": "X"}' }, HTMX);
  assert.is(r.status, 200);
  const [e] = ui.core.listExecutions('hello');
  assert.is(r.headers.get('hx-redirect'), `/ui/executions/hello/${idOf(e!)}`);
});

s('an empty argument starts an execution without one (docs/web-ui.md#pages)', async ({ ui }) => {
  const r = await ui.post('/ui/workflows/failing/executions', { argument: '  ' });
  assert.is(r.status, 303);
  const [e] = ui.core.listExecutions('failing');
  assert.is(e!.argument, undefined);
});

s('invalid JSON is shown as an error in the form and nothing is started (docs/web-ui.md#pages)', async ({ ui }) => {
  const r = await ui.post('/ui/workflows/hello/executions', { argument: '{"name": <b>}' });
  isHtmlPage(r, 422);
  assert.match(r.text, /<p id="argument-error" class="field-error" role="alert" data-json-error>The argument is not valid JSON: [^<]+<\/p>/);
  assert.match(r.text, /aria-invalid="true"/);
  assert.ok(r.text.includes('{&quot;name&quot;: &lt;b&gt;}</textarea>'), 'keeps what was typed, escaped');
  assert.is(ui.core.listExecutions('hello').length, 0);

  const h = await ui.post('/ui/workflows/hello/executions', { argument: '[1, 2' }, HTMX);
  assert.is(h.status, 422);
  assert.ok(h.text.startsWith('<form id="start-form"'), 'the form alone for htmx');
  assert.match(h.text, /The argument is not valid JSON/);
  assert.is(ui.core.listExecutions('hello').length, 0);
});

s('an argument the service rejects (over 32 KB) comes back as an error in the form (docs/api-resources.md#limits)', async ({ ui }) => {
  const big = JSON.stringify({ name: 'x'.repeat(33 * 1024) });
  const r = await ui.post('/ui/workflows/hello/executions', { argument: big }, HTMX);
  assert.is(r.status, 422);
  assert.match(r.text, /<p id="argument-error" class="field-error" role="alert" data-json-error>[^<]*32 KB[^<]*<\/p>/);
  assert.is(ui.core.listExecutions('hello').length, 0);
});

s('starting an execution of an unknown workflow is a 404 (docs/rest-api.md#endpoints: 404 for unknown workflow)', async ({ ui }) => {
  const r = await ui.post('/ui/workflows/nope/executions', { argument: '' });
  isHtmlPage(r, 404);
  const h = await ui.post('/ui/workflows/nope/executions', { argument: '' }, HTMX);
  assert.is(h.status, 404);
  assert.is(h.headers.get('hx-refresh'), 'true');
});

s('Cancel moves an ACTIVE execution to CANCELLED and redirects back (docs/api-resources.md#states-and-transitions)', async ({ ui }) => {
  const id = start(ui, 'waiter');
  const r = await ui.post(`/ui/executions/waiter/${id}/cancel`, {});
  assert.is(r.status, 303);
  assert.is(r.headers.get('location'), `/ui/executions/waiter/${id}`);
  assert.is(ui.core.getExecution('waiter', id).state, 'CANCELLED');
  const page = await ui.get(`/ui/executions/waiter/${id}`);
  assert.match(plain(page.text), /State Cancelled/);
  assert.not.match(page.text, /Cancel execution/);
});

s('Cancel over htmx answers the refreshed live region; a finished one gets a notice (docs/web-ui.md#pages)', async ({ ui }) => {
  const id = start(ui, 'waiter');
  const r = await ui.post(`/ui/executions/waiter/${id}/cancel`, {}, { 'hx-request': 'true', 'hx-target': 'live' });
  assert.is(r.status, 200);
  assert.ok(r.text.startsWith('<div id="live">'), 'no polling any more');
  assert.match(plain(r.text), /State Cancelled/);
  const again = await ui.post(`/ui/executions/waiter/${id}/cancel`, {}, { 'hx-request': 'true', 'hx-target': 'live' });
  assert.is(again.status, 200);
  assert.match(again.text, /<p class="notice" role="status">Not cancelled: /);
  const missing = await ui.post('/ui/executions/waiter/nope/cancel', {});
  isHtmlPage(missing, 404);
});

s('element IDs are unique on every page, so htmx can keep the focus across refreshes (docs/web-ui.md#pages: keyboard)', async ({ ui }) => {
  const done = start(ui, 'hello', { name: 'n' });
  await ui.settle('hello', done);
  const waiting = start(ui, 'waiter');
  await waitForCallback(ui, 'waiter', waiting);
  for (const path of ['/ui', '/ui/workflows', '/ui/workflows/hello', '/ui/executions', `/ui/executions/waiter/${waiting}`]) {
    const ids = [...(await ui.get(path)).text.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
    assert.equal(ids.filter((id, i) => ids.indexOf(id) !== i), [], path);
  }
  const dash = await ui.get('/ui');
  assert.match(dash.text, new RegExp(`<a class="mono" id="ex-${waiting}" href="/ui/executions/waiter/${waiting}">`));
  const page = await ui.get(`/ui/executions/waiter/${waiting}`);
  assert.match(page.text, /<button type="submit" class="danger" id="cancel-button">Cancel execution<\/button>/);
});

// ---------------------------------------------------------------------------------------------------------
// Escaping

s('user strings are HTML-escaped: source, description, argument, result, log lines, error (docs/web-ui.md#pages)', async ({ ui }) => {
  ui.core.createWorkflow('xss', { sourceContents: XSS, description: `<img src=x onerror="alert('desc')">` });
  const ok = start(ui, 'xss', { x: "<script>alert('arg')</script>" });
  const okDone = await ui.settle('xss', ok);
  assert.is(okDone.result, `"<script>alert('result')</script>"`);
  const bad = start(ui, 'xss', { fail: true });
  assert.is((await ui.settle('xss', bad)).state, 'FAILED');

  const pages = await Promise.all([
    ui.get('/ui'),
    ui.get('/ui/workflows'),
    ui.get('/ui/workflows/xss'),
    ui.get('/ui/workflows/xss/executions'),
    ui.get('/ui/executions'),
    ui.get(`/ui/executions/xss/${ok}`),
    ui.get(`/ui/executions/xss/${bad}`),
  ]);
  for (const r of pages) {
    assert.is(r.status, 200);
    assert.not.match(r.text, /<script>|<img src=x|onerror="/, 'nothing user-provided as markup');
    assert.is(r.text.match(/<script/g)?.length, 2, 'only the two asset scripts');
  }
  const [, , wf, , , okPage, badPage] = pages;
  assert.ok(wf!.text.includes('&lt;img src=x onerror=&quot;alert(&#39;desc&#39;)&quot;&gt;'));
  assert.ok(wf!.text.includes(`text: &quot;&lt;script&gt;alert(&#39;log&#39;)&lt;/script&gt;&quot;`));
  assert.ok(okPage!.text.includes('&lt;script&gt;alert(&#39;result&#39;)&lt;/script&gt;'), 'result');
  assert.ok(okPage!.text.includes('&lt;script&gt;alert(&#39;arg&#39;)&lt;/script&gt;'), 'argument');
  assert.ok(okPage!.text.includes('<pre class="log-text">&lt;script&gt;alert(&#39;log&#39;)&lt;/script&gt;</pre>'), 'log line');
  assert.ok(badPage!.text.includes('<p class="error-message">&lt;script&gt;alert(&#39;error&#39;)&lt;/script&gt;</p>'), 'error');
});

s('the argument typed into a failed form comes back escaped inside the textarea (docs/web-ui.md#pages)', async ({ ui }) => {
  const r = await ui.post('/ui/workflows/hello/executions', { argument: '</textarea><script>alert(1)</script>' });
  assert.is(r.status, 422);
  assert.ok(r.text.includes('&lt;/textarea&gt;&lt;script&gt;alert(1)&lt;/script&gt;</textarea>'));
  assert.is(r.text.match(/<script/g)?.length, 2);
});

s.run();
