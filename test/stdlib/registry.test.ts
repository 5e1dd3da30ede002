import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { functions as base64 } from '../../src/stdlib/base64.ts';
import { functions as builtins } from '../../src/stdlib/builtins.ts';
import { functions as hash } from '../../src/stdlib/hash.ts';
import { functions as json } from '../../src/stdlib/json.ts';
import { functions as list } from '../../src/stdlib/list.ts';
import { functions as map } from '../../src/stdlib/map.ts';
import { functions as math } from '../../src/stdlib/math.ts';
import { functions as retry } from '../../src/stdlib/retry.ts';
import { functions as text } from '../../src/stdlib/text.ts';
import { functions as time } from '../../src/stdlib/time.ts';
import { functions as uuid } from '../../src/stdlib/uuid.ts';
import { bindNamedArgs, isBlocking, STDLIB } from '../../src/stdlib/index.ts';
import { mapOf } from '../../src/lang/value.ts';

// docs/standard-library.md: every pure function is registered, non-blocking, and binds the named arguments the
// real service documents for the `call:` form.
const s = suite('stdlib registry (pure part)');
const pure = [base64, builtins, hash, json, list, map, math, retry, text, time, uuid].flat();

/** Google's documented argument names per function (required ones first, then optional ones). */
const GOOGLE_ARGS: Record<string, string[]> = {
  default: ['value', 'default'],
  keys: ['map'],
  len: ['value'],
  type: ['value'],
  get_type: ['value'],
  int: ['value'],
  double: ['value'],
  string: ['value'],
  bool: ['value'],
  'base64.decode': ['data', 'padding'],
  'base64.encode': ['data', 'padding'],
  'hash.compute_checksum': ['data', 'algorithm'],
  'hash.compute_hmac': ['key', 'data', 'algorithm'],
  'json.decode': ['data'],
  'json.encode': ['data', 'indent'],
  'json.encode_to_string': ['data', 'indent'],
  'list.concat': ['objs', 'val'],
  'list.prepend': ['objs', 'val'],
  'map.get': ['map', 'keys', 'default'],
  'map.delete': ['map', 'key'],
  'map.merge': ['first', 'second'],
  'map.merge_nested': ['first', 'second'],
  'math.abs': ['x'],
  'math.floor': ['x'],
  'math.max': ['x', 'y'],
  'math.min': ['x', 'y'],
  'retry.always': ['exception'],
  'retry.never': ['exception'],
  'http.default_retry_predicate': ['exception'],
  'http.default_retry_predicate_non_idempotent': ['exception'],
  'text.find_all': ['source', 'substr'],
  'text.find_all_regex': ['source', 'regexp'],
  'text.match_regex': ['source', 'regexp'],
  'text.replace_all': ['source', 'substr', 'repl'],
  'text.replace_all_regex': ['source', 'regexp', 'repl'],
  'text.split': ['source', 'separator'],
  'text.substring': ['source', 'start', 'end'],
  'text.to_lower': ['source'],
  'text.to_upper': ['source'],
  'text.url_encode': ['source'],
  'text.url_decode': ['source'],
  'text.url_encode_plus': ['source'],
  'text.decode': ['data', 'charset'],
  'text.encode': ['text', 'charset'],
  'time.format': ['seconds', 'timezone'],
  'time.parse': ['value'],
  'uuid.generate': [],
};

s('every function of the spec\'s pure standard library is registered (docs/standard-library.md)', () => {
  for (const name of Object.keys(GOOGLE_ARGS)) assert.ok(STDLIB.has(name), name);
  assert.ok(STDLIB.has('if'));
});

s('pure functions are registered once and never block (docs/standard-library.md)', () => {
  const names = pure.map((f) => f.name);
  assert.is(new Set(names).size, names.length);
  for (const f of pure) {
    // Registered as the module's row (its result wrapped in the size check of STDLIB's docstring).
    assert.is(STDLIB.get(f.name)?.params, f.params, f.name);
    assert.not.ok(isBlocking(f.name), f.name);
  }
});

s('each function binds Google\'s argument names in order through bindNamedArgs (docs/standard-library.md)', () => {
  for (const [name, args] of Object.entries(GOOGLE_ARGS)) {
    const fn = STDLIB.get(name)!;
    assert.equal(fn.params.map((p) => p.name), args, name);
    const bound = bindNamedArgs(fn, mapOf(args.map((a, i) => [a, BigInt(i)] as const)));
    assert.equal(bound, args.map((_, i) => BigInt(i)), name);
  }
});

s('the spec\'s words are accepted as aliases where they differ from Google\'s (docs/standard-library.md)', () => {
  const aliases: [string, string, string][] = [
    ['default', 'fallback', 'default'],
    ['list.concat', 'list', 'objs'],
    ['list.concat', 'element', 'val'],
    ['map.get', 'key', 'keys'],
    ['map.merge', 'map1', 'first'],
    ['map.merge', 'map2', 'second'],
    ['text.find_all_regex', 'pattern', 'regexp'],
    ['text.replace_all_regex', 'replacement', 'repl'],
    ['text.encode', 'data', 'text'],
  ];
  for (const [fn, alias, param] of aliases) {
    const p = STDLIB.get(fn)!.params.find((x) => x.name === param)!;
    assert.ok(p.aliases?.includes(alias), `${fn}: ${alias} for ${param}`);
  }
});

s.run();
