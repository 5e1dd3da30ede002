// Step history over REST against the built bundle (docs/rest-api.md#step-history; Google's REST reference
// projects.locations.workflows.executions.stepEntries list/get, the Execution resource's status.currentSteps,
// error.stackTrace, duration and view, and executionHistoryLevel on workflow and execution): real workflows of
// every step kind, a real local HTTP service for retries, paging and filters from outside.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const s = suite('REST step entries (black-box)');

let emu: EmulatorProcess;
let quiet: EmulatorProcess;
let flaky: Server;
let flakyUrl = '';
const attempts = new Map<string, number>();

s.before(async () => {
  // Fails twice with 503 per key, then answers 200: a retry that succeeds on the third try.
  flaky = createServer((req, res) => {
    const key = req.url ?? '';
    const n = (attempts.get(key) ?? 0) + 1;
    attempts.set(key, n);
    res.writeHead(n < 3 ? 503 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ attempt: n }));
  });
  await new Promise<void>((r) => flaky.listen(0, '127.0.0.1', r));
  flakyUrl = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`;
  [emu, quiet] = await Promise.all([startEmulator({ workflowsDir: false }), startEmulator({ files: { 'watched.yaml': RAISER }, args: ['--history', 'none', '--verbose'] })]);
});
s.after(async () => {
  await Promise.all([emu.close(), quiet.close()]);
  await new Promise((r) => flaky.close(r));
});

async function deploy(target: EmulatorProcess, id: string, source: string, extra: Record<string, unknown> = {}): Promise<void> {
  const r = await target.request('POST', `/workflows?workflowId=${id}`, { sourceContents: source, ...extra });
  assert.is(r.status, 200, r.text);
}

async function run(target: EmulatorProcess, id: string, body: Record<string, unknown> = {}): Promise<any> {
  const r = await target.request('POST', `/workflows/${id}/executions`, body);
  assert.is(r.status, 200, r.text);
  return until(async () => {
    const g = await target.request('GET', `/v1/${r.body.name}`);
    return g.body.state !== 'ACTIVE' ? g.body : undefined;
  }, `execution of ${id} to end`);
}

async function entries(name: string, query = ''): Promise<any[]> {
  const r = await emu.request('GET', `/v1/${name}/stepEntries${query}`);
  assert.is(r.status, 200, r.text);
  return r.body.stepEntries;
}

const EVERY_KIND = `main:
  params: [args]
  steps:
    - init:
        assign:
          - total: 0
          - items: [1, 2, 3]
    - log_it:
        call: sys.log
        args:
          text: starting
    - loop:
        for:
          value: v
          in: \${items}
          steps:
            - add:
                assign:
                  - total: \${total + v}
    - decide:
        switch:
          - condition: \${total > 100}
            next: never
          - condition: \${total == 6}
            steps:
              - inner:
                  assign:
                    - picked: true
    - jump:
        next: guarded
    - never:
        return: unreachable
    - guarded:
        try:
          steps:
            - oops:
                raise: {message: "caught", code: 1}
        except:
          as: e
          steps:
            - handled:
                assign:
                  - msg: \${e.message}
    - helper:
        call: double
        args:
          x: \${total}
        result: doubled
    - done:
        return: \${doubled}
double:
  params: [x]
  steps:
    - twice:
        return: \${x * 2}
