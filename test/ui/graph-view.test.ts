// The web UI's graphs (docs/graph.md "In the web UI"): the workflow page draws the revision it shows; the
// execution page draws the run on the graph of its own revision, shows that source with the failing line
// marked, narrows the timeline to a picked node, links rows and stack frames to their lines, and says at the
// top when it waits for a callback. In process, over a real service core and the UI handler.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { idOf, startUi, type UiHarness } from './harness.ts';
import { CALLBACK_WAITER } from '../support/workflows.ts';
import { until } from '../support/emulator.ts';

const s = suite<{ ui: UiHarness }>('ui graphs (docs/graph.md)');

s.before.each(async (ctx) => {
  ctx.ui = await startUi();
});
s.after.each(async (ctx) => {
  await ctx.ui.close();
});

const FAILING = `main:
  params: [args]
  steps:
    - first:
        assign:
          - n: 1
    - twice:
        for:
          value: v
          in: [1, 2]
          steps:
            - bump:
                assign:
                  - n: \${n + v}
    - "<b>boom</b>":
        raise: \${"failed at " + string(n)}
    - never:
        return: \${n}
`;

/** The line (1-based) of the first line of `src` holding `text`. */
function lineOf(src: string, text: string): number {
  return src.split('\n').findIndex((l) => l.includes(text)) + 1;
}

/** The attributes of the graph node element of `step` on a page. */
function nodeTag(text: string, step: string): string {
  return new RegExp(`<(?:a|g) [^>]*data-step="${step}"[^>]*>`).exec(text)?.[0] ?? '';
}

s('the workflow page draws the graph of the revision it shows; each node links to its source line; step names are escaped', async ({ ui }) => {
  ui.core.createWorkflow('drawn', { sourceContents: FAILING });
  const r = await ui.get('/ui/workflows/drawn');
  assert.is(r.status, 200);
  assert.match(r.text, /<section class="block" aria-labelledby="wf-graph">/);
  assert.match(nodeTag(r.text, 'first'), new RegExp(`href="#L${lineOf(FAILING, '- first:')}"`));
  assert.ok(r.text.includes('data-step="&lt;b&gt;boom&lt;/b&gt;"'));
  assert.not.ok(r.text.includes('<b>boom</b>'));
  const second = FAILING.replace('- never:', '- later:');
  const rev1 = ui.core.getWorkflow('drawn').revisionId;
  ui.core.updateWorkflow('drawn', { sourceContents: second }, ['sourceContents']);
  const now = await ui.get('/ui/workflows/drawn');
  assert.ok(nodeTag(now.text, 'later') !== '' && nodeTag(now.text, 'never') === '', 'the current revision');
  const old = await ui.get(`/ui/workflows/drawn?revision=${rev1}`);
  assert.ok(nodeTag(old.text, 'never') !== '' && nodeTag(old.text, 'later') === '', 'the revision shown');
});

s('a failed execution: node states and counts on the graph, the failing line marked in its revision\'s source, rows and frames linking to their lines', async ({ ui }) => {
  ui.core.createWorkflow('fails', { sourceContents: FAILING });
  const id = idOf(ui.core.createExecution('fails', {}));
  assert.is((await ui.settle('fails', id)).state, 'FAILED');
  const r = await ui.get(`/ui/executions/fails/${id}`);
  assert.is(r.status, 200);
  assert.match(nodeTag(r.text, 'first'), /data-state="succeeded"/);
  assert.match(nodeTag(r.text, '&lt;b&gt;boom&lt;/b&gt;'), /g-state-failed/);
  assert.match(nodeTag(r.text, 'never'), /data-state="not-run"/);
  assert.match(r.text, /<title>twice: for v in \[1,2\], line \d+, succeeded(, \d+ entries)?, 2 iterations<\/title>/);
  const failLine = lineOf(FAILING, '"<b>boom</b>":');
  assert.match(r.text, new RegExp(`<span class="line failing" id="src-L${failLine}">`));
  assert.match(r.text, new RegExp(`<a class="frame-line" href="#src-L${failLine}">`));
  assert.match(r.text, new RegExp(`<a class="step-name mono step-line" href="#src-L${lineOf(FAILING, '- first:')}"`));
  assert.ok(r.text.indexOf('id="ex-graph"') < r.text.indexOf('id="ex-steps"'));
  assert.ok(r.text.includes('class="g-edge g-edge-seq g-taken"'), 'the path taken is drawn strongly');
});

