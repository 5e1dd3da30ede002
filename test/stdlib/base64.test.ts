import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { b, call, callNamed, raises } from './helpers.ts';

// docs/standard-library.md#namespaces (base64) and Google's base64.encode / base64.decode pages.
const s = suite('stdlib base64');

s('base64.encode encodes bytes and strings with padding (docs/standard-library.md)', () => {
  assert.is(call('base64.encode', b('hello')), 'aGVsbG8=');
  assert.is(call('base64.encode', 'hello'), 'aGVsbG8=');
  assert.is(call('base64.encode', b('')), '');
  assert.is(call('base64.encode', b('a')), 'YQ==');
  assert.is(call('base64.encode', b('abc')), 'YWJj');
  assert.is(call('base64.encode', new Uint8Array([0xfb, 0xff])), '+/8=');
  assert.is(call('base64.encode', 'é'), 'w6k=');
});

s('base64.encode without padding drops "=" (Google base64.encode)', () => {
  assert.is(call('base64.encode', b('a'), false), 'YQ');
  assert.is(callNamed('base64.encode', { data: b('ab'), padding: false }), 'YWI');
  raises(() => call('base64.encode', b('a'), 'no'), 'TypeError', 'padding');
  raises(() => call('base64.encode', 1n), 'TypeError', 'base64.encode');
  raises(() => call('base64.encode', null), 'TypeError');
});

s('base64.decode decodes to bytes, ignoring CR and LF (docs/standard-library.md)', () => {
  assert.equal(call('base64.decode', 'aGVsbG8='), b('hello'));
  assert.equal(call('base64.decode', 'aGVs\r\nbG8='), b('hello'));
  assert.equal(call('base64.decode', ''), b(''));
  assert.equal(call('base64.decode', '+/8='), new Uint8Array([0xfb, 0xff]));
  assert.equal(callNamed('base64.decode', { data: 'YQ==' }), b('a'));
});

s('base64.decode without padding accepts unpadded text (Google base64.decode)', () => {
  assert.equal(call('base64.decode', 'YQ', false), b('a'));
  assert.equal(call('base64.decode', 'YWI', false), b('ab'));
  assert.equal(call('base64.decode', 'YQ==', false), b('a'));
});

s('base64.decode raises ValueError for bad characters or alignment (Google base64.decode)', () => {
  raises(() => call('base64.decode', 'YQ'), 'ValueError', 'multiple of 4');
  raises(() => call('base64.decode', 'a$b='), 'ValueError', 'invalid character');
  raises(() => call('base64.decode', 'Y==='), 'ValueError');
  raises(() => call('base64.decode', 'Y=Q='), 'ValueError');
  raises(() => call('base64.decode', 'YQ=', false), 'ValueError');
  raises(() => call('base64.decode', 'A', false), 'ValueError');
  raises(() => call('base64.decode', 'é'), 'ValueError');
  raises(() => call('base64.decode', b('YQ==')), 'TypeError', 'base64.decode');
});

s('base64 round-trips every byte value (docs/standard-library.md)', () => {
  const all = new Uint8Array(256).map((_, i) => i);
  for (const pad of [true, false]) assert.equal(call('base64.decode', call('base64.encode', all, pad), pad), all);
});

s.run();