`;

s('a workflow of every step kind records each entry with Google\'s stepType, state and nesting', async () => {
  await deploy(emu, 'kinds', EVERY_KIND);
  const ex = await run(emu, 'kinds');
  assert.is(ex.state, 'SUCCEEDED', JSON.stringify(ex));
  const list = await entries(ex.name);
  const byStep = (step: string, type: string) => {
    const found = list.find((e) => e.step === step && e.stepType === type);
    assert.ok(found, `no ${type} entry for ${step}: ${JSON.stringify(list.map((e) => [e.step, e.stepType]))}`);
    return found;
  };
  byStep('init', 'STEP_ASSIGN');
  byStep('log_it', 'STEP_STD_LIB_CALL');
  const loop = byStep('loop', 'STEP_FOR');
  const iterations = list.filter((e) => e.stepType === 'STEP_FOR_ITERATION');
  assert.equal(iterations.map((e) => e.stepEntryMetadata.progressNumber), ['1', '2', '3']);
  assert.ok(iterations.every((e) => e.navigationInfo.parent === loop.entryId && e.stepEntryMetadata.progressType === 'PROGRESS_TYPE_FOR'));
  assert.equal(loop.navigationInfo.children, iterations.map((e) => e.entryId));
  assert.is(list.filter((e) => e.step === 'add').length, 3);
  const decide = byStep('decide', 'STEP_SWITCH');
  const condition = byStep('decide', 'STEP_CONDITION');
  assert.is(condition.navigationInfo.parent, decide.entryId);
  assert.is(byStep('inner', 'STEP_ASSIGN').navigationInfo.parent !== undefined, true);
  byStep('jump', 'STEP_GOTO');
  assert.not.ok(list.some((e) => e.step === 'never'));
  const guarded = byStep('guarded', 'STEP_TRY');
  const oops = byStep('oops', 'STEP_RAISE');
  assert.is(oops.state, 'STATE_FAILED');
  assert.equal(JSON.parse(oops.exception.payload), { message: 'caught', code: 1 });
  assert.is(guarded.state, 'STATE_SUCCEEDED');
  const except = byStep('guarded', 'STEP_EXCEPT');
  assert.is(byStep('handled', 'STEP_ASSIGN').navigationInfo.parent, except.entryId);
  const call = byStep('helper', 'STEP_SUBWORKFLOW_CALL');
  const twice = list.find((e) => e.step === 'twice')!;
  assert.is(twice.routine, 'double');
  assert.is(twice.stepType, 'STEP_RETURN');
  assert.is(twice.navigationInfo.parent, call.entryId);
  byStep('done', 'STEP_RETURN');
  // Entry IDs count up from 1 with no gap, and top-level steps link as siblings.
  assert.equal(list.map((e) => Number(e.entryId)), list.map((_, i) => i + 1));
  const top = list.filter((e) => e.navigationInfo.parent === undefined);
  for (let i = 1; i < top.length; i++) {
    assert.is(top[i].navigationInfo.previous, top[i - 1].entryId);
    assert.is(top[i - 1].navigationInfo.next, top[i].entryId);
  }
  for (const e of list) {
    assert.is(e.name, `${ex.name}/stepEntries/${e.entryId}`);
    assert.ok(Date.parse(e.updateTime) >= Date.parse(e.createTime));
  }
});

s('parallel branches and a parallel for: one thread per branch or iteration, each entry tagged with its threadId', async () => {
  await deploy(emu, 'par', `main:
  steps:
    - fan:
        parallel:
          branches:
            - left:
                steps:
                  - a:
                      assign:
                        - one: 1
            - right:
                steps:
                  - b:
                      assign:
                        - two: 2
    - each:
        parallel:
          for:
            value: i
            in: [10, 20, 30]
            steps:
              - work:
                  assign:
                    - x: \${i}
    - done:
        return: ok
`);
  const ex = await run(emu, 'par');
  assert.is(ex.state, 'SUCCEEDED', JSON.stringify(ex));
  const list = await entries(ex.name);
  const fan = list.find((e) => e.step === 'fan' && e.stepType === 'STEP_PARALLEL_BRANCH');
  assert.ok(fan);
  const branches = list.filter((e) => e.stepType === 'STEP_PARALLEL_BRANCH_ENTRY' && e.step === 'fan');
  assert.is(branches.length, 2);
  assert.equal(branches.map((e) => e.stepEntryMetadata.threadId).sort(), ['1', '2']);
  const a = list.find((e) => e.step === 'a');
  assert.ok(branches.some((b) => b.entryId === a.navigationInfo.parent));
  assert.ok(a.stepEntryMetadata.threadId);
  const each = list.find((e) => e.step === 'each' && e.stepType === 'STEP_PARALLEL_FOR');
  assert.is(each.stepEntryMetadata.progressType, 'PROGRESS_TYPE_PARALLEL_FOR');
  const iterations = list.filter((e) => e.stepType === 'STEP_PARALLEL_BRANCH_ENTRY' && e.step === 'each');
  assert.equal(iterations.map((e) => e.stepEntryMetadata.progressNumber).sort(), ['1', '2', '3']);
  assert.is(new Set(iterations.map((e) => e.stepEntryMetadata.threadId)).size, 3);
  assert.is(list.filter((e) => e.step === 'work').length, 3);
});

const RETRYING = `main:
  params: [args]
  steps:
    - fetch:
        try:
          call: http.get
          args:
            url: \${args.url}
          result: r
        retry:
          predicate: \${http.default_retry_predicate}
          max_retries: 5
          backoff:
            initial_delay: 0.01
            max_delay: 0.05
            multiplier: 2
    - done:
        return: \${r.body.attempt}
