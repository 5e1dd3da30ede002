/**
 * The web UI's list pages (docs/web-ui.md#pages), as functions from data to HTML: the dashboard, workflows, one
 * workflow with its start form, and executions. They know nothing about HTTP or the service:
 * src/ui/routes.ts gathers the data from the ServiceCore, picks the view and writes the response. The page
 * frame and shared pieces are in layout.ts, the execution page in execution-page.ts.
 */
import type { Execution, ExecutionState, Workflow } from '../service/model.ts';
import type { SourceProblem } from '../service/watch/source-problems.ts';
import { formatTime, lastSegment, sourceLines } from './format.ts';
import { workflowGraph } from './graph-view.ts';
import { compareForm } from './diff-page.ts';
import type { SourceCoverage } from '../coverage/summary.ts';
import { coverageSummary, coveredLines } from './coverage-view.ts';
import { html, type SafeHtml, uiPath } from './html.ts';
import {
  crumbs,
  deployHint,
  executionsTable,
  liveRegion,
  POLL_SEC,
  type Page,
  section,
  type Site,
  STATE_LABELS,
  STATES,
  type StateCounts,
  workflowsTable,
  type WorkflowRow,
} from './layout.ts';

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
  /** Watched files that failed to deploy (docs/web-ui.md#pages). */
  readonly problems: readonly SourceProblem[];
  /** Whether a workflows directory is watched (the page then keeps refreshing, to show files break or heal). */
  readonly watching?: boolean;
}

/**
 * A watched file that failed to deploy (docs/web-ui.md#pages): the file, the error and where it is, and which revision
 * is still running in its place. `link`: name the workflow with a link to its page (on the dashboard).
 */
function sourceProblemBlock(p: SourceProblem, link: boolean): SafeHtml {
  const where = p.line !== undefined ? html` at line ${p.line}${p.column !== undefined ? html`, column ${p.column}` : ''}` : '';
  const kept = p.keptRevisionId
    ? html`The revision deployed before, <span class="mono">${p.keptRevisionId}</span>, is still the one that runs.`
    : html`The workflow is not deployed.`;
  const name = link ? html`<a href="${uiPath('workflows', p.workflowId)}">${p.workflowId}</a>` : html`<span class="mono">${p.workflowId}</span>`;
  return html`<div class="problem" role="alert" id="problem-${p.workflowId}"><p class="problem-head"><strong>${name}: <span class="mono break">${p.file}</span> failed to deploy${where}.</strong> ${kept}</p><pre class="problem-message">${p.message}</pre></div>`;
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
  const problems = d.problems.length
    ? section('dash-problems', html`Files that failed to deploy <span class="muted">${d.problems.length}</span>`, d.problems.map((p) => sourceProblemBlock(p, true)))
    : '';
  // It refreshes while executions run, and while a directory is watched (a file may break or be fixed).
  return liveRegion('/ui', d.counts.ACTIVE > 0 || d.watching === true, POLL_SEC.page, html`${problems}${counts}${workflows}${recent}`, d.counts.ACTIVE > 0 ? undefined : 'Watching the workflows directory');
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
  /** Its watched file's failed deploy, if the latest save did not deploy (docs/web-ui.md#pages). */
  readonly problem?: SourceProblem;
  /** Its kept revisions, newest first (docs/rest-api.md#workflow-settings-and-revisions). */
  readonly revisions?: readonly Workflow[];
  /** The revision whose source is shown, when it is not the current one (`?revision=`). */
  readonly shown?: Workflow;
  /** Coverage of the current revision (shown on its source; docs/coverage.md). */
  readonly coverage?: SourceCoverage;
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
<p class="debug-start"><label><input type="checkbox" name="debug" id="debug-start"> Debug: hold it at its first step, with breakpoints, stepping and variables on its page</label></p>
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
  const shown = d.shown ?? w;
  const lines = sourceLines(shown.sourceContents);
  const coverage = shown === w ? d.coverage : undefined;
  const source = html`${coverage ? coverageSummary(coverage) : ''}<div class="source-wrap" tabindex="0" role="region" aria-label="Source of ${id}"><pre class="source"><code>${coveredLines(lines, coverage)}</code></pre></div>`;
  const body = html`${crumbs([['Workflows', '/ui/workflows'], [id, undefined]])}
<div class="title-row"><h1 class="mono-title">${id}</h1><span class="wf-state">${w.state}</span></div>
${d.problem ? sourceProblemBlock(d.problem, false) : ''}
${w.description ? html`<p class="lead">${w.description}</p>` : html`<p class="lead muted">No description.</p>`}
<dl class="facts">
<div><dt>Revision</dt><dd class="mono">${w.revisionId}</dd></div>
<div><dt>Updated</dt><dd>${formatTime(w.updateTime)}</dd></div>
<div><dt>Created</dt><dd>${formatTime(w.createTime)}</dd></div>
<div class="wide"><dt>Resource name</dt><dd class="mono break"><a href="/v1/${w.name}">${w.name}</a></dd></div>
</dl>
${section('wf-start', 'Start an execution', startForm(id, form))}
${workflowLive(d)}
${revisionsSection(id, w, shown, d.revisions ?? [w])}
${section('wf-graph', html`Graph${shown !== w ? html` of revision <span class="mono">${shown.revisionId}</span>` : ''}`, workflowGraph(shown.sourceContents))}
${section('wf-source', html`Source${shown !== w ? html` of revision <span class="mono">${shown.revisionId}</span>` : ''} <span class="muted">${lines.length} ${lines.length === 1 ? 'line' : 'lines'}</span>`, source)}`;
  return { title: `Workflow ${id}`, section: 'workflows', body };
}

