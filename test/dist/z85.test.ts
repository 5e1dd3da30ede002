// Z85 (ZeroMQ RFC 32, https://rfc.zeromq.org/spec/32/) with `_` for `*`, the text the bundle carries its packed
// libraries in (src/platform/z85.ts, build.mjs): RFC 32's own example, round trips of every length's padding, no
// `*` (a text of it sits in a block comment), and clear errors for text that is not packed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { z85Decode, z85Encode } from '../../src/platform/z85.ts';

const s = suite('z85: the packed text of the bundle');

s("encodes RFC 32's example bytes as HelloWorld (after the padding digit 0)", () => {
  const bytes = new Uint8Array([0x86, 0x4f, 0xd2, 0x6f, 0xb5, 0x59, 0xf7, 0x5b]);
  assert.is(z85Encode(bytes), '0HelloWorld');
  assert.equal([...z85Decode('0HelloWorld')], [...bytes]);
});

s('round-trips bytes of every length modulo four, 0x00 and 0xff included', () => {
  for (let n = 0; n < 40; n++) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 97 + n * 31) % 256);
    if (n > 2) bytes[0] = 0xff;
    if (n > 3) bytes[1] = 0;
    const text = z85Encode(bytes);
    assert.is(text[0], String((4 - (n % 4)) % 4), `padding digit for ${n} bytes`);
    assert.equal([...z85Decode(text)], [...bytes], `${n} bytes`);
  }
});

s("writes `_` for RFC 32's `*` (digit 70), so no text closes a block comment; reads it back", () => {
  const bytes = new Uint8Array([0, 0, 0, 70]); // the number 70: digits 0, 0, 0, 0 and 70, RFC 32's '*'
  assert.is(z85Encode(bytes), '00000_');
  assert.equal([...z85Decode('00000_')], [...bytes]);
  assert.throws(() => z85Decode('00000*'), /'\*' is not a Z85 character/);
  const all = z85Encode(Uint8Array.from({ length: 4096 }, (_, i) => (i * 131 + (i >> 3)) % 256));
  assert.not.ok(all.includes('*'), 'no * in a packed text');
});

s('rejects a text that is not packed: a bad padding digit, a bad length, a character outside the alphabet', () => {
  assert.throws(() => z85Decode('7HelloWorld'), /not a packed text/);
  assert.throws(() => z85Decode('0Hello'.slice(0, 5)), /not a packed text/);
  assert.throws(() => z85Decode('0Hell"'), /'"' is not a Z85 character/);
});

s.run();
