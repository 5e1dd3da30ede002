/**
 * The web UI's page frame and the pieces its pages share (docs/web-ui.md#pages): the layout (head, navigation, htmx
 * configuration), state badges, breadcrumbs, live regions, links and tables, and the error pages.
 *
 * Every page has one "live" region (`<div id="live">`) holding what changes while executions run. While
 * something in it is ACTIVE the region carries htmx polling attributes (`hx-get` of the page's own URL,
 * `hx-trigger="every Ns"`, outerHTML swap); routes answer such a request with the region alone, and a region
 * rendered once nothing is ACTIVE has no trigger, so polling stops by itself. Forms work without JavaScript
 * (plain POST and a redirect) and are enhanced by htmx.
 *
 * All markup is built with the escaping `html` template (src/ui/html.ts): user strings cannot reach the page
 * unescaped.
 */
import type { Execution, ExecutionState, Workflow } from '../service/model.ts';
import { VERSION } from '../service/version.ts';
import { assetUrl } from './assets.ts';
import { executionDurationMs, executionIds, formatDuration, formatTime, lastSegment } from './format.ts';
import { html, type HtmlValue, type SafeHtml, uiPath } from './html.ts';

/** The execution states in display order. */
export const STATES: readonly ExecutionState[] = ['ACTIVE', 'SUCCEEDED', 'FAILED', 'CANCELLED'];

/** sys.log lines an execution page shows: the newest ones (it is re-rendered every second while ACTIVE). */
export const MAX_LOG_LINES_SHOWN = 1000;

/** Seconds between refreshes of a live region while something in it is ACTIVE. */
export const POLL_SEC = { page: 2, execution: 1 } as const;

/** What every page knows about the emulator it runs in. */
export interface Site {
  readonly project: string;
  readonly location: string;
  /** Base URL of the REST API as the browser reached it (`http://host:port`), for the examples shown. */
  readonly origin: string;
}

/** The top navigation entry a page belongs to. */
export type Section = 'dashboard' | 'workflows' | 'executions' | 'none';

/** A rendered page before the layout: its title (also the `<title>`), section and content. */
export interface Page {
  readonly title: string;
  readonly section: Section;
  readonly body: SafeHtml;
}

/** A workflow with the execution counts the lists show. */
export interface WorkflowRow {
  readonly workflow: Workflow;
  readonly total: number;
  readonly active: number;
  /** Its newest execution, if any. */
  readonly latest?: Execution;
}

/** Number of executions in each state. */
export type StateCounts = Readonly<Record<ExecutionState, number>>;

export const STATE_LABELS: Record<ExecutionState, string> = {
  ACTIVE: 'Active',
  SUCCEEDED: 'Succeeded',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};

// htmx configuration, read from a meta tag: no eval (hx-on, js: values), no scripts from swapped content,
// no injected <style> (the stylesheet has the indicator rules; the CSP allows no inline style), and inherited
// attributes switched off so each element says what it does. 422 responses (a form with an error) are
// swapped like 2xx ones.
const HTMX_CONFIG = JSON.stringify({
  allowEval: false,
  allowScriptTags: false,
  includeIndicatorStyles: false,
  disableInheritance: true,
  selfRequestsOnly: true,
  historyCacheSize: 0,
  responseHandling: [
    { code: '204', swap: false },
    { code: '[23]..', swap: true },
    { code: '422', swap: true },
    { code: '[45]..', swap: false, error: true },
  ],
});

const ICON =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1a73e8"/>' +
      '<circle cx="10" cy="10" r="4" fill="#fff"/><circle cx="22" cy="22" r="4" fill="#fff"/>' +
      '<path d="M10 14v4a4 4 0 0 0 4 4h4" stroke="#fff" stroke-width="2.5" fill="none"/></svg>',
  );