`;

s('a retry that succeeds on the third try records two STEP_RETRY attempts under the try step', async () => {
  await deploy(emu, 'retry', RETRYING);
  const ex = await run(emu, 'retry', { argument: JSON.stringify({ url: `${flakyUrl}/third-try` }) });
  assert.is(ex.state, 'SUCCEEDED', JSON.stringify(ex));
  assert.is(ex.result, '3');
  const list = await entries(ex.name);
  const tryEntry = list.find((e) => e.step === 'fetch' && e.stepType === 'STEP_TRY_RETRY_EXCEPT');
  assert.ok(tryEntry, JSON.stringify(list.map((e) => [e.step, e.stepType])));
  const retries = list.filter((e) => e.stepType === 'STEP_RETRY');
  assert.equal(retries.map((e) => e.stepEntryMetadata.progressNumber), ['1', '2']);
  assert.ok(retries.every((e) => e.stepEntryMetadata.progressType === 'PROGRESS_TYPE_RETRY'));
  const failedCalls = list.filter((e) => e.step === 'fetch' && e.state === 'STATE_FAILED');
  assert.ok(failedCalls.length >= 2, 'the two failed attempts are recorded as failed');
  assert.ok(failedCalls.every((e) => JSON.parse(e.exception.payload).code === 503));
});

const RAISER = `main:
  steps:
    - start:
        assign:
          - x: 1
    - outer_call:
        call: middle
        result: r
    - done:
        return: \${r}
middle:
  steps:
    - inner_call:
        call: deepest
        args:
          n: 5
        result: r
    - back:
        return: \${r}
deepest:
  params: [n]
  steps:
    - fail_here:
        raise:
          message: too deep
          code: 42
          tags: [DepthError]
`;

s('a subworkflow that raises: error.stackTrace names the raising step and each call, innermost first, with source positions', async () => {
  await deploy(emu, 'raiser', RAISER);
  const ex = await run(emu, 'raiser');
  assert.is(ex.state, 'FAILED');
  assert.equal(ex.error.stackTrace.elements, [
    { step: 'fail_here', routine: 'deepest', position: { line: '23', column: '7', length: '9' } },
    { step: 'inner_call', routine: 'middle', position: { line: '13', column: '7', length: '10' } },
    { step: 'outer_call', routine: 'main', position: { line: '6', column: '7', length: '10' } },
  ]);
  assert.is(ex.error.context, 'step: fail_here');
  assert.equal(ex.status.currentSteps, [{ routine: 'deepest', step: 'fail_here' }]);
  assert.match(ex.duration, /^\d+(\.\d+)?s$/);
  const failed = await entries(ex.name, '?filter=' + encodeURIComponent('state="FAILED"'));
  assert.equal(failed.map((e) => e.step), ['outer_call', 'inner_call', 'fail_here']);
  assert.equal(JSON.parse(failed[2].exception.payload).tags, ['DepthError']);
});

s('currentSteps while sleeping: one per running parallel branch, then gone when the execution ends', async () => {
  await deploy(emu, 'sleepers', `main:
  steps:
    - both:
        parallel:
          branches:
            - one:
                steps:
                  - nap_one:
                      call: sys.sleep
                      args:
                        seconds: 30
            - two:
                steps:
                  - nap_two:
                      call: sys.sleep
                      args:
                        seconds: 30
