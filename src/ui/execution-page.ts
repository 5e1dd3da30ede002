/**
 * The web UI's execution page, /ui/executions/{workflowId}/{executionId} (docs/web-ui.md#pages): state, times,
 * argument, the result or the error, callbacks, logs, and the cancel and re-run forms; the run drawn on the
 * graph of the revision it ran and that revision's source with the failing line marked (docs/graph.md). An
 * execution waiting for a callback says so at the top, with the callback form there. It refreshes itself
 * (its live region polls) until the state is terminal.
 */
import type { Callback, Execution } from '../service/model.ts';
import type { LogEntry } from '../stdlib/types.ts';
import {
  executionDurationMs,
  executionIds,
  formatDuration,
  formatLogPayload,
  formatTime,
  prettyJson,
  summarizeError,
} from './format.ts';
import { html, type SafeHtml, uiPath } from './html.ts';
import { type ExecutionSource, revisionLink, stackTraceBlock, stepTimeline, type TimelineData } from './step-timeline.ts';
import { callsBlock } from './calls-block.ts';
import { runGraph, runSource, type RunView } from './graph-view.ts';
import type { CallRecord } from '../mocks/call-log.ts';
import {
  crumbs,
  liveRegion,
  POLL_SEC,
  type Page,
  section,
  stateBadge,
  workflowLink,
  MAX_LOG_LINES_SHOWN,
} from './layout.ts';

// ---------------------------------------------------------------------------------------------------------
// Execution: /ui/executions/{workflowId}/{executionId}

/** Data of an execution page. */
export interface ExecutionData {
  readonly execution: Execution;
  readonly callbacks: readonly Callback[];
  readonly logs: readonly LogEntry[];
  readonly nowMs: number;
  /** The step timeline's page of entries (docs/web-ui.md#pages). */
  readonly steps?: Omit<TimelineData, 'execution'>;
  /** A one-off message shown above the details (e.g. after a cancel that came too late). */
  readonly notice?: string;
  /** Its outbound calls (docs/mocks-and-clock.md#recorded-calls). */
  readonly calls?: readonly CallRecord[];
  /** The execution that started it through the Workflow Executions connector. */
  readonly parent?: string;
  /** Whether the service still holds the revision the execution ran (its source links need it). */
  readonly revisionKept: boolean;
  /** The run on the graph and the source of the revision it ran, when that revision is kept and has history. */
  readonly run?: RunView;
}

function cancelForm(workflowId: string, executionId: string): SafeHtml {
  const action = uiPath('executions', workflowId, executionId, 'cancel');
  return html`<form class="cancel" method="post" action="${action}" hx-post="${action}" hx-target="#live" hx-swap="outerHTML" hx-disabled-elt="find button"><button type="submit" class="danger" id="cancel-button">Cancel execution</button></form>`;
}

// A plain form (no htmx) to the workflow page, which answers with its start form filled in with this
// execution's argument, to edit before starting (docs/web-ui.md#pages). A POST, as an argument may be too long for a URL.
function rerunForm(workflowId: string, argument: string | undefined): SafeHtml {
  const action = uiPath('workflows', workflowId);
  return html`<form class="rerun" method="post" action="${action}"><input type="hidden" name="argument" value="${argument ?? ''}"><button type="submit" id="rerun-button" title="Open the start form with this argument, to edit it before starting">Run again…</button></form>`;
}

// Replays the ended execution from its recording, or redrives it on the current revision (docs/recording.md).
function replayForm(workflowId: string, executionId: string): SafeHtml {
  const action = uiPath('executions', workflowId, executionId, 'replay');
  return html`<form class="replay" method="post" action="${action}" hx-post="${action}" hx-target="#live" hx-swap="outerHTML" hx-disabled-elt="find button"><button type="submit" id="replay-button" title="Run it again from its recording: same argument, answers, times and callbacks, no network">Replay</button> <button type="submit" name="revision" value="latest" id="redrive-button" title="Run the current revision: recorded calls are answered from the recording, new ones go out">Replay with the current revision</button></form>`;
}

// Downloads the ended execution as a test file (docs/recording.md): the control API's `:testCase`.
function saveAsTest(name: string, workflowId: string): SafeHtml {
  return html`<a class="save-test" id="save-test" href="/emulator/v1/${name}:testCase" download="${workflowId}.test.yaml" title="Download this execution as a test case for workflows-emulator test (its calls as mocks, its outcome as expect)">Save as test…</a>`;
}

// Sends a request to a callback the execution waits on, from the page (docs/web-ui.md#pages). htmx swaps the live region;
// hx-preserve keeps what is being typed while the region refreshes itself.
function callbackForm(workflowId: string, executionId: string, c: Callback): SafeHtml {
  const id = c.name.split('/').pop() ?? '';
  const action = uiPath('executions', workflowId, executionId, 'callbacks', id);
  return html`<form class="send-callback" method="post" action="${action}" hx-post="${action}" hx-target="#live" hx-swap="outerHTML" hx-disabled-elt="find button" data-json-field="callback-body-${id}">
<label for="callback-body-${id}">Body <span class="muted">(JSON, or any text)</span></label>
<textarea id="callback-body-${id}" name="body" rows="3" spellcheck="false" autocomplete="off" hx-preserve="true" placeholder="{&quot;approved&quot;: true}"></textarea>
<div class="actions"><button type="submit" id="send-callback-${id}">Send ${c.method}</button></div>
</form>`;
}

