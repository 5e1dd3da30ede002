/**
 * Google's list filters and orderings (AIP-160 "Filtering", https://google.aip.dev/160, and AIP-132
 * "orderBy", https://google.aip.dev/132), as the Workflows list methods document them: `filter` takes
 * restrictions such as `state="FAILED"`, `createTime>"2023-08-01"`, `entryId>=5`, `labels.env=prod` joined by
 * `AND`, `OR`, `NOT` (or `-`) and parentheses; `orderBy` a comma-separated list of fields, each optionally
 * followed by `desc` or `asc`. One implementation for every list of the API (executions, workflows, step
 * entries): the caller describes its filterable fields once, as a table of {@link ListField}s, and gets back a
 * predicate and a comparator.
 *
 * Grammar (AIP-160; OR binds tighter than AND, and juxtaposition is AND):
 *   expression  = sequence { "AND" sequence }
 *   sequence    = factor { factor }
 *   factor      = term { "OR" term }
 *   term        = [ "NOT" | "-" ] simple
 *   simple      = field comparator value | "(" expression ")"
 *   comparator  = "=" | "!=" | "<" | "<=" | ">" | ">=" | ":"
 *   value       = a quoted string ("..." or '...', backslash escapes) or a bare word
 *
 * Semantics by field kind:
 * - `string`: `=`/`!=` compare exactly, with `*` as a wildcard for any run of characters (`step="check*"`);
 *   `:` is "has": the value occurs in the field; `<`, `>`, ... compare code points.
 * - `enum`: the value is one of the field's names, or a name without the field's `prefix`
 *   (`state="FAILED"` for `STATE_FAILED`, as Google's own example writes it); `=`, `!=` and `:` only.
 * - `int`: a decimal integer; every comparator.
 * - `timestamp`: RFC 3339 or a plain date (`2023-08-01`, midnight UTC); every comparator.
 * - `duration`: seconds with an optional `s` suffix (`"1.5s"`, `10`); every comparator.
 * - `bool`: `true` or `false`; `=` and `!=`.
 * - `map` (labels): `labels.env="prod"` compares one key's value as a string (a missing key matches only
 *   `!=`); `labels:env` is true when the key is present.
 *
 * Every problem (unknown field, unknown enum value, a comparator the kind does not support, a value that does
 * not parse, a syntax error, a filter over the bounds of {@link MAX_FILTER_LENGTH}, {@link MAX_FILTER_DEPTH}
 * and {@link MAX_FILTER_RESTRICTIONS}) is an ApiError INVALID_ARGUMENT whose message starts `invalid filter:` (or
 * `invalid orderBy:`) and names the field, value or character position.
 */
import { ApiError } from '../errors.ts';

/** The kinds of filterable fields; see the module header for what each comparator means for each kind. */
export type FieldKind = 'string' | 'enum' | 'int' | 'timestamp' | 'duration' | 'bool' | 'map';

/**
 * One filterable (and, unless `orderable` is false, orderable) field of a list's items. `get` reads the
 * field from an item: a string, a number (int; duration in seconds), an RFC 3339 string (timestamp), a
 * boolean, or a record of strings (map); undefined when the item has no value.
 */
export interface ListField<T> {
  readonly kind: FieldKind;
  readonly get: (item: T) => unknown;
  /** enum: the names the field can hold. */
  readonly values?: readonly string[];
  /** enum: a prefix that may be left out of a value (`STATE_`). */
  readonly prefix?: string;
  /** Default true; false for fields that filter but do not order (maps). */
  readonly orderable?: boolean;
}

/** The fields of one list method by their JSON names (`entryId`, `createTime`, ...). */
export type ListFields<T> = Readonly<Record<string, ListField<T>>>;

/** A compiled filter: true when the item matches. */
export type ItemPredicate<T> = (item: T) => boolean;

type Comparator = '=' | '!=' | '<' | '<=' | '>' | '>=' | ':';

interface Token {
  readonly type: 'word' | 'string' | 'op' | 'lparen' | 'rparen' | 'minus';
  readonly text: string;
  /** 1-based character position in the filter. */
  readonly pos: number;
}