`);
  const r = await emu.request('POST', '/workflows/sleepers/executions', {});
  const name = r.body.name;
  const steps = await until(async () => {
    const g = await emu.request('GET', `/v1/${name}`);
    const cur = g.body.status?.currentSteps ?? [];
    return cur.length === 2 ? cur : undefined;
  }, 'two current steps');
  assert.equal(steps.map((c: any) => c.step).sort(), ['nap_one', 'nap_two']);
  assert.ok(steps.every((c: any) => c.routine === 'main'));
  const inProgress = await entries(name, '?filter=' + encodeURIComponent('state=IN_PROGRESS AND stepType=STEP_STD_LIB_CALL'));
  assert.is(inProgress.length, 2);
  const c = await emu.request('POST', `/v1/${name}:cancel`, {});
  assert.is(c.status, 200);
  const after = await until(async () => {
    const list = await entries(name, '?filter=' + encodeURIComponent('step="nap_one"'));
    return list[0].state !== 'STATE_IN_PROGRESS' ? list[0] : undefined;
  }, 'the sleeping entry to be left');
  assert.is(after.state, 'STATE_CANCELLED');
});

s('paging: pageSize and pageToken walk every entry once; filter, orderBy and totalSize over REST', async () => {
  await deploy(emu, 'many', `main:
  steps:
    - loop:
        for:
          value: i
          range: [1, 40]
          steps:
            - tick:
                assign:
                  - x: \${i}
    - done:
        return: 40
`);
  const ex = await run(emu, 'many');
  const seen: string[] = [];
  let token = '';
  let pages = 0;
  do {
    const r = await emu.request('GET', `/v1/${ex.name}/stepEntries?pageSize=17${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
    assert.is(r.status, 200, r.text);
    assert.is(r.body.totalSize, 82);
    seen.push(...r.body.stepEntries.map((e: any) => e.entryId));
    token = r.body.nextPageToken ?? '';
    pages++;
  } while (token);
  assert.is(pages, 5);
  assert.equal(seen, Array.from({ length: 82 }, (_, i) => String(i + 1)));
  const last = await entries(ex.name, '?orderBy=' + encodeURIComponent('entryId desc') + '&pageSize=1');
  assert.is(last[0].step, 'done');
  const ticks = await emu.request('GET', `/v1/${ex.name}/stepEntries?filter=${encodeURIComponent('step="tick" AND entryId>70')}`);
  assert.is(ticks.body.totalSize, 6);
  const iterations = await entries(ex.name, `?filter=${encodeURIComponent('stepType=STEP_FOR_ITERATION')}&orderBy=${encodeURIComponent('entryId desc')}&pageSize=2`);
  assert.equal(iterations.map((e) => e.stepEntryMetadata.progressNumber), ['40', '39']);
  const one = await emu.request('GET', `/v1/${ex.name}/stepEntries/2`);
  assert.is(one.status, 200);
  assert.is(one.body.stepType, 'STEP_FOR_ITERATION');
  assert.is(one.body.navigationInfo.parent, '1');
});

s('errors: unknown execution or entry is 404, a bad filter, orderBy, pageSize or view is 400 naming it', async () => {
  await deploy(emu, 'tiny', `main:
  steps:
    - done:
        return: 1
`);
  const ex = await run(emu, 'tiny');
  const unknown = await emu.request('GET', `/workflows/tiny/executions/no-such-id/stepEntries`);
  assert.is(unknown.status, 404);
  assert.is(unknown.body.error.status, 'NOT_FOUND');
  assert.match(unknown.body.error.message, /no-such-id/);
  const noEntry = await emu.request('GET', `/v1/${ex.name}/stepEntries/99`);
  assert.is(noEntry.status, 404);
  assert.is(noEntry.body.error.status, 'NOT_FOUND');
  for (const [query, pattern] of [
    ['filter=' + encodeURIComponent('colour="red"'), /unknown field "colour"/],
    ['filter=' + encodeURIComponent('state="SLEEPING"'), /"SLEEPING" is not a value of field "state"/],
    ['filter=' + encodeURIComponent('(entryId=1'), /expected "\)"/],
    ['orderBy=flavour', /"flavour" is not a field to order by/],
    ['pageSize=many', /pageSize must be an integer/],
    ['view=EVERYTHING', /invalid view "EVERYTHING"/],
    ['pageToken=bogus', /invalid pageToken/],
  ] as const) {
    const r = await emu.request('GET', `/v1/${ex.name}/stepEntries?${query}`);
    assert.is(r.status, 400, query);
    assert.is(r.body.error.status, 'INVALID_ARGUMENT');
    assert.match(r.body.error.message, pattern);
  }
});

