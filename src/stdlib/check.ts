/**
 * Argument checks shared by the pure standard library modules (docs/standard-library.md and docs/api-resources.md#errors): each
 * helper returns the argument narrowed to the expected JS type or throws a TypeError-tagged WorkflowError
 * whose message names the function, the argument and the type it got, so every namespace reports a wrong
 * argument type the same way.
 *
 * @internal Used only by `src/stdlib/*`; not part of the registry's contract.
 */
import { typeError } from '../lang/errors.ts';
import { typeName, type Value, type WMap } from '../lang/value.ts';

function wrong(fn: string, arg: string, expected: string, v: Value | undefined): never {
  const got = v === undefined ? 'nothing' : typeName(v);
  throw typeError(`${fn}: argument '${arg}' must be ${expected}, got ${got}`);
}

/** @internal The argument as a string. @throws TypeError otherwise. */
export function str(fn: string, arg: string, v: Value | undefined): string {
  if (typeof v !== 'string') wrong(fn, arg, 'a string', v);
  return v;
}

/** @internal The argument as an int. @throws TypeError otherwise. */
export function int(fn: string, arg: string, v: Value | undefined): bigint {
  if (typeof v !== 'bigint') wrong(fn, arg, 'an int', v);
  return v;
}

/** @internal The argument as an int or double. @throws TypeError otherwise. */
export function num(fn: string, arg: string, v: Value | undefined): bigint | number {
  if (typeof v !== 'bigint' && typeof v !== 'number') wrong(fn, arg, 'an int or a double', v);
  return v;
}

/** @internal The argument as bytes. @throws TypeError otherwise. */
export function bytes(fn: string, arg: string, v: Value | undefined): Uint8Array {
  if (!(v instanceof Uint8Array)) wrong(fn, arg, 'bytes', v);
  return v;
}

/** @internal The argument as a list. @throws TypeError otherwise. */
export function list(fn: string, arg: string, v: Value | undefined): Value[] {
  if (!Array.isArray(v)) wrong(fn, arg, 'a list', v);
  return v;
}

/** @internal The argument as a map. @throws TypeError otherwise. */
export function map(fn: string, arg: string, v: Value | undefined): WMap {
  if (!(v instanceof Map)) wrong(fn, arg, 'a map', v);
  return v;
}

/** @internal The argument as a bool. @throws TypeError otherwise. */
export function bool(fn: string, arg: string, v: Value | undefined): boolean {
  if (typeof v !== 'boolean') wrong(fn, arg, 'a bool', v);
  return v;
}

/** @internal Throws the TypeError for an argument of an unaccepted type, naming the accepted ones. */
export function wrongType(fn: string, arg: string, expected: string, v: Value | undefined): never {
  wrong(fn, arg, expected, v);
}

const utf8Encoder = new TextEncoder();

/** @internal UTF-8 bytes of a string (lone surrogates become U+FFFD). */
export function utf8(s: string): Uint8Array {
  return utf8Encoder.encode(s);
}

const utf8Lenient = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * @internal Decodes UTF-8 bytes, replacing each invalid sequence with U+FFFD (Google text.decode: "Each byte
 * that cannot be correctly decoded ... is represented in the output by the \uFFFD codepoint").
 */
export function fromUtf8Lenient(b: Uint8Array): string {
  return utf8Lenient.decode(b);
}

/** @internal Number of Unicode code points in a string (what `len` and text indexes count). */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/**
 * @internal Maps UTF-16 offsets of a string to code point indexes, for offsets found in increasing order.
 * Call `at(offset)` with non-decreasing offsets; each call continues from the previous one.
 */
export function codePointCounter(s: string): (utf16Offset: number) => number {
  let pos = 0;
  let cps = 0;
  return (offset) => {
    while (pos < offset) {
      const c = s.charCodeAt(pos);
      pos += c >= 0xd800 && c <= 0xdbff && pos + 1 < s.length && (s.charCodeAt(pos + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
      cps++;
    }
    return cps;
  };
}
