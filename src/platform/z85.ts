/**
 * Z85 (ZeroMQ RFC 32, https://rfc.zeromq.org/spec/32/) with `_` in place of `*`: binary as text, four bytes in
 * five characters out of 85 printable ASCII ones, none of them a quote or a backslash, and without `*` no text of
 * it ends a block comment. The bundle carries its packed libraries this way (build.mjs `packed`), each as the
 * comment of a function (build.mjs mainFile): 6% fewer bytes than base64. A packed text starts with one digit,
 * the count of zero bytes (0-3) added to make the length a multiple of four, which decoding drops again.
 */

/** The 85 characters, in RFC 32's order (the digit value of each is its index), `_` standing for RFC 32's `*`. */
export const Z85_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/_?&<>()[]{}@%$#';

let values: Uint8Array | undefined;

/**
 * Decodes a packed text (the padding digit, then Z85) to its bytes.
 * @throws Error on a character outside the alphabet or a length that is not 1 + a multiple of five.
 */
export function z85Decode(text: string): Uint8Array {
  if (!values) {
    values = new Uint8Array(128).fill(255);
    for (let i = 0; i < Z85_ALPHABET.length; i++) values[Z85_ALPHABET.charCodeAt(i)] = i;
  }
  const pad = text.charCodeAt(0) - 48;
  if (!(pad >= 0 && pad <= 3) || (text.length - 1) % 5 !== 0) throw new Error('z85Decode: not a packed text');
  const out = new Uint8Array(((text.length - 1) / 5) * 4);
  for (let i = 1, o = 0; i < text.length; i += 5, o += 4) {
    let n = 0;
    for (let j = 0; j < 5; j++) {
      const v = values[text.charCodeAt(i + j)] ?? 255;
      if (v === 255) throw new Error(`z85Decode: '${text[i + j]}' is not a Z85 character`);
      n = n * 85 + v;
    }
    out[o] = n >>> 24;
    out[o + 1] = (n >>> 16) & 255;
    out[o + 2] = (n >>> 8) & 255;
    out[o + 3] = n & 255;
  }
  return out.subarray(0, out.length - pad);
}

/** Encodes bytes as a packed text (the padding digit, then Z85); z85Decode's inverse. */
export function z85Encode(bytes: Uint8Array): string {
  const pad = (4 - (bytes.length % 4)) % 4;
  const padded = new Uint8Array(bytes.length + pad);
  padded.set(bytes);
  let out = String(pad);
  for (let i = 0; i < padded.length; i += 4) {
    let n = ((padded[i]! << 24) | (padded[i + 1]! << 16) | (padded[i + 2]! << 8) | padded[i + 3]!) >>> 0;
    let chunk = '';
    for (let j = 0; j < 5; j++) {
      chunk = Z85_ALPHABET[n % 85]! + chunk;
      n = Math.floor(n / 85);
    }
    out += chunk;
  }
  return out;
}
