import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { b, call, callNamed, raises } from './helpers.ts';

// Google's hash.compute_checksum and hash.compute_hmac pages (real-service functions beyond the spec).
const s = suite('stdlib hash');
const b64 = (v: unknown) => call('base64.encode', v as Uint8Array);
const hex = (v: unknown) => Buffer.from(v as Uint8Array).toString('hex');

s('hash.compute_checksum matches Google\'s SHA256 example', () => {
  assert.is(b64(call('hash.compute_checksum', b('Hello World'), 'SHA256')), 'pZGm1Av0IEBKARczz7exkNYsZb8LzaMrV7J32a2fFG4=');
});

s('hash.compute_checksum supports MD5, SHA1, SHA224, SHA256, SHA384, SHA512 (Google hash.compute_checksum)', () => {
  assert.is(hex(call('hash.compute_checksum', b(''), 'MD5')), 'd41d8cd98f00b204e9800998ecf8427e');
  assert.is(hex(call('hash.compute_checksum', b('abc'), 'SHA1')), 'a9993e364706816aba3e25717850c26c9cd0d89d');
  assert.is(hex(call('hash.compute_checksum', b('abc'), 'SHA224')), '23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7');
  for (const [a, len] of [['SHA384', 48], ['SHA512', 64], ['sha256', 32]] as const) {
    const out = call('hash.compute_checksum', b('abc'), a);
    assert.ok(out instanceof Uint8Array);
    assert.is((out as Uint8Array).length, len);
  }
  assert.equal(callNamed('hash.compute_checksum', { data: b(''), algorithm: 'MD5' }), call('hash.compute_checksum', b(''), 'MD5'));
});

s('hash.compute_hmac matches Google\'s HMAC SHA256 example', () => {
  assert.is(b64(call('hash.compute_hmac', b('key'), b('Hello World'), 'SHA256')), 'QidPcoCDkuWLV9co1+PA5RY+rwfRZdwDEF9iq74afRE=');
  assert.is(
    hex(callNamed('hash.compute_hmac', { key: b('key'), data: b('The quick brown fox jumps over the lazy dog'), algorithm: 'MD5' })),
    '80070713463e7749b90c2dc24911e275',
  );
});

s('hash functions raise ValueError for unknown algorithms and TypeError for non-bytes (Google hash.*)', () => {
  raises(() => call('hash.compute_checksum', b('x'), 'CRC32'), 'ValueError', 'CRC32');
  raises(() => call('hash.compute_hmac', b('k'), b('x'), 'SHA3'), 'ValueError', 'hash.compute_hmac');
  raises(() => call('hash.compute_checksum', 'text', 'MD5'), 'TypeError', 'data');
  raises(() => call('hash.compute_checksum', b('x'), 5n), 'TypeError', 'algorithm');
  raises(() => call('hash.compute_hmac', 'k', b('x'), 'MD5'), 'TypeError', 'key');
  raises(() => call('hash.compute_hmac', b('k'), null, 'MD5'), 'TypeError', 'data');
});

s.run();
