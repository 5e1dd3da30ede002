import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { call, callNamed, raises } from './helpers.ts';

// docs/standard-library.md#namespaces (math) and Google's math.abs / floor / max / min pages.
const s = suite('stdlib math');

s('math.abs of the smallest int is a ValueError, not a wrapped int (https://cloud.google.com/workflows/docs/reference/stdlib/math/abs)', () => {
  raises(() => call('math.abs', -9223372036854775808n), 'ValueError', 'math.abs');
  assert.is(call('math.abs', -9223372036854775808), 9223372036854775808);
});

s('math.abs keeps the kind of its argument (docs/standard-library.md)', () => {
  assert.is(call('math.abs', -5n), 5n);
  assert.is(call('math.abs', 5n), 5n);
  assert.is(call('math.abs', -2.5), 2.5);
  assert.is(call('math.abs', -9223372036854775807n), 9223372036854775807n);
  raises(() => call('math.abs', '1'), 'TypeError', 'math.abs');
});

s('math.floor turns a double into an int (docs/standard-library.md)', () => {
  assert.is(call('math.floor', 2.7), 2n);
  assert.is(call('math.floor', -2.1), -3n);
  assert.is(call('math.floor', 4n), 4n);
  assert.is(call('math.floor', -0.5), -1n);
  raises(() => call('math.floor', NaN), 'ValueError', 'math.floor');
  raises(() => call('math.floor', 1e300), 'ValueError');
  raises(() => call('math.floor', null), 'TypeError');
});

s('math.max and math.min return an int only for two ints (Google math.max)', () => {
  assert.is(call('math.max', 1n, 2n), 2n);
  assert.is(call('math.min', 1n, 2n), 1n);
  assert.is(call('math.max', 123n, -456.7), 123);
  assert.is(call('math.min', 123n, -456.7), -456.7);
  assert.is(call('math.max', 9007199254740993n, 9007199254740992n), 9007199254740993n);
  assert.ok(Number.isNaN(call('math.max', NaN, 1n)));
  assert.is(callNamed('math.max', { x: 1n, y: 3n }), 3n);
  raises(() => call('math.max', 1n, 'a'), 'TypeError', 'math.max');
  raises(() => call('math.min', true, 1n), 'TypeError', 'math.min');
});

s.run();
