/**
 * The YAML 1.2 core schema (https://yaml.org/spec/1.2.2/#1032-tag-resolution) as js-yaml types, with exact
 * ints: a plain scalar is null (`~`, `null`, `Null`, `NULL`, empty), a bool (`true`, `True`, `TRUE`, and the
 * same for false), an int (`[-+]?[0-9]+`, `0o[0-7]+`, `0x[0-9a-fA-F]+`; read as bigint, so it stays exact; one
 * beyond 64 bits becomes a double, as `parseJson` does, docs/language.md#data-types), a float (`1.5`, `.5`, `1e3`,
 * `.inf`, `-.Inf`, `.nan`) or else a string. Used by load.ts for every workflow source.
 *
 * The patterns are matched by the scanners below, not by regular expressions: every plain scalar of a
 * source (step names, variable names, values) is tried against int and float, and a scan that stops at the
 * first character that cannot start a number costs far less (docs/architecture.md#compile-time: compile time).
 */
import { Type, FAILSAFE_SCHEMA, type Schema } from 'js-yaml';
import { INT_MAX, INT_MIN } from '../value.ts';

/** Whether a UTF-16 code unit is an ASCII digit. */
function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** The index of the first character at or after `i` that is not an ASCII digit. */
function digitsEnd(s: string, i: number): number {
  while (i < s.length && isDigit(s.charCodeAt(i))) i++;
  return i;
}

/**
 * Whether a plain scalar is an int of the core schema: `[-+]?[0-9]+`, `0o[0-7]+` or `0x[0-9a-fA-F]+`.
 * @internal
 */
export function isCoreInt(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  if (n > 2 && s.charCodeAt(0) === 0x30 /* 0 */) {
    const p = s.charCodeAt(1);
    if (p === 0x6f /* o */) {
      for (let i = 2; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c < 0x30 || c > 0x37) return false;
      }
      return true;
    }
    if (p === 0x78 /* x */) {
      for (let i = 2; i < n; i++) {
        const c = s.charCodeAt(i);
        if (!(isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46))) return false;
      }
      return true;
    }
  }
  const c0 = s.charCodeAt(0);
  const i = c0 === 0x2b /* + */ || c0 === 0x2d /* - */ ? 1 : 0;
  return i < n && digitsEnd(s, i) === n;
}

/**
 * Whether a plain scalar is a float of the core schema:
 * `[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?`, `[-+]?\.(inf|Inf|INF)` or `\.(nan|NaN|NAN)`.
 * @internal
 */
export function isCoreFloat(s: string): boolean {
  const n = s.length;
  if (n === 0) return false;
  const c0 = s.charCodeAt(0);
  let i = c0 === 0x2b /* + */ || c0 === 0x2d /* - */ ? 1 : 0;
  if (s.charCodeAt(i) === 0x2e /* . */) {
    const word = s.slice(i + 1);
    if (word === 'inf' || word === 'Inf' || word === 'INF') return true;
    if (i === 0 && (word === 'nan' || word === 'NaN' || word === 'NAN')) return true;
    const end = digitsEnd(s, i + 1);
    if (end === i + 1) return false;
    i = end;
  } else {
    const end = digitsEnd(s, i);
    if (end === i) return false;
    i = end;
    if (s.charCodeAt(i) === 0x2e /* . */) i = digitsEnd(s, i + 1);
  }
  if (i < n && (s.charCodeAt(i) === 0x65 /* e */ || s.charCodeAt(i) === 0x45 /* E */)) {
    i++;
    const c = s.charCodeAt(i);
    if (c === 0x2b || c === 0x2d) i++;
    const end = digitsEnd(s, i);
    if (end === i) return false;
    i = end;
  }
  return i === n;
}