function outcome(e: Execution, src: ExecutionSource, onPage: boolean): SafeHtml {
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
${e.error.context ? html`<p class="error-context">at <code>${e.error.context}</code></p>` : ''}${stackTraceBlock(e, src, onPage)}`;
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

/**
 * Whether the execution is waiting for a callback: ACTIVE, with a callback, and (when the graph is known)
 * running an `events.await_callback` call now.
 */
function waitingForCallback(d: ExecutionData): boolean {
  const e = d.execution;
  if (e.state !== 'ACTIVE' || d.callbacks.length === 0) return false;
  const current = e.status?.currentSteps ?? [];
  if (!d.run || current.length === 0) return true;
  return current.some((c) => {
    const n = d.run!.drawn.steps.get(`${c.routine}/${c.step}`);
    return n === undefined || (n.kind === 'call' && n.detail === 'events.await_callback');
  });
}

/** The run on the graph and the revision's source (or nothing, when the revision is gone or has no history). */
function runBlocks(d: ExecutionData): SafeHtml {
  if (!d.run) return html``;
  const { workflowId } = executionIds(d.execution);
  return html`${section(
    'ex-graph',
    'Graph',
    html`<p class="graph-legend muted"><span class="key key-succeeded">succeeded</span> <span class="key key-failed">failed</span> <span class="key key-running">running</span> <span class="key key-not-run">not run</span> · the path taken is drawn strongly · pick a step to see its entries and lines</p>${runGraph(d.run)}`,
  )}
${section('ex-source', html`Source <span class="muted">revision <span class="mono">${d.execution.workflowRevisionId}</span></span>`, runSource(d.run, workflowId))}`;
}

function callbacksBlock(e: Execution, callbacks: readonly Callback[]): SafeHtml {
  const { workflowId, executionId } = executionIds(e);
  const content = callbacks.length
    ? html`<div class="table-wrap"><table class="list">
<caption class="sr-only">Callbacks</caption>
<thead><tr><th scope="col">Method</th><th scope="col">URL</th><th scope="col" class="hide-sm">Created</th></tr></thead>
<tbody>${callbacks.map(
        (c) => html`<tr><td class="mono">${c.method}</td><td class="mono break">${c.url}</td><td class="hide-sm">${formatTime(c.createTime)}</td></tr>`,
      )}</tbody></table></div>${e.state === 'ACTIVE' ? callbacks.map((c) => callbackForm(workflowId, executionId, c)) : ''}`
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
  const src: ExecutionSource = { workflowId, revisionId: e.workflowRevisionId, kept: d.revisionKept };
  const facts = html`<dl class="facts">
<div><dt>State</dt><dd role="status">${stateBadge(e.state)}</dd></div>
<div><dt>Workflow</dt><dd>${workflowLink(workflowId, 'workflow-link')}</dd></div>
<div><dt>Revision</dt><dd>${revisionLink(src)}</dd></div>
${d.parent ? html`<div><dt>Started by</dt><dd><a class="mono break" id="parent-link" href="${uiPath('executions', executionIds({ name: d.parent }).workflowId, executionIds({ name: d.parent }).executionId)}">${d.parent}</a></dd></div>` : ''}
${e.labels?.['replay-of'] ? html`<div><dt>Replay of</dt><dd><a class="mono break" id="replay-of-link" href="${uiPath('executions', workflowId, e.labels['replay-of'])}">${e.labels['replay-of']}</a></dd></div>` : ''}
<div><dt>Started</dt><dd>${formatTime(e.startTime)}</dd></div>
<div><dt>Ended</dt><dd>${formatTime(e.endTime)}</dd></div>
<div><dt>Duration</dt><dd>${formatDuration(executionDurationMs(e, d.nowMs))}${e.state === 'ACTIVE' ? html` <span class="muted">so far</span>` : ''}</dd></div>
</dl>`;
  const argument = section(
    'ex-argument',
    'Argument',
    e.argument === undefined || e.argument === '' ? html`<p class="muted">None.</p>` : html`<pre class="json">${prettyJson(e.argument)}</pre>`,
  );
  const waiting = waitingForCallback(d);
  const content = html`${d.notice ? html`<p class="notice" role="status">${d.notice}</p>` : ''}
${waiting ? html`<p class="waiting" id="waiting-callback" role="status">Waiting for a callback: send it below, or to its URL.</p>` : ''}
<div class="exec-actions">${e.state === 'ACTIVE' ? cancelForm(workflowId, executionId) : ''}${rerunForm(workflowId, e.argument)}${e.state === 'ACTIVE' ? '' : html`${replayForm(workflowId, executionId)}${saveAsTest(e.name, workflowId)}`}</div>
${facts}
${waiting ? callbacksBlock(e, d.callbacks) : ''}
${outcome(e, src, d.run !== undefined)}
${runBlocks(d)}
${argument}
${d.steps ? stepTimeline({ execution: e, ...d.steps }, d.nowMs, src) : ''}
${d.calls ? callsBlock(d.calls) : ''}
${waiting ? '' : callbacksBlock(e, d.callbacks)}
${logsBlock(d.logs)}
<p class="resource">Resource name: <a class="mono break" id="resource-link" href="/v1/${e.name}">${e.name}</a></p>`;
  return liveRegion(
    uiPath('executions', workflowId, executionId) + pageQuery(d),
    e.state === 'ACTIVE',
    POLL_SEC.execution,
    content,
    'Refreshing until the execution ends',
  );
}

/** The live region's query: the timeline page and the node picked. */
function pageQuery(d: ExecutionData): string {
  const q = new URLSearchParams();
  if (d.steps?.from) q.set('from', String(d.steps.from));
  if (d.run?.selected) q.set('node', d.run.selected.id);
  const text = q.toString();
  return text ? `?${text}` : '';
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