/**
 * Bounds of one filter (docs/limits.md "List filters"): its length in characters, how deep its parentheses
 * nest, and how many restrictions it holds. Each item of a list is tested against every restriction at most
 * once, so the work of one list request is at most its items times {@link MAX_FILTER_RESTRICTIONS}.
 */
export const MAX_FILTER_LENGTH = 4096;
/** Parentheses nested at most this deep. */
export const MAX_FILTER_DEPTH = 16;
/** Restrictions (`field op value`) per filter. */
export const MAX_FILTER_RESTRICTIONS = 32;

function filterError(message: string): ApiError {
  return ApiError.invalidArgument(`invalid filter: ${message}`);
}

/** Splits a filter into tokens; a quoted string keeps its unescaped text. */
function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i]!;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i++;
      continue;
    }
    const pos = i + 1;
    if (c === '(') {
      out.push({ type: 'lparen', text: c, pos });
      i++;
    } else if (c === ')') {
      out.push({ type: 'rparen', text: c, pos });
      i++;
    } else if (c === '"' || c === "'") {
      let s = '';
      let j = i + 1;
      for (;;) {
        if (j >= n) throw filterError(`the string starting at position ${pos} is not closed`);
        const d = text[j]!;
        if (d === c) break;
        if (d === '\\' && j + 1 < n) {
          s += text[j + 1]!;
          j += 2;
        } else {
          s += d;
          j++;
        }
      }
      out.push({ type: 'string', text: s, pos });
      i = j + 1;
    } else if (c === '<' || c === '>' || c === '!' || c === '=' || c === ':') {
      const two = text.slice(i, i + 2);
      if (two === '<=' || two === '>=' || two === '!=') {
        out.push({ type: 'op', text: two, pos });
        i += 2;
      } else if (c === '!') {
        throw filterError(`unexpected "!" at position ${pos} (did you mean "!="?)`);
      } else {
        out.push({ type: 'op', text: c, pos });
        i++;
      }
    } else if (c === '-' && (out.length === 0 || out[out.length - 1]!.type !== 'op')) {
      out.push({ type: 'minus', text: c, pos });
      i++;
    } else {
      let j = i;
      while (j < n && !' \t\n\r()<>=!:"\''.includes(text[j]!)) j++;
      out.push({ type: 'word', text: text.slice(i, j), pos });
      i = j;
    }
  }
  return out;
}

/**
 * Compiles a filter for items described by `fields`. An empty or blank filter matches everything.
 * @throws ApiError INVALID_ARGUMENT naming the problem (see the module header).
 */
