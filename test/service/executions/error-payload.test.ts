// The error payload always encodes (docs/limits.md "Definitions"): an execution that fails always ends FAILED
// with an error the API can show, even when its error map cannot be written as JSON.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { encodeError } from '../../../src/service/executions/error-payload.ts';
import type { Value, WMap } from '../../../src/lang/value.ts';

test('an error map that cannot be encoded (a map holding itself) becomes a SystemError payload, never a throw', () => {
  const m: WMap = new Map<string, Value>([['message', 'boom']]);
  m.set('self', m);
  const payload = JSON.parse(encodeError(m)) as { tags: string[]; message: string };
  assert.equal(payload.tags, ['SystemError']);
  assert.match(payload.message, /could not be encoded as JSON/);
});

test('bytes inside an error map are shown as base64 text', () => {
  const m: WMap = new Map<string, Value>([['body', new Uint8Array([104, 105])]]);
  assert.is(encodeError(m), '{"body":"aGk="}');
});

test.run();
