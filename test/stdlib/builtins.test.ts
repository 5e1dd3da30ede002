import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mapOf } from '../../src/lang/value.ts';
import { b, call, callNamed, m, raises } from './helpers.ts';

// docs/standard-library.md (built-in helpers) and Google's "Expression helpers".
const s = suite('stdlib builtins');

s('default returns the value unless it is null (docs/standard-library.md)', () => {
  assert.is(call('default', 1n, 2n), 1n);
  assert.is(call('default', null, 'x'), 'x');
  assert.is(call('default', false, true), false);
  assert.is(call('default', '', 'x'), '');
  assert.is(callNamed('default', { value: null, default: 3n }), 3n);
  assert.is(callNamed('default', { val: null, defaultVal: 4n }), 4n);
});

s('keys lists a map\'s keys, __proto__ included (docs/standard-library.md and docs/language.md#data-types)', () => {
  assert.equal(call('keys', mapOf([['a', 1n], ['__proto__', 2n], ['b', 3n]])), ['a', '__proto__', 'b']);
  assert.equal(call('keys', m({})), []);
  raises(() => call('keys', [1n]), 'TypeError', 'keys');
  raises(() => call('keys', null), 'TypeError');
});

s('len counts code points of strings, elements, entries and bytes (docs/standard-library.md)', () => {
  assert.is(call('len', 'héllo'), 5n);
  assert.is(call('len', 'a😀b'), 3n);
  assert.is(call('len', ''), 0n);
  assert.is(call('len', [1n, 2n]), 2n);
  assert.is(call('len', m({ a: 1n })), 1n);
  assert.is(call('len', b('é')), 2n);
  raises(() => call('len', 5n), 'TypeError', 'len');
  raises(() => call('len', null), 'TypeError');
  raises(() => call('len', 1.5), 'TypeError');
});

s('type names each kind (docs/language.md#data-types)', () => {
  assert.is(call('type', 1n), 'int');
  assert.is(call('type', 1.0), 'double');
  assert.is(call('type', 's'), 'string');
  assert.is(call('type', true), 'bool');
  assert.is(call('type', null), 'null');
  assert.is(call('type', []), 'list');
  assert.is(call('type', m({})), 'map');
  assert.is(call('type', b('x')), 'bytes');
});

s('get_type uses Google\'s names integer and boolean (Google "Expression helpers")', () => {
  assert.is(call('get_type', 1n), 'integer');
  assert.is(call('get_type', true), 'boolean');
  assert.is(call('get_type', 2.5), 'double');
  assert.is(call('get_type', 's'), 'string');
  assert.is(call('get_type', null), 'null');
  assert.is(call('get_type', [1n]), 'list');
  assert.is(call('get_type', m({})), 'map');
  assert.is(call('get_type', b('')), 'bytes');
});

s('int truncates doubles toward zero and parses decimal text (docs/standard-library.md)', () => {
  assert.is(call('int', 2.7), 2n);
  assert.is(call('int', -2.7), -2n);
  assert.is(call('int', 5n), 5n);
  assert.is(call('int', '42'), 42n);
  assert.is(call('int', ' -7 '), -7n);
  assert.is(call('int', '+3'), 3n);
  assert.is(call('int', '9223372036854775807'), 9223372036854775807n);
  assert.is(call('int', -9223372036854775808), -9223372036854775808n);
});

s('int raises ValueError for non-numeric text and out-of-range values (docs/standard-library.md)', () => {
  raises(() => call('int', 'abc'), 'ValueError', 'int');
  raises(() => call('int', '2.5'), 'ValueError');
  raises(() => call('int', ''), 'ValueError');
  raises(() => call('int', '9223372036854775808'), 'ValueError');
  raises(() => call('int', 1e19), 'ValueError');
  raises(() => call('int', 9223372036854775808), 'ValueError');
  raises(() => call('int', NaN), 'ValueError');
  raises(() => call('int', Infinity), 'ValueError');
  raises(() => call('int', true), 'TypeError', 'int');
  raises(() => call('int', null), 'TypeError');
  raises(() => call('int', [1n]), 'TypeError');
});

s('double widens ints and parses decimal text (docs/standard-library.md)', () => {
  assert.is(call('double', 2n), 2);
  assert.is(call('double', 2.5), 2.5);
  assert.is(call('double', '2.7'), 2.7);
  assert.is(call('double', '1e3'), 1000);
  assert.is(call('double', '-.5'), -0.5);
  assert.is(call('double', '7'), 7);
  raises(() => call('double', 'x'), 'ValueError', 'double');
  raises(() => call('double', 'NaN'), 'ValueError');
  raises(() => call('double', '1e999'), 'ValueError');
  raises(() => call('double', true), 'TypeError');
  raises(() => call('double', null), 'TypeError');
});

s('string converts ints, doubles, bools and strings (docs/standard-library.md)', () => {
  assert.is(call('string', 5n), '5');
  assert.is(call('string', -9223372036854775808n), '-9223372036854775808');
  assert.is(call('string', 1.7), '1.7');
  assert.is(call('string', 5.0), '5.0');
  assert.is(call('string', true), 'true');
  assert.is(call('string', false), 'false');
  assert.is(call('string', 'x'), 'x');
});

s('string of a map, list, null or bytes is a TypeError (docs/standard-library.md)', () => {
  raises(() => call('string', m({})), 'TypeError', 'json.encode_to_string');
  raises(() => call('string', []), 'TypeError');
  raises(() => call('string', null), 'TypeError');
  raises(() => call('string', b('x')), 'TypeError');
});

s('bool converts the spec\'s spellings of true and false (docs/standard-library.md and docs/language.md#data-types)', () => {
  for (const t of ['true', 'True', 'TRUE']) assert.is(call('bool', t), true);
  for (const f of ['false', 'False', 'FALSE']) assert.is(call('bool', f), false);
  assert.is(call('bool', true), true);
  raises(() => call('bool', 'yes'), 'ValueError', 'bool');
  raises(() => call('bool', 'tRUE'), 'ValueError');
  raises(() => call('bool', 1n), 'TypeError', 'bool');
  raises(() => call('bool', null), 'TypeError');
});

s('if picks a branch; null counts as false (Google "Expression helpers")', () => {
  assert.is(call('if', true, 1n, 2n), 1n);
  assert.is(call('if', false, 1n, 2n), 2n);
  assert.is(call('if', null, 1n, 2n), 2n);
  raises(() => call('if', 1n, 1n, 2n), 'TypeError', 'if');
});

s('wrong argument counts are TypeErrors from the binder (docs/api-resources.md#errors)', () => {
  raises(() => call('len'), 'TypeError', 'len');
  raises(() => call('len', 'a', 'b'), 'TypeError', 'len');
  raises(() => callNamed('len', { nope: 1n }), 'TypeError', 'nope');
});

s.run();
