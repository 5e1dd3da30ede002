// Call logs of subworkflow and standard-library calls over REST against the built bundle (docs/rest-api.md#call-logs; Google's
// guide "Send logs to Cloud Logging", call logging: "Only explicit call steps are logged; for example, calls to
// subworkflows or library functions. Calls from within expressions ... are not logged"; the EngineCallLog
// message of google/cloud/workflows/type/engine_call.proto; CallLogLevel LOG_ALL_CALLS "Log all call steps
// within workflows, all call returns, and all exceptions raised", LOG_ERRORS_ONLY "Log only exceptions that are
// raised from call steps", LOG_NONE "Explicitly log nothing").
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const s = suite('REST call logs of subworkflow and stdlib calls (black-box)');

let emu: EmulatorProcess;

s.before(async () => {
  emu = await startEmulator({ workflowsDir: false });
});
s.after(async () => {
  await emu.close();
});

async function deploy(id: string, source: string, extra: Record<string, unknown> = {}): Promise<void> {
  const r = await emu.request('POST', `/workflows?workflowId=${id}`, { sourceContents: source, ...extra });
  assert.is(r.status, 200, r.text);
}

async function run(id: string, body: Record<string, unknown>): Promise<any> {
  const r = await emu.request('POST', `/workflows/${id}/executions`, body);
  assert.is(r.status, 200, r.text);
  return until(async () => {
    const g = await emu.request('GET', `/v1/${r.body.name}`);
    return g.body.state !== 'ACTIVE' ? g.body : undefined;
  }, `execution of ${id} to end`);
}

