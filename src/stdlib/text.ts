/**
 * The `text` namespace (docs/standard-library.md#namespaces; Google's `text.*` pages): searching, splitting,
 * replacing, case, URL encoding and charset conversion of strings.
 *
 * Every regular expression applied to workflow data goes through re2js (RE2 syntax, linear time): Perl-only
 * constructs such as backreferences or lookaround are a ValueError, as on the real service. Indexes
 * (`text.substring`, the `index` of `find_all*` matches) count Unicode code points, the same unit `len`
 * counts. Named arguments follow Google (`source`, `substr`, `regexp`, `repl`, `separator`, `start`, `end`,
 * `data`, `text`, `charset`); the spec's words (`pattern`, `replacement`) are aliases.
 *
 * Where the spec and Google's documentation differ, the spec is the default and `--compat google` (the
 * context's `compat`) switches to Google's (docs/compat.md):
 * - `text.find_all` returns `[{index, match}]` as docs/compat.md#the-points says (Google documents a sorted list of indexes).
 * - `text.replace_all_regex` expands `\0`..`\9` in the replacement (docs/compat.md#the-points: the full match and
 *   groups 1 to 9, referenced by backslash-digit; Google says replacement backreferences are not supported).
 */
import { RE2JS } from 're2js';
import { loadLibrarySync } from '../platform/libraries.ts';
import { valueError } from '../lang/errors.ts';
import { mapOf, type Value } from '../lang/value.ts';
import { checkString, checkStringUnits, SizeBudget } from '../lang/size-checks.ts';
import { bytes, codePointCounter, fromUtf8Lenient, int, str, utf8 } from './check.ts';
import type { StdlibFunction } from './types.ts';
import { charsetName, decodeText, encodeText } from './charset.ts';

// Compiled patterns by source text: workflows call the same few patterns in loops.
const reCache = new Map<string, RE2JS>();
const RE_CACHE_MAX = 256;

/**
 * Compiles an RE2 pattern with re2js (cached). `longest` picks leftmost-longest matching, which
 * `text.find_all_regex` and `text.replace_all_regex` use: "If the overlapping matches start at the same index,
 * then the longest match is considered"
 * (https://cloud.google.com/workflows/docs/reference/stdlib/text/find_all_regex), so `a|ab` finds `ab` in
 * `abcd`.
 *
 * @throws WorkflowError tagged ValueError naming the function when the pattern is not valid RE2 syntax.
 */