const intType = (): Type => new Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (data: unknown) => typeof data === 'string' && isCoreInt(data),
  construct: (data: string): bigint | number => {
    const c0 = data.charCodeAt(0);
    const negative = c0 === 0x2d; /* - */
    // BigInt reads 0o and 0x itself; a sign it does not take with them, and the core schema has none there.
    const n = BigInt(negative || c0 === 0x2b /* + */ ? data.slice(1) : data);
    const v = negative ? -n : n;
    // An int beyond 64 bits cannot be an int of the language: read it as a double, as parseJson does.
    return v > INT_MAX || v < INT_MIN ? Number(v) : v;
  },
  predicate: (data: unknown) => typeof data === 'bigint',
});

const floatType = (): Type => new Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (data: unknown) => typeof data === 'string' && isCoreFloat(data),
  construct: (data: string): number => {
    const lower = data.toLowerCase();
    const c0 = lower.charCodeAt(0);
    const sign = c0 === 0x2d /* - */ ? -1 : 1;
    const body = c0 === 0x2d || c0 === 0x2b /* + */ ? lower.slice(1) : lower;
    if (body === '.inf') return sign * Infinity;
    if (body === '.nan') return NaN;
    return Number(data);
  },
  predicate: (data: unknown) => typeof data === 'number',
});

// Compared by length first: looking every plain scalar up in a Set would hash each one (docs/architecture.md#compile-time).

/** Whether a plain scalar is null in the core schema: empty, `~`, `null`, `Null`, `NULL`. */
function isCoreNull(s: string): boolean {
  if (s.length === 0) return true;
  if (s.length === 1) return s === '~';
  return s.length === 4 && (s === 'null' || s === 'Null' || s === 'NULL');
}

/** The boolean a plain scalar is in the core schema (`true`, `True`, `TRUE`, and so for false), if any. */
function coreBool(s: string): boolean | undefined {
  if (s.length === 4) return s === 'true' || s === 'True' || s === 'TRUE' ? true : undefined;
  if (s.length === 5) return s === 'false' || s === 'False' || s === 'FALSE' ? false : undefined;
  return undefined;
}

const nullType = (): Type => new Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (data: unknown) => data === null || (typeof data === 'string' && isCoreNull(data)),
  construct: () => null,
  predicate: (data: unknown) => data === null,
});

const boolType = (): Type => new Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (data: unknown) => typeof data === 'string' && coreBool(data) !== undefined,
  construct: (data: string) => coreBool(data),
  predicate: (data: unknown) => typeof data === 'boolean',
});

/**
 * Whether a plain scalar can only be a string of the core schema: it is not empty and its first character
 * cannot start a null (`~`, `n`, `N`), a bool (`t`, `T`, `f`, `F`), an int or a float (`+`, `-`, `.`, a digit).
 * @internal
 */
export function isSurelyString(s: string): boolean {
  if (s.length === 0) return false;
  const c = s.charCodeAt(0);
  if (c >= 0x61 /* a */) return c !== 0x6e /* n */ && c !== 0x74 /* t */ && c !== 0x66 /* f */ && c !== 0x7e /* ~ */;
  if (c >= 0x41 /* A */) return c !== 0x4e /* N */ && c !== 0x54 /* T */ && c !== 0x46 /* F */;
  return !(isDigit(c) || c === 0x2b /* + */ || c === 0x2d /* - */ || c === 0x2e /* . */);
}

// Tried first: most plain scalars of a workflow (keys, step and variable names, `${...}` expressions) are
// strings, which js-yaml would otherwise try against each of the four types above in turn, a call each
// (docs/architecture.md#deploying-over-rest). It says yes only where all four would say no.
const plainStringType = (): Type => new Type('tag:yaml.org,2002:str', {
  kind: 'scalar',
  resolve: (data: unknown) => typeof data === 'string' && isSurelyString(data),
  construct: (data: string) => data,
});

let coreSchemaMade: Schema | undefined;

/**
 * The YAML 1.2 core schema with exact ints: null, bool, int (bigint), float; `!!str`, `!!seq`, `!!map`. Made on
 * the first call: js-yaml's types and schema are start-up work that only the first read needs
 * (docs/architecture.md#start-up).
 */
export function coreSchema(): Schema {
  return (coreSchemaMade ??= FAILSAFE_SCHEMA.extend({ implicit: [plainStringType(), nullType(), boolType(), intType(), floatType()] }));
}
