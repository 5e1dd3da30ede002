// Fuzz: log and call floods and child-workflow recursion (docs/limits.md "Logs", "Call records",
// "Executions"): whatever the count and size of sys.log entries and mocked calls, or the shape of a workflow
// that starts itself, every execution ends SUCCEEDED or FAILED with a tagged error, what is kept stays within
// its byte limits, and the service goes on answering.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { createServiceCore, MAX_CHILD_DEPTH } from '../../src/service/core.ts';
import { parseMocks } from '../../src/mocks/mock-file.ts';
import { MAX_RECORDED_VALUE_BYTES } from '../../src/mocks/call-log.ts';
import { MAX_LOG_BYTES_PER_EXECUTION, logEntryBytes } from '../../src/service/executions/log-sink.ts';
import { sizeOf } from '../../src/lang/value.ts';
import type { Execution, ServiceCore } from '../../src/service/model.ts';
import { until } from '../support/emulator.ts';
import { params, FUZZ_SEED } from './config.ts';

const s = suite(`fuzz: log and call floods, child recursion (seed ${FUZZ_SEED})`);

function core(): ServiceCore & { close(): void; setMocks(m: ReturnType<typeof parseMocks>): void } {
  return createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:1', log: () => {} });
}

async function ended(c: ServiceCore, wf: string, name: string): Promise<Execution> {
  const id = name.split('/').at(-1)!;
  return until(() => {
    const ex = c.getExecution(wf, id);
    return ex.state === 'ACTIVE' ? undefined : ex;
  }, `${id} to end`, 60_000);
}

function assertEndedWell(ex: Execution): void {
  assert.ok(ex.state === 'SUCCEEDED' || ex.state === 'FAILED', ex.state);
  if (ex.state === 'FAILED') assert.ok((JSON.parse(ex.error!.payload) as { tags?: string[] }).tags?.length, ex.error!.payload);
}

const FLOOD = (n: number, kb: number, what: 'log' | 'post') => `main:
  steps:
    - init:
        assign:
          - s: "${'y'.repeat(1024)}"
          - big: ""
    - grow:
        for:
          value: i
          range: [1, ${kb}]
          steps:
            - add:
                assign:
                  - big: \${big + s}
    - flood:
        for:
          value: i
          range: [1, ${n}]
          steps:
            - one:
                ${what === 'log' ? 'call: sys.log\n                args:\n                  data: ${big}' : 'call: http.post\n                args:\n                  url: https://sink.test/x\n                  body: ${big}'}
`;

s('log and call floods end, and keep at most their limits', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 120 }), fc.integer({ min: 0, max: 300 }), fc.constantFrom('log' as const, 'post' as const), async (n, kb, what) => {
      const c = core();
      try {
        c.setMocks(parseMocks('http:\n  - match: {url: "https://sink.test/x"}\n    respond: {status: 200, body: {ok: true}}\n', 'mocks.yaml'));
        c.createWorkflow('flood', { sourceContents: FLOOD(n, kb, what) });
        const ex = await ended(c, 'flood', c.createExecution('flood', {}).name);
        assertEndedWell(ex);
        const id = ex.name.split('/').at(-1)!;
        const logBytes = c.executionLogs('flood', id).reduce((t, e) => t + logEntryBytes(e), 0);
        assert.ok(logBytes <= MAX_LOG_BYTES_PER_EXECUTION, `${logBytes} log bytes kept`);
        for (const r of c.executionCalls('flood', id)) {
          if (r.requestBody !== undefined) assert.ok(sizeOf(r.requestBody) <= MAX_RECORDED_VALUE_BYTES, 'a body over 64 KB was kept');
        }
      } finally {
        c.close();
      }
    }),
    params(8, [[120, 250, 'log'], [60, 250, 'post']]),
  );
});

const SELF = (fanout: number, wait: boolean) => `main:
  steps:
    - spawn:
        for:
          value: i
          range: [1, ${fanout}]
          steps:
            - child:
                call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.create
                args:
                  parent: projects/p/locations/l/workflows/self
                  connector_params: {skip_polling: ${!wait}}
`;

s('a workflow that starts itself ends, with a bounded number of executions', async () => {
  await fc.assert(
    fc.asyncProperty(fc.integer({ min: 1, max: 2 }), fc.boolean(), async (fanout, wait) => {
      const c = core();
      try {
        c.createWorkflow('self', { sourceContents: SELF(fanout, wait) });
        const top = c.createExecution('self', {});
        await until(() => (c.listExecutions('self').every((e) => e.state !== 'ACTIVE') ? true : undefined), 'all to end', 60_000);
        const all = c.listExecutions('self');
        let bound = 0;
        for (let d = 0; d <= MAX_CHILD_DEPTH; d++) bound += fanout ** d;
        assert.ok(all.length <= bound, `${all.length} executions, over ${bound}`);
        for (const e of all) assertEndedWell(e);
        assert.ok(c.getExecution('self', top.name.split('/').at(-1)!).state !== 'ACTIVE');
      } finally {
        c.close();
      }
    }),
    params(4, [[2, false]]),
  );
});

s.run();
