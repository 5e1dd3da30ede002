import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mapOf } from '../../src/lang/value.ts';
import { call, callNamed, m, raises } from './helpers.ts';

// docs/standard-library.md#namespaces (map) and Google's map.get / map.delete / map.merge / map.merge_nested pages.
const s = suite('stdlib map');

const nested = m({ a: m({ b: m({ c: 1n }) }), x: null });

s('map.get returns the value or null when missing, never KeyError (docs/standard-library.md)', () => {
  assert.is(call('map.get', m({ k1: 'hello', k2: 'world' }), 'k2'), 'world');
  assert.is(call('map.get', m({ k1: 'hello' }), 'nope'), null);
  assert.is(call('map.get', nested, 'x'), null);
});

s('map.get returns the spec\'s default when the key is missing (docs/standard-library.md)', () => {
  assert.is(call('map.get', m({ a: 1n }), 'b', 'dflt'), 'dflt');
  assert.is(call('map.get', m({ a: 1n }), 'a', 'dflt'), 1n);
  assert.is(call('map.get', m({ a: null }), 'a', 'dflt'), null);
  assert.is(callNamed('map.get', { map: m({}), key: 'a', default: 0n }), 0n);
});

s('map.get with a list of keys looks up nested maps (Google map.get)', () => {
  assert.is(call('map.get', nested, ['a', 'b', 'c']), 1n);
  assert.equal(call('map.get', nested, ['a', 'b']), m({ c: 1n }));
  assert.is(call('map.get', nested, ['a', 'zz', 'c']), null);
  assert.is(call('map.get', nested, ['a', 'b', 'c', 'd']), null);
  assert.is(call('map.get', nested, ['a', 'q'], 'dflt'), 'dflt');
  assert.equal(call('map.get', nested, []), nested);
  assert.is(callNamed('map.get', { map: nested, keys: ['a', 'b', 'c'] }), 1n);
});

s('map.get on a non-map returns null; a non-string key is a TypeError (Google map.get)', () => {
  assert.is(call('map.get', null, 'a'), null);
  assert.is(call('map.get', [1n], 'a'), null);
  raises(() => call('map.get', m({}), 1n), 'TypeError', 'map.get');
  raises(() => call('map.get', m({}), ['a', 2n]), 'TypeError');
});

s('map.get treats __proto__ as an ordinary key (docs/language.md#data-types)', () => {
  assert.is(call('map.get', mapOf([['__proto__', 5n]]), '__proto__'), 5n);
  assert.is(call('map.get', m({}), '__proto__'), null);
  assert.is(call('map.get', m({}), 'constructor'), null);
});

s('map.delete returns a new map without the key (docs/standard-library.md)', () => {
  const orig = m({ a: 1n, b: 2n });
  assert.equal(call('map.delete', orig, 'a'), m({ b: 2n }));
  assert.equal(orig, m({ a: 1n, b: 2n }));
  assert.equal(call('map.delete', orig, 'zz'), orig);
  raises(() => call('map.delete', [1n], 'a'), 'TypeError', 'map.delete');
  raises(() => call('map.delete', orig, 1n), 'TypeError', 'key');
});

s('map.merge is shallow and the second map wins (docs/standard-library.md)', () => {
  const a = m({ x: 1n, n: m({ p: 1n }) });
  const b = m({ y: 2n, n: m({ q: 2n }) });
  assert.equal(call('map.merge', a, b), m({ x: 1n, n: m({ q: 2n }), y: 2n }));
  assert.equal(a, m({ x: 1n, n: m({ p: 1n }) }));
  assert.equal(callNamed('map.merge', { first: m({ a: 1n }), second: m({ a: 2n }) }), m({ a: 2n }));
  assert.equal(callNamed('map.merge', { map1: m({ a: 1n }), map2: m({ b: 2n }) }), m({ a: 1n, b: 2n }));
  raises(() => call('map.merge', a, null), 'TypeError', 'second');
});

s('map.merge_nested merges nested maps deeply (docs/standard-library.md)', () => {
  const a = m({ x: 1n, n: m({ p: 1n, deep: m({ k: 1n }) }), l: [1n] });
  const b = m({ n: m({ q: 2n, deep: m({ j: 2n }) }), l: [2n], x: m({ now: 'map' }) });
  assert.equal(
    call('map.merge_nested', a, b),
    m({ x: m({ now: 'map' }), n: m({ p: 1n, deep: m({ k: 1n, j: 2n }), q: 2n }), l: [2n] }),
  );
  assert.equal(a, m({ x: 1n, n: m({ p: 1n, deep: m({ k: 1n }) }), l: [1n] }));
  raises(() => call('map.merge_nested', 1n, b), 'TypeError', 'map.merge_nested');
});

s.run();
