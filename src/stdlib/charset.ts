/**
 * Charset conversion for `text.encode` and `text.decode` (Google's text.encode and text.decode pages,
 * https://cloud.google.com/workflows/docs/reference/stdlib/text/encode): UTF-8, US-ASCII, ISO-8859-1 and
 * UTF-16 written here, every other charset the platform's `TextDecoder` knows read by it and written through a
 * table read off it.
 */
import { valueError } from '../lang/errors.ts';
import type { Value } from '../lang/value.ts';
import { fromUtf8Lenient, str, utf8 } from './check.ts';

/**
 * The charsets text.encode and text.decode implement themselves, by canonical name; lookups ignore case,
 * `-`, `_` and spaces. Both also accept any other charset label the platform's `TextDecoder` knows (e.g.
 * ISO-8859-2, windows-1252, Shift_JIS): Google's text.encode and text.decode pages name the same charsets
 * (https://cloud.google.com/workflows/docs/reference/stdlib/text/encode); text.encode writes those through a
 * table built from the decoder ({@link encoderTable}).
 */
const CHARSETS: ReadonlyMap<string, string> = new Map([
  ['utf8', 'UTF-8'],
  ['usascii', 'US-ASCII'],
  ['ascii', 'US-ASCII'],
  ['iso88591', 'ISO-8859-1'],
  ['latin1', 'ISO-8859-1'],
  ['utf16', 'UTF-16'],
  ['utf16le', 'UTF-16LE'],
  ['utf16be', 'UTF-16BE'],
]);

/**
 * The charset argument of `fn`: UTF-8 when absent or null.
 * @throws WorkflowError tagged TypeError when it is not a string.
 */
export function charsetName(fn: string, v: Value | undefined): string {
  return v === undefined || v === null ? 'UTF-8' : str(fn, 'charset', v);
}

function unsupported(fn: string, name: string): never {
  throw valueError(`${fn}: unsupported charset '${name}' (supported: UTF-8, US-ASCII, ISO-8859-1, UTF-16 and the labels of the WHATWG Encoding Standard, e.g. ISO-8859-2, windows-1252, Shift_JIS)`);
}

function ownCharset(name: string): string | undefined {
  return CHARSETS.get(name.toLowerCase().replace(/[-_ ]/g, ''));
}

/**
 * Encodes a string in a charset.
 *
 * @throws WorkflowError tagged ValueError for an unsupported charset or a character the charset cannot
 *   represent (Google text.encode).
 */
export function encodeText(s: string, name: string): Uint8Array {
  const charset = ownCharset(name);
  if (charset === undefined) return encodeWithTable(s, name);
  switch (charset) {
    case 'UTF-8':
      return utf8(s);
    case 'US-ASCII':
    case 'ISO-8859-1': {
      const max = charset === 'US-ASCII' ? 0x7f : 0xff;
      const out = new Uint8Array(s.length);
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c > max) throw valueError(`text.encode: character at position ${i} cannot be encoded in ${charset}`);
        out[i] = c;
      }
      return out;
    }
    default: {
      // UTF-16 without a byte-order mark is big-endian; UTF-16 (unmarked name) writes a big-endian BOM.
      const le = charset === 'UTF-16LE';
      const bom = charset === 'UTF-16' ? 2 : 0;
      const out = new Uint8Array(bom + s.length * 2);
      if (bom) {
        out[0] = 0xfe;
        out[1] = 0xff;
      }
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        out[bom + 2 * i + (le ? 1 : 0)] = c >> 8;
        out[bom + 2 * i + (le ? 0 : 1)] = c & 0xff;
      }
      return out;
    }
  }
}

// The WHATWG encodings whose characters beyond ASCII take two bytes, by the decoder's `encoding` name.
const DOUBLE_BYTE: ReadonlySet<string> = new Set(['shift_jis', 'euc-jp', 'euc-kr', 'big5', 'gbk', 'gb18030']);

// Encoder tables by decoder encoding name (the platform's canonical name), built on first use.
const encoderTables = new Map<string, ReadonlyMap<string, readonly number[]>>();

