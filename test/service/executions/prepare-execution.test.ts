// One wiring of an execution and one function library (docs/run.md; the service core's `library` option): a
// library handed to the service core decides both what deploys and what runs, for calls in expressions, call
// steps and retry predicates alike.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServiceCore } from '../../../src/service/core.ts';
import { ApiError } from '../../../src/service/errors.ts';
import type { Execution, ServiceCore } from '../../../src/service/model.ts';
import { DEFINITION_LIBRARY, withFunctions } from '../../../src/stdlib/index.ts';
import type { FunctionLibrary } from '../../../src/stdlib/types.ts';
import type { Value } from '../../../src/lang/value.ts';
import { WorkflowError } from '../../../src/lang/errors.ts';

const s = suite('service: execution setup and the injected function library');

/** A library with functions the standard library does not have, and one standard function replaced. */
let flakyCalls = 0;
const CUSTOM: FunctionLibrary = withFunctions(DEFINITION_LIBRARY, [
  { name: 'custom.twice', params: [{ name: 'n' }], impl: ([n]) => (n as bigint) * 2n },
  {
    name: 'custom.flaky',
    params: [],
    impl: () => {
      if (++flakyCalls < 3) throw WorkflowError.of('ConnectionError', 'try again');
      return 'third time';
    },
  },
  { name: 'custom.always_retry', params: [{ name: 'e' }], impl: () => true },
  { name: 'text.to_upper', params: [{ name: 'source' }], impl: ([v]) => `upper(${String(v as Value)})` },
]);

function core(library?: FunctionLibrary): ServiceCore & { close(): void } {
  return createServiceCore({
    project: 'p',
    location: 'l',
    callbackBaseUrl: 'http://localhost:9999',
    log: () => {},
    ...(library ? { library } : {}),
  });
}

async function runToEnd(c: ServiceCore, workflowId: string): Promise<Execution> {
  const started = c.createExecution(workflowId, {});
  const id = started.name.split('/').pop()!;
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ex = c.getExecution(workflowId, id);
    if (ex.state !== 'ACTIVE') return ex;
    if (Date.now() > deadline) throw new Error('the execution did not end');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const USES_CUSTOM = `main:
  steps:
    - expr:
        assign:
          - a: \${custom.twice(20)}
    - step:
        call: custom.twice
        args:
          n: 1
        result: b
    - retried:
        try:
          call: custom.flaky
          result: c
        retry:
          predicate: \${custom.always_retry}
          max_retries: 5
          backoff:
            initial_delay: 0.001
            max_delay: 0.001
            multiplier: 1
    - done:
        return:
          - \${a + b}
          - \${c}
          - \${text.to_upper("x")}
`;

s('a function not in the standard library deploys AND runs with a library handed to the service core', async () => {
  flakyCalls = 0;
  const c = core(CUSTOM);
  try {
    c.createWorkflow('custom', { sourceContents: USES_CUSTOM });
    const ex = await runToEnd(c, 'custom');
    assert.is(ex.state, 'SUCCEEDED', JSON.stringify(ex.error));
    assert.equal(JSON.parse(ex.result!), [42, 'third time', 'upper(x)']);
    assert.is(flakyCalls, 3, 'the retry predicate came from the injected library');
  } finally {
    c.close();
  }
});

s('without the library the same workflow does not deploy (the standard library has no custom.*)', () => {
  const c = core();
  try {
    assert.throws(() => c.createWorkflow('custom', { sourceContents: USES_CUSTOM }), (e: unknown) => e instanceof ApiError && e.code === 'INVALID_ARGUMENT');
  } finally {
    c.close();
  }
});

s('a standard function replaced in the library is what runs (text.to_upper)', async () => {
  const c = core(CUSTOM);
  try {
    c.createWorkflow('upper', { sourceContents: 'main:\n  steps:\n    - done:\n        return: ${text.to_upper("a")}\n' });
    const ex = await runToEnd(c, 'upper');
    assert.is(ex.result, '"upper(a)"');
  } finally {
    c.close();
  }
});

s.run();
