// Size limits hold for values built inside one expression, not only for assigned ones (docs/api-resources.md#limits: string
// length 256 KB, variable memory 512 KB; docs/api-resources.md#limits): `+`, the string, list and map builders of the
// standard library and JSON encoding stop with a ResourceLimitError while building, so no expression
// allocates far beyond the limits.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { add } from '../../src/lang/expr/ops.ts';
import fc from 'fast-check';
import { checkConcat, checkString, checkValue, MAX_STRING_BYTES, utf8Length } from '../../src/lang/size-checks.ts';
import { WorkflowError } from '../../src/lang/errors.ts';
import { call, raises } from '../stdlib/helpers.ts';
import { params } from '../fuzz/config.ts';

const s = suite('size limits of values built in expressions');
const KB = 1024;

s('a string may hold 256 KB of UTF-8 and not one byte more, however its characters are encoded (docs/language.md#data-types)', () => {
  assert.is(checkString('t', 'x'.repeat(256 * KB)).length, 256 * KB);
  raises(() => checkString('t', 'x'.repeat(256 * KB + 1)), 'ResourceLimitError', 't:');
  // 3 bytes each: 87,381 fit (262,143 bytes), 87,382 do not.
  assert.is(utf8Length('€'), 3);
  checkString('t', '€'.repeat(87_381));
  raises(() => checkString('t', '€'.repeat(87_382)), 'ResourceLimitError');
  // A surrogate pair is 4 bytes in 2 code units.
  assert.is(utf8Length('😀'), 4);
  checkString('t', '😀'.repeat(65_536));
  raises(() => checkString('t', '😀'.repeat(65_536) + 'x'), 'ResourceLimitError');
  assert.is(MAX_STRING_BYTES, 256 * KB);
});

s('`+` refuses to build a string over 256 KB (docs/language.md#expressions and docs/api-resources.md#limits)', () => {
  const half = 'y'.repeat(128 * KB);
  assert.is((add(half, half) as string).length, 256 * KB);
  raises(() => add(half, half + 'z'), 'ResourceLimitError', '+');
});

s('text.find_all and text.find_all_regex stop at 512 KB of matches instead of building millions (docs/api-resources.md#limits)', () => {
  const long = 'ab'.repeat(100_000);
  assert.is((call('text.find_all', 'ab'.repeat(1000), 'b') as unknown[]).length, 1000);
  raises(() => call('text.find_all', long, ''), 'ResourceLimitError', 'text.find_all');
  raises(() => call('text.find_all', long, 'a'), 'ResourceLimitError', 'text.find_all');
  raises(() => call('text.find_all_regex', long, 'a|'), 'ResourceLimitError', 'text.find_all_regex');
});

s('text.split stops at 512 KB of pieces; a split of a long text into few pieces is fine', () => {
  raises(() => call('text.split', ','.repeat(200_000), ','), 'ResourceLimitError', 'text.split');
  assert.is((call('text.split', 'x'.repeat(200_000) + ',y', ',') as unknown[]).length, 2);
});

s('text.replace_all and text.replace_all_regex refuse a result over 256 KB before building it', () => {
  const a = 'x'.repeat(2000);
  raises(() => call('text.replace_all', a, '', a), 'ResourceLimitError', 'text.replace_all'); // 4 million characters
  raises(() => call('text.replace_all', a, 'x', 'y'.repeat(200)), 'ResourceLimitError');
  assert.is((call('text.replace_all', a, 'x', 'yy') as string).length, 4000);
  raises(() => call('text.replace_all_regex', a, 'x', 'y'.repeat(200)), 'ResourceLimitError', 'text.replace_all_regex');
  raises(() => call('text.replace_all_regex', a, '', a), 'ResourceLimitError');
});

s('json.encode_to_string and json.encode stop as the text passes the limit, whatever shares references or indents it', () => {
  const str = 'z'.repeat(100 * KB);
  // Ten references to one 100 KB string: 1 MB of JSON from a value that holds 100 KB.
  raises(() => call('json.encode_to_string', Array(10).fill(str)), 'ResourceLimitError', 'json.encode_to_string');
  raises(() => call('json.encode', Array(10).fill(str)), 'ResourceLimitError', 'json.encode');
  // Indentation grows with the depth squared.
  let deep: unknown = 1n;
  for (let i = 0; i < 900; i++) deep = [deep];
  raises(() => call('json.encode_to_string', deep as never, new Map([['indent', ' '.repeat(1000)]])), 'ResourceLimitError');
  assert.is(call('json.encode_to_string', [1n, [2n]], true), '[\n    1,\n    [\n        2\n    ]\n]');
});

s('the result of every function that does not wait is checked: a list or map over 512 KB is a ResourceLimitError', () => {
  const big = Array.from({ length: 60_000 }, (_, i) => BigInt(i)); // 480 KB as sizeOf counts it
  assert.is((call('list.concat', big, 1n) as unknown[]).length, 60_001);
  raises(() => call('list.concat', big, 'x'.repeat(50 * KB)), 'ResourceLimitError', 'list.concat');
  raises(() => checkValue('v', new Uint8Array(512 * KB + 1)), 'ResourceLimitError');
  raises(() => call('text.url_encode', '€'.repeat(50_000)), 'ResourceLimitError', 'text.url_encode');
});

s('`+` measured from its sides (checkConcat) accepts and refuses exactly what measuring the joined string does, surrogate pairs formed at the join included', () => {
  // Sides near the limit, of ASCII, 3-byte characters and lone or paired surrogates, joined in chains as a loop
  // grows a string (each result is the next left side, as `s: ${s + line}` does); the general check measures
  // the joined string alone.
  const unit = fc.constantFrom('y', 'é', '€', '😀', '\uD83D', '\uDE00', '\uDBFF', '\uDC00');
  const side = fc.tuple(fc.array(unit, { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 70_000 }), fc.array(unit, { maxLength: 3 }))
    .map(([head, n, tail]) => head.join('') + 'x'.repeat(n) + tail.join(''));
  const verdict = (f: () => string): number | string => {
    try {
      return utf8Length(f());
    } catch (e) {
      if (e instanceof WorkflowError) return 'ResourceLimitError';
      throw e;
    }
  };
  fc.assert(
    fc.property(side, fc.array(side, { minLength: 1, maxLength: 6 }), (first, rest) => {
      let left = first;
      for (const right of rest) {
        const general = verdict(() => checkString('+', left + right));
        assert.is(verdict(() => checkConcat('+', left, right)), general, `${left.length} + ${right.length} units`);
        if (typeof general === 'string') break;
        left = left + right;
      }
    }),
    params(40),
  );
  // A string measured just after another of the same length is measured as itself.
  const ascii = 'x'.repeat(MAX_STRING_BYTES - 10);
  assert.is(checkString('t', ascii), ascii);
  raises(() => checkString('t', '€'.repeat(10) + ascii.slice(10)), 'ResourceLimitError', 't:');
  raises(() => checkConcat('+', '€'.repeat(10) + ascii.slice(10), ''), 'ResourceLimitError', '+');
  // The pair at the join: 2 + 2 code units measured 3 + 3 bytes apart, 4 joined.
  const high = 'x'.repeat(MAX_STRING_BYTES - 4) + '\uD83D';
  assert.is(utf8Length(high), MAX_STRING_BYTES - 1);
  assert.is(checkConcat('+', high, '\uDE00').length, MAX_STRING_BYTES - 2);
  raises(() => checkConcat('+', high, '\uDE00x'.repeat(2)), 'ResourceLimitError', '+');
});

s.run();
