/**
 * The web UI's debugger (docs/debugging.md#in-the-web-ui), on the execution page of an execution that runs
 * under the debugger: the source with a breakpoint button on every step's line, the threads with
 * continue / step over / step into / step out / pause buttons, the variables of a held thread's step (maps and
 * lists expandable), and an expression box. All htmx fragments: the state region polls itself; the buttons
 * and the expression box post forms under `/ui/executions/{workflowId}/{executionId}/debug/...`.
 */
import { WorkflowError } from '../lang/errors.ts';
import { isList, isMap, typeName, type Value } from '../lang/value.ts';
import type { UiDebugged } from '../debug/hub.ts';
import { errorMessage, shown, type DebugThread } from '../debug/session.ts';
import { html, type SafeHtml, uiPath } from './html.ts';
import { section } from './layout.ts';

/** Items of one map or list shown, at most. */
const MAX_ITEMS = 100;
/** Nesting shown, at most. */
const MAX_DEPTH = 6;

/** The debugger section of the execution page: the polled state region and the expression box. */
export function debugSection(workflowId: string, executionId: string, ui: UiDebugged): SafeHtml {
  const base = uiPath('executions', workflowId, executionId, 'debug');
  const evalForm = html`<form id="debug-eval" class="debug-eval" method="post" action="${base}/evaluate" hx-post="${base}/evaluate" hx-target="#debug-eval-result" hx-swap="innerHTML">
<label for="debug-expression">Expression <span class="muted">(evaluated in the held step's scope, without side effects)</span></label>
<input id="debug-expression" name="expression" autocomplete="off" spellcheck="false" placeholder="len(items) + 1">
<button type="submit">Evaluate</button>
<output id="debug-eval-result" class="debug-eval-result"></output>
</form>`;
  const state = html`<div id="debug-state" hx-get="${base}" hx-trigger="every 1s" hx-swap="innerHTML">${debugState(workflowId, executionId, ui)}</div>`;
  return section('debugger', 'Debugger', html`${state}${evalForm}`);
}

/** The polled part: threads with their buttons, the source with breakpoints, the variables of a held step. */
export function debugState(workflowId: string, executionId: string, ui: UiDebugged): SafeHtml {
  const base = uiPath('executions', workflowId, executionId, 'debug');
  const threads = ui.session.allThreads();
  const held = threads.find((t) => t.paused);
  const here = held?.paused?.node.event.pos.line;
  const rows = threads.map((t) => threadRow(base, t));
  const lines = ui.sourceText.split('\n');
  const source = html`<form method="post" action="${base}/breakpoint" hx-post="${base}/breakpoint" hx-target="#debug-state" hx-swap="innerHTML"><pre class="source debug-source"><code>${lines.map((text, i) => {
    const n = i + 1;
    const bp = ui.stepLines.has(n)
      ? html`<button type="submit" name="line" value="${n}" class="bp${ui.breakpoints.has(n) ? ' on' : ''}" aria-pressed="${ui.breakpoints.has(n) ? 'true' : 'false'}" aria-label="Breakpoint on line ${n}" data-line="${n}">${ui.breakpoints.has(n) ? '●' : '○'}</button>`
      : html`<span class="bp-none"> </span>`;
    return html`<span class="line${n === here ? ' current' : ''}" id="D${n}">${bp} ${text}</span>\n`;
  })}</code></pre></form>`;
  const vars = held ? variablesPanel(held) : html`<p class="muted">No thread is held: the variables show when one stops.</p>`;
  return html`<table class="debug-threads"><thead><tr><th>Thread</th><th>Where</th><th></th></tr></thead><tbody>${rows}</tbody></table>
<div class="debug-columns"><div class="debug-source-wrap">${source}</div><div class="debug-vars" id="debug-vars">${vars}</div></div>`;
}

