import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { call, raises } from './helpers.ts';

// docs/standard-library.md#namespaces (uuid) and Google's uuid.generate page.
const s = suite('stdlib uuid');

s('uuid.generate returns a random version 4 UUID string (docs/standard-library.md)', () => {
  const a = call('uuid.generate');
  const b = call('uuid.generate');
  assert.type(a, 'string');
  assert.match(a as string, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.is.not(a, b);
});

s('uuid.generate takes no arguments (docs/api-resources.md#errors)', () => {
  raises(() => call('uuid.generate', 1n), 'TypeError', 'uuid.generate');
});

s.run();