s('history levels: DETAILED on the workflow records variables; the execution\'s BASIC wins; --history none records nothing', async () => {
  const src = `main:
  steps:
    - set:
        assign:
          - greeting: hello
          - n: 3
    - done:
        return: \${greeting}
`;
  await deploy(emu, 'detailed', src, { executionHistoryLevel: 'EXECUTION_HISTORY_DETAILED' });
  const wf = await emu.request('GET', '/workflows/detailed');
  assert.is(wf.body.executionHistoryLevel, 'EXECUTION_HISTORY_DETAILED');
  const ex = await run(emu, 'detailed');
  const list = await entries(ex.name);
  assert.equal(list[0].variableData, { variables: { greeting: 'hello', n: 3 } });
  const basicView = await entries(ex.name, '?view=EXECUTION_ENTRY_VIEW_BASIC');
  assert.is(basicView[0].variableData, undefined);
  const basic = await run(emu, 'detailed', { executionHistoryLevel: 'EXECUTION_HISTORY_BASIC' });
  assert.is(basic.executionHistoryLevel, 'EXECUTION_HISTORY_BASIC');
  const basicList = await entries(basic.name);
  assert.ok(basicList.length > 0);
  assert.is(basicList[0].variableData, undefined);
  const bad = await emu.request('POST', '/workflows/detailed/executions', { executionHistoryLevel: 'VERBOSE' });
  assert.is(bad.status, 400);
  assert.match(bad.body.error.message, /executionHistoryLevel/);

  await deploy(quiet, 'q', src);
  const q = await run(quiet, 'q');
  const none = await quiet.request('GET', `/v1/${q.name}/stepEntries`);
  assert.is(none.status, 200);
  assert.equal(none.body.stepEntries, []);
  assert.is(q.status, undefined);
  const explicit = await run(quiet, 'q', { executionHistoryLevel: 'EXECUTION_HISTORY_BASIC' });
  assert.is((await quiet.request('GET', `/v1/${explicit.name}/stepEntries`)).body.stepEntries.length, 2);
});

s('view=BASIC on executions get and list keeps name, times, duration, state and revision only', async () => {
  await deploy(emu, 'viewed', `main:
  params: [a]
  steps:
    - done:
        return: \${a}
`);
  const ex = await run(emu, 'viewed', { argument: '{"k": 1}' });
  const full = await emu.request('GET', `/v1/${ex.name}`);
  assert.is(full.body.result, '{"k":1}');
  const basic = await emu.request('GET', `/v1/${ex.name}?view=BASIC`);
  assert.equal(Object.keys(basic.body).sort(), ['duration', 'endTime', 'name', 'startTime', 'state', 'workflowRevisionId']);
  const list = await emu.request('GET', '/workflows/viewed/executions?view=BASIC');
  assert.is(list.body.executions[0].argument, undefined);
  assert.is(list.body.executions[0].name, ex.name);
  const bad = await emu.request('GET', `/v1/${ex.name}?view=SOME`);
  assert.is(bad.status, 400);
});