/**
 * The revisions of a workflow, newest first, each linking to the page showing its source (docs/rest-api.md#workflow-settings-and-revisions), the one
 * shown marked; a form compares two of them.
 */
function revisionsSection(id: string, current: Workflow, shown: Workflow, revisions: readonly Workflow[]): SafeHtml {
  const base = uiPath('workflows', id);
  const rows = revisions.map((r) => {
    const label = r.revisionId === current.revisionId ? 'current' : '';
    const link = r.revisionId === current.revisionId ? base : `${base}?revision=${encodeURIComponent(r.revisionId)}`;
    return html`<tr${r.revisionId === shown.revisionId ? html` class="selected" aria-current="true"` : ''}><td class="mono"><a href="${link}">${r.revisionId}</a></td><td>${formatTime(r.revisionCreateTime ?? r.createTime)}</td><td class="muted">${label}</td></tr>`;
  });
  const table = html`<table class="revisions"><thead><tr><th>Revision</th><th>Created</th><th></th></tr></thead><tbody>${rows}</tbody></table>`;
  return section('wf-revisions', html`Revisions <span class="muted">${revisions.length}</span>`, html`${table}${compareForm(id, revisions, shown)}`);
}

// ---------------------------------------------------------------------------------------------------------
// Executions: /ui/executions and /ui/workflows/{id}/executions

/** Data of an executions list: of all workflows or of one, optionally filtered by state. */
export interface ExecutionsData {
  /** Set for the executions of one workflow. */
  readonly workflowId?: string;
  /** The state filter, if any. */
  readonly state?: ExecutionState;
  /** The executions of this page (already filtered), newest first. */
  readonly executions: readonly Execution[];
  /** How many match the filter, on all pages. */
  readonly matching: number;
  /** The page shown, from 1, and how many executions a page holds. */
  readonly page: number;
  readonly pageSize: number;
  /** Counts by state before filtering. */
  readonly counts: StateCounts;
  readonly nowMs: number;
}

function listUrl(workflowId: string | undefined, state?: ExecutionState, page = 1): string {
  const base = workflowId === undefined ? '/ui/executions' : uiPath('workflows', workflowId, 'executions');
  const query = [...(state ? [`state=${state}`] : []), ...(page > 1 ? [`page=${page}`] : [])].join('&');
  return query ? `${base}?${query}` : base;
}

/** "Showing 101–200 of 3000" with links to the newer and older pages (docs/web-ui.md#pages: lists page). */
function pager(d: ExecutionsData): SafeHtml {
  const pages = Math.max(1, Math.ceil(d.matching / d.pageSize));
  if (pages === 1) return html``;
  const first = (d.page - 1) * d.pageSize + 1;
  const last = Math.min(d.matching, d.page * d.pageSize);
  const link = (page: number, label: string, id: string) =>
    page >= 1 && page <= pages ? html`<a id="${id}" href="${listUrl(d.workflowId, d.state, page)}">${label}</a>` : html`<span class="muted">${label}</span>`;
  return html`<nav class="pager" aria-label="Pages"><span>Showing ${first}–${last} of ${d.matching} · page ${d.page} of ${pages}</span> ${link(d.page - 1, '← Newer', 'page-newer')} ${link(d.page + 1, 'Older →', 'page-older')}</nav>`;
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
    : html`<p class="empty">No ${what}${d.workflowId === undefined ? '' : ' of this workflow'}${d.page > 1 ? ' on this page' : ''}.</p>`}${pager(d)}</div>`;
  return liveRegion(listUrl(d.workflowId, d.state, d.page), d.counts.ACTIVE > 0, POLL_SEC.page, html`${filters}${table}`);
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
