/**
 * The replies of the web UI's routes (docs/web-ui.md#pages): HTML pages and htmx fragments with their security
 * headers (a Content-Security-Policy allowing this origin only, no inline script), redirects, 404 and 405
 * answers, and the reading of form bodies. routes.ts and its pages and actions build every answer with these.
 */
import type { IncomingMessage } from 'node:http';
import { readBody, RequestTooLarge } from '../platform/request-body.ts';
import type { SafeHtml } from './html.ts';
import { layout, notFoundPage, type Page, type Site } from './layout.ts';

/** Largest form body accepted, in bytes (an argument is at most 32 KB before URL encoding). */
const MAX_FORM_BYTES = 1024 * 1024;

/** The pages' Content-Security-Policy: scripts, styles and requests from this origin only, no inline script. */
const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of every HTML answer. */
const HTML_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': CSP,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  vary: 'HX-Request, HX-Target',
} as const;

/** What a route produces: a status, extra headers and a body (empty for redirects). */
export interface Reply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** The answer to a form body over {@link MAX_FORM_BYTES}. */
export const FORM_TOO_LARGE: Reply = { status: 413, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'Form too large.\n' };

/** Undefined when `method` is allowed, else a 405 reply naming the allowed ones. */
export function methodIs(method: string, allowed: readonly string[]): Reply | undefined {
  if (allowed.includes(method)) return undefined;
  return {
    status: 405,
    headers: { 'content-type': 'text/plain; charset=utf-8', allow: allowed.join(', ') },
    body: `Method ${method} is not allowed here.\n`,
  };
}

/** Whether the request comes from htmx (`HX-Request: true`). */
export function isHtmx(req: IncomingMessage): boolean {
  return req.headers['hx-request'] === 'true';
}

/** An HTML answer with {@link HTML_HEADERS} and `headers` on top. */
export function htmlReply(status: number, body: string, headers: Readonly<Record<string, string>> = {}): Reply {
  return { status, headers: { ...HTML_HEADERS, ...headers }, body };
}

/** A whole page in the site's layout. */
export function page(site: Site, status: number, p: Page): Reply {
  return htmlReply(status, layout(site, p));
}

/** An htmx fragment: the markup alone. */
export function fragment(markup: SafeHtml, status = 200): Reply {
  return htmlReply(status, markup.value);
}

/** A redirect to `location` (302, or 303 See Other after a POST). */
export function redirect(status: 302 | 303, location: string): Reply {
  return { status, headers: { location, 'cache-control': 'no-store' }, body: '' };
}

/** The 404 page; an htmx request (a poll or a form) is also told to reload, so the browser shows it. */
export function notFound(site: Site, req: IncomingMessage, message: string): Reply {
  return htmlReply(404, layout(site, notFoundPage(message)), isHtmx(req) ? { 'hx-refresh': 'true' } : {});
}

/** Reads a URL-encoded form body; undefined when it is larger than {@link MAX_FORM_BYTES}. */
export async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  let body: Uint8Array;
  try {
    body = await readBody(req, MAX_FORM_BYTES);
  } catch (e) {
    if (e instanceof RequestTooLarge) return undefined;
    throw e;
  }
  return new URLSearchParams(new TextDecoder().decode(body));
}
