/**
 * The web UI's pages (spec "Web UI"), as functions from data to HTML. They know nothing about HTTP or the
 * service: src/ui/routes.ts gathers the data from the ServiceCore, picks the view and writes the response.
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
import type { Callback, Execution, ExecutionState, Workflow } from '../service/model.ts';
import type { LogEntry } from '../stdlib/types.ts';
import { VERSION } from '../version.ts';
import { assetUrl } from './assets.ts';
import {
  executionDurationMs,
  executionIds,
  formatDuration,
  formatLogPayload,
  formatTime,
  lastSegment,
  prettyJson,
  sourceLines,
  summarizeError,
} from './format.ts';
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

const STATE_LABELS: Record<ExecutionState, string> = {
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

function crumbs(items: readonly (readonly [string, string | undefined])[]): SafeHtml {
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

function workflowLink(workflowId: string, id: string): SafeHtml {
  return html`<a class="mono" id="${id}" href="${uiPath('workflows', workflowId)}">${workflowId}</a>`;
}

/** A table of executions, newest first as given. `showWorkflow` adds the workflow column. */
function executionsTable(
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

function workflowsTable(rows: readonly WorkflowRow[]): SafeHtml {
  return html`<div class="table-wrap"><table class="list">
<caption class="sr-only">Workflows</caption>
<thead><tr><th scope="col">Workflow</th><th scope="col" class="hide-sm">State</th><th scope="col" class="num">Executions</th><th scope="col" class="num">Active</th><th scope="col">Last execution</th><th scope="col" class="hide-sm">Updated</th></tr></thead>
<tbody>${rows.map(
    (r) => html`<tr><td>${workflowLink(lastSegment(r.workflow.name), `wf-${lastSegment(r.workflow.name)}`)}${r.workflow.description ? html`<div class="sub">${r.workflow.description}</div>` : ''}</td><td class="hide-sm"><span class="wf-state">${r.workflow.state}</span></td><td class="num" data-label="Executions">${r.total}</td><td class="num" data-label="Active">${r.active ? html`<strong>${r.active}</strong>` : '0'}</td><td data-label="Last">${r.latest ? stateBadge(r.latest.state) : html`<span class="muted">None yet</span>`}</td><td class="hide-sm">${formatTime(r.workflow.updateTime)}</td></tr>`,
  )}</tbody>
</table></div>`;
}

function deployHint(site: Site): SafeHtml {
  const example = `curl -X POST '${site.origin}/v1/projects/${site.project}/locations/${site.location}/workflows?workflowId=hello' \\
  -H 'content-type: application/json' \\
  -d '{"sourceContents": "main:\\n  steps:\\n    - done:\\n        return: Hello"}'`;
  return html`<div class="empty"><p>No workflows yet. Deploy one through the REST or gRPC API, or start the emulator with <code>--workflows-dir</code> and put <code>.yaml</code> or <code>.json</code> files there.</p>
<pre class="code-block">${example}</pre></div>`;
}

function section(id: string, title: HtmlValue, content: HtmlValue, extra?: HtmlValue): SafeHtml {
  return html`<section class="block" aria-labelledby="${id}"><div class="block-head"><h2 id="${id}">${title}</h2>${extra}</div>${content}</section>`;
}

// ---------------------------------------------------------------------------------------------------------
// Dashboard: /ui

/** Data of the dashboard. */
export interface DashboardData {
  readonly counts: StateCounts;
  readonly workflows: readonly WorkflowRow[];
  /** The newest executions across workflows, newest first. */
  readonly recent: readonly Execution[];
  readonly totalExecutions: number;
  readonly nowMs: number;
}

/** The dashboard's live region: counts by state, all workflows, recent executions. */
export function dashboardLive(site: Site, d: DashboardData): SafeHtml {
  const counts = html`<ul class="counts" aria-label="Executions by state">${STATES.map(
    (s) => html`<li><a class="count count-${s.toLowerCase()}" id="count-${s}" href="/ui/executions?state=${s}"><span class="count-n">${d.counts[s]}</span><span class="count-label">${STATE_LABELS[s]}</span></a></li>`,
  )}</ul>`;
  const workflows = section(
    'dash-workflows',
    html`Workflows <span class="muted">${d.workflows.length}</span>`,
    d.workflows.length ? workflowsTable(d.workflows) : deployHint(site),
  );
  const recent = section(
    'dash-recent',
    'Recent executions',
    d.recent.length
      ? executionsTable(d.recent, { showWorkflow: true, nowMs: d.nowMs, caption: 'Recent executions' })
      : html`<p class="empty">No executions yet. Open a workflow to start one.</p>`,
    d.totalExecutions > d.recent.length ? html`<a class="more" id="more-executions" href="/ui/executions">All ${d.totalExecutions} executions</a>` : '',
  );
  return liveRegion('/ui', d.counts.ACTIVE > 0, POLL_SEC.page, html`${counts}${workflows}${recent}`);
}

/** The dashboard page. */
export function dashboardPage(site: Site, d: DashboardData): Page {
  return { title: 'Dashboard', section: 'dashboard', body: html`<h1>Dashboard</h1>${dashboardLive(site, d)}` };
}

// ---------------------------------------------------------------------------------------------------------
// Workflows: /ui/workflows

/** The workflow list's live region. */
export function workflowsLive(site: Site, rows: readonly WorkflowRow[]): SafeHtml {
  return liveRegion(
    '/ui/workflows',
    rows.some((r) => r.active > 0),
    POLL_SEC.page,
    html`<div class="block">${rows.length ? workflowsTable(rows) : deployHint(site)}</div>`,
  );
}

/** The workflow list: ID, state, execution counts, latest execution, update time. */
export function workflowsPage(site: Site, rows: readonly WorkflowRow[]): Page {
  return {
    title: 'Workflows',
    section: 'workflows',
    body: html`<h1>Workflows <span class="muted">${rows.length}</span></h1>${workflowsLive(site, rows)}`,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Workflow: /ui/workflows/{id}

/** The state of the start-execution form: what was typed and, after a failed attempt, why it failed. */
export interface StartForm {
  readonly argument: string;
  readonly error?: string;
}

/** Data of a workflow page. */
export interface WorkflowData {
  readonly workflow: Workflow;
  /** Its executions, newest first (possibly only the newest ones; see `totalExecutions`). */
  readonly executions: readonly Execution[];
  readonly totalExecutions: number;
  readonly activeExecutions: number;
  readonly nowMs: number;
}

/** The start-execution form of a workflow page; also the fragment answered to its htmx POST. */
export function startForm(workflowId: string, form: StartForm): SafeHtml {
  const action = uiPath('workflows', workflowId, 'executions');
  const invalid = form.error !== undefined;
  return html`<form id="start-form" class="start" method="post" action="${action}" hx-post="${action}" hx-target="this" hx-swap="outerHTML" hx-disabled-elt="find button" data-json-field="argument">
<label for="argument">Argument <span class="muted">(JSON)</span></label>
<textarea id="argument" name="argument" rows="4" spellcheck="false" autocomplete="off" aria-describedby="argument-help argument-error"${invalid ? html` aria-invalid="true"` : ''} placeholder="{&quot;name&quot;: &quot;value&quot;}">
${form.argument}</textarea>
<p id="argument-help" class="help">Passed to <code>main</code>'s parameter. Leave empty for none.</p>
<p id="argument-error" class="field-error" role="alert" data-json-error${invalid ? '' : html` hidden`}>${form.error}</p>
<div class="actions"><button type="submit" class="primary">Start execution</button></div>
</form>`;
}

/** The workflow page's live region: its execution history. */
export function workflowLive(d: WorkflowData): SafeHtml {
  const id = lastSegment(d.workflow.name);
  const all = uiPath('workflows', id, 'executions');
  const content = section(
    'wf-executions',
    html`Executions <span class="muted">${d.totalExecutions}</span>`,
    d.executions.length
      ? executionsTable(d.executions, { showWorkflow: false, nowMs: d.nowMs, caption: `Executions of ${id}` })
      : html`<p class="empty">No executions yet.</p>`,
    d.totalExecutions > 0
      ? html`<a class="more" id="more-executions" href="${all}">${d.totalExecutions > d.executions.length ? `All ${d.totalExecutions} executions` : 'Filter by state'}</a>`
      : '',
  );
  return liveRegion(uiPath('workflows', id), d.activeExecutions > 0, POLL_SEC.page, content);
}

/** A workflow: details, start form, execution history, full source with line numbers. */
export function workflowPage(d: WorkflowData, form: StartForm): Page {
  const w = d.workflow;
  const id = lastSegment(w.name);
  const lines = sourceLines(w.sourceContents);
  const source = html`<div class="source-wrap" tabindex="0" role="region" aria-label="Source of ${id}"><pre class="source"><code>${lines.map(
    (line, i) => html`<span class="line" id="L${i + 1}">${line}</span>\n`,
  )}</code></pre></div>`;
  const body = html`${crumbs([['Workflows', '/ui/workflows'], [id, undefined]])}
<div class="title-row"><h1 class="mono-title">${id}</h1><span class="wf-state">${w.state}</span></div>
${w.description ? html`<p class="lead">${w.description}</p>` : html`<p class="lead muted">No description.</p>`}
<dl class="facts">
<div><dt>Revision</dt><dd class="mono">${w.revisionId}</dd></div>
<div><dt>Updated</dt><dd>${formatTime(w.updateTime)}</dd></div>
<div><dt>Created</dt><dd>${formatTime(w.createTime)}</dd></div>
<div class="wide"><dt>Resource name</dt><dd class="mono break"><a href="/v1/${w.name}">${w.name}</a></dd></div>
</dl>
${section('wf-start', 'Start an execution', startForm(id, form))}
${workflowLive(d)}
${section('wf-source', html`Source <span class="muted">${lines.length} ${lines.length === 1 ? 'line' : 'lines'}</span>`, source)}`;
  return { title: `Workflow ${id}`, section: 'workflows', body };
}

// ---------------------------------------------------------------------------------------------------------
// Executions: /ui/executions and /ui/workflows/{id}/executions

/** Data of an executions list: of all workflows or of one, optionally filtered by state. */
export interface ExecutionsData {
  /** Set for the executions of one workflow. */
  readonly workflowId?: string;
  /** The state filter, if any. */
  readonly state?: ExecutionState;
  /** The executions shown (already filtered), newest first. */
  readonly executions: readonly Execution[];
  /** Counts by state before filtering. */
  readonly counts: StateCounts;
  readonly nowMs: number;
}

function listUrl(workflowId: string | undefined, state?: ExecutionState): string {
  const base = workflowId === undefined ? '/ui/executions' : uiPath('workflows', workflowId, 'executions');
  return state ? `${base}?state=${state}` : base;
}

/** The live region of an executions list: the state filter (with counts) and the table. */
export function executionsLive(d: ExecutionsData): SafeHtml {
  const total = STATES.reduce((n, s) => n + d.counts[s], 0);
  const chip = (state: ExecutionState | undefined, label: string, n: number) =>
    html`<li><a id="filter-${state ?? 'ALL'}" href="${listUrl(d.workflowId, state)}"${d.state === state ? html` aria-current="true"` : ''}>${label} <span class="chip-n">${n}</span></a></li>`;
  const filters = html`<nav class="filters" aria-label="Filter by state"><ul>${chip(undefined, 'All', total)}${STATES.map((s) =>
    chip(s, STATE_LABELS[s], d.counts[s]),
  )}</ul></nav>`;
  const what = d.state ? `${STATE_LABELS[d.state].toLowerCase()} executions` : 'executions';
  const table = html`<div class="block">${d.executions.length
    ? executionsTable(d.executions, {
        showWorkflow: d.workflowId === undefined,
        nowMs: d.nowMs,
        caption: d.workflowId === undefined ? `All ${what}` : `${what} of ${d.workflowId}`,
      })
    : html`<p class="empty">No ${what}${d.workflowId === undefined ? '' : ' of this workflow'}.</p>`}</div>`;
  return liveRegion(listUrl(d.workflowId, d.state), d.counts.ACTIVE > 0, POLL_SEC.page, html`${filters}${table}`);
}

/** An executions list, newest first, filterable by state. */
export function executionsPage(d: ExecutionsData): Page {
  const stateText = d.state ? ` · ${STATE_LABELS[d.state]}` : '';
  if (d.workflowId === undefined) {
    return {
      title: `Executions${stateText}`,
      section: 'executions',
      body: html`<h1>Executions</h1>${executionsLive(d)}`,
    };
  }
  const id = d.workflowId;
  return {
    title: `Executions of ${id}${stateText}`,
    section: 'workflows',
    body: html`${crumbs([['Workflows', '/ui/workflows'], [id, uiPath('workflows', id)], ['Executions', undefined]])}
<h1>Executions of <span class="mono-title">${id}</span></h1>${executionsLive(d)}`,
  };
}

// ---------------------------------------------------------------------------------------------------------
// Execution: /ui/executions/{workflowId}/{executionId}

/** Data of an execution page. */
export interface ExecutionData {
  readonly execution: Execution;
  readonly callbacks: readonly Callback[];
  readonly logs: readonly LogEntry[];
  readonly nowMs: number;
  /** A one-off message shown above the details (e.g. after a cancel that came too late). */
  readonly notice?: string;
}

function cancelForm(workflowId: string, executionId: string): SafeHtml {
  const action = uiPath('executions', workflowId, executionId, 'cancel');
  return html`<form class="cancel" method="post" action="${action}" hx-post="${action}" hx-target="#live" hx-swap="outerHTML" hx-disabled-elt="find button"><button type="submit" class="danger" id="cancel-button">Cancel execution</button></form>`;
}

// A plain form (no htmx): the answer is a redirect to the new execution, or, when the service refuses, the
// workflow page with the reason in its start form, where the argument can be edited.
function rerunForm(workflowId: string, argument: string | undefined): SafeHtml {
  const action = uiPath('workflows', workflowId, 'executions');
  return html`<form class="rerun" method="post" action="${action}"><input type="hidden" name="argument" value="${argument ?? ''}"><button type="submit" id="rerun-button" title="Start a new execution of the current revision with the same argument">Run again</button></form>`;
}

function outcome(e: Execution): SafeHtml {
  switch (e.state) {
    case 'SUCCEEDED':
      return section(
        'ex-result',
        'Result',
        e.result === undefined ? html`<p class="muted">No result.</p>` : html`<pre class="json">${prettyJson(e.result)}</pre>`,
      );
    case 'FAILED': {
      if (!e.error) return section('ex-error', 'Error', html`<p class="muted">No error details.</p>`);
      const s = summarizeError(e.error.payload);
      const head = html`<div class="error-head">${s.tags.map((t) => html`<span class="tag">${t}</span>`)}${s.code !== undefined && s.code !== '0' ? html`<span class="tag">code ${s.code}</span>` : ''}</div>
${s.message !== undefined ? html`<p class="error-message">${s.message}</p>` : ''}
${e.error.context ? html`<p class="error-context">at <code>${e.error.context}</code></p>` : ''}`;
      return section(
        'ex-error',
        'Error',
        html`<div class="error-box">${head}<details open><summary>Payload</summary><pre class="json">${prettyJson(e.error.payload)}</pre></details></div>`,
      );
    }
    case 'CANCELLED':
      return section('ex-cancelled', 'Cancelled', html`<p>The execution was cancelled${e.endTime ? html` at ${formatTime(e.endTime)}` : ''}.</p>`);
    case 'ACTIVE':
      return html``;
  }
}

function callbacksBlock(callbacks: readonly Callback[]): SafeHtml {
  const content = callbacks.length
    ? html`<div class="table-wrap"><table class="list">
<caption class="sr-only">Callbacks</caption>
<thead><tr><th scope="col">Method</th><th scope="col">URL</th><th scope="col" class="hide-sm">Created</th></tr></thead>
<tbody>${callbacks.map(
        (c) => html`<tr><td class="mono">${c.method}</td><td class="mono break">${c.url}</td><td class="hide-sm">${formatTime(c.createTime)}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted">This execution created no callbacks.</p>`;
  return section('ex-callbacks', html`Callbacks <span class="muted">${callbacks.length}</span>`, content);
}

function logsBlock(logs: readonly LogEntry[]): SafeHtml {
  const shown = logs.length > MAX_LOG_LINES_SHOWN ? logs.slice(-MAX_LOG_LINES_SHOWN) : logs;
  const content = logs.length
    ? html`${shown.length < logs.length ? html`<p class="muted">Showing the last ${shown.length} of ${logs.length} lines.</p>` : ''}<ol class="logs">${shown.map(
        (l) => html`<li class="log sev-${l.severity.toLowerCase()}"><span class="log-meta">${formatTime(l.time)} <span class="sev">${l.severity}</span></span><pre class="log-text${l.structured ? ' json' : ''}">${formatLogPayload(l.payload)}</pre></li>`,
      )}</ol>`
    : html`<p class="muted">No <code>sys.log</code> lines.</p>`;
  return section('ex-logs', html`Logs <span class="muted">${logs.length}</span>`, content);
}

/** The execution page's live region: everything but the heading. */
export function executionLive(d: ExecutionData): SafeHtml {
  const e = d.execution;
  const { workflowId, executionId } = executionIds(e);
  const facts = html`<dl class="facts">
<div><dt>State</dt><dd role="status">${stateBadge(e.state)}</dd></div>
<div><dt>Workflow</dt><dd>${workflowLink(workflowId, 'workflow-link')}</dd></div>
<div><dt>Revision</dt><dd class="mono">${e.workflowRevisionId}</dd></div>
<div><dt>Started</dt><dd>${formatTime(e.startTime)}</dd></div>
<div><dt>Ended</dt><dd>${formatTime(e.endTime)}</dd></div>
<div><dt>Duration</dt><dd>${formatDuration(executionDurationMs(e, d.nowMs))}${e.state === 'ACTIVE' ? html` <span class="muted">so far</span>` : ''}</dd></div>
</dl>`;
  const argument = section(
    'ex-argument',
    'Argument',
    e.argument === undefined || e.argument === '' ? html`<p class="muted">None.</p>` : html`<pre class="json">${prettyJson(e.argument)}</pre>`,
  );
  const content = html`${d.notice ? html`<p class="notice" role="status">${d.notice}</p>` : ''}
<div class="exec-actions">${e.state === 'ACTIVE' ? cancelForm(workflowId, executionId) : ''}${rerunForm(workflowId, e.argument)}</div>
${facts}
${outcome(e)}
${argument}
${callbacksBlock(d.callbacks)}
${logsBlock(d.logs)}
<p class="resource">Resource name: <a class="mono break" id="resource-link" href="/v1/${e.name}">${e.name}</a></p>`;
  return liveRegion(
    uiPath('executions', workflowId, executionId),
    e.state === 'ACTIVE',
    POLL_SEC.execution,
    content,
    'Refreshing until the execution ends',
  );
}

/** An execution: state, times, duration, argument, result or error, callbacks, logs; Cancel while ACTIVE. */
export function executionPage(d: ExecutionData): Page {
  const { workflowId, executionId } = executionIds(d.execution);
  const body = html`${crumbs([
    ['Workflows', '/ui/workflows'],
    [workflowId, uiPath('workflows', workflowId)],
    ['Executions', uiPath('workflows', workflowId, 'executions')],
    [executionId, undefined],
  ])}
<h1>Execution <span class="mono-title break">${executionId}</span></h1>
${executionLive(d)}`;
  return { title: `Execution ${executionId} of ${workflowId}`, section: 'executions', body };
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
