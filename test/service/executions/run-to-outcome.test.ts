// The one execution runner (docs/architecture.md#layers-and-where-things-are; docs/api-resources.md#execution: result, error payload and context),
// used by the service core, the one-shot run and the test runner.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileDefinition } from '../../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../../src/stdlib/index.ts';
import { logLine, runToOutcome } from '../../../src/service/executions/run-to-outcome.ts';
import { harness } from '../../engine/helpers.ts';

const test = suite('service runner');
const run = (yaml: string, argument?: import('../../../src/lang/value.ts').Value) =>
  runToOutcome(compileDefinition(yaml, DEFINITION_LIBRARY), argument, harness().deps, new AbortController().signal);

test('a result is JSON text with exact ints, and the value itself', async () => {
  const o = await run('main:\n  params: [a]\n  steps:\n    - r:\n        return: ${[a.n + 1, 2.0]}\n', new Map([['n', 9007199254740993n]]));
  assert.equal(o.state, 'SUCCEEDED');
  if (o.state !== 'SUCCEEDED') return;
  assert.is(o.result, '[9007199254740994,2.0]');
  assert.equal(o.value, [9007199254740994n, 2]);
});

test('a raised error is the payload JSON and the context names the raising step', async () => {
  const o = await run('- check:\n    raise: {message: "no", code: 400, tags: [ValidationError]}\n');
  assert.equal(o.state, 'FAILED');
  if (o.state !== 'FAILED') return;
  assert.is(o.error.payload, '{"message":"no","code":400,"tags":["ValidationError"]}');
  assert.is(o.error.context, 'step: check');
  assert.is(o.stepName, 'check');
  assert.is(o.raised.tags[0], 'ValidationError');
});

test('a result that cannot be JSON (bytes) fails with a TypeError at the returning step, as the real service refuses bytes', async () => {
  const o = await run('- r:\n    return: ${text.encode("hi")}\n');
  assert.equal(o.state, 'FAILED');
  if (o.state !== 'FAILED') return;
  assert.match(o.error.payload, /"tags":\["TypeError"\]/);
  assert.is(o.error.context, 'step: r');
});

test('an error map holding bytes still encodes (bytes as base64)', async () => {
  const o = await run('- r:\n    raise: \'${{"message": "b", "data": text.encode("hi")}}\'\n');
  assert.equal(o.state, 'FAILED');
  if (o.state !== 'FAILED') return;
  assert.is(o.error.payload, '{"message":"b","data":"aGk="}');
});

test('a sys.log line names the workflow and execution and keeps text and JSON payloads apart', () => {
  const time = '2026-01-01T00:00:00.000000Z';
  assert.is(
    logLine({ time, severity: 'INFO', payload: 'hi', structured: false }, 'wf', 'ex'),
    `{"time":"${time}","severity":"INFO","workflowId":"wf","executionId":"ex","textPayload":"hi"}`,
  );
  assert.is(
    logLine({ time, severity: 'ERROR', payload: new Map([['n', 1n]]), structured: true }, 'wf', 'ex'),
    `{"time":"${time}","severity":"ERROR","workflowId":"wf","executionId":"ex","jsonPayload":{"n":1}}`,
  );
});

test.run();
