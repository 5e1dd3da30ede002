// The workflow page's revision list marks the revision shown and compares two revisions
// (/ui/workflows/{id}/diff?from=R1&to=R2, docs/web-ui.md): lines removed and added with both line numbers,
// unchanged runs folded, every line escaped. In process, over a real service core and the UI handler.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startUi, type UiHarness } from './harness.ts';
import { diffRows } from '../../src/ui/diff-page.ts';

const s = suite<{ ui: UiHarness }>('ui revision diff');

s.before.each(async (ctx) => {
  ctx.ui = await startUi();
});
s.after.each(async (ctx) => {
  await ctx.ui.close();
});

const v1 = (value: string): string => `main:
  steps:
${Array.from({ length: 12 }, (_, i) => `    - s${i}:\n        assign:\n          - x${i}: ${i}\n`).join('')}    - done:
        return: "${value}"
`;

s('the diff lists the lines removed and added with their line numbers, folds unchanged runs, and escapes the source', async ({ ui }) => {
  ui.core.createWorkflow('changing', { sourceContents: v1('one') });
  const r1 = ui.core.getWorkflow('changing').revisionId;
  ui.core.updateWorkflow('changing', { sourceContents: v1('<b>two</b>') }, ['sourceContents']);
  const r2 = ui.core.getWorkflow('changing').revisionId;
  const page = await ui.get('/ui/workflows/changing');
  assert.match(page.text, /<form class="compare" method="get" action="\/ui\/workflows\/changing\/diff" id="compare-form">/);
  assert.match(page.text, new RegExp(`<tr class="selected" aria-current="true"><td class="mono"><a href="/ui/workflows/changing">${r2}</a>`));
  const d = await ui.get(`/ui/workflows/changing/diff?from=${r1}&to=${r2}`);
  assert.is(d.status, 200);
  const doneLine = v1('one').split('\n').findIndex((l) => l.includes('return:')) + 1;
  assert.match(d.text, new RegExp(`<tr class="diff-removed"><td class="num">${doneLine}</td><td class="num"></td><td class="mono"><span class="diff-sign" aria-label="removed">-</span>        return: &quot;one&quot;</td></tr>`));
  assert.match(d.text, new RegExp(`<tr class="diff-added"><td class="num"></td><td class="num">${doneLine}</td><td class="mono"><span class="diff-sign" aria-label="added">\\+</span>        return: &quot;&lt;b&gt;two&lt;/b&gt;&quot;</td></tr>`));
  assert.match(d.text, /<tr class="diff-fold"><td><\/td><td><\/td><td class="muted">\d+ unchanged lines<\/td><\/tr>/);
  assert.match(d.text, /1 line changed|2 lines changed/);
  const same = await ui.get(`/ui/workflows/changing/diff?from=${r2}&to=${r2}`);
  assert.match(same.text, /id="diff-same"/);
  const unknown = await ui.get(`/ui/workflows/changing/diff?from=${r1}&to=nope`);
  assert.is(unknown.status, 404);
  assert.match(unknown.text, /holds no revision “nope”/);
});

s('diffRows: every line of both sources is accounted for, in order', () => {
  const a = 'a\nb\nc\nd\n';
  const b = 'a\nc\nd\ne\n';
  assert.equal(
    diffRows(a, b).map((r) => `${r.kind}:${r.oldLine ?? ''}:${r.newLine ?? ''}:${r.text}`),
    ['same:1:1:a', 'removed:2::b', 'same:3:2:c', 'same:4:3:d', 'added::4:e'],
  );
});

s.run();
