// The execution page's source links go to the source of the revision the execution ran (docs/web-ui.md#pages "Terminal
// and UI": "The failing step links to the source, shown with line numbers and that line highlighted"; "The
// workflow page shows the source with line numbers (any revision the service still holds)"; Google's
// Execution.workflowRevisionId): in process, over a real service core and the UI handler.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { idOf, startUi, type UiHarness } from './harness.ts';

const s = suite<{ ui: UiHarness }>('ui source links of an execution (docs/web-ui.md#pages)');

s.before.each(async (ctx) => {
  ctx.ui = await startUi();
});
s.after.each(async (ctx) => {
  await ctx.ui.close();
});

/** A workflow whose subworkflow raises; `pad` blank-comment lines at the top shift every line down. */
function source(pad: number): string {
  return `${'# padding\n'.repeat(pad)}main:
  steps:
    - delegate:
        call: check
        args:
          n: 2
check:
  params: [n]
  steps:
    - fail_here:
        raise:
          message: \${"value " + string(n) + " is not allowed"}
`;
}

/** The line (1-based) of `text` in `src`. */
function lineOf(src: string, text: string): number {
  return src.split('\n').findIndex((l) => l.includes(text)) + 1;
}

/** Every `href` of the page's links of class source-link, in order. */
function sourceLinks(markup: string): string[] {
  return [...markup.matchAll(/<a class="source-link"(?: id="[^"]*")? href="([^"]*)"/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
}

/** The text of the numbered source line `n` on a workflow page. */
function sourceLine(markup: string, n: number): string {
  // A line may also carry its coverage (docs/coverage.md#in-the-web-ui): a class and a title.
  return new RegExp(`<span class="line[^"]*" id="L${n}"[^>]*>([^<]*)</span>`).exec(markup)?.[1] ?? '';
}

async function failedRun(ui: UiHarness, workflowId: string): Promise<string> {
  const id = idOf(ui.core.createExecution(workflowId, {}));
  const e = await ui.settle(workflowId, id);
  assert.is(e.state, 'FAILED');
  return id;
}

s('every source link of an execution goes to its own revision with the line: stack trace, failing step, timeline entries, the Revision fact; a later deploy does not shift them', async ({ ui }) => {
  const first = source(0);
  const rev1 = ui.core.createWorkflow('shifty', { sourceContents: first }).revisionId;
  const id = await failedRun(ui, 'shifty');
  const second = source(5);
  const rev2 = ui.core.updateWorkflow('shifty', { sourceContents: second }).revisionId;
  assert.is.not(rev2, rev1);

  const page = await ui.get(`/ui/executions/shifty/${id}`);
  assert.is(page.status, 200);
  const failLine = lineOf(first, '- fail_here:');
  const callLine = lineOf(first, '- delegate:');
  const links = sourceLinks(page.text);
  const base = `/ui/workflows/shifty?revision=${encodeURIComponent(rev1)}`;
  // The stack trace (innermost first), then the failing entries of the timeline (the call step, then the raise).
  assert.equal(links.slice(0, 2), [`${base}#L${failLine}`, `${base}#L${callLine}`]);
  assert.ok(links.length >= 3, 'the failing timeline entries link too');
  for (const l of links) assert.ok(l.startsWith(`${base}#L`), `${l} goes to revision ${rev1}`);
  assert.match(page.text, new RegExp(`<a class="source-link" id="failing-step-link" href="${base.replace(/[?]/g, '\\?')}#L${failLine}"`));
  assert.match(page.text, new RegExp(`<a class="mono" id="revision-link" href="${base.replace(/[?]/g, '\\?')}">${rev1}</a>`));

  // Followed, the link shows revision 1's source, where that line is the failing step; the current source has
  // something else there.
  const shown = await ui.get(base);
  assert.is(shown.status, 200);
  assert.match(sourceLine(shown.text, failLine), /- fail_here:/);
  const current = await ui.get('/ui/workflows/shifty');
  assert.not.match(sourceLine(current.text, failLine), /fail_here/);
  assert.match(sourceLine(current.text, lineOf(second, '- fail_here:')), /- fail_here:/);

  // An execution of revision 2 links to revision 2, at its own (shifted) line.
  const id2 = await failedRun(ui, 'shifty');
  const links2 = sourceLinks((await ui.get(`/ui/executions/shifty/${id2}`)).text);
  assert.is(links2[0], `/ui/workflows/shifty?revision=${encodeURIComponent(rev2)}#L${lineOf(second, '- fail_here:')}`);
});

s('a revision the service no longer holds (pruned past 100, or the workflow deleted) is named, with its lines, unlinked', async ({ ui }) => {
  const rev1 = ui.core.createWorkflow('pruned', { sourceContents: source(0) }).revisionId;
  const id = await failedRun(ui, 'pruned');
  for (let i = 1; i <= 100; i++) ui.core.updateWorkflow('pruned', { sourceContents: source(i) });
  const page = await ui.get(`/ui/executions/pruned/${id}`);
  assert.is(page.status, 200);
  assert.equal(sourceLinks(page.text), [], 'no link to another revision\'s lines');
  assert.ok(!page.text.includes('?revision='), 'nothing links to the pruned revision');
  assert.match(page.text, new RegExp(`<span class="source-gone" id="failing-step-link">line ${lineOf(source(0), '- fail_here:')}, column \\d+ <span class="muted">\\(revision <span class="mono">${rev1}</span> is no longer kept`));
  assert.match(page.text, new RegExp(`<span class="mono">${rev1}</span> <span class="muted">\\(no longer kept\\)</span>`));
  const gone = await ui.get(`/ui/workflows/pruned?revision=${rev1}`);
  assert.is(gone.status, 404);
  assert.match(gone.text, /no longer kept \(the last 100 revisions are\)/);

  const rev = ui.core.createWorkflow('deleted', { sourceContents: source(0) }).revisionId;
  const id2 = await failedRun(ui, 'deleted');
  ui.core.deleteWorkflow('deleted');
  const after = await ui.get(`/ui/executions/deleted/${id2}`);
  assert.is(after.status, 200);
  assert.equal(sourceLinks(after.text), []);
  assert.match(after.text, new RegExp(`revision <span class="mono">${rev}</span> is no longer kept`));
});

s('the revision given to the workflow page is escaped in its 404 message', async ({ ui }) => {
  ui.core.createWorkflow('plain', { sourceContents: source(0) });
  const r = await ui.get(`/ui/workflows/plain?revision=${encodeURIComponent('<img src=x onerror=alert(1)>')}`);
  assert.is(r.status, 404);
  assert.ok(!r.text.includes('<img src=x'), 'no markup from the query');
  assert.ok(r.text.includes('&lt;img src=x onerror=alert(1)&gt;'));
});

s.run();
