/**
 * The execution page's step timeline (docs/web-ui.md#pages): the execution's step entries as a table,
 * each with its type, state, start (from the execution's start) and duration, loop iteration or retry attempt,
 * its parallel thread, nested under its parent by routine and branch; the exception on failed entries; the
 * variables at the detailed history level; the steps running now while the execution is ACTIVE (the page's
 * live region polls, so they update); and the failing step's stack trace, each element linking to the source
 * of the revision the execution ran at that line (the workflow page numbers its lines and highlights the one
 * targeted).
 * A long history is shown a page of {@link TIMELINE_PAGE_SIZE} entries at a time.
 */
import type { Execution, StepEntry, StepEntryList } from '../service/model.ts';
import { executionIds, formatDuration, prettyJson, summarizeError } from './format.ts';
import { html, type SafeHtml, uiPath } from './html.ts';
import { section } from './layout.ts';

/** Entries shown at once on the execution page. */
export const TIMELINE_PAGE_SIZE = 200;

/** What the timeline shows: a page of entries from `from` (0-based) and the execution they belong to. */
export interface TimelineData {
  readonly execution: Execution;
  /** The page (undefined when the execution keeps no history). */
  readonly page: StepEntryList | undefined;
  /** Index of the page's first entry among all kept entries. */
  readonly from: number;
  /** A step's line in the source shown on the execution page (`#src-L<line>`), when it is shown. */
  readonly lineOf?: (routine: string, step: string) => number | undefined;
  /** The step the timeline is narrowed to (a graph node picked), when it is. */
  readonly only?: { readonly routine: string; readonly step: string };
}

const STATE_CLASS: Readonly<Record<StepEntry['state'], string>> = {
  STATE_IN_PROGRESS: 'active',
  STATE_SUCCEEDED: 'succeeded',
  STATE_FAILED: 'failed',
  STATE_CANCELLED: 'cancelled',
};
const STATE_LABEL: Readonly<Record<StepEntry['state'], string>> = {
  STATE_IN_PROGRESS: 'Running',
  STATE_SUCCEEDED: 'Succeeded',
  STATE_FAILED: 'Failed',
  STATE_CANCELLED: 'Cancelled',
};

/**
 * Where an execution's source links go: its workflow, the revision it ran (`workflowRevisionId`) and whether
 * the service still holds that revision (it keeps the last 100 of a workflow, and none once the workflow is
 * deleted).
 */
export interface ExecutionSource {
  readonly workflowId: string;
  readonly revisionId: string;
  readonly kept: boolean;
}

/**
 * `/ui/workflows/{id}?revision={revisionId}#L{line}`: the source of the revision the execution ran, with that
 * line highlighted, so a later deploy does not shift the lines. When the service no longer holds the revision,
 * the label is shown unlinked with a note saying so (another revision's lines would point at the wrong step).
 */
function sourceLink(src: ExecutionSource, line: string | number, label: SafeHtml | string, id?: string): SafeHtml {
  const idAttr = id ? html` id="${id}"` : '';
  if (!src.kept) {
    return html`<span class="source-gone"${idAttr}>${label} <span class="muted">(revision <span class="mono">${src.revisionId}</span> is no longer kept, so its source cannot be shown)</span></span>`;
  }
  const href = `${uiPath('workflows', src.workflowId)}?revision=${encodeURIComponent(src.revisionId)}#L${String(line)}`;
  return html`<a class="source-link"${idAttr} href="${href}">${label}</a>`;
}

/** The link to the source of the revision `src` names (the execution page's Revision fact), or its ID and a note. */
export function revisionLink(src: ExecutionSource): SafeHtml {
  if (!src.kept) return html`<span class="mono">${src.revisionId}</span> <span class="muted">(no longer kept)</span>`;
  return html`<a class="mono" id="revision-link" href="${uiPath('workflows', src.workflowId)}?revision=${encodeURIComponent(src.revisionId)}">${src.revisionId}</a>`;
}

/**
 * The stack trace of a FAILED execution, innermost first, each element linking to its line of the source of
 * the revision the execution ran.
 */
export function stackTraceBlock(e: Execution, src: ExecutionSource, onPage = false): SafeHtml {
  const elements = e.error?.stackTrace?.elements;
  if (!elements?.length) return html``;
  return html`<ol class="stack-trace" id="stack-trace">${elements.map(
    (el, i) =>
      html`<li>${onPage ? html`<a class="frame-line" href="#src-L${el.position.line}"><code>${el.step}</code></a>` : html`<code>${el.step}</code>`} <span class="muted">in</span> <code>${el.routine}</code> — ${sourceLink(
        src,
        el.position.line,
        `line ${el.position.line}, column ${el.position.column}`,
        i === 0 ? 'failing-step-link' : undefined,
      )}</li>`,
  )}</ol>`;
}

/** `STEP_FOR_ITERATION` → `for iteration`. */
function typeLabel(stepType: string): string {
  return stepType.replace(/^STEP_/, '').replace(/_/g, ' ').toLowerCase();
}

function progressLabel(e: StepEntry): string {
  const m = e.stepEntryMetadata;
  if (m.progressNumber === undefined) return m.expectedIteration !== undefined ? `${m.expectedIteration} iterations` : '';
  // Google numbers retries from 1: retry 1 is the second attempt.
  if (m.progressType === 'PROGRESS_TYPE_RETRY') return `retry ${m.progressNumber} (attempt ${Number(m.progressNumber) + 1})`;
  return `iteration ${m.progressNumber}${m.expectedIteration !== undefined ? ` of ${m.expectedIteration}` : ''}`;
}

