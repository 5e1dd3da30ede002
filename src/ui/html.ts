/**
 * HTML escaping for the web UI. Pages are built with the {@link html} tagged template, which escapes every
 * interpolated value unless it is already {@link SafeHtml} (the output of another `html` template or of
 * {@link raw} on a constant). So a user string (a workflow ID, source, argument, result, log line, error
 * message) can only reach the page escaped; there is no second path to forget.
 *
 * Templates quote every attribute with double quotes, so escaping `&`, `<`, `>`, `"` and `'` is enough for
 * both text and attribute positions. URLs in attributes are built from fixed prefixes and
 * `encodeURIComponent`-encoded segments (see {@link uiPath}), never from a user-chosen scheme.
 */

/** A piece of markup that is known to be safe to insert as is. Build it with {@link html}. */
export class SafeHtml {
  constructor(
    /** The markup. */
    readonly value: string,
  ) {}

  toString(): string {
    return this.value;
  }
}

/** What a `${...}` in an {@link html} template may hold. Nullish and `false` render as nothing. */
export type HtmlValue = SafeHtml | string | number | bigint | boolean | null | undefined | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for use in HTML text or a double-quoted attribute value: `&`, `<`, `>`, `"` and `'`. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

function render(v: HtmlValue): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof SafeHtml) return v.value;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
}

/**
 * Tagged template that escapes each interpolated value (see {@link HtmlValue}) and returns {@link SafeHtml}.
 * Arrays are concatenated, so `html\`<ul>${items.map((i) => html\`<li>${i}</li>\`)}</ul>\`` works.
 */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Marks a constant string as markup. Never call it on anything that holds user data. */
export function raw(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/**
 * A UI path built from literal segments and user-provided ones: every argument is
 * `encodeURIComponent`-encoded and joined with `/` under `/ui`. `uiPath('workflows', id)` →
 * `/ui/workflows/<id>`.
 */
export function uiPath(...segments: string[]): string {
  return '/ui' + segments.map((s) => '/' + encodeURIComponent(s)).join('');
}