/** The EngineCallLog lines the emulator printed so far for the execution `ex` (payload plus severity), in order. */
function callLogs(ex: any): any[] {
  const executionId = ex.name.split('/').pop();
  const workflowId = ex.name.split('/')[5];
  const lines = emu
    .stdout()
    .split('\n')
    .filter((l) => l.includes(`"executionId":"${executionId}"`) && l.includes('EngineCallLog'))
    .map((l) => JSON.parse(l));
  for (const l of lines) {
    assert.is(l.workflowId, workflowId);
    assert.is(l.jsonPayload['@type'], 'type.googleapis.com/google.cloud.workflows.type.EngineCallLog');
    assert.is(l.jsonPayload.executionId, executionId);
    assert.match(l.jsonPayload.activityTime, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  }
  return lines.map((l) => ({ severity: l.severity, ...l.jsonPayload }));
}

/** Waits until the execution's `sys.log` line holding `text` is printed: every line its earlier steps wrote is out. */
async function waitForLog(ex: any, text: string): Promise<void> {
  await emu.waitForOutput(new RegExp(`"executionId":"${ex.name.split('/').pop()}".*${text}`));
}

/** Waits until `n` call log lines of `ex` are printed, and returns them. */
function waitForCallLogs(ex: any, n: number): Promise<any[]> {
  return until(async () => {
    const lines = callLogs(ex);
    return lines.length >= n ? lines : undefined;
  }, `${n} call log lines of ${ex.name}`);
}

const SUBWORKFLOW = `main:
  steps:
    - price:
        call: with_tax
        args:
          amount: 40
          rate: 0.25
        result: gross
    - sized:
        call: text.split
        args:
          source: "a,b,c"
          separator: ","
        result: parts
    - inline:
        assign:
          - doubled: \${with_tax(8, 0.5)}
          - joined: \${text.replace_all("x-y", "-", "+")}
    - end:
        call: sys.log
        args:
          text: \${"end of subcalls " + string(gross) + " " + string(len(parts)) + " " + string(doubled)}
        result: logged
    - done:
        return: \${gross}
with_tax:
  params: [amount, rate: 0.1]
  steps:
    - scale:
        call: math.floor
        args:
          x: \${amount * (1 + rate)}
        result: total
    - back:
        return: \${total}
`;

s('LOG_ALL_CALLS: a subworkflow call step logs BEGUN with its named args and SUCCEEDED with its result, its own call steps nested between; stdlib call steps are logged; calls inside expressions are not', async () => {
  await deploy('subcalls', SUBWORKFLOW);
  const ex = await run('subcalls', { callLogLevel: 'LOG_ALL_CALLS' });
  assert.is(ex.state, 'SUCCEEDED', JSON.stringify(ex.error));
  assert.is(ex.result, '50');
  await waitForLog(ex, 'end of subcalls 50 3 12');
  const lines = callLogs(ex);
  assert.equal(
    lines.map((l) => [l.state, l.step, l.callee]),
    [
      ['BEGUN', 'price', 'with_tax'],
      ['BEGUN', 'scale', 'math.floor'],
      ['SUCCEEDED', 'scale', 'math.floor'],
      ['SUCCEEDED', 'price', 'with_tax'],
      ['BEGUN', 'sized', 'text.split'],
      ['SUCCEEDED', 'sized', 'text.split'],
      // with_tax(8, 0.5) in step "inline": the expression call is not logged, the call step inside it is.
      ['BEGUN', 'scale', 'math.floor'],
      ['SUCCEEDED', 'scale', 'math.floor'],
      ['BEGUN', 'end', 'sys.log'],
      ['SUCCEEDED', 'end', 'sys.log'],
    ],
    'the expression calls of with_tax and text.replace_all in step "inline" write nothing themselves',
  );
  const [begun, innerBegun, innerDone, done, splitBegun, splitDone] = lines;
  assert.equal(begun.begun.namedArgs, { amount: '40', rate: '0.25' });
  assert.is(begun.severity, 'INFO');
  assert.equal(innerBegun.begun.namedArgs, { x: '50.0' }, 'a double, as the workflow\'s JSON writes it');
  assert.is(innerDone.succeeded.response, '50');
  assert.is(done.succeeded.response, '50');
  assert.is(done.succeeded.callStartTime, begun.activityTime);
  assert.equal(splitBegun.begun.namedArgs, { source: '"a,b,c"', separator: '","' });
  assert.is(splitDone.succeeded.response, '["a","b","c"]');
  assert.is(splitDone.severity, 'INFO');
});

const RAISING = `main:
  steps:
    - attempt:
        try:
          call: check_stock
          args:
            sku: "A-1"
        except:
          as: e
          steps:
            - note:
                assign:
                  - caught: \${e.message}
    - count:
        call: math.abs
        args:
          x: -3
        result: three
    - fail:
        call: check_stock
        args:
          sku: "B-2"
check_stock:
  params: [sku]
  steps:
    - look:
        call: text.find_all
        args:
          source: \${sku}
          substr: "-"
        result: found
    - out_of_stock:
        raise:
          code: 409
          message: \${"no stock for " + sku}
`;

s('LOG_ERRORS_ONLY: only calls that raised, a subworkflow call with the exception and the origin step inside it, caught or not; no BEGUN or SUCCEEDED', async () => {
  await deploy('raising', RAISING, { callLogLevel: 'LOG_ERRORS_ONLY' });
  const ex = await run('raising', {});
  assert.is(ex.state, 'FAILED');
  assert.is(ex.callLogLevel, undefined, 'the execution names no level: the workflow\'s applies');
  const lines = await waitForCallLogs(ex, 2);
  assert.equal(
    lines.map((l) => [l.state, l.step, l.callee, l.severity]),
    [
      ['EXCEPTION_RAISED', 'attempt', 'check_stock', 'ERROR'],
      ['EXCEPTION_RAISED', 'fail', 'check_stock', 'ERROR'],
    ],
  );
  for (const [i, sku] of [[0, 'A-1'], [1, 'B-2']] as const) {
    const raised = lines[i].exceptionRaised;
    assert.equal(JSON.parse(raised.exception), { code: 409, message: `no stock for ${sku}` });
    assert.is(raised.origin, 'out_of_stock', 'the step inside the subworkflow where the error was raised');
    assert.match(raised.callStartTime, /^\d{4}-/);
  }
});

s('LOG_ALL_CALLS: a stdlib call step that raises logs BEGUN, then EXCEPTION_RAISED with the error and its own step as origin', async () => {
  await deploy('badkey', `main:
  steps:
    - read:
        call: json.decode
        args:
          data: "{not json"
        result: v
`);
  const ex = await run('badkey', { callLogLevel: 'LOG_ALL_CALLS' });
  assert.is(ex.state, 'FAILED');
  const lines = await waitForCallLogs(ex, 2);
  assert.equal(lines.map((l) => l.state), ['BEGUN', 'EXCEPTION_RAISED']);
  assert.equal(lines[0].begun.namedArgs, { data: '"{not json"' });
  const exception = JSON.parse(lines[1].exceptionRaised.exception);
  assert.equal(exception.tags, JSON.parse(ex.error.payload).tags);
  assert.is(lines[1].exceptionRaised.origin, 'read');
  assert.is(lines[1].exceptionRaised.callStartTime, lines[0].activityTime);
});

s('LOG_NONE on the execution writes nothing, over a workflow that logs all calls', async () => {
  await deploy('silenced', SUBWORKFLOW.replaceAll('end of subcalls', 'end of silenced'), { callLogLevel: 'LOG_ALL_CALLS' });
  const ex = await run('silenced', { callLogLevel: 'LOG_NONE' });
  assert.is(ex.state, 'SUCCEEDED');
  assert.is(ex.callLogLevel, 'LOG_NONE');
  await waitForLog(ex, 'end of silenced');
  assert.equal(callLogs(ex), []);
  const logged = await run('silenced', {});
  await waitForLog(logged, 'end of silenced');
  assert.is(callLogs(logged).length, 10, 'the workflow\'s LOG_ALL_CALLS applies when the execution names no level');
});

s.run();
