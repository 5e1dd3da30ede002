// jsonSafe: what the API shows of a value toJson refuses (error payloads, recorded calls; docs/api-resources.md#execution:
// the error payload is always JSON).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonSafe, toJson } from '../../src/lang/json.ts';
import type { Value } from '../../src/lang/value.ts';

const s = suite('lang/json jsonSafe');

s('bytes become base64 text and NaN/Infinity their names, nested in lists and maps; ints stay exact', () => {
  const v: Value = new Map<string, Value>([
    ['data', new Uint8Array([104, 105])],
    ['list', [Number.NaN, Number.POSITIVE_INFINITY, 2.0, 9007199254740993n]],
    ['__proto__', 'kept'],
  ]);
  assert.throws(() => toJson(v));
  assert.is(toJson(jsonSafe(v)), '{"data":"aGk=","list":["NaN","Infinity",2.0,9007199254740993],"__proto__":"kept"}');
});

s('an encodable value is returned unchanged', () => {
  const v: Value = [1n, 'a', null, true];
  assert.equal(jsonSafe(v), v);
  assert.is(jsonSafe('x'), 'x');
});

s.run();
