import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mapOf } from '../../src/lang/value.ts';
import { b, call, callNamed, m, raises } from './helpers.ts';

// docs/standard-library.md#namespaces (json), docs/language.md#data-types, and Google's json.* pages.
const s = suite('stdlib json');
const text = (v: unknown) => new TextDecoder().decode(v as Uint8Array);

s('json.decode keeps ints exact and distinct from doubles (docs/language.md#data-types)', () => {
  assert.equal(call('json.decode', '{"a":2,"b":2.0,"c":2e3,"d":[true,null,"x"]}'), m({ a: 2n, b: 2, c: 2000, d: [true, null, 'x'] }));
  assert.is(call('json.decode', '9223372036854775807'), 9223372036854775807n);
  assert.is(call('json.decode', '9223372036854775808'), 9223372036854775808);
  assert.is(call('json.decode', ' "s" '), 's');
  assert.is(call('json.decode', 'null'), null);
});

s('json.decode accepts UTF-8 bytes, decoded as text.decode does (Google json.decode)', () => {
  assert.is(call('json.decode', new Uint8Array([0x22, 0xff, 0x22])), '\uFFFD');
  assert.equal(call('json.decode', b('{"é":1}')), m({ é: 1n }));
  assert.equal(callNamed('json.decode', { data: b('[1]') }), [1n]);
});

s('json.decode treats __proto__ as an ordinary key (docs/language.md#data-types)', () => {
  assert.equal(call('json.decode', '{"__proto__":1}'), mapOf([['__proto__', 1n]]));
});

s('json.decode raises ValueError for invalid JSON and TypeError for other types (docs/api-resources.md#errors)', () => {
  raises(() => call('json.decode', '{'), 'ValueError', 'json.decode');
  raises(() => call('json.decode', ''), 'ValueError');
  raises(() => call('json.decode', '[1,]'), 'ValueError');
  raises(() => call('json.decode', new Uint8Array([0xff])), 'ValueError', 'json.decode');
  raises(() => call('json.decode', 1n), 'TypeError', 'json.decode');
  raises(() => call('json.decode', null), 'TypeError');
});

s('json.encode returns compact UTF-8 bytes with exact numbers (docs/standard-library.md)', () => {
  const out = call('json.encode', m({ a: 1n, b: 2.0, c: 'é', d: [null, true] }));
  assert.ok(out instanceof Uint8Array);
  assert.is(text(out), '{"a":1,"b":2.0,"c":"é","d":[null,true]}');
  assert.is(text(call('json.encode', -9223372036854775808n)), '-9223372036854775808');
});

s('json.encode_to_string returns the same text as a string (docs/standard-library.md)', () => {
  assert.is(call('json.encode_to_string', m({ key1: 'hello' })), '{"key1":"hello"}');
  assert.is(call('json.encode_to_string', 'a"b'), '"a\\"b"');
  assert.is(call('json.encode_to_string', null), 'null');
  assert.is(callNamed('json.encode_to_string', { data: [1n] }), '[1]');
});

s('json.encode indent true uses four spaces per level (Google json.encode)', () => {
  assert.is(
    call('json.encode_to_string', m({ a: [1n, 2n], b: m({}), c: [] }), true),
    '{\n    "a": [\n        1,\n        2\n    ],\n    "b": {},\n    "c": []\n}',
  );
  assert.is(call('json.encode_to_string', [1n], false), '[1]');
  assert.is(text(call('json.encode', m({ a: 1n }), true)), '{\n    "a": 1\n}');
});

s('json.encode indent map sets prefix and indent (Google json.encode)', () => {
  assert.is(call('json.encode_to_string', m({ a: [1n] }), m({ prefix: '>', indent: '\t' })), '{\n>\t"a": [\n>\t\t1\n>\t]\n>}');
  assert.is(call('json.encode_to_string', m({ a: 1n }), m({})), '{\n    "a": 1\n}');
  assert.is(callNamed('json.encode_to_string', { data: [1n], indent: m({ indent: ' ' }) }), '[\n 1\n]');
  raises(() => call('json.encode_to_string', 1n, 'yes'), 'TypeError', 'indent');
  raises(() => call('json.encode_to_string', 1n, m({ indent: 2n })), 'TypeError', 'indent');
});

s('json.encode of bytes or NaN is a ValueError (Google json.encode)', () => {
  raises(() => call('json.encode', m({ a: b('x') })), 'ValueError', 'json.encode');
  raises(() => call('json.encode_to_string', NaN), 'ValueError', 'json.encode_to_string');
  raises(() => call('json.encode_to_string', [Infinity], true), 'ValueError');
});

s.run();
