// Call logs (Google's callLogLevel; EngineCallLog entries): the call-step observer in-process, pinning what the
// black-box tests in test/api/rest-call-logs.test.ts cannot reach cheaply (a connector's argument names, a
// call ended by cancellation).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { callLogObserver, REDACTED } from '../../../src/service/executions/call-log-observer.ts';
import type { CallStepEvent } from '../../../src/engine/hooks.ts';
import { WorkflowError } from '../../../src/lang/errors.ts';
import type { Value } from '../../../src/lang/value.ts';

const s = suite('service/call-logging (callLogLevel)');

function event(signal: AbortSignal, args: CallStepEvent['args'] = new Map()): CallStepEvent {
  return { kind: 'connector', name: 'googleapis.storage.v1.objects.get', args, routine: 'main', step: 'get', threadId: '', signal };
}

s('a connector argument named __proto__ is logged under begun.namedArgs like any other name', () => {
  const lines: string[] = [];
  const observer = callLogObserver('LOG_ALL_CALLS', { workflowId: 'w', executionId: 'e', now: () => 0, write: (l) => lines.push(l) })!;
  const h = observer.begun(event(new AbortController().signal, new Map([['__proto__', 'polluted'], ['bucket', 'b']])));
  observer.succeeded(h, 'ok');
  const begun = JSON.parse(lines[0]!).jsonPayload;
  assert.is(begun.state, 'BEGUN');
  assert.equal(Object.keys(begun.begun.namedArgs), ['__proto__', 'bucket']);
  assert.is(begun.begun.namedArgs['__proto__'], '"polluted"');
  assert.is(JSON.parse(lines[1]!).jsonPayload.state, 'SUCCEEDED');
  assert.is(JSON.parse(lines[1]!).time, '1970-01-01T00:00:00.000Z');
});

s('a call ended by the execution\'s cancellation writes no EXCEPTION_RAISED; LOG_NONE and no level attach no observer', () => {
  const lines: string[] = [];
  const target = { workflowId: 'w', executionId: 'e', now: () => 0, write: (l: string) => lines.push(l) };
  const observer = callLogObserver('LOG_ERRORS_ONLY', target)!;
  const abort = new AbortController();
  const h = observer.begun(event(abort.signal));
  abort.abort(new Error('cancelled'));
  observer.raised(h, abort.signal.reason);
  assert.equal(lines, []);
  const h2 = observer.begun(event(new AbortController().signal));
  observer.raised(h2, WorkflowError.of('ConnectionError', 'down'));
  assert.is(lines.length, 1);
  assert.is(JSON.parse(lines[0]!).jsonPayload.exceptionRaised.origin, 'get');
  assert.is(callLogObserver('LOG_NONE', target), undefined);
  assert.is(callLogObserver(undefined, target), undefined);
});

s('an http.* call\'s Authorization header is redacted in begun.namedArgs, in any case, the other headers kept (Google: "HTTP Authorization request headers are redacted")', () => {
  const lines: string[] = [];
  const observer = callLogObserver('LOG_ALL_CALLS', { workflowId: 'w', executionId: 'e', now: () => 0, write: (l) => lines.push(l) })!;
  const headers = new Map([['AUTHORIZATION', 'Bearer s3cret'], ['X-Trace', 'abc']]);
  const call: CallStepEvent = {
    ...event(new AbortController().signal, new Map<string, Value>([['url', 'http://localhost/x'], ['headers', headers]])),
    kind: 'http',
    name: 'http.get',
  };
  observer.succeeded(observer.begun(call), null);
  const args = JSON.parse(lines[0]!).jsonPayload.begun.namedArgs;
  assert.equal(JSON.parse(args.headers), { AUTHORIZATION: REDACTED, 'X-Trace': 'abc' });
  assert.not.ok(lines[0]!.includes('s3cret'));
  assert.is(headers.get('AUTHORIZATION'), 'Bearer s3cret', 'the call itself still sends it');
  // A connector's argument that happens to be called headers is not an HTTP header map: logged as is.
  lines.length = 0;
  observer.succeeded(observer.begun({ ...call, kind: 'connector', name: 'googleapis.x.v1.y' }), null);
  assert.match(lines[0]!, /Bearer s3cret/);
});

s.run();
