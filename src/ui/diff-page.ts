/**
 * The diff of two revisions of a workflow, /ui/workflows/{id}/diff?from=R1&to=R2 (docs/web-ui.md): their
 * sources line by line, lines removed and added marked with both line numbers, long runs of unchanged lines
 * folded to the {@link CONTEXT} lines around each change. The line diff is jsdiff's (`diff`, Myers' algorithm).
 */
import { diffLines } from 'diff';
import type { Workflow } from '../service/model.ts';
import { html, type SafeHtml, uiPath } from './html.ts';
import { crumbs, type Page, section } from './layout.ts';
import { formatTime, sourceLines } from './format.ts';

/** Unchanged lines kept around each change; longer unchanged runs are folded. */
export const CONTEXT = 3;

interface Row {
  readonly kind: 'same' | 'removed' | 'added' | 'fold';
  readonly oldLine?: number;
  readonly newLine?: number;
  readonly text: string;
}

/** The rows of the diff of `a` to `b`, unchanged runs folded. */
export function diffRows(a: string, b: string): Row[] {
  const rows: Row[] = [];
  let oldLine = 1;
  let newLine = 1;
  for (const part of diffLines(a.replace(/\r\n?/g, '\n'), b.replace(/\r\n?/g, '\n'))) {
    const lines = sourceLines(part.value);
    if (part.added) for (const text of lines) rows.push({ kind: 'added', newLine: newLine++, text });
    else if (part.removed) for (const text of lines) rows.push({ kind: 'removed', oldLine: oldLine++, text });
    else for (const text of lines) rows.push({ kind: 'same', oldLine: oldLine++, newLine: newLine++, text });
  }
  // Fold unchanged runs farther than CONTEXT lines from any change.
  const near = rows.map(() => false);
  rows.forEach((r, i) => {
    if (r.kind === 'same') return;
    for (let j = Math.max(0, i - CONTEXT); j <= Math.min(rows.length - 1, i + CONTEXT); j++) near[j] = true;
  });
  const out: Row[] = [];
  for (let i = 0; i < rows.length; ) {
    if (rows[i]!.kind !== 'same' || near[i]) {
      out.push(rows[i++]!);
      continue;
    }
    let j = i;
    while (j < rows.length && rows[j]!.kind === 'same' && !near[j]) j++;
    out.push({ kind: 'fold', text: `${j - i} unchanged ${j - i === 1 ? 'line' : 'lines'}` });
    i = j;
  }
  return out;
}

/** The diff page of revisions `from` and `to` of workflow `id`. */
export function diffPage(id: string, from: Workflow, to: Workflow): Page {
  const rows = diffRows(from.sourceContents, to.sourceContents);
  const changed = rows.filter((r) => r.kind === 'added' || r.kind === 'removed').length;
  const sign = { same: ' ', removed: '-', added: '+', fold: '' } as const;
  const table = changed
    ? html`<div class="table-wrap"><table class="diff" id="diff"><caption class="sr-only">Lines removed and added</caption><thead><tr><th scope="col" class="num">${from.revisionId}</th><th scope="col" class="num">${to.revisionId}</th><th scope="col">Source</th></tr></thead><tbody>${rows.map((r) =>
        r.kind === 'fold'
          ? html`<tr class="diff-fold"><td></td><td></td><td class="muted">${r.text}</td></tr>`
          : html`<tr class="diff-${r.kind}"><td class="num">${r.oldLine ?? ''}</td><td class="num">${r.newLine ?? ''}</td><td class="mono"><span class="diff-sign" aria-label="${r.kind === 'same' ? 'unchanged' : r.kind}">${sign[r.kind]}</span>${r.text}</td></tr>`,
      )}</tbody></table></div>`
    : html`<p class="muted" id="diff-same">The two revisions have the same source.</p>`;
  const base = uiPath('workflows', id);
  const rev = (w: Workflow): SafeHtml => html`<a class="mono" href="${base}?revision=${encodeURIComponent(w.revisionId)}">${w.revisionId}</a> <span class="muted">(${formatTime(w.revisionCreateTime ?? w.createTime)})</span>`;
  const body = html`${crumbs([['Workflows', '/ui/workflows'], [id, base], ['Diff', undefined]])}
<h1>Revisions of <span class="mono-title">${id}</span></h1>
<p class="lead">From ${rev(from)} to ${rev(to)}: ${changed} ${changed === 1 ? 'line' : 'lines'} changed.</p>
${section('diff-lines', 'Source', table)}`;
  return { title: `Diff of ${id}`, section: 'workflows', body };
}

/** The compare form of the workflow page's revision list: two revisions, newest first, to diff. */
export function compareForm(id: string, revisions: readonly Workflow[], shown: Workflow): SafeHtml {
  if (revisions.length < 2) return html``;
  const older = revisions.find((r) => r.revisionId !== shown.revisionId) ?? revisions[1]!;
  const options = (selected: string): SafeHtml[] =>
    revisions.map((r) => html`<option value="${r.revisionId}"${r.revisionId === selected ? html` selected` : ''}>${r.revisionId}</option>`);
  return html`<form class="compare" method="get" action="${uiPath('workflows', id, 'diff')}" id="compare-form">
<label for="diff-from">From</label> <select id="diff-from" name="from">${options(older.revisionId)}</select>
<label for="diff-to">to</label> <select id="diff-to" name="to">${options(shown.revisionId)}</select>
<button type="submit">Compare</button></form>`;
}