export function parseFilter<T>(filter: string, fields: ListFields<T>): ItemPredicate<T> {
  if (filter.trim() === '') return () => true;
  if (filter.length > MAX_FILTER_LENGTH) {
    throw filterError(`the filter is ${filter.length} characters long, over the limit of ${MAX_FILTER_LENGTH} (docs/limits.md "List filters")`);
  }
  const tokens = tokenize(filter);
  let at = 0;
  let depth = 0;
  let restrictions = 0;
  const peek = (): Token | undefined => tokens[at];
  const isKeyword = (t: Token | undefined, k: string) => t !== undefined && t.type === 'word' && t.text === k;

  function expression(): ItemPredicate<T> {
    const parts = [sequence()];
    while (isKeyword(peek(), 'AND')) {
      at++;
      parts.push(sequence());
    }
    return parts.length === 1 ? parts[0]! : (item) => parts.every((p) => p(item));
  }

  function sequence(): ItemPredicate<T> {
    const parts = [factor()];
    for (let t = peek(); t && t.type !== 'rparen' && !isKeyword(t, 'AND'); t = peek()) parts.push(factor());
    return parts.length === 1 ? parts[0]! : (item) => parts.every((p) => p(item));
  }

  function factor(): ItemPredicate<T> {
    const parts = [term()];
    while (isKeyword(peek(), 'OR')) {
      at++;
      parts.push(term());
    }
    return parts.length === 1 ? parts[0]! : (item) => parts.some((p) => p(item));
  }

  function term(): ItemPredicate<T> {
    const t = peek();
    if (t && (t.type === 'minus' || isKeyword(t, 'NOT'))) {
      at++;
      const inner = simple();
      return (item) => !inner(item);
    }
    return simple();
  }

  function simple(): ItemPredicate<T> {
    const t = peek();
    if (!t) throw filterError('a restriction is missing at the end of the filter');
    if (t.type === 'lparen') {
      if (++depth > MAX_FILTER_DEPTH) {
        throw filterError(`parentheses are nested more than ${MAX_FILTER_DEPTH} deep at position ${t.pos} (docs/limits.md "List filters")`);
      }
      at++;
      const inner = expression();
      depth--;
      const close = peek();
      if (!close || close.type !== 'rparen') throw filterError(`expected ")" to close the "(" at position ${t.pos}, found ${describe(close)}`);
      at++;
      return inner;
    }
    if (t.type !== 'word') throw filterError(`expected a field name, found ${describe(t)}`);
    if (++restrictions > MAX_FILTER_RESTRICTIONS) {
      throw filterError(`more than ${MAX_FILTER_RESTRICTIONS} restrictions (the one at position ${t.pos} is one too many; docs/limits.md "List filters")`);
    }
    const compiled = restrictionAt(tokens, at, fields);
    at += 3;
    return compiled;
  }

  const predicate = expression();
  if (at < tokens.length) throw filterError(`unexpected ${describe(tokens[at])}`);
  return predicate;
}

/** How an error message names a token: its text and position, or the end of the filter when there is none. */
function describe(t: Token | undefined): string {
  return t ? `"${t.text}" at position ${t.pos}` : 'the end of the filter';
}

/** The restriction `field comparator value` whose field is `tokens[at]`, compiled; it takes three tokens. */
function restrictionAt<T>(tokens: readonly Token[], at: number, fields: ListFields<T>): ItemPredicate<T> {
  const t = tokens[at]!;
  const op = tokens[at + 1];
  if (!op || op.type !== 'op') {
    throw filterError(`expected a comparator (=, !=, <, <=, >, >=, :) after "${t.text}" at position ${t.pos}, found ${describe(op)}`);
  }
  const v = tokens[at + 2];
  if (!v || (v.type !== 'word' && v.type !== 'string')) throw filterError(`expected a value after "${t.text}${op.text}", found ${describe(v)}`);
  return restriction(t, op.text as Comparator, v.text, fields);
}