/** One row; `line` is the failing entry's source line (from the stack trace) when known; `at` its step's line on this page. */
function entryRow(e: StepEntry, depth: number, startMs: number, nowMs: number, src: ExecutionSource, line: string | undefined, at: number | undefined): SafeHtml {
  const created = Date.parse(e.createTime);
  const end = e.state === 'STATE_IN_PROGRESS' ? nowMs : Date.parse(e.updateTime);
  const failed = e.state === 'STATE_FAILED' && e.exception;
  const err = failed ? summarizeError(e.exception!.payload) : undefined;
  const thread = e.stepEntryMetadata.threadId;
  const depthClass = `depth-${Math.min(depth, 12)}`;
  return html`<tr class="entry entry-${STATE_CLASS[e.state]}" id="entry-${e.entryId}" data-entry-id="${e.entryId}">
<td class="num">${e.entryId}</td>
<td class="step-cell ${depthClass}">${at !== undefined ? html`<a class="step-name mono step-line" href="#src-L${at}" title="Line ${at} of the source below">${e.step}</a>` : html`<span class="step-name mono">${e.step}</span>`}${e.routine !== 'main' ? html` <span class="muted routine">in ${e.routine}</span>` : ''}${
    failed
      ? html`<div class="entry-error">${err?.tags.length ? html`<span class="tag">${err.tags[0]!}</span> ` : ''}${err?.message ?? ''}${line !== undefined ? html` ${sourceLink(src, line, `line ${line}`)}` : ''}<details><summary>Exception</summary><pre class="json">${prettyJson(e.exception!.payload)}</pre></details></div>`
      : ''
  }${
    e.variableData
      ? html`<details class="entry-vars"><summary>Variables</summary><pre class="json">${prettyJson(JSON.stringify(e.variableData.variables))}</pre></details>`
      : ''
  }</td>
<td class="mono small">${typeLabel(e.stepType)}</td>
<td><span class="state state-${STATE_CLASS[e.state]}">${STATE_LABEL[e.state]}</span></td>
<td class="num small">+${formatDuration(Math.max(0, created - startMs))}</td>
<td class="num small">${formatDuration(Math.max(0, end - created))}${e.state === 'STATE_IN_PROGRESS' ? html` <span class="muted">so far</span>` : ''}</td>
<td class="small">${progressLabel(e)}</td>
<td class="small mono">${thread ?? ''}</td>
</tr>`;
}

/** The timeline section: current steps, stack trace, and a page of entries with links to the other pages. */
export function stepTimeline(d: TimelineData, nowMs: number, src: ExecutionSource): SafeHtml {
  const e = d.execution;
  const { workflowId, executionId } = executionIds(e);
  if (!d.page) {
    return section('ex-steps', 'Steps', html`<p class="muted">No step history was recorded for this execution (history is off: see <code>--history</code>).</p>`);
  }
  const page = d.page;
  const trace = e.error?.stackTrace?.elements ?? [];
  const depth = new Map<string, number>();
  const startMs = Date.parse(e.startTime);
  const rows = page.stepEntries.map((entry) => {
    const p = entry.navigationInfo.parent;
    const level = p !== undefined ? (depth.get(p) ?? 0) + 1 : 0;
    depth.set(entry.entryId, level);
    const line = entry.state === 'STATE_FAILED' ? trace.find((t) => t.step === entry.step && t.routine === entry.routine)?.position.line : undefined;
    return entryRow(entry, level, startMs, nowMs, src, line, d.lineOf?.(entry.routine, entry.step));
  });
  const current =
    e.state === 'ACTIVE' && e.status?.currentSteps.length
      ? html`<div class="current-steps" id="current-steps"><h3>Running now</h3><ul>${e.status.currentSteps.map(
          (c) => html`<li><code>${c.step}</code>${c.routine !== 'main' ? html` <span class="muted">in ${c.routine}</span>` : ''}</li>`,
        )}</ul></div>`
      : '';
  const base = uiPath('executions', workflowId, executionId);
  const keep = d.only ? `&node=${encodeURIComponent(`${d.only.routine}/${d.only.step}`)}` : '';
  const total = page.totalSize;
  const shownTo = d.from + page.stepEntries.length;
  const nav =
    total > TIMELINE_PAGE_SIZE
      ? html`<nav class="pager" aria-label="Step entries pages"><span class="muted">Entries ${d.from + 1}–${shownTo} of ${total}</span>${
          d.from > 0 ? html` <a id="steps-prev" href="${base}?from=${Math.max(0, d.from - TIMELINE_PAGE_SIZE)}${keep}">Earlier</a>` : ''
        }${shownTo < total ? html` <a id="steps-next" href="${base}?from=${shownTo}${keep}">Later</a>` : ''}</nav>`
      : '';
  const dropped = page.droppedEntries
    ? html`<p class="muted">The oldest ${page.droppedEntries} entries were dropped (at most 10,000 are kept per execution).</p>`
    : '';
  const table = page.stepEntries.length
    ? html`<div class="table-wrap"><table class="list timeline" id="timeline">
<caption class="sr-only">Step entries</caption>
<thead><tr><th scope="col">#</th><th scope="col">Step</th><th scope="col">Type</th><th scope="col">State</th><th scope="col">Start</th><th scope="col">Duration</th><th scope="col">Iteration / retry</th><th scope="col">Thread</th></tr></thead>
<tbody>${rows}</tbody></table></div>`
    : html`<p class="muted">No steps yet.</p>`;
  const only = d.only
    ? html`<p class="timeline-filter" id="timeline-filter">Showing the entries of step <code>${d.only.step}</code>${d.only.routine !== 'main' ? html` in <code>${d.only.routine}</code>` : ''}. <a href="${base}#ex-graph" id="timeline-all">All steps</a></p>`
    : '';
  return section('ex-steps', html`Steps <span class="muted">${total}</span>`, html`${only}${current}${dropped}${nav}${table}${nav}`);
}
