/**
 * Base 117: binary as text, six bytes in seven characters, each one ASCII character a JavaScript block comment
 * may hold as it is. The bundle carries its packed libraries and module groups this way (build.mjs `packed`),
 * each as the comment of a function (build.mjs mainFile; docs/architecture.md#packed-libraries-and-module-groups):
 * 0.857 bytes a character, against Z85's 0.8 and base64's 0.75. Any base from 116 up holds six bytes in seven
 * digits (116^7 is just over 2^48), and 117^7 (3.0e14) is under 2^53, so a group of seven digits is one exact double.
 *
 * The alphabet is ASCII without what would break the comment or the file: no `*` (so no text of it ends a block
 * comment), no line break (CR, LF: Bun re-indents each line of a comment it prints back), no NUL (git would take
 * the file for binary), and none of the control characters a terminal acts on when the file is printed (ENQ,
 * which some terminals answer by typing their answerback text; BEL, BS, SO, SI, SUB, ESC). A packed text starts with one digit, the count of zero bytes (0-5) added
 * to make the length a multiple of six, which decoding drops again.
 */

/** Control characters in the alphabet, after the printable ones: none a terminal or a tool acts on. */
const CONTROLS = [1, 2, 3, 4, 6, 9, 11, 12, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 28, 29, 30, 31, 127];

/** The 117 characters, the digit value of each its index: printable ASCII but `*`, then CONTROLS. */
export const BASE117_ALPHABET: string = (() => {
  let chars = '';
  for (let c = 0x20; c < 0x7f; c++) if (c !== 0x2a) chars += String.fromCharCode(c);
  return chars + String.fromCharCode(...CONTROLS);
})();

const BASE = 117;
const DIGITS = 7;
const BYTES = 6;
/** 2^24: a group's six bytes are two 24-bit halves. */
const HALF = 16777216;

let values: Uint8Array | undefined;

/**
 * Decodes a packed text (the padding digit, then base-117 groups) to its bytes. The text is made bytes first
 * (TextEncoder, native) and each group's digits read unrolled: this runs once per group loaded, as cold code.
 * @throws Error on a character outside the alphabet, a group over six bytes' worth, or a length that is not
 *   1 + a multiple of seven.
 */
export function base117Decode(text: string): Uint8Array {
  if (!values) {
    values = new Uint8Array(256).fill(255);
    for (let i = 0; i < BASE117_ALPHABET.length; i++) values[BASE117_ALPHABET.charCodeAt(i)] = i;
  }
  const v = values;
  const codes = new TextEncoder().encode(text);
  const pad = codes[0]! - 48;
  if (!(pad >= 0 && pad < BYTES) || (text.length - 1) % DIGITS !== 0) throw new Error('base117Decode: not a packed text');
  if (codes.length !== text.length) throw notBase117(text);
  const out = new Uint8Array(((text.length - 1) / DIGITS) * BYTES);
  for (let i = 1, o = 0; i < codes.length; i += DIGITS, o += BYTES) {
    const d0 = v[codes[i]!]!, d1 = v[codes[i + 1]!]!, d2 = v[codes[i + 2]!]!, d3 = v[codes[i + 3]!]!;
    const d4 = v[codes[i + 4]!]!, d5 = v[codes[i + 5]!]!, d6 = v[codes[i + 6]!]!;
    // 255 (not a digit) has every bit set; no digit (< 117) has bit 7.
    if (((d0 | d1 | d2 | d3 | d4 | d5 | d6) & 128) !== 0) throw notBase117(text.slice(i, i + DIGITS));
    const n = (((((d0 * BASE + d1) * BASE + d2) * BASE + d3) * BASE + d4) * BASE + d5) * BASE + d6;
    const hi = Math.floor(n / HALF);
    if (hi >= HALF) throw new Error('base117Decode: not a packed text (a group over six bytes)');
    const lo = n - hi * HALF;
    out[o] = hi >>> 16;
    out[o + 1] = (hi >>> 8) & 255;
    out[o + 2] = hi & 255;
    out[o + 3] = lo >>> 16;
    out[o + 4] = (lo >>> 8) & 255;
    out[o + 5] = lo & 255;
  }
  return out.subarray(0, out.length - pad);
}

/** The error for a text holding a character outside the alphabet: names the first such character. */
function notBase117(text: string): Error {
  const bad = [...text].find((ch) => !BASE117_ALPHABET.includes(ch)) ?? text;
  return new Error(`base117Decode: ${JSON.stringify(bad)} is not a base-117 character`);
}

/** Encodes bytes as a packed text (the padding digit, then base-117 groups); base117Decode's inverse. */
export function base117Encode(bytes: Uint8Array): string {
  const pad = (BYTES - (bytes.length % BYTES)) % BYTES;
  const padded = new Uint8Array(bytes.length + pad);
  padded.set(bytes);
  const out: string[] = [String(pad)];
  const group: string[] = new Array<string>(DIGITS);
  for (let i = 0; i < padded.length; i += BYTES) {
    const hi = (padded[i]! << 16) | (padded[i + 1]! << 8) | padded[i + 2]!;
    const lo = (padded[i + 3]! << 16) | (padded[i + 4]! << 8) | padded[i + 5]!;
    let n = hi * HALF + lo;
    for (let j = DIGITS - 1; j >= 0; j--) {
      group[j] = BASE117_ALPHABET[n % BASE]!;
      n = Math.floor(n / BASE);
    }
    out.push(group.join(''));
  }
  return out.join('');
}