function restriction<T>(fieldToken: Token, op: Comparator, value: string, fields: ListFields<T>): ItemPredicate<T> {
  const path = fieldToken.text;
  const dot = path.indexOf('.');
  const name = dot < 0 ? path : path.slice(0, dot);
  const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
  if (!field) {
    throw filterError(`unknown field "${name}" at position ${fieldToken.pos}; the filterable fields are ${Object.keys(fields).join(', ')}`);
  }
  if (dot >= 0 && field.kind !== 'map') throw filterError(`field "${name}" has no subfields (at position ${fieldToken.pos})`);
  const unsupported = () => filterError(`the comparator "${op}" cannot be used with ${field.kind} field "${path}"`);
  const get = field.get;
  switch (field.kind) {
    case 'string':
      return stringRestriction(get, op, value);
    case 'enum': {
      const values = field.values ?? [];
      const wanted = values.includes(value) ? value : field.prefix && values.includes(field.prefix + value) ? field.prefix + value : undefined;
      if (wanted === undefined) throw filterError(`"${value}" is not a value of field "${name}"; it is one of ${values.join(', ')}`);
      if (op === '=' || op === ':') return (item) => get(item) === wanted;
      if (op === '!=') return (item) => get(item) !== wanted;
      throw unsupported();
    }
    case 'int': {
      if (!/^[+-]?\d+$/.test(value)) throw filterError(`field "${name}" takes an integer, not "${value}"`);
      const want = Number(value);
      if (op === ':') return (item) => Number(get(item)) === want;
      return ordered(op, (item) => Math.sign(Number(get(item)) - want));
    }
    case 'timestamp': {
      const want = Date.parse(value);
      if (!Number.isFinite(want) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
        throw filterError(`field "${name}" takes an RFC 3339 timestamp or a date (2023-08-01), not "${value}"`);
      }
      // The emulator writes its timestamps as Date.toISOString does (24 characters, UTC): those compare as
      // text, with no Date.parse per item (a list of 100,000 executions is tested in milliseconds).
      const wantText = new Date(want).toISOString();
      return ordered(op === ':' ? '=' : op, (item) => {
        const t = get(item);
        if (typeof t !== 'string') return undefined;
        if (t.length === 24 && t.charCodeAt(23) === 90 /* Z */ && t.charCodeAt(10) === 84 /* T */) return t < wantText ? -1 : t > wantText ? 1 : 0;
        return Math.sign(Date.parse(t) - want);
      });
    }
    case 'duration': {
      const text = value.endsWith('s') ? value.slice(0, -1) : value;
      if (!/^\d+(\.\d+)?$/.test(text)) throw filterError(`field "${name}" takes a duration in seconds such as "1.5s", not "${value}"`);
      const want = Number(text);
      return ordered(op === ':' ? '=' : op, (item) => {
        const d = get(item);
        return typeof d === 'number' ? Math.sign(d - want) : undefined;
      });
    }
    case 'bool': {
      if (value !== 'true' && value !== 'false') throw filterError(`field "${name}" takes true or false, not "${value}"`);
      const want = value === 'true';
      if (op === '=' || op === ':') return (item) => Boolean(get(item)) === want;
      if (op === '!=') return (item) => Boolean(get(item)) !== want;
      throw unsupported();
    }
    case 'map':
      return mapRestriction(get, op, value, path, dot);
  }
}

/** A restriction on a string field: `:` is a substring, `=` and `!=` match with `*` wildcards, the rest order. */
function stringRestriction<T>(get: (item: T) => unknown, op: Comparator, value: string): ItemPredicate<T> {
  if (op === ':') return (item) => String(get(item) ?? '').includes(value);
  if (op === '=' || op === '!=') {
    const match = wildcard(value);
    return op === '=' ? (item) => match(String(get(item) ?? '')) : (item) => !match(String(get(item) ?? ''));
  }
  return ordered(op, (item) => {
    const s = String(get(item) ?? '');
    return s < value ? -1 : s > value ? 1 : 0;
  });
}

/** A restriction on a map field (labels): `name:KEY` tests for a key, `name.KEY op VALUE` compares one value. */
function mapRestriction<T>(get: (item: T) => unknown, op: Comparator, value: string, path: string, dot: number): ItemPredicate<T> {
  const name = dot < 0 ? path : path.slice(0, dot);
  const read = (item: T, key: string): string | undefined => {
    const m = get(item) as Record<string, string> | undefined;
    return m && Object.hasOwn(m, key) ? m[key] : undefined;
  };
  if (dot < 0) {
    if (op !== ':') throw filterError(`"${name}" is a map: use ${name}.KEY${op}VALUE, or ${name}:KEY to test for a key`);
    return (item) => read(item, value) !== undefined;
  }
  const key = path.slice(dot + 1);
  if (op === ':') return (item) => read(item, key) !== undefined && (value === '*' || read(item, key) === value);
  if (op === '=' || op === '!=') {
    const match = wildcard(value);
    return op === '=' ? (item) => { const v = read(item, key); return v !== undefined && match(v); }
      : (item) => { const v = read(item, key); return v === undefined || !match(v); };
  }
  throw filterError(`the comparator "${op}" cannot be used with map field "${path}"`);
}

/** A comparator over a three-way comparison of the item's value to the wanted one (undefined: no value). */
function ordered<T>(op: Comparator, compare: (item: T) => number | undefined): ItemPredicate<T> {
  switch (op) {
    case '=':
    case ':':
      return (item) => compare(item) === 0;
    case '!=':
      return (item) => compare(item) !== 0;
    case '<':
      return (item) => { const c = compare(item); return c !== undefined && c < 0; };
    case '<=':
      return (item) => { const c = compare(item); return c !== undefined && c <= 0; };
    case '>':
      return (item) => { const c = compare(item); return c !== undefined && c > 0; };
    case '>=':
      return (item) => { const c = compare(item); return c !== undefined && c >= 0; };
  }
}

