// Base 117, the text the bundle carries its packed libraries and module groups in (src/platform/base117.ts,
// build.mjs; docs/architecture.md#packed-libraries-and-module-groups): six bytes in seven characters, round trips
// of every padding, only characters a block comment holds as they are, and clear errors for text that is not packed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { BASE117_ALPHABET, base117Decode, base117Encode } from '../../src/platform/base117.ts';

const s = suite('base117: the packed text of the bundle');

/** A deterministic byte pattern of `n` bytes, 0x00 and 0xff included. */
const pattern = (n: number, seed = 1): Uint8Array => {
  const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31 + seed * 13) % 256);
  if (n > 2) bytes[0] = 0xff;
  if (n > 3) bytes[1] = 0;
  return bytes;
};

s('the alphabet is 117 distinct ASCII characters, none of them *, a line break, NUL or a control a terminal acts on', () => {
  assert.is(BASE117_ALPHABET.length, 117);
  assert.is(new Set(BASE117_ALPHABET).size, 117);
  const forbidden = [0, 5, 7, 8, 10, 13, 14, 15, 26, 27, 0x2a];
  for (const ch of BASE117_ALPHABET) {
    const c = ch.charCodeAt(0);
    assert.ok(c < 128, `ASCII: ${c}`);
    assert.not.ok(forbidden.includes(c), `not in the alphabet: ${c}`);
  }
  // 117^7 is over 2^48 (a group holds any six bytes) and under 2^53 (a group is one exact double).
  assert.ok(117 ** 7 >= 2 ** 48 && 117 ** 7 < 2 ** 53);
});

s('encodes six bytes in seven characters after the padding digit', () => {
  assert.is(base117Encode(new Uint8Array(6)), '0' + BASE117_ALPHABET[0]!.repeat(7));
  const max = base117Encode(new Uint8Array(6).fill(255));
  assert.is(max.length, 8);
  // 2^48 - 1 in base 117, most significant digit first.
  let n = 2 ** 48 - 1;
  let digits = '';
  for (let j = 0; j < 7; j++, n = Math.floor(n / 117)) digits = BASE117_ALPHABET[n % 117]! + digits;
  assert.is(max, '0' + digits);
  assert.is(base117Encode(new Uint8Array(600)).length, 1 + 700);
});

s('round-trips bytes of every length modulo six, with the padding digit 0-5', () => {
  for (let n = 0; n < 60; n++) {
    const bytes = pattern(n);
    const text = base117Encode(bytes);
    assert.is(text[0], String((6 - (n % 6)) % 6), `padding digit for ${n} bytes`);
    assert.is(text.length, 1 + Math.ceil(n / 6) * 7);
    assert.equal([...base117Decode(text)], [...bytes], `${n} bytes`);
  }
  const big = Uint8Array.from({ length: 100_003 }, (_, i) => (i * 2654435761) >>> 24);
  assert.equal(base117Decode(base117Encode(big)), big);
});

s('no packed text closes a block comment or breaks a line, whatever the bytes', () => {
  const text = base117Encode(Uint8Array.from({ length: 65_536 }, (_, i) => (i * 131 + (i >> 3)) % 256));
  assert.not.ok(/[*\n\r\0]/.test(text));
});

s('rejects a text that is not packed: a bad padding digit, a bad length, a character outside the alphabet, a group too large', () => {
  const good = base117Encode(pattern(12));
  assert.throws(() => base117Decode('6' + good.slice(1)), /not a packed text/);
  assert.throws(() => base117Decode(good.slice(0, -1)), /not a packed text/);
  assert.throws(() => base117Decode(good.slice(0, 3) + '*' + good.slice(4)), /"\*" is not a base-117 character/);
  assert.throws(() => base117Decode(good.slice(0, 3) + '\n' + good.slice(4)), /"\\n" is not a base-117 character/);
  assert.throws(() => base117Decode(good.slice(0, 3) + 'é' + good.slice(4)), /"é" is not a base-117 character/);
  const last = BASE117_ALPHABET[116]!;
  assert.throws(() => base117Decode('0' + last.repeat(7)), /a group over six bytes/);
});

s.run();
