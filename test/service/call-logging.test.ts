// Call logs (Google's callLogLevel; EngineCallLog entries): the interceptor in-process, pinning what the
// black-box test in test/api/rest-step-entries.test.ts cannot reach cheaply (a connector's argument names).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callLogInterceptor } from '../../src/service/call-logging.ts';
import type { OutboundCall } from '../../src/engine/hooks.ts';

const s = suite('service/call-logging (callLogLevel LOG_ALL_CALLS)');

s('a connector argument named __proto__ is logged under begun.namedArgs like any other name', async () => {
  const lines: string[] = [];
  const interceptor = callLogInterceptor(undefined, 'LOG_ALL_CALLS', { workflowId: 'w', executionId: 'e', now: () => 0, write: (l) => lines.push(l) })!;
  const call: OutboundCall = {
    kind: 'connector',
    name: 'googleapis.storage.v1.objects.get',
    args: new Map([['__proto__', 'polluted'], ['bucket', 'b']]),
    routine: 'main',
    step: 'get',
    threadId: '',
    signal: new AbortController().signal,
  };
  await interceptor.intercept(call, () => 'ok');
  const begun = JSON.parse(lines[0]!).jsonPayload;
  assert.is(begun.state, 'BEGUN');
  assert.equal(Object.keys(begun.begun.namedArgs), ['__proto__', 'bucket']);
  assert.is(begun.begun.namedArgs['__proto__'], '"polluted"');
  assert.is(JSON.parse(lines[1]!).jsonPayload.state, 'SUCCEEDED');
  assert.is(JSON.parse(lines[1]!).time, '1970-01-01T00:00:00.000Z');
});

s.run();
