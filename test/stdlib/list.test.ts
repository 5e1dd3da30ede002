import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { call, callNamed, m, raises } from './helpers.ts';

// docs/standard-library.md#namespaces (list) and Google's list.concat / list.prepend pages.
const s = suite('stdlib list');

s('list.concat appends to a new list and leaves the original unchanged (docs/standard-library.md)', () => {
  const orig = ['zero', 'one'];
  assert.equal(call('list.concat', orig, 'two'), ['zero', 'one', 'two']);
  assert.equal(orig, ['zero', 'one']);
  assert.equal(call('list.concat', [], null), [null]);
  assert.equal(call('list.concat', [1n], [2n]), [1n, [2n]]);
});

s('list.prepend puts the element first in a new list (docs/standard-library.md)', () => {
  const orig = [1n, 2n];
  assert.equal(call('list.prepend', orig, 0n), [0n, 1n, 2n]);
  assert.equal(orig, [1n, 2n]);
});

s('list functions take Google\'s named args objs and val, and the spec\'s list and element', () => {
  assert.equal(callNamed('list.concat', { objs: [1n], val: 2n }), [1n, 2n]);
  assert.equal(callNamed('list.prepend', { objs: [1n], val: 0n }), [0n, 1n]);
  assert.equal(callNamed('list.concat', { list: [1n], element: 2n }), [1n, 2n]);
  raises(() => callNamed('list.concat', { objs: [1n] }), 'TypeError', 'val');
});

s('a non-list first argument is a TypeError naming the function (docs/api-resources.md#errors)', () => {
  raises(() => call('list.concat', 'abc', 1n), 'TypeError', 'list.concat');
  raises(() => call('list.prepend', m({}), 1n), 'TypeError', 'list.prepend');
  raises(() => call('list.concat', null, 1n), 'TypeError');
});

s.run();
