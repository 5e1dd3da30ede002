// Differential test of the list pages' fast path (src/api/http-json.ts `sendJsonPage`, which joins each
// item's cached JSON text and keeps the last page's text) against the general one it stands in for, `sendJson`
// of the page object `{<key>: items, nextPageToken}` (nextPageToken only when not empty), as Google's list
// methods answer (https://cloud.google.com/workflows/docs/reference/executions/rest/v1/projects.locations.workflows.executions/list):
// the same status, headers and bytes for generated pages of frozen (cached) and unfrozen items, pages asked
// again unchanged, and pages whose items changed in between.
//
// FUZZ_RUNS / FUZZ_SEED / FUZZ_PATH replay as in test/fuzz (test/fuzz/config.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { anyString } from '../fuzz/values.ts';
import type { ServerResponse } from 'node:http';
import { sendJson, sendJsonPage } from '../../src/api/http-json.ts';
import { params, FUZZ_SEED } from '../fuzz/config.ts';
import { assertSame } from '../support/differential.ts';

const s = suite(`api list pages: joined cached item texts against JSON.stringify of the page (seed ${FUZZ_SEED})`);

/** What a handler wrote: status, headers and body (the UTF-8 bytes it sends, as text). */
interface Answer {
  status: number;
  headers: Record<string, unknown>;
  body: string;
}

/** A ServerResponse that records what it is given (the two functions only call writeHead and end). */
function recorder(): { res: ServerResponse; answer: Answer } {
  const answer: Answer = { status: 0, headers: {}, body: '' };
  const res = {
    writeHead(status: number, headers: Record<string, unknown>) {
      answer.status = status;
      answer.headers = headers;
      return res;
    },
    // A string is sent as its UTF-8 bytes, bytes as they are: both are compared as the bytes sent.
    end(body: string | Uint8Array) {
      answer.body = Buffer.from(typeof body === 'string' ? Buffer.from(body, 'utf8') : body).toString('utf8');
    },
  };
  return { res: res as unknown as ServerResponse, answer };
}

function general(key: string, items: readonly unknown[], token: string): Answer {
  const { res, answer } = recorder();
  sendJson(res, 200, { [key]: items, ...(token ? { nextPageToken: token } : {}) });
  return answer;
}

function fast(key: string, items: readonly unknown[], token: string): Answer {
  const { res, answer } = recorder();
  sendJsonPage(res, key, items, token);
  return answer;
}

/** Items as the API lists them: resources (frozen, some shared between pages) and views made per request. */
const item = fc.tuple(fc.jsonValue({ maxDepth: 3 }), anyString(), fc.boolean()).map(([value, name, frozen]) => {
  const o = { name, value, state: 'SUCCEEDED' };
  return frozen ? Object.freeze(o) : o;
});
const page = fc.record({
  key: fc.constantFrom('executions', 'workflows', 'k"ey\u2028'),
  items: fc.array(item, { maxLength: 12 }),
  token: fc.oneof(fc.constant(''), anyString()),
});

s('a page, asked again, and a page with other items answer the bytes and headers of sendJson of the page object', async () => {
  await assertSame(
    fc.property(page, page, ({ key, items, token }, other) => {
      for (const [k, xs, t] of [
        [key, items, token],
        [key, items, token],
        [key, [...items].reverse(), token],
        [other.key, other.items, other.token],
        [key, items.slice(1), token],
      ] as const) {
        assert.equal(fast(k, xs, t), general(k, xs, t));
      }
    }),
    params(300),
  );
});

s('an item replaced by a changed copy is answered with its new text, not the kept page', () => {
  const first = Object.freeze({ name: 'e1', state: 'ACTIVE' });
  const items = [first, Object.freeze({ name: 'e2', state: 'SUCCEEDED' })];
  assert.equal(fast('executions', items, '').body, general('executions', items, '').body);
  const changed = [Object.freeze({ ...first, state: 'SUCCEEDED' }), items[1]!];
  const answer = fast('executions', changed, '');
  assert.equal(answer.body, general('executions', changed, '').body);
  assert.ok(answer.body.startsWith('{"executions":[{"name":"e1","state":"SUCCEEDED"}'));
});

s.run();