/**
 * The table from a character to its bytes in a charset the platform's `TextDecoder` knows, read off the
 * decoder itself: every single byte, then every two-byte sequence whose first byte is 0x80 or over (the
 * double-byte charsets: Shift_JIS, EUC-KR, Big5, GBK, gb18030's two-byte part). The first sequence that
 * decodes to a character is the one written, so decode(encode(s)) is s. Characters only a longer or stateful
 * sequence gives (gb18030's four-byte ones, EUC-JP's JIS X 0212, ISO-2022-JP) have no entry.
 * @throws WorkflowError tagged ValueError when the platform knows no such charset.
 */
function encoderTable(name: string): ReadonlyMap<string, readonly number[]> {
  let d: TextDecoder;
  try {
    d = new TextDecoder(name, { fatal: true });
  } catch {
    unsupported('text.encode', name);
  }
  const known = encoderTables.get(d.encoding);
  if (known) return known;
  const table = new Map<string, number[]>();
  const add = (seq: number[]): void => {
    let ch: string;
    try {
      ch = d.decode(new Uint8Array(seq));
    } catch {
      return;
    }
    if (ch.length > 0 && Array.from(ch).length === 1 && !table.has(ch)) table.set(ch, seq);
  };
  for (let b = 0; b < 256; b++) add([b]);
  if (DOUBLE_BYTE.has(d.encoding)) {
    for (let lead = 0x80; lead < 0x100; lead++) for (let trail = 0x21; trail < 0x100; trail++) add([lead, trail]);
  }
  encoderTables.set(d.encoding, table);
  return table;
}

/**
 * Encodes `s` with {@link encoderTable}.
 * @throws WorkflowError tagged ValueError for an unknown charset or a character it cannot represent.
 */
function encodeWithTable(s: string, name: string): Uint8Array {
  const table = encoderTable(name);
  const out: number[] = [];
  let i = 0;
  for (const ch of s) {
    const seq = table.get(ch);
    if (seq === undefined) throw valueError(`text.encode: character at position ${i} cannot be encoded in ${name}`);
    out.push(...seq);
    i++;
  }
  return Uint8Array.from(out);
}

/** `s` with every unpaired surrogate replaced by U+FFFD. */
function toWellFormed(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      out += s[i]! + s[i + 1]!;
      i++;
    } else out += c >= 0xd800 && c <= 0xdfff ? '\uFFFD' : s[i]!;
  }
  return out;
}

/**
 * Decodes bytes in a charset; bytes that cannot be decoded become U+FFFD (Google text.decode).
 *
 * @throws WorkflowError tagged ValueError for a charset neither this module nor the platform supports.
 */
export function decodeText(b: Uint8Array, name: string): string {
  const charset = ownCharset(name);
  switch (charset) {
    case 'UTF-8':
      return fromUtf8Lenient(b);
    case 'US-ASCII':
    case 'ISO-8859-1': {
      let out = '';
      for (let i = 0; i < b.length; i++) {
        const c = b[i]!;
        out += charset === 'US-ASCII' && c > 0x7f ? '\uFFFD' : String.fromCharCode(c);
      }
      return out;
    }
    case 'UTF-16':
    case 'UTF-16LE':
    case 'UTF-16BE': {
      let le = charset === 'UTF-16LE';
      let i = 0;
      if (charset === 'UTF-16' && b.length >= 2) {
        if (b[0] === 0xff && b[1] === 0xfe) (le = true), (i = 2);
        else if (b[0] === 0xfe && b[1] === 0xff) i = 2;
      }
      let out = '';
      for (; i + 1 < b.length; i += 2) out += String.fromCharCode(le ? b[i]! | (b[i + 1]! << 8) : (b[i]! << 8) | b[i + 1]!);
      return toWellFormed(out) + (i < b.length ? '\uFFFD' : '');
    }
    default: {
      let d: TextDecoder;
      try {
        d = new TextDecoder(name);
      } catch {
        unsupported('text.decode', name);
      }
      return d.decode(b);
    }
  }
}
