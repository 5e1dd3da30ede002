/**
 * The `base64` namespace (docs/standard-library.md#namespaces; Google's `base64.encode` and `base64.decode`
 * pages): the standard alphabet of RFC 4648 (`A-Z a-z 0-9 + /`), with `=` padding unless `padding` is
 * false. Implemented here rather than with `Buffer` so that invalid input is rejected, not skipped, and the
 * code runs unchanged on Node, Deno and Bun.
 */
import { valueError } from '../lang/errors.ts';
import { bool, str, utf8, wrongType } from './check.ts';
import type { StdlibFunction } from './types.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const DECODE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;

/** Base64 text of bytes; without `=` padding when `padding` is false. */
function encodeBase64(b: Uint8Array, padding = true): string {
  let out = '';
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8) | b[i + 2]!;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  const rest = b.length - i;
  if (rest === 1) {
    const n = b[i]! << 16;
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + (padding ? '==' : '');
  } else if (rest === 2) {
    const n = (b[i]! << 16) | (b[i + 1]! << 8);
    out += ALPHABET[n >> 18]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + (padding ? '=' : '');
  }
  return out;
}

/**
 * Decodes Base64 text; carriage returns and newlines are ignored (Google base64.decode).
 *
 * @param padding true (default): the text, without CR/LF, must be a multiple of 4 characters padded with
 *   `=`; false: padding may be left out (a padded input is accepted too).
 * @throws WorkflowError tagged ValueError for a character outside the alphabet, misplaced `=`, or a length
 *   that cannot be Base64.
 */
function decodeBase64(text: string, padding = true): Uint8Array {
  const s = text.replace(/[\r\n]/g, '');
  let end = s.length;
  while (end > 0 && s[end - 1] === '=') end--;
  const pad = s.length - end;
  if (pad > 2) throw valueError('base64.decode: too much padding');
  if (padding && s.length % 4 !== 0) throw valueError('base64.decode: input is not padded to a multiple of 4');
  if (pad > 0 && s.length % 4 !== 0) throw valueError('base64.decode: misplaced padding');
  if (end % 4 === 1) throw valueError('base64.decode: input length is not valid Base64');
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let n = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? DECODE[c]! : -1;
    if (v < 0) throw valueError(`base64.decode: invalid character '${s[i]}' at position ${i}`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}

/** The base64 functions, one row per function. */
export const functions: StdlibFunction[] = [
  {
    // base64.decode(data, padding = true): Base64 text to bytes.
    name: 'base64.decode',
    params: [{ name: 'data' }, { name: 'padding', optional: true, default: true }],
    impl: ([data, padding]) => decodeBase64(str('base64.decode', 'data', data), bool('base64.decode', 'padding', padding)),
  },
  {
    // base64.encode(data, padding = true): bytes (or a string, as UTF-8) to Base64 text.
    name: 'base64.encode',
    params: [{ name: 'data' }, { name: 'padding', optional: true, default: true }],
    impl: ([data, padding]) => {
      const p = bool('base64.encode', 'padding', padding);
      if (data instanceof Uint8Array) return encodeBase64(data, p);
      if (typeof data === 'string') return encodeBase64(utf8(data), p);
      wrongType('base64.encode', 'data', 'bytes or a string', data);
    },
  },
];