function compileRegex(fn: string, pattern: string, longest = false): RE2JS {
  const key = longest ? '\u0000L' + pattern : pattern;
  let re = reCache.get(key);
  if (re) return re;
  loadLibrarySync('re2'); // re2js, on the first regular expression (src/platform/libraries.ts)
  try {
    re = RE2JS.compile(pattern, longest ? RE2JS.LONGEST_MATCH : 0);
  } catch (e) {
    throw valueError(`${fn}: invalid regular expression: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (reCache.size >= RE_CACHE_MAX) reCache.delete(reCache.keys().next().value!);
  reCache.set(key, re);
  return re;
}

/** One match: UTF-16 offsets into the source and the groups' texts (index 0 is the whole match). */
interface RegexMatch {
  readonly start: number;
  readonly end: number;
  readonly groups: readonly (string | null)[];
}

/** Every leftmost-longest-first, non-overlapping match of `re` in `s`, in order, one at a time. */
function* allMatches(re: RE2JS, s: string, withGroups: boolean): Generator<RegexMatch> {
  const m = re.matcher(s);
  const n = withGroups ? m.groupCount() : 0;
  while (m.find()) {
    const groups: (string | null)[] = [];
    for (let g = 0; g <= n; g++) groups.push(m.group(g));
    yield { start: m.start(), end: m.end(), groups };
  }
}

/** UTF-16 offsets where `sub` occurs in `s`, leftmost first and non-overlapping, one at a time; an empty
 * `sub` occurs before every code point and at the end. */
function* substringOffsets(s: string, sub: string): Generator<number> {
  if (sub === '') {
    for (let i = 0; i <= s.length; i++) {
      yield i;
      const c = s.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    }
    return;
  }
  for (let i = s.indexOf(sub); i >= 0; i = s.indexOf(sub, i + sub.length)) yield i;
}

/** Bytes one `{index, match}` entry counts for (docs/api-resources.md#limits, as `sizeOf` counts it), without the match text. */
const MATCH_ENTRY_BYTES = 8 + 'index'.length + 8 + 'match'.length;

/**
 * Builds the `[{index, match}]` list of the find_all functions, with code point indexes, stopping at the
 * variable-memory limit (docs/api-resources.md#limits: 512 KB) rather than after it.
 * @throws WorkflowError tagged ResourceLimitError when the list would pass 512 KB.
 */
function matchList(fn: string, s: string, spans: Iterable<{ start: number; end: number }>): Value[] {
  const at = codePointCounter(s);
  const budget = new SizeBudget(fn);
  const out: Value[] = [];
  for (const { start, end } of spans) {
    budget.add(MATCH_ENTRY_BYTES + end - start);
    out.push(mapOf([
      ['index', BigInt(at(start))],
      ['match', s.slice(start, end)],
    ]));
  }
  return out;
}

/**
 * Google's `text.find_all` (`--compat google`): "A sorted list of indexes" (code points) of the
 * non-overlapping occurrences of `sub`, leftmost first: `find_all("Hello World", "l")` is `[2, 3, 9]`,
 * `find_all("00000", "00")` is `[0, 2]` (https://cloud.google.com/workflows/docs/reference/stdlib/text/find_all).
 * Stops at the variable-memory limit.
 * @throws WorkflowError tagged ResourceLimitError when the list would pass 512 KB.
 */
function indexList(s: string, sub: string): bigint[] {
  const at = codePointCounter(s);
  const budget = new SizeBudget('text.find_all');
  const out: bigint[] = [];
  for (const start of substringOffsets(s, sub)) {
    budget.add(8);
    out.push(BigInt(at(start)));
  }
  return out;
}

/**
 * `s` split at every `sep` (not empty), empty pieces kept, stopping at the variable-memory limit.
 * @throws WorkflowError tagged ResourceLimitError when the list would pass 512 KB.
 */
function splitBounded(fn: string, s: string, sep: string): string[] {
  const budget = new SizeBudget(fn);
  const out: string[] = [];
  let from = 0;
  for (let i = s.indexOf(sep); i >= 0; i = s.indexOf(sep, from)) {
    budget.add(8 + i - from);
    out.push(s.slice(from, i));
    from = i + sep.length;
  }
  budget.add(8 + s.length - from);
  out.push(s.slice(from));
  return out;
}

/**
 * Expands a `text.replace_all_regex` replacement for one match (docs/standard-library.md: "full match and
 * groups 1 to 9 referenced by backslash-digit"): `\0` is the whole match, `\1`..`\9` the groups (empty when
 * the group does not exist or did not take part), `\\` a literal backslash; any other character, including a
 * backslash before a non-digit, is literal.
 */
function expandReplacement(repl: string, groups: readonly (string | null)[]): string {
  if (!repl.includes('\\')) return repl;
  let out = '';
  for (let i = 0; i < repl.length; i++) {
    const c = repl[i]!;
    if (c === '\\' && i + 1 < repl.length) {
      const d = repl[i + 1]!;
      if (d >= '0' && d <= '9') {
        out += groups[d.charCodeAt(0) - 48] ?? '';
        i++;
        continue;
      }
      if (d === '\\') {
        out += '\\';
        i++;
        continue;
      }
    }
    out += c;
  }
  return out;
}

/** Splits a string into its code points (surrogate pairs kept together). */
function codePoints(s: string): string[] {
  return Array.from(s);
}

// Google text.url_encode: "Letters, digits, and the characters .-_ are not escaped"; everything else is
// percent-encoded as UTF-8 bytes (so `~` is escaped too).
const UNRESERVED = /[A-Za-z0-9\-_.]/;

function urlEncode(s: string, plus: boolean): string {
  let out = '';
  for (const ch of s) {
    if (UNRESERVED.test(ch)) out += ch;
    else if (plus && ch === ' ') out += '+';
    else for (const byte of utf8(ch)) out += '%' + byte.toString(16).toUpperCase().padStart(2, '0');
  }
  return out;
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 65 && c <= 70) return c - 55;
  if (c >= 97 && c <= 102) return c - 87;
  return -1;
}

function urlDecode(s: string): string {
  if (!s.includes('%')) return s.replaceAll('+', ' ');
  const src = utf8(s);
  const out = new Uint8Array(src.length);
  let n = 0;
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    if (c === 37 /* % */) {
      const hi = i + 2 < src.length ? hexValue(src[i + 1]!) : -1;
      const lo = hi >= 0 ? hexValue(src[i + 2]!) : -1;
      if (lo < 0) throw valueError(`text.url_decode: invalid percent-encoding at position ${i}`);
      out[n++] = hi * 16 + lo;
      i += 2;
    } else out[n++] = c === 43 /* + */ ? 32 : c;
  }
  return fromUtf8Lenient(out.subarray(0, n));
}

/** The text functions, one row per function. */
export const functions: StdlibFunction[] = [
  {
    // text.find_all(source, substr): [{index, match}] of every non-overlapping occurrence, leftmost first
    // (docs/compat.md#the-points); under `--compat google` Google's "A sorted list of indexes" of every occurrence.
    name: 'text.find_all',
    params: [{ name: 'source' }, { name: 'substr' }],
    impl: ([source, substr], ctx) => {
      const s = str('text.find_all', 'source', source);
      const sub = str('text.find_all', 'substr', substr);
      if (ctx.compat === 'google') return indexList(s, sub);
      const spans = (function* () {
        for (const start of substringOffsets(s, sub)) yield { start, end: start + sub.length };
      })();
      return matchList('text.find_all', s, spans);
    },
  },
  {
    // text.find_all_regex(source, regexp): [{index, match}] of every RE2 match, leftmost-longest.
    name: 'text.find_all_regex',
    params: [{ name: 'source' }, { name: 'regexp', aliases: ['pattern'] }],
    impl: ([source, regexp]) => {
      const s = str('text.find_all_regex', 'source', source);
      const re = compileRegex('text.find_all_regex', str('text.find_all_regex', 'regexp', regexp), true);
      return matchList('text.find_all_regex', s, allMatches(re, s, false));
    },
  },
  {
    // text.match_regex(source, regexp): true when the RE2 pattern matches somewhere in source.
    name: 'text.match_regex',
    params: [{ name: 'source' }, { name: 'regexp', aliases: ['pattern'] }],
    impl: ([source, regexp]) => {
      const s = str('text.match_regex', 'source', source);
      return compileRegex('text.match_regex', str('text.match_regex', 'regexp', regexp)).matcher(s).find();
    },
  },
  {
    // text.replace_all(source, substr, repl): every occurrence of substr replaced literally.
    name: 'text.replace_all',
    params: [{ name: 'source' }, { name: 'substr' }, { name: 'repl', aliases: ['replacement'] }],
    impl: ([source, substr, repl]) => {
      const s = str('text.replace_all', 'source', source);
      const sub = str('text.replace_all', 'substr', substr);
      const r = str('text.replace_all', 'repl', repl);
      // The length is known before anything is built: refuse a result over the string limit up front.
      let count = 0;
      for (const _ of substringOffsets(s, sub)) {
        count++;
        if (r.length > sub.length) checkStringUnits('text.replace_all', s.length + count * (r.length - sub.length));
      }
      if (sub !== '') return checkString('text.replace_all', s.split(sub).join(r));
      return checkString('text.replace_all', codePoints(s).map((ch) => r + ch).join('') + r);
    },
  },
  {
    // text.replace_all_regex(source, regexp, repl): every RE2 match replaced; \0..\9 in repl name groups.
    name: 'text.replace_all_regex',
    params: [
      { name: 'source' },
      { name: 'regexp', aliases: ['pattern'] },
      { name: 'repl', aliases: ['replacement'] },
    ],
    impl: ([source, regexp, repl], ctx) => {
      const fn = 'text.replace_all_regex';
      const s = str(fn, 'source', source);
      const re = compileRegex(fn, str(fn, 'regexp', regexp), true);
      const r = str(fn, 'repl', repl);
      // Google: "Backreferences are not supported" (the replacement is literal) under `--compat google`.
      const literal = ctx.compat === 'google';
      let out = '';
      let last = 0;
      for (const mt of allMatches(re, s, !literal)) {
        out += s.slice(last, mt.start) + (literal ? r : expandReplacement(r, mt.groups));
        last = mt.end;
        checkStringUnits(fn, out.length + s.length - last);
      }
      return checkString(fn, out + s.slice(last));
    },
  },
  {
    // text.split(source, separator): the pieces between separators, empty pieces kept.
    name: 'text.split',
    params: [{ name: 'source' }, { name: 'separator' }],
    impl: ([source, separator]) => {
      const s = str('text.split', 'source', source);
      const sep = str('text.split', 'separator', separator);
      if (sep === '') throw valueError('text.split: separator must not be empty');
      return splitBounded('text.split', s, sep);
    },
  },
  {
    // text.substring(source, start, end): code points [start, end); negative indexes count from the end,
    // out-of-range indexes are clamped, start >= end gives "".
    name: 'text.substring',
    params: [{ name: 'source' }, { name: 'start' }, { name: 'end' }],
    impl: ([source, start, end]) => {
      const cps = codePoints(str('text.substring', 'source', source));
      const n = BigInt(cps.length);
      const clamp = (i: bigint): number => {
        const j = i < 0n ? i + n : i;
        return Number(j < 0n ? 0n : j > n ? n : j);
      };
      const a = clamp(int('text.substring', 'start', start));
      const b = clamp(int('text.substring', 'end', end));
      return a < b ? cps.slice(a, b).join('') : '';
    },
  },
  {
    // text.to_lower(source): lower case (Unicode default case mapping).
    name: 'text.to_lower',
    params: [{ name: 'source' }],
    impl: ([source]) => str('text.to_lower', 'source', source).toLowerCase(),
  },
  {
    // text.to_upper(source): upper case (Unicode default case mapping).
    name: 'text.to_upper',
    params: [{ name: 'source' }],
    impl: ([source]) => str('text.to_upper', 'source', source).toUpperCase(),
  },
  {
    // text.url_encode(source): percent-encodes UTF-8 bytes of all but A-Z a-z 0-9 . - _ (space is %20).
    name: 'text.url_encode',
    params: [{ name: 'source' }],
    impl: ([source]) => urlEncode(str('text.url_encode', 'source', source), false),
  },
  {
    // text.url_encode_plus(source): as url_encode, but a space becomes "+".
    name: 'text.url_encode_plus',
    params: [{ name: 'source' }],
    impl: ([source]) => urlEncode(str('text.url_encode_plus', 'source', source), true),
  },
  {
    // text.url_decode(source): "+" to space, %XX sequences decoded as UTF-8 (invalid bytes become U+FFFD);
    // ValueError for a "%" not followed by two hex digits.
    name: 'text.url_decode',
    params: [{ name: 'source' }],
    impl: ([source]) => urlDecode(str('text.url_decode', 'source', source)),
  },
  {
    // text.decode(data, charset = "UTF-8"): bytes to string, undecodable bytes as U+FFFD; ValueError for an
    // unsupported charset.
    name: 'text.decode',
    params: [{ name: 'data' }, { name: 'charset', optional: true, default: 'UTF-8' }],
    impl: ([data, charset]) => decodeText(bytes('text.decode', 'data', data), charsetName('text.decode', charset)),
  },
  {
    // text.encode(text, charset = "UTF-8"): string to bytes; ValueError when a character does not fit.
    name: 'text.encode',
    params: [{ name: 'text', aliases: ['data'] }, { name: 'charset', optional: true, default: 'UTF-8' }],
    impl: ([text, charset]) => {
      return encodeText(str('text.encode', 'text', text), charsetName('text.encode', charset));
    },
  },
];
