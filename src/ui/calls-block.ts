/**
 * The execution page's outbound calls (docs/mocks-and-clock.md#recorded-calls): each http.* and connector call in order,
 * with the step that made it, the method and URL or the connector's name, the outcome (status or error
 * tags), whether a mock answered, and the request and response in full under a disclosure.
 */
import { toJson } from '../lang/json.ts';
import { callRecordValue, type CallRecord } from '../mocks/call-log.ts';
import { prettyJson } from './format.ts';
import { html, type SafeHtml } from './html.ts';
import { section } from './layout.ts';

/** Calls shown on the page; older ones are summarized by a count. */
const MAX_CALLS_SHOWN = 200;

/** The "Outbound calls" section of an execution page. */
export function callsBlock(calls: readonly CallRecord[]): SafeHtml {
  const shown = calls.length > MAX_CALLS_SHOWN ? calls.slice(-MAX_CALLS_SHOWN) : calls;
  const content = calls.length
    ? html`${shown.length < calls.length ? html`<p class="muted">Showing the last ${shown.length} of ${calls.length} calls.</p>` : ''}<div class="table-wrap"><table class="list" id="calls">
<caption class="sr-only">Outbound calls</caption>
<thead><tr><th scope="col">Step</th><th scope="col">Call</th><th scope="col">Outcome</th><th scope="col">Mocked</th><th scope="col" class="hide-sm">Details</th></tr></thead>
<tbody>${shown.map((c) => row(c))}</tbody></table></div>`
    : html`<p class="muted">This execution made no http.* or connector calls.</p>`;
  return section('ex-calls', html`Outbound calls <span class="muted">${calls.length}</span>`, content);
}

function row(c: CallRecord): SafeHtml {
  const what = c.kind === 'http' ? html`<span class="mono">${c.method ?? c.name}</span> <span class="mono break">${c.url ?? ''}</span>` : html`<span class="mono break">${c.name}</span>`;
  return html`<tr class="call"><td class="mono">${c.step ?? ''}</td><td>${what}</td><td>${outcomeOf(c)}</td><td>${c.mocked ? html`<span class="tag" title="${c.mock ?? ''}">mock</span>` : html`<span class="muted">real</span>`}</td><td class="hide-sm"><details><summary>JSON</summary><pre class="json">${prettyJson(toJson(callRecordValue(c)))}</pre></details></td></tr>`;
}

function outcomeOf(c: CallRecord): SafeHtml | string {
  if (c.endMs === undefined) return html`<span class="muted">running</span>`;
  if (c.error !== undefined) {
    const e = c.error;
    if (e instanceof Map) {
      const tags = e.get('tags');
      const code = e.get('code');
      return html`${Array.isArray(tags) ? tags.map((t) => html`<span class="tag">${String(t)}</span>`) : ''}${typeof code === 'bigint' && code !== 0n ? html` <span class="tag">${String(code)}</span>` : ''}`;
    }
    return String(e);
  }
  if (c.kind === 'http' && c.response instanceof Map) return String(c.response.get('code') ?? 'ok');
  return 'ok';
}
