/**
 * Size limits of values (docs/api-resources.md#limits: variable memory 512 KB, string length 256 KB), checked while values
 * are built inside an expression, not only when they are assigned: a string, list or map that one expression
 * builds (`+`, the standard library's builders) may not pass the limits either, so no expression can allocate
 * more than a few megabytes on its way to a ResourceLimitError (docs/api-resources.md#limits).
 */
import { WorkflowError } from './errors.ts';
import { MAX_MEMORY_BYTES, MAX_STRING_BYTES } from './language-limits.ts';
import { isBytes, sizeOf, typeName, type Value } from './value.ts';

/** Largest string, in bytes of UTF-8 (docs/language.md#data-types and docs/api-resources.md#limits: 256 KB). */
export { MAX_STRING_BYTES };
/** Largest list, map or bytes value, in bytes as `sizeOf` estimates them: the variable memory (docs/api-resources.md#limits: 512 KB). */
export const MAX_VALUE_BYTES = MAX_MEMORY_BYTES;

// A UTF-16 code unit is at most 3 bytes of UTF-8, so a string this short is always within the limit.
const ALWAYS_FITS_UNITS = Math.floor(MAX_STRING_BYTES / 3);

/**
 * The UTF-8 length of a string in bytes, without encoding it (lone surrogates count 3 bytes, as
 * TextEncoder writes them as U+FFFD).
 */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // the pair: 4 bytes for 2 code units
      i++;
    } else n += 2;
  }
  return n;
}

/** True when a string of `units` UTF-16 code units certainly passes {@link MAX_STRING_BYTES}. */
function surelyTooLong(units: number): boolean {
  return units > MAX_STRING_BYTES;
}

/** The ResourceLimitError for a value over a limit; `what` names who built it (`text.replace_all`, `+`). */
function sizeLimitError(what: string, detail: string): WorkflowError {
  return WorkflowError.of('ResourceLimitError', `${what}: ${detail}`);
}

/**
 * Returns `s` when it is within {@link MAX_STRING_BYTES}.
 * @throws WorkflowError tagged ResourceLimitError otherwise, naming `what`.
 */
export function checkString(what: string, s: string): string {
  if (s.length <= ALWAYS_FITS_UNITS) return s;
  if (surelyTooLong(s.length) || measuredLength(s) > MAX_STRING_BYTES) throw stringLimitError(what);
  return s;
}

/**
 * `a + b` when the joined string is within {@link MAX_STRING_BYTES}. The length of the result is `a`'s plus
 * `b`'s (less 2 bytes where a surrogate pair forms at the join), and `a` is usually the last string measured:
 * a string built by appending in a loop (`s: ${s + line}`) costs the length of what is appended on each step,
 * not of the whole string again.
 * @throws WorkflowError tagged ResourceLimitError otherwise, naming `what`.
 */
export function checkConcat(what: string, a: string, b: string): string {
  const s = a + b;
  if (s.length <= ALWAYS_FITS_UNITS) return s;
  if (surelyTooLong(s.length)) throw stringLimitError(what);
  const formsPair = isHighSurrogate(a.charCodeAt(a.length - 1)) && isLowSurrogate(b.charCodeAt(0));
  const bytes = measuredLength(a) + measuredLength(b) - (formsPair ? 2 : 0);
  remember(s, bytes);
  if (bytes > MAX_STRING_BYTES) throw stringLimitError(what);
  return s;
}

/** The ResourceLimitError of a string over {@link MAX_STRING_BYTES}. */
function stringLimitError(what: string): WorkflowError {
  return sizeLimitError(what, `the string would be over the limit of ${MAX_STRING_BYTES} bytes (256 KB)`);
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

/**
 * The last long string measured (over ALWAYS_FITS_UNITS) and its UTF-8 length: the one string a loop grows, or
 * logs and sends again and again, is measured once. Held until the next long string is measured.
 */
let lastMeasured = '';
let lastBytes = 0;

/** Keeps `s` (a long string: callers measure short ones afresh) and its UTF-8 length as the last measured. */
function remember(s: string, bytes: number): void {
  lastMeasured = s;
  lastBytes = bytes;
}

/** {@link utf8Length} of `s`, from the last measure when `s` is that string. */
function measuredLength(s: string): number {
  if (s.length <= ALWAYS_FITS_UNITS) return utf8Length(s);
  if (s.length === lastMeasured.length && s === lastMeasured) return lastBytes;
  const bytes = utf8Length(s);
  remember(s, bytes);
  return bytes;
}

/**
 * Throws unless a string of `units` UTF-16 code units could fit: the cheap check a builder makes before it
 * builds a string of known length.
 * @throws WorkflowError tagged ResourceLimitError naming `what`.
 */
export function checkStringUnits(what: string, units: number): void {
  if (surelyTooLong(units)) {
    throw sizeLimitError(what, `the string would be over the limit of ${MAX_STRING_BYTES} bytes (256 KB)`);
  }
}

/**
 * Returns `v` when it is within the limits: a string within {@link MAX_STRING_BYTES}, bytes, a list or a map
 * within {@link MAX_VALUE_BYTES} (as `sizeOf` counts).
 * @throws WorkflowError tagged ResourceLimitError otherwise, naming `what`.
 */
export function checkValue(what: string, v: Value): Value {
  if (typeof v === 'string') return checkString(what, v);
  if (v === null || typeof v !== 'object') return v;
  const size = isBytes(v) ? v.length : sizeOf(v);
  if (size > MAX_VALUE_BYTES) {
    throw sizeLimitError(what, `the ${typeName(v)} would be over the memory limit of ${MAX_VALUE_BYTES} bytes (512 KB)`);
  }
  return v;
}

/**
 * A running count of the bytes a builder has produced (a list of matches, the pieces of a split): `add` as each
 * part is built, so the build stops at the limit instead of after it.
 */
export class SizeBudget {
  #used = 0;
  constructor(
    /** Who builds (`text.find_all`), for the message. */
    private readonly what: string,
    /** Limit in bytes; default {@link MAX_VALUE_BYTES}. */
    private readonly limit: number = MAX_VALUE_BYTES,
  ) {}

  /** Counts `bytes` more. @throws WorkflowError tagged ResourceLimitError past the limit. */
  add(bytes: number): void {
    this.#used += bytes;
    if (this.#used > this.limit) {
      throw sizeLimitError(this.what, `the result would be over the limit of ${this.limit} bytes`);
    }
  }
}
