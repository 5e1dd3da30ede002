/**
 * How the web UI displays the service's data: timestamps, durations, JSON-encoded strings (pretty-printed
 * and highlighted, with exact numbers), sys.log payloads, and the IDs inside resource names. Pure functions;
 * every result that is markup is built with the escaping `html` template.
 */
import type { Execution } from '../service/model.ts';
import { splitName } from '../service/names.ts';
import type { Value } from '../lang/value.ts';
import { parseJson, toJson } from '../lang/json.ts';
import { html, type SafeHtml } from './html.ts';

/**
 * The workflow ID and execution ID of an execution, read from its `name`
 * (`projects/{p}/locations/{l}/workflows/{workflowId}/executions/{executionId}`).
 */
export function executionIds(e: Pick<Execution, 'name'>): { workflowId: string; executionId: string } {
  const ids = splitName(e.name, ['workflows', 'executions'])?.ids;
  return { workflowId: ids?.[0] ?? '', executionId: ids?.[1] ?? '' };
}

/** The last segment of a resource name: the workflow ID of a workflow's `name`. */
export function lastSegment(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/**
 * An ISO 8601 UTC timestamp as the UI shows it: `2026-11-21 07:12:03 UTC` (seconds precision; the full value
 * stays in the `datetime` and `title` attributes). Empty input gives an em dash.
 */
export function formatTime(iso: string | undefined): SafeHtml {
  if (!iso) return html`<span class="muted">—</span>`;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return html`${iso}`;
  const text = d.toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
  return html`<time datetime="${iso}" title="${iso}">${text}</time>`;
}

/**
 * A duration in milliseconds as a short human text: `412 ms`, `3.2 s`, `2 min 5 s`, `1 h 3 min`, `2 d 4 h`.
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '—';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s < 10 ? s.toFixed(1) : Math.floor(s)} s`;
  const totalSec = Math.floor(s);
  const d = Math.floor(totalSec / 86400);
  const h = Math.floor((totalSec % 86400) / 3600);
  const m = Math.floor((totalSec % 3600) / 60);
  const sec = totalSec % 60;
  if (d > 0) return h ? `${d} d ${h} h` : `${d} d`;
  if (h > 0) return m ? `${h} h ${m} min` : `${h} h`;
  return sec ? `${m} min ${sec} s` : `${m} min`;
}

/**
 * The duration of an execution: end minus start, or now minus start while it runs. `nowMs` is milliseconds
 * since the epoch.
 */
export function executionDurationMs(e: Pick<Execution, 'startTime' | 'endTime'>, nowMs: number): number {
  const start = Date.parse(e.startTime);
  const end = e.endTime ? Date.parse(e.endTime) : nowMs;
  return end - start;
}

/**
 * Decodes a JSON-encoded string (an argument, result or error payload) into a workflow value, keeping ints
 * exact. Returns undefined when the text is not JSON.
 */
function decodeJson(text: string): Value | undefined {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

/**
 * Pretty-prints a JSON-encoded string with two-space indentation, syntax-highlighted (keys, strings,
 * numbers, literals as `<span class="j-…">`). Text that is not JSON is shown as is. Everything is escaped.
 */
export function prettyJson(text: string): SafeHtml {
  const v = decodeJson(text);
  return v === undefined ? html`${text}` : highlightValue(v);
}

/**
 * A workflow value as highlighted, pretty-printed JSON (see {@link prettyJson}). Bytes, which JSON cannot
 * hold, are shown as `<N bytes>`.
 */
function highlightValue(v: Value): SafeHtml {
  let text: string;
  try {
    text = toJson(v, 2);
  } catch {
    return html`<span class="j-lit">${v instanceof Uint8Array ? `<${v.length} bytes>` : String(v)}</span>`;
  }
  return highlightJsonText(text);
}

// A JSON token: a string (a key when a colon follows), a number, or a literal. Everything else (brackets,
// commas, colons, whitespace) is copied as is.
const TOKEN = /("(?:[^"\\]|\\.)*")(\s*:)?|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|\b(true|false|null)\b/g;

/** @internal Highlights JSON text produced by `toJson`; exported for tests. */
function highlightJsonText(text: string): SafeHtml {
  const parts: SafeHtml[] = [];
  let last = 0;
  for (const m of text.matchAll(TOKEN)) {
    const i = m.index;
    parts.push(html`${text.slice(last, i)}`);
    if (m[1] !== undefined) {
      parts.push(m[2] !== undefined ? html`<span class="j-key">${m[1]}</span>${m[2]}` : html`<span class="j-str">${m[1]}</span>`);
    } else if (m[3] !== undefined) {
      parts.push(html`<span class="j-num">${m[3]}</span>`);
    } else {
      parts.push(html`<span class="j-lit">${m[4]}</span>`);
    }
    last = i + m[0].length;
  }
  parts.push(html`${text.slice(last)}`);
  return html`${parts}`;
}

/**
 * A sys.log payload for display: a string as is (it was logged as text), anything else as highlighted JSON.
 */
export function formatLogPayload(payload: Value): SafeHtml {
  return typeof payload === 'string' ? html`${payload}` : highlightValue(payload);
}

/** The summary of an error map from an execution's `error.payload`: message, tags and code when present. */
export interface ErrorSummary {
  readonly message?: string;
  readonly tags: readonly string[];
  readonly code?: string;
}

/** Reads message, tags and code out of a JSON-encoded error map; fields that are missing are left out. */
export function summarizeError(payload: string): ErrorSummary {
  const v = decodeJson(payload);
  if (!(v instanceof Map)) return { tags: [] };
  const message = v.get('message');
  const tags = v.get('tags');
  const code = v.get('code');
  return {
    ...(typeof message === 'string' ? { message } : {}),
    tags: Array.isArray(tags) ? tags.filter((t): t is string => typeof t === 'string') : [],
    ...(typeof code === 'bigint' || typeof code === 'number' ? { code: String(code) } : {}),
  };
}

/** Source text split into lines (a final newline does not make an empty last line). */
export function sourceLines(source: string): string[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