function threadRow(base: string, t: DebugThread): SafeHtml {
  const p = t.paused;
  const where = p ? html`held at <code>${p.node.event.routine}.${p.node.event.step}</code> (line ${p.node.event.pos.line}; ${p.reason}${p.text ? `: ${p.text}` : ''})` : html`running`;
  const button = (action: string, label: string) => html`<button type="submit" name="action" value="${action}" data-action="${action}">${label}</button>`;
  const buttons = p
    ? html`${button('continue', 'Continue')}${button('next', 'Step over')}${button('stepIn', 'Step into')}${button('stepOut', 'Step out')}`
    : button('pause', 'Pause');
  return html`<tr data-thread="${t.name}"><td>${t.name}</td><td>${where}</td><td><form class="debug-controls" method="post" action="${base}/control" hx-post="${base}/control" hx-target="#debug-state" hx-swap="innerHTML"><input type="hidden" name="thread" value="${t.id}">${buttons}</form></td></tr>`;
}

function variablesPanel(t: DebugThread): SafeHtml {
  const scopes = t.paused!.step.scopes();
  return html`<h3>Variables of <code>${t.paused!.node.event.step}</code> <span class="muted">(${t.name})</span></h3>${scopes.map(
    (vars, i) => html`<div class="debug-scope"><h4>${i === scopes.length - 1 ? 'Routine' : 'Block'}</h4><ul class="debug-values">${[...vars].map(([k, v]) => valueItem(k, v, 0))}</ul></div>`,
  )}`;
}

function valueItem(name: string, v: Value, depth: number): SafeHtml {
  if ((isMap(v) || isList(v)) && depth < MAX_DEPTH) {
    const entries: [string, Value][] = isMap(v) ? [...v] : v.map((x, i) => [String(i), x]);
    const more = entries.length > MAX_ITEMS ? html`<li class="muted">${entries.length - MAX_ITEMS} more</li>` : '';
    return html`<li data-var="${name}"><details><summary><span class="var-name">${name}</span> <span class="muted">${typeName(v)} (${entries.length})</span></summary><ul class="debug-values">${entries.slice(0, MAX_ITEMS).map(([k, x]) => valueItem(k, x, depth + 1))}${more}</ul></details></li>`;
  }
  return html`<li data-var="${name}"><span class="var-name">${name}</span> = <code class="var-value">${shown(v)}</code></li>`;
}


/** Runs a control button's action on its thread; the problem as a sentence when it cannot. */
export function control(ui: UiDebugged, form: URLSearchParams): string | undefined {
  const thread = ui.session.threadById(Number(form.get('thread')));
  if (!thread) return 'That thread has ended.';
  const action = form.get('action');
  switch (action) {
    case 'continue':
      ui.session.continue(thread);
      return undefined;
    case 'pause':
      ui.session.pause(thread);
      return undefined;
    case 'next':
    case 'stepIn':
    case 'stepOut':
      if (!thread.paused) return 'That thread is running, not held.';
      ui.session.step(thread, action === 'next' ? 'over' : action === 'stepIn' ? 'into' : 'out');
      return undefined;
  }
  return 'Unknown action.';
}

/** Toggles the breakpoint on the form's line; the problem when the line holds no step. */
export function toggleBreakpoint(ui: UiDebugged, form: URLSearchParams): string | undefined {
  const line = Number(form.get('line'));
  if (!ui.stepLines.has(line)) return 'No step is written on that line.';
  ui.toggle(line);
  return undefined;
}

/** The expression box's answer: the value, or the error it raised, as a fragment. */
export async function evaluateFragment(ui: UiDebugged, expression: string): Promise<SafeHtml> {
  const held = ui.session.allThreads().find((t) => t.paused);
  if (!held) return html`<span class="field-error">No thread is held: evaluating needs a held step's scope.</span>`;
  const text = expression.trim();
  try {
    const v = await held.paused!.step.evaluate(text.startsWith('${') && text.endsWith('}') ? text.slice(2, -1) : text);
    return html`<code class="eval-value">${shown(v)}</code> <span class="muted">${typeName(v)}</span>`;
  } catch (e) {
    const we = WorkflowError.from(e);
    return html`<span class="field-error">${we.tags.join(', ') || 'error'}: ${errorMessage(we)}</span>`;
  }
}