/** Wraps a page in the document: head, skip link, top navigation, main, footer. Returns the whole HTML text. */
export function layout(site: Site, page: Page): string {
  const nav = (section: Section, href: string, label: string) =>
    html`<a href="${href}"${page.section === section ? html` aria-current="page"` : ''}>${label}</a>`;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="htmx-config" content="${HTMX_CONFIG}">
<title>${page.title} · Workflows emulator</title>
<link rel="icon" href="${ICON}">
<link rel="stylesheet" href="${assetUrl('styles.css')}">
<script src="${assetUrl('htmx.min.js')}" defer></script>
<script src="${assetUrl('ui.js')}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="top">
<div class="top-inner">
<a class="brand" href="/ui"><img src="${ICON}" alt="" width="22" height="22"> Workflows emulator</a>
<nav class="nav" aria-label="Main">${nav('dashboard', '/ui', 'Dashboard')}${nav('workflows', '/ui/workflows', 'Workflows')}${nav('executions', '/ui/executions', 'Executions')}</nav>
<span class="where" title="Project and location of the API paths">${site.project} · ${site.location}</span>
</div>
</header>
<main id="main" tabindex="-1">
${page.body}
</main>
<footer class="foot">workflows-emulator ${VERSION} · REST API at <code>/v1/projects/${site.project}/locations/${site.location}</code></footer>
</body>
</html>
`.value;
}

// ---------------------------------------------------------------------------------------------------------
// Pieces shared by the pages.

/** The state of an execution as a badge: a coloured dot and the state's name (never colour alone). */
export function stateBadge(state: ExecutionState): SafeHtml {
  return html`<span class="state state-${state.toLowerCase()}">${STATE_LABELS[state]}</span>`;
}

export function crumbs(items: readonly (readonly [string, string | undefined])[]): SafeHtml {
  return html`<nav class="crumbs" aria-label="Breadcrumb"><ol>${items.map(([label, href]) =>
    href ? html`<li><a href="${href}">${label}</a></li>` : html`<li aria-current="page">${label}</li>`,
  )}</ol></nav>`;
}

/**
 * The live region: `content` inside `<div id="live">`, polling `url` every `sec` seconds while `polling`, with
 * `note` saying so.
 * @internal
 */
export function liveRegion(
  url: string,
  polling: boolean,
  sec: number,
  content: SafeHtml,
  note = 'Refreshing while executions run',
): SafeHtml {
  const attrs = polling
    ? html` hx-get="${url}" hx-trigger="every ${sec}s" hx-target="this" hx-swap="outerHTML" data-polling="true"`
    : '';
  const noteMarkup = polling
    ? html`<p class="live-note"><span class="pulse" aria-hidden="true"></span>${note}</p>`
    : '';
  return html`<div id="live"${attrs}>${noteMarkup}${content}</div>`;
}

// Focusable elements inside a live region carry stable IDs: htmx puts the focus back on the element with the
// same ID after a swap, so polling never throws a keyboard user out of the page.

function executionLink(e: Execution, id: string): SafeHtml {
  const { workflowId, executionId } = executionIds(e);
  return html`<a class="mono" id="${id}" href="${uiPath('executions', workflowId, executionId)}">${executionId}</a>`;
}

export function workflowLink(workflowId: string, id: string): SafeHtml {
  return html`<a class="mono" id="${id}" href="${uiPath('workflows', workflowId)}">${workflowId}</a>`;
}

/** A table of executions, newest first as given. `showWorkflow` adds the workflow column. */
export function executionsTable(
  executions: readonly Execution[],
  opts: { showWorkflow: boolean; nowMs: number; caption: string },
): SafeHtml {
  const linkId = (e: Execution) => `ex-${executionIds(e).executionId}`;
  return html`<div class="table-wrap"><table class="list">
<caption class="sr-only">${opts.caption}</caption>
<thead><tr><th scope="col">Execution</th>${opts.showWorkflow ? html`<th scope="col">Workflow</th>` : ''}<th scope="col">State</th><th scope="col">Started</th><th scope="col" class="num">Duration</th><th scope="col" class="hide-sm">Revision</th></tr></thead>
<tbody>${executions.map(
    (e) => html`<tr><td>${executionLink(e, linkId(e))}</td>${opts.showWorkflow ? html`<td>${workflowLink(executionIds(e).workflowId, linkId(e) + '-wf')}</td>` : ''}<td>${stateBadge(e.state)}</td><td data-label="Started">${formatTime(e.startTime)}</td><td class="num" data-label="Took">${formatDuration(executionDurationMs(e, opts.nowMs))}</td><td class="hide-sm mono muted">${e.workflowRevisionId}</td></tr>`,
  )}</tbody>
</table></div>`;
}

export function workflowsTable(rows: readonly WorkflowRow[]): SafeHtml {
  return html`<div class="table-wrap"><table class="list">
<caption class="sr-only">Workflows</caption>
<thead><tr><th scope="col">Workflow</th><th scope="col" class="hide-sm">State</th><th scope="col" class="num">Executions</th><th scope="col" class="num">Active</th><th scope="col">Last execution</th><th scope="col" class="hide-sm">Updated</th></tr></thead>
<tbody>${rows.map(
    (r) => html`<tr><td>${workflowLink(lastSegment(r.workflow.name), `wf-${lastSegment(r.workflow.name)}`)}${r.workflow.description ? html`<div class="sub">${r.workflow.description}</div>` : ''}</td><td class="hide-sm"><span class="wf-state">${r.workflow.state}</span></td><td class="num" data-label="Executions">${r.total}</td><td class="num" data-label="Active">${r.active ? html`<strong>${r.active}</strong>` : '0'}</td><td data-label="Last">${r.latest ? stateBadge(r.latest.state) : html`<span class="muted">None yet</span>`}</td><td class="hide-sm">${formatTime(r.workflow.updateTime)}</td></tr>`,
  )}</tbody>
</table></div>`;
}

export function deployHint(site: Site): SafeHtml {
  const example = `curl -X POST '${site.origin}/v1/projects/${site.project}/locations/${site.location}/workflows?workflowId=hello' \\
  -H 'content-type: application/json' \\
  -d '{"sourceContents": "main:\\n  steps:\\n    - done:\\n        return: Hello"}'`;
  return html`<div class="empty"><p>No workflows yet. Deploy one through the REST or gRPC API, or start the emulator with <code>--workflows-dir</code> and put <code>.yaml</code> or <code>.json</code> files there.</p>
<pre class="code-block">${example}</pre></div>`;
}

export function section(id: string, title: HtmlValue, content: HtmlValue, extra?: HtmlValue): SafeHtml {
  return html`<section class="block" aria-labelledby="${id}"><div class="block-head"><h2 id="${id}">${title}</h2>${extra}</div>${content}</section>`;
}
// ---------------------------------------------------------------------------------------------------------
// Errors

/** The page for an unknown workflow, execution or UI path (served with status 404). */
export function notFoundPage(message: string): Page {
  return {
    title: 'Not found',
    section: 'none',
    body: html`<h1>Not found</h1><p class="lead">${message}</p>
<p><a href="/ui">Dashboard</a> · <a href="/ui/workflows">Workflows</a> · <a href="/ui/executions">Executions</a></p>`,
  };
}

/** The page for an unexpected failure while rendering (served with status 500). */
export function errorPage(message: string): Page {
  return {
    title: 'Error',
    section: 'none',
    body: html`<h1>Something went wrong</h1><p class="lead">The emulator could not show this page.</p><pre class="code-block">${message}</pre>
<p><a href="/ui">Back to the dashboard</a></p>`,
  };
}
