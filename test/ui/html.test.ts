import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { escapeHtml, html, raw, SafeHtml, uiPath } from '../../src/ui/html.ts';

// docs/web-ui.md#pages: the escaping template every view is built with.
const s = suite('ui html escaping (docs/web-ui.md#pages)');

s('escapeHtml escapes & < > " and \' (docs/web-ui.md#pages: escaping)', () => {
  assert.is(escapeHtml(`<a href="x" title='y'>&amp;</a>`), '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  assert.is(escapeHtml('plain text'), 'plain text');
});

s('html escapes every interpolated string and number (docs/web-ui.md#pages: escaping)', () => {
  const user = '<script>alert("x")</script>';
  const out = html`<p title="${user}">${user} ${42} ${7n}</p>`;
  assert.ok(out instanceof SafeHtml);
  assert.is(
    out.value,
    '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; 42 7</p>',
  );
});

s('html keeps nested html as is and joins arrays; null, undefined and false render nothing (docs/web-ui.md#pages)', () => {
  const items = ['a<b', 'c&d'];
  const out = html`<ul>${items.map((i) => html`<li>${i}</li>`)}</ul>${null}${undefined}${false}`;
  assert.is(out.value, '<ul><li>a&lt;b</li><li>c&amp;d</li></ul>');
  assert.is(html`${true}`.value, 'true');
});

s('raw marks a constant as markup; a plain string is never trusted (docs/web-ui.md#pages)', () => {
  assert.is(html`${raw('<br>')}`.value, '<br>');
  assert.is(html`${'<br>'}`.value, '&lt;br&gt;');
});

s('uiPath encodes each segment under /ui (docs/web-ui.md#pages paths)', () => {
  assert.is(uiPath('workflows', 'hello'), '/ui/workflows/hello');
  assert.is(uiPath('executions', 'a/b', '?#"<'), '/ui/executions/a%2Fb/%3F%23%22%3C');
  assert.is(uiPath(), '/ui');
});

s.run();
