/**
 * URL patterns of http mocks (docs/mocks-and-clock.md#mocks): exact, `*` glob, or `/re2/` regex (re2js, as every regex here).
 *
 * - A pattern without `?` is matched against the request URL without its query string (match the query
 *   with `match.query`); a pattern with `?` against the whole URL.
 * - Exact: equal after both are normalized as the platform's URL parser writes them (`https://a.com` is
 *   `https://a.com/`, the host lower-cased).
 * - Glob: each `*` stands for any run of characters, `/` included; everything else is literal.
 * - Regex: `/.../` is an RE2 expression that must match the whole URL (anchor-free: `/https://api\..*\/v1\/.*\/`).
 */
import { RE2JS } from 're2js';
import { loadLibrarySync } from '../platform/libraries.ts';

/** A compiled URL pattern. */
export interface UrlPattern {
  /** The pattern as written. */
  readonly text: string;
  /** True when the pattern is matched against the URL with its query string. */
  readonly withQuery: boolean;
  /** True when `url` (normalized, with or without query as above) matches. */
  test(url: string): boolean;
}

/**
 * Largest compiled regex of a URL pattern, in RE2 program instructions (docs/limits.md "Mocks"). Matching
 * costs about the program size times the URL's length: `.{1,1000}x` compiles to 2,002 instructions and takes
 * 100 ms per 2 KB URL, while the URL patterns people write compile to a few dozen.
 */
export const MAX_REGEX_PROGRAM_SIZE = 400;

/**
 * Compiles a pattern; returns the problem as a string when it is not a valid URL, glob or RE2 regex, or a
 * regex whose program is over {@link MAX_REGEX_PROGRAM_SIZE}.
 */
export function compileUrlPattern(text: string): UrlPattern | string {
  if (text.length >= 2 && text.startsWith('/') && text.endsWith('/')) {
    let re: RE2JS;
    loadLibrarySync('re2'); // re2js, on the first regular expression (src/platform/libraries.ts)
    try {
      re = RE2JS.compile(text.slice(1, -1));
    } catch (e) {
      return `match.url: '${text}' is not a valid RE2 regular expression: ${(e as Error).message}`;
    }
    const size = re.programSize();
    if (size > MAX_REGEX_PROGRAM_SIZE) {
      return `match.url: '${text}' compiles to ${size} RE2 instructions, over the limit of ${MAX_REGEX_PROGRAM_SIZE} (each call would cost that much per URL character; docs/limits.md "Mocks")`;
    }
    return { text, withQuery: text.includes('?'), test: (url) => re.matches(url) };
  }
  // `*` alone matches every URL, its query included (a default answer for any http call).
  if (/^\*+$/.test(text)) return { text, withQuery: true, test: () => true };
  const withQuery = text.includes('?');
  if (text.includes('*')) {
    // The literal parts must still form a URL once each * is replaced by a plausible segment.
    const probe = text.replaceAll('*', 'x');
    const problem = urlProblem(probe, text);
    if (problem) return problem;
    const parts = text.split('*');
    return { text, withQuery, test: (url) => globMatches(parts, url) };
  }
  const problem = urlProblem(text, text);
  if (problem) return problem;
  const normalized = new URL(text).toString();
  return { text, withQuery, test: (url) => url === normalized };
}

function urlProblem(probe: string, text: string): string | undefined {
  let u: URL;
  try {
    u = new URL(probe);
  } catch {
    return `match.url: '${text}' is not a URL (expected http(s)://..., a glob with *, or /regex/)`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `match.url: '${text}' is not an http or https URL`;
  return undefined;
}

/** The URL a pattern sees: the request URL with or without its query string. */
export function urlFor(pattern: UrlPattern, url: string): string {
  if (pattern.withQuery) return url;
  const q = url.indexOf('?');
  return q < 0 ? url : url.slice(0, q);
}

/**
 * True when `s` matches the glob whose literal parts (between the `*`s) are `parts`: the first part is a
 * prefix, the last a suffix, and the others occur in order between them (leftmost occurrence each, which
 * is enough for `*`-only globs).
 */
export function globMatches(parts: readonly string[], s: string): boolean {
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (!s.startsWith(first)) return false;
  let at = first.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const j = s.indexOf(parts[i]!, at);
    if (j < 0) return false;
    at = j + parts[i]!.length;
  }
  return s.length - last.length >= at && s.endsWith(last);
}