s('a FAILED execution prints one line on stderr with workflow, execution, tag, message and position', async () => {
  await deploy(emu, 'loud', RAISER);
  const ex = await run(emu, 'loud');
  const id = ex.name.split('/').pop();
  const line = await emu.waitForOutput(new RegExp(`execution FAILED: workflow loud, execution ${id}: DepthError: too deep \\(line 23:7, step "fail_here" in "deepest"\\)`));
  assert.ok(line);
});

s('callLogLevel LOG_ALL_CALLS writes EngineCallLog lines beside sys.log: BEGUN, EXCEPTION_RAISED, SUCCEEDED; LOG_ERRORS_ONLY on the workflow only the errors', async () => {
  const src = RETRYING;
  await deploy(emu, 'logged', src);
  const ex = await run(emu, 'logged', { callLogLevel: 'LOG_ALL_CALLS', argument: JSON.stringify({ url: `${flakyUrl}/logged` }) });
  assert.is(ex.callLogLevel, 'LOG_ALL_CALLS');
  const id = ex.name.split('/').pop();
  await emu.waitForOutput(new RegExp(`"executionId":"${id}".*"state":"SUCCEEDED"`));
  const lines = emu.stdout().split('\n').filter((l) => l.includes(id) && l.includes('EngineCallLog')).map((l) => JSON.parse(l));
  assert.equal(lines.map((l) => l.jsonPayload.state), ['BEGUN', 'EXCEPTION_RAISED', 'BEGUN', 'EXCEPTION_RAISED', 'BEGUN', 'SUCCEEDED']);
  assert.ok(lines.every((l) => l.workflowId === 'logged' && l.jsonPayload.step === 'fetch' && l.jsonPayload.callee === 'http.get'));
  assert.is(lines[0].jsonPayload.begun.namedArgs.url, JSON.stringify(`${flakyUrl}/logged`));
  assert.is(lines[1].severity, 'ERROR');
  assert.is(JSON.parse(lines[1].jsonPayload.exceptionRaised.exception).code, 503);
  assert.is(JSON.parse(lines[5].jsonPayload.succeeded.response).code, 200);

  await deploy(emu, 'errors-only', src, { callLogLevel: 'LOG_ERRORS_ONLY' });
  const quietRun = await run(emu, 'errors-only', { argument: JSON.stringify({ url: `${flakyUrl}/errors-only` }) });
  const qid = quietRun.name.split('/').pop();
  await emu.waitForOutput(new RegExp(`"executionId":"${qid}".*EXCEPTION_RAISED[\\s\\S]*"executionId":"${qid}".*EXCEPTION_RAISED`));
  const quietLines = emu.stdout().split('\n').filter((l) => l.includes(qid) && l.includes('EngineCallLog')).map((l) => JSON.parse(l));
  assert.equal(quietLines.map((l) => l.jsonPayload.state), ['EXCEPTION_RAISED', 'EXCEPTION_RAISED']);
  const none = await run(emu, 'errors-only', { callLogLevel: 'LOG_NONE', argument: JSON.stringify({ url: `${flakyUrl}/none` }) });
  assert.not.ok(emu.stdout().includes(`"executionId":"${none.name.split('/').pop()}"`), 'the execution\'s LOG_NONE wins');
  const bad = await emu.request('POST', '/workflows/errors-only/executions', { callLogLevel: 'LOUD' });
  assert.is(bad.status, 400);
  assert.match(bad.body.error.message, /invalid callLogLevel "LOUD"/);
});

s('the FAILED line names file:line:column for a watched workflow; --verbose prints every end', async () => {
  const r = await quiet.request('POST', '/workflows/watched/executions', { executionHistoryLevel: 'EXECUTION_HISTORY_BASIC' });
  const id = r.body.name.split('/').pop();
  const line = await quiet.waitForOutput(new RegExp(`execution FAILED: workflow watched, execution ${id}: DepthError: too deep \\(.*watched\\.yaml:23:7, step "fail_here" in "deepest"\\)`));
  assert.ok(line);
  const ok = await run(quiet, 'q');
  await quiet.waitForOutput(new RegExp(`execution SUCCEEDED: workflow q, execution ${ok.name.split('/').pop()} \\(\\d+(\\.\\d+)?s\\)`));
});

s.run();