s('picking a node narrows the step timeline to its entries and highlights its source lines; the live region keeps the pick', async ({ ui }) => {
  ui.core.createWorkflow('picked', { sourceContents: FAILING });
  const id = idOf(ui.core.createExecution('picked', {}));
  await ui.settle('picked', id);
  const all = await ui.get(`/ui/executions/picked/${id}`);
  const href = /<a href="([^"]*node=main%2Fbump[^"]*)"/.exec(all.text)?.[1]?.replaceAll('&amp;', '&');
  assert.ok(href, 'the node links to its entries');
  const r = await ui.get(href!.replace(/#.*$/, ''));
  assert.match(r.text, /id="timeline-filter"/);
  const rows = [...r.text.matchAll(/<tr class="entry [^"]*"[^>]*>[\s\S]*?<\/tr>/g)].map((m) => m[0]);
  assert.is(rows.length, 2, 'two entries of bump');
  for (const row of rows) assert.match(row, />bump</);
  const line = lineOf(FAILING, '- bump:');
  assert.match(r.text, new RegExp(`<span class="line picked" id="src-L${line}">`));
  assert.match(r.text, /class="g-node g-kind-assign g-state-succeeded g-selected"/);
  const unknown = await ui.get(`/ui/executions/picked/${id}?node=${encodeURIComponent('<x>')}`);
  assert.is(unknown.status, 200);
  assert.not.ok(unknown.text.includes('id="timeline-filter"'));
});

const RETRIED = `main:
  steps:
    - init:
        assign:
          - n: 0
    - guarded:
        try:
          steps:
            - bump:
                assign:
                  - n: \${n + 1}
            - check:
                switch:
                  - condition: \${n < 3}
                    raise: again
        retry:
          predicate: \${always}
          max_retries: 5
          backoff:
            initial_delay: 0.01
            max_delay: 0.01
            multiplier: 1
    - done:
        return: \${n}
always:
  params: [e]
  steps:
    - yes:
        return: true
`;

s('a retried step: its retries on the graph, each retry\'s number and attempt in the timeline, the retry loop taken', async ({ ui }) => {
  ui.core.createWorkflow('retried', { sourceContents: RETRIED });
  const id = idOf(ui.core.createExecution('retried', {}));
  assert.is((await ui.settle('retried', id)).state, 'SUCCEEDED');
  const r = await ui.get(`/ui/executions/retried/${id}`);
  assert.match(r.text, /<title>guarded: try retry, line \d+, succeeded, \d+ entries, 2 retries<\/title>/);
  assert.match(r.text, />retry 2<\/text>/, 'the badge above the node');
  assert.ok(r.text.includes('retry 1 (attempt 2)') && r.text.includes('retry 2 (attempt 3)'));
  assert.match(r.text, /class="g-edge g-edge-retry g-taken"/);
});

s('an execution waiting for a callback says so at the top, with the callback form above the graph and the steps', async ({ ui }) => {
  ui.core.createWorkflow('waits', { sourceContents: CALLBACK_WAITER });
  const id = idOf(ui.core.createExecution('waits', {}));
  // Once the page says so, the rest of it is checked.
  const r = await until(async () => {
    const page = await ui.get(`/ui/executions/waits/${id}`);
    return page.text.includes('id="waiting-callback"') ? page : undefined;
  }, 'the execution page to show the wait');
  const waiting = r.text.indexOf('id="waiting-callback"');
  assert.ok(waiting > 0, 'says it waits');
  const form = r.text.indexOf('class="send-callback"');
  assert.ok(form > waiting && form < r.text.indexOf('id="ex-graph"') && form < r.text.indexOf('id="ex-steps"'), 'the form near the top');
  assert.match(nodeTag(r.text, 'wait'), /data-state="running"/);
  ui.core.cancelExecution('waits', id);
});

s.run();