/** Exact match, where each `*` in the pattern stands for any run of characters (no regex: plain scanning). */
function wildcard(pattern: string): (s: string) => boolean {
  if (!pattern.includes('*')) return (s) => s === pattern;
  const parts = pattern.split('*');
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  return (s) => {
    if (s.length < first.length + last.length || !s.startsWith(first) || !s.endsWith(last)) return false;
    let i = first.length;
    const end = s.length - last.length;
    for (let k = 1; k < parts.length - 1; k++) {
      const j = s.indexOf(parts[k]!, i);
      if (j < 0 || j + parts[k]!.length > end) return false;
      i = j + parts[k]!.length;
    }
    return true;
  };
}

/**
 * Compiles an `orderBy` (AIP-132): comma-separated field names, each optionally followed by `asc` (the
 * default) or `desc`. Items equal on every listed field keep their order (the sort is stable). A field
 * named again adds nothing (items it could tell apart were told apart by its first mention) and is left out,
 * so comparing two items costs at most one test per field, however long the orderBy. Returns undefined for
 * an empty orderBy.
 * @throws ApiError INVALID_ARGUMENT ("invalid orderBy: ...") for an unknown or unorderable field or a bad
 * direction.
 */
export function parseOrderBy<T>(orderBy: string, fields: ListFields<T>): ((a: T, b: T) => number) | undefined {
  if (orderBy.trim() === '') return undefined;
  const all = orderBy.split(',').map((part) => {
    const words = part.trim().split(/\s+/);
    const name = words[0] ?? '';
    const direction = (words[1] ?? 'asc').toLowerCase();
    const field = Object.hasOwn(fields, name) ? fields[name] : undefined;
    const orderable = Object.keys(fields).filter((k) => fields[k]!.orderable !== false);
    if (name === '' || !field || field.orderable === false) {
      throw ApiError.invalidArgument(`invalid orderBy: "${name}" is not a field to order by; use ${orderable.join(', ')}`);
    }
    if (words.length > 2 || (direction !== 'asc' && direction !== 'desc')) {
      throw ApiError.invalidArgument(`invalid orderBy: "${part.trim()}": a field may be followed only by asc or desc`);
    }
    return { name, get: field.get, kind: field.kind, sign: direction === 'desc' ? -1 : 1 };
  });
  const keys = all.filter((k, i) => all.findIndex((o) => o.name === k.name) === i);
  return (a, b) => {
    for (const k of keys) {
      const c = compareValues(k.kind, k.get(a), k.get(b));
      if (c !== 0) return c * k.sign;
    }
    return 0;
  };
}

function compareValues(kind: FieldKind, x: unknown, y: unknown): number {
  if (x === y) return 0;
  if (x === undefined) return -1;
  if (y === undefined) return 1;
  if (kind === 'timestamp') {
    // The service writes every timestamp as `YYYY-MM-DDTHH:MM:SS.sssZ`: those compare as text, without parsing.
    if (typeof x === 'string' && typeof y === 'string' && x.length === 24 && y.length === 24 && x.endsWith('Z') && y.endsWith('Z')) {
      return x < y ? -1 : 1;
    }
    return Math.sign(Date.parse(String(x)) - Date.parse(String(y)));
  }
  if (kind === 'int' || kind === 'duration') return Math.sign(Number(x) - Number(y));
  const s = String(x);
  const t = String(y);
  return s < t ? -1 : s > t ? 1 : 0;
}

/**
 * A short fingerprint (FNV-1a) of a list call's filter and orderBy, for page tokens: a token is valid only
 * with the parameters of the call that issued it (AIP-158).
 */
export function listFingerprint(filter: string, orderBy: string): string {
  const s = `${filter}\u0000${orderBy}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(36);
}
