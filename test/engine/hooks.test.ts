import { suite } from 'uvu';
import type { VirtualTime } from '../../src/engine/virtual-time.ts';
import * as assert from 'uvu/assert';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { WorkflowError } from '../../src/lang/errors.ts';
import { type Value } from '../../src/lang/value.ts';
import { toJson } from '../../src/lang/json.ts';
import { runExecution } from '../../src/engine/run.ts';
import type { CallInterceptor, ExecutionHooks, OutboundCall, StepEnd, StepEvent, StepObserver } from '../../src/engine/hooks.ts';
import { harness, run, type Harness } from './helpers.ts';
import type { CancelSignal } from '../../src/platform/cancellation.ts';
import { until } from '../support/emulator.ts';

// The engine's hooks (src/engine/hooks.ts, docs/architecture.md#layers-and-where-things-are): the step observer's entries
// with Google's stepType names (REST reference projects.locations.workflows.executions.stepEntries), their
// nesting, threads, iterations and retry attempts, and the call interceptor around every outbound call.
const s = suite('engine hooks');

/** One entry as recorded: the event, its parent entry's index, and how it ended. */
interface Recorded {
  readonly index: number;
  readonly event: StepEvent;
  /** What `expectedIterations` and `variables()` said when the entry was left. */
  expectedAtLeave?: number;
  varsAtLeave?: ReadonlyMap<string, Value>;
  readonly parent: number | undefined;
  end?: StepEnd;
}

/** An observer that records every entry, checks that `leave` gets a handle it gave, and logs the order. */
function recorder(): { observer: StepObserver<number>; entries: Recorded[]; order: string[] } {
  const entries: Recorded[] = [];
  const order: string[] = [];
  const observer: StepObserver<number> = {
    enter(event, parent) {
      const index = entries.length;
      entries.push({ index, event, parent });
      order.push(`+${index}`);
      return index;
    },
    leave(handle, end) {
      const r = entries[handle]!;
      assert.is(r.end, undefined, `entry ${handle} left twice`);
      r.end = end;
      r.expectedAtLeave = r.event.expectedIterations;
      r.varsAtLeave = r.event.variables();
      order.push(`-${handle}`);
    },
  };
  return { observer, entries, order };
}

function withHooks(hooks: ExecutionHooks, h: Harness = harness()): Harness {
  return { ...h, deps: { ...h.deps, hooks } };
}

/** The entries as an indented outline: `type step [detail] state`, children under their parent. */
function outline(entries: readonly Recorded[]): string[] {
  const depth = (r: Recorded): number => (r.parent === undefined ? 0 : 1 + depth(entries[r.parent]!));
  return entries.map((r) => {
    const e = r.event;
    const detail = [
      e.iteration !== undefined ? `iteration ${e.iteration}` : '',
      e.retryAttempt !== undefined ? `attempt ${e.retryAttempt}` : '',
      e.branch !== undefined ? `branch ${e.branch}` : '',
    ]
      .filter((x) => x)
      .join(' ');
    return `${'  '.repeat(depth(r))}${e.stepType} ${e.step}${detail ? ` (${detail})` : ''} ${r.end?.state ?? 'open'}`;
  });
}

/**
 * Checks the nesting contract: every entry is left once, after every entry entered inside it; and, per thread,
 * enter/leave pairs are well parenthesised with each entry's parent the innermost open entry of its thread (or
 * of the thread that started it).
 */
function assertNesting(entries: readonly Recorded[], order: readonly string[]): void {
  const leftAt = new Map<number, number>();
  order.forEach((x, i) => {
    if (x.startsWith('-')) leftAt.set(Number(x.slice(1)), i);
  });
  for (const r of entries) {
    assert.ok(r.end !== undefined, `entry ${r.index} (${r.event.step}) never left`);
    if (r.parent !== undefined) {
      assert.ok(r.parent < r.index, `entry ${r.index}'s parent ${r.parent} entered after it`);
      assert.ok(leftAt.get(r.parent)! > leftAt.get(r.index)!, `entry ${r.parent} left before its child ${r.index}`);
    }
  }
}

const everyKind = `
main:
  steps:
    - init:
        assign:
          - n: 0
    - outer:
        steps:
          - pick:
              switch:
                - condition: \${n == 1}
                  next: end
                - condition: \${n == 0}
                  steps:
                    - bump:
                        assign:
                          - n: \${n + 1}
          - log:
              call: sys.log
              args:
                text: hi
    - sub:
        call: double
        args:
          x: 2
        result: d
    - guarded:
        try:
          raise: oops
        except:
          as: e
          steps:
            - caught:
                assign:
                  - m: \${e}
    - skip:
        next: done
    - unreached:
        raise: never
    - done:
        return: \${d}
double:
  params: [x]
  steps:
    - twice:
        return: \${x * 2}
`;

s('every sequential step kind is one entry with Google\'s stepType, nested under its parent', async () => {
  const rec = recorder();
  const out = await run(everyKind, undefined, withHooks({ observer: rec.observer }));
  assert.equal(out, { result: '4' });
  assert.equal(outline(rec.entries), [
    'STEP_ASSIGN init succeeded',
    'STEP_TYPE_UNSPECIFIED outer succeeded',
    '  STEP_SWITCH pick succeeded',
    '    STEP_CONDITION pick succeeded',
    '      STEP_ASSIGN bump succeeded',
    '  STEP_STD_LIB_CALL log succeeded',
    'STEP_SUBWORKFLOW_CALL sub succeeded',
    '  STEP_RETURN twice succeeded',
    'STEP_TRY guarded succeeded',
    '  STEP_RAISE guarded failed',
    '  STEP_EXCEPT guarded succeeded',
    '    STEP_ASSIGN caught succeeded',
    'STEP_GOTO skip succeeded',
    'STEP_RETURN done succeeded',
  ]);
  assertNesting(rec.entries, rec.order);
  // Entries are left in nesting order, as they were entered.
  assert.equal(rec.order.slice(0, 12), ['+0', '-0', '+1', '+2', '+3', '+4', '-4', '-3', '-2', '+5', '-5', '-1']);
});

s('an entry carries routine, position and call depth; a subworkflow runs one call deeper under its call step', async () => {
  const rec = recorder();
  await run(everyKind, undefined, withHooks({ observer: rec.observer }));
  const by = (step: string) => rec.entries.find((r) => r.event.step === step)!;
  assert.is(by('init').event.routine, 'main');
  assert.is(by('init').event.callDepth, 0);
  assert.equal(by('init').event.pos, { line: 4, col: 7 });
  assert.is(by('init').event.threadId, '');
  const twice = by('twice');
  assert.is(twice.event.routine, 'double');
  assert.is(twice.event.callDepth, 1);
  assert.is(twice.parent, by('sub').index);
  assert.equal(twice.event.pos, { line: 45, col: 7 });
  // A subworkflow called from an expression nests under the step whose expression called it.
  const rec2 = recorder();
  await run(
    `
main:
  steps:
    - a:
        assign:
          - v: \${f(f(1))}
    - r:
        return: \${v}
f:
  params: [x]
  steps:
    - inc:
        return: \${x + 1}
`,
    undefined,
    withHooks({ observer: rec2.observer }),
  );
  assert.equal(outline(rec2.entries), [
    'STEP_ASSIGN a succeeded',
    '  STEP_RETURN inc succeeded',
    '  STEP_RETURN inc succeeded',
    'STEP_RETURN r succeeded',
  ]);
});

s('a for loop: STEP_FOR with its expected iterations, one STEP_FOR_ITERATION per iteration (1-based), break ends it', async () => {
  const rec = recorder();
  const out = await run(
    `
main:
  steps:
    - loop:
        for:
          value: v
          in: [10, 20, 30, 40]
          steps:
            - check:
                switch:
                  - condition: \${v == 30}
                    next: break
            - add:
                assign:
                  - last: \${v}
    - r:
        return: ok
`,
    undefined,
    withHooks({ observer: rec.observer }),
  );
  assert.equal(out, { result: '"ok"' });
  const loop = rec.entries[0]!;
  assert.is(loop.event.stepType, 'STEP_FOR');
  assert.is(loop.expectedAtLeave, 4);
  const iterations = rec.entries.filter((r) => r.event.stepType === 'STEP_FOR_ITERATION');
  assert.equal(
    iterations.map((r) => [r.event.iteration, r.event.expectedIterations, r.parent, r.event.step]),
    [
      [1, 4, 0, 'loop'],
      [2, 4, 0, 'loop'],
      [3, 4, 0, 'loop'],
    ],
  );
  // The third iteration's switch matched its condition (break): STEP_CONDITION, no `add` after it.
  assert.equal(outline(rec.entries).slice(-4), [
    '  STEP_FOR_ITERATION loop (iteration 3) succeeded',
    '    STEP_SWITCH check succeeded',
    '      STEP_CONDITION check succeeded',
    'STEP_RETURN r succeeded',
  ]);
  // variables() read at leave shows the loop variable and what the iteration assigned.
  assert.is(iterations[1]!.varsAtLeave!.get('last'), 20n);
  assert.is(iterations[1]!.varsAtLeave!.get('v'), 20n);
  assertNesting(rec.entries, rec.order);
});

s('parallel branches: STEP_PARALLEL_BRANCH, one STEP_PARALLEL_BRANCH_ENTRY per branch on its own thread', async () => {
  const rec = recorder();
  const out = await run(
    `
main:
  steps:
    - p:
        parallel:
          branches:
            - b1:
                steps:
                  - s1:
                      call: sys.sleep
                      args:
                        seconds: 2
            - b2:
                steps:
                  - s2:
                      call: sys.sleep
                      args:
                        seconds: 1
                  - inner:
                      parallel:
                        for:
                          value: i
                          range: [1, 2]
                          steps:
                            - s3:
                                assign:
                                  - x: \${i}
    - r:
        return: ok
`,
    undefined,
    withHooks({ observer: rec.observer }),
  );
  assert.equal(out, { result: '"ok"' });
  assertNesting(rec.entries, rec.order);
  const p = rec.entries[0]!;
  assert.is(p.event.stepType, 'STEP_PARALLEL_BRANCH');
  const branches = rec.entries.filter((r) => r.event.stepType === 'STEP_PARALLEL_BRANCH_ENTRY' && r.event.branch);
  assert.equal(
    branches.map((r) => [r.event.branch, r.event.threadId, r.parent, r.event.step]),
    [
      ['b1', '1', 0, 'p'],
      ['b2', '2', 0, 'p'],
    ],
  );
  const s1 = rec.entries.find((r) => r.event.step === 's1')!;
  assert.is(s1.parent, branches[0]!.index);
  assert.is(s1.event.threadId, '1');
  const inner = rec.entries.find((r) => r.event.step === 'inner')!;
  assert.is(inner.event.stepType, 'STEP_PARALLEL_FOR');
  assert.is(inner.expectedAtLeave, 2);
  assert.is(inner.event.threadId, '2');
  const iterations = rec.entries.filter((r) => r.parent === inner.index);
  assert.equal(
    iterations.map((r) => [r.event.stepType, r.event.iteration, r.event.expectedIterations, r.event.threadId]),
    [
      ['STEP_PARALLEL_BRANCH_ENTRY', 1, 2, '2.1'],
      ['STEP_PARALLEL_BRANCH_ENTRY', 2, 2, '2.2'],
    ],
  );
  const s3 = rec.entries.filter((r) => r.event.step === 's3');
  assert.equal(
    s3.map((r) => [r.event.threadId, r.parent]),
    iterations.map((r) => [r.event.threadId, r.index]),
  );
  // Both branches start before either ends (they interleave at their sleeps); the parallel step is left last.
  assert.ok(rec.order.indexOf(`+${branches[1]!.index}`) < rec.order.indexOf(`-${branches[0]!.index}`), rec.order.join(' '));
  assert.is(rec.order.at(-3), '-0');
});

s('retry: the first attempt runs under the try step, each retry is a STEP_RETRY entry (1-based), then except', async () => {
  const rec = recorder();
  const out = await run(
    `
main:
  steps:
    - init:
        assign:
          - n: 0
    - t:
        try:
          steps:
            - bump:
                assign:
                  - n: \${n + 1}
            - fail:
                raise: {code: 503, message: busy}
        retry:
          predicate: \${always}
          max_retries: 2
          backoff:
            initial_delay: 1
            max_delay: 10
            multiplier: 2
        except:
          as: e
          steps:
            - handled:
                return: \${n}
always:
  params: [e]
  steps:
    - yes:
        return: true
`,
    undefined,
    withHooks({ observer: rec.observer }),
  );
  assert.equal(out, { result: '3' });
  assertNesting(rec.entries, rec.order);
  assert.equal(
    outline(rec.entries).filter((l) => !l.includes('yes')),
    [
      'STEP_ASSIGN init succeeded',
      'STEP_TRY_RETRY_EXCEPT t succeeded',
      '  STEP_ASSIGN bump succeeded',
      '  STEP_RAISE fail failed',
      '  STEP_RETRY t (attempt 1) failed',
      '    STEP_ASSIGN bump succeeded',
      '    STEP_RAISE fail failed',
      '  STEP_RETRY t (attempt 2) failed',
      '    STEP_ASSIGN bump succeeded',
      '    STEP_RAISE fail failed',
      '  STEP_EXCEPT t succeeded',
      '    STEP_RETURN handled succeeded',
    ],
  );
  // The predicate subworkflow runs once per failed attempt that still has retries left, under the try step.
  const yes = rec.entries.filter((r) => r.event.step === 'yes');
  assert.is(yes.length, 2);
  assert.ok(yes.every((r) => r.parent === 1 && r.event.routine === 'always' && r.event.callDepth === 1));
  // A failed entry carries the error the step raised.
  const fail = rec.entries.find((r) => r.event.step === 'fail')!;
  assert.ok(fail.end!.error instanceof WorkflowError);
  assert.equal(toJson((fail.end!.error as WorkflowError).value), '{"code":503,"message":"busy"}');
});

s('an unhandled error leaves every enclosing entry failed, up to main', async () => {
  const rec = recorder();
  const out = await run(
    `
main:
  steps:
    - call_it:
        call: boom
boom:
  steps:
    - loop:
        for:
          value: i
          range: [1, 3]
          steps:
            - div:
                assign:
                  - x: \${1 / (i - 2)}
`,
    undefined,
    withHooks({ observer: rec.observer }),
  );
  assert.ok('error' in out);
  assertNesting(rec.entries, rec.order);
  assert.equal(outline(rec.entries), [
    'STEP_SUBWORKFLOW_CALL call_it failed',
    '  STEP_FOR loop failed',
    '    STEP_FOR_ITERATION loop (iteration 1) succeeded',
    '      STEP_ASSIGN div succeeded',
    '    STEP_FOR_ITERATION loop (iteration 2) failed',
    '      STEP_ASSIGN div failed',
  ]);
  const tags = rec.entries.map((r) => (r.end!.error as WorkflowError | undefined)?.tags);
  assert.equal(tags.slice(4), [['ZeroDivisionError'], ['ZeroDivisionError']]);
});

s('cancellation leaves open entries cancelled: a sibling of a failed branch, and a cancelled execution', async () => {
  const rec = recorder();
  const out = await run(
    `
main:
  steps:
    - p:
        parallel:
          branches:
            - slow:
                steps:
                  - wait:
                      call: sys.sleep
                      args:
                        seconds: 5000
            - bad:
                steps:
                  - nap:
                      call: sys.sleep
                      args:
                        seconds: 1
                  - fail:
                      raise: broken
`,
    undefined,
    withHooks({ observer: rec.observer }),
  );
  assert.ok('error' in out);
  assertNesting(rec.entries, rec.order);
  const state = (step: string) => rec.entries.find((r) => r.event.step === step)!.end!.state;
  assert.is(state('wait'), 'cancelled');
  assert.is(state('fail'), 'failed');
  assert.is(state('p'), 'failed');
  const slowBranch = rec.entries.find((r) => r.event.branch === 'slow')!;
  assert.is(slowBranch.end!.state, 'cancelled');

  const rec2 = recorder();
  const ctrl = new AbortController();
  const reason = new Error('cancelled by test');
  const h = withHooks({ observer: rec2.observer }, harness(undefined));
  const def = compileDefinition('main:\n  steps:\n    - s:\n        call: sys.sleep\n        args:\n          seconds: 5000\n', DEFINITION_LIBRARY);
  const p = runExecution(def, null, h.deps, ctrl.signal);
  ctrl.abort(reason);
  await p.catch(() => {});
  assert.equal(
    rec2.entries.map((r) => [r.event.step, r.end?.state, r.end?.error]),
    [['s', 'cancelled', reason]],
  );
});

// ---------------------------------------------------------------------------------------------------------
// The call interceptor

/** An interceptor that records each call and answers with `answer(call, proceed)`. */
function interceptor(
  answer: (call: OutboundCall, proceed: () => Value | Promise<Value>) => Value | Promise<Value>,
): CallInterceptor & { calls: OutboundCall[] } {
  const calls: OutboundCall[] = [];
  return {
    calls,
    intercept(call, proceed) {
      calls.push(call);
      return answer(call, proceed);
    },
  };
}

s('the interceptor replaces an http.* result; the call step sees it; args by name as evaluated', async () => {
  const ic = interceptor(() => new Map<string, Value>([['code', 200n], ['body', 'mocked']]));
  const out = await run(
    `
main:
  steps:
    - get:
        call: http.get
        args:
          url: http://127.0.0.1:9/unreachable
          query:
            q: \${"a" + "b"}
        result: r
    - done:
        return: \${r.body}
`,
    undefined,
    withHooks({ interceptor: ic }),
  );
  assert.equal(out, { result: '"mocked"' });
  assert.is(ic.calls.length, 1);
  const c = ic.calls[0]!;
  assert.is(c.kind, 'http');
  assert.is(c.name, 'http.get');
  assert.is(toJson(c.args), '{"url":"http://127.0.0.1:9/unreachable","query":{"q":"ab"}}');
  assert.equal([c.routine, c.step, c.threadId], ['main', 'get', '']);
  assert.is(c.signal.aborted, false);
});

s('an error the interceptor throws is what the workflow sees: except catches it with its tags', async () => {
  const ic = interceptor(() => {
    throw WorkflowError.of('HttpError', 'mocked 404', { code: 404 });
  });
  const out = await run(
    `
main:
  steps:
    - t:
        try:
          call: http.post
          args:
            url: http://example.invalid/
            body: {a: 1}
        except:
          as: e
          steps:
            - r:
                return: \${e.tags[0] + " " + string(e.code)}
`,
    undefined,
    withHooks({ interceptor: ic }),
  );
  assert.equal(out, { result: '"HttpError 404"' });
  // A rejected promise works the same way.
  const ic2 = interceptor(() => Promise.reject(WorkflowError.of('ConnectionError', 'mocked refusal')));
  const out2 = await run(
    'main:\n  steps:\n    - g:\n        call: http.get\n        args:\n          url: http://x.invalid/\n',
    undefined,
    withHooks({ interceptor: ic2 }),
  );
  assert.ok('error' in out2 && toJson(out2.error.value).includes('ConnectionError'));
  assert.is('error' in out2 && out2.error.step, 'g');
});

s('proceed() makes the real call: sys.sleep on the clock, events.await_callback, and a connector\'s "not emulated" error', async () => {
  let advance: (ms: number) => void = () => {};
  const ic = interceptor((call, proceed) => {
    const r = proceed();
    // No request comes: time carried past the wait's deadline ends it (src/engine/virtual-time.ts).
    if (call.name === 'events.await_callback') advance(5000);
    return r;
  });
  const h = withHooks({ interceptor: ic });
  advance = (ms) => void (h.clock as VirtualTime).advance(ms);
  const t0 = h.clock.now();
  const out = await run(
    `
main:
  steps:
    - nap:
        call: sys.sleep
        args:
          seconds: 30
    - cb:
        call: events.create_callback_endpoint
        result: endpoint
    - wait:
        call: events.await_callback
        args:
          callback: \${endpoint}
          timeout: 5
    - r:
        return: unreachable
`,
    undefined,
    h,
  );
  assert.ok(h.clock.now() - t0 >= 35_000, 'the sleep and the callback timeout ran on the clock');
  assert.ok('error' in out && toJson(out.error.value).includes('TimeoutError'));
  // Only blocking built-ins are intercepted: create_callback_endpoint is not.
  assert.equal(
    ic.calls.map((c) => [c.kind, c.name, toJson(c.args)]),
    [
      ['stdlib', 'sys.sleep', '{"seconds":30}'],
      ['stdlib', 'events.await_callback', ic.calls[1] ? toJson(ic.calls[1].args) : ''],
    ],
  );
  assert.ok(toJson(ic.calls[1]!.args).includes('"timeout":5'));

  const ic2 = interceptor((_call, proceed) => proceed());
  const out2 = await run(
    `
main:
  steps:
    - q:
        call: googleapis.bigquery.v2.jobs.query
        args:
          projectId: p
          body: {query: "SELECT 1"}
        result: r
`,
    undefined,
    withHooks({ interceptor: ic2 }),
  );
  assert.equal(ic2.calls.map((c) => [c.kind, c.name, c.step, toJson(c.args)]), [
    ['connector', 'googleapis.bigquery.v2.jobs.query', 'q', '{"projectId":"p","body":{"query":"SELECT 1"}}'],
  ]);
  assert.ok('error' in out2);
  if ('error' in out2) {
    const e = new WorkflowError(out2.error.value);
    assert.equal(e.tags, ['SystemError']);
    assert.match(e.message, 'not emulated');
  }
});

s('a connector call answered by the interceptor succeeds (a mock), as a call step and inside an expression', async () => {
  const ic = interceptor((call) => new Map<string, Value>([['rows', [call.name]]]));
  const rec = recorder();
  const out = await run(
    `
main:
  steps:
    - q:
        call: googleapis.bigquery.v2.jobs.query
        args:
          projectId: p
        result: r
    - e:
        assign:
          - v: \${googleapis.storage.v1.objects.get("bucket", 7)}
    - done:
        return: \${[r.rows[0], v.rows[0]]}
`,
    undefined,
    withHooks({ interceptor: ic, observer: rec.observer }),
  );
  assert.equal(out, { result: '["googleapis.bigquery.v2.jobs.query","googleapis.storage.v1.objects.get"]' });
  assert.equal(
    ic.calls.map((c) => [c.kind, c.step, toJson(c.args)]),
    [
      ['connector', 'q', '{"projectId":"p"}'],
      ['connector', 'e', '{"arg0":"bucket","arg1":7}'],
    ],
  );
  assert.is(rec.entries[0]!.event.stepType, 'STEP_CONNECTOR_CALL');
});

s('calls inside expressions are intercepted with positional arguments bound to parameter names', async () => {
  const ic = interceptor((call) => (call.kind === 'http' ? new Map<string, Value>([['body', 41n]]) : null));
  const out = await run(
    `
main:
  steps:
    - a:
        assign:
          - n: '\${http.get("http://mock.invalid/n", {"x-h": "1"}).body + 1}'
          - s: \${sys.sleep(2)}
          - l: \${len("abc")}
    - r:
        return: \${[n, s, l]}
`,
    undefined,
    withHooks({ interceptor: ic }),
  );
  assert.equal(out, { result: '[42,null,3]' });
  // len() does not wait and is not an outbound call: not intercepted.
  assert.equal(
    ic.calls.map((c) => [c.kind, c.name, c.step, toJson(c.args)]),
    [
      ['http', 'http.get', 'a', '{"url":"http://mock.invalid/n","headers":{"x-h":"1"}}'],
      ['stdlib', 'sys.sleep', 'a', '{"seconds":2}'],
    ],
  );
});

s('an intercepted call names its calling step, routine and thread (in a subworkflow of a parallel branch)', async () => {
  const ic = interceptor(async (call) => `${call.routine}/${call.step}/${call.threadId}`);
  const out = await run(
    `
main:
  steps:
    - init:
        assign:
          - got: []
    - p:
        parallel:
          shared: [got]
          for:
            value: i
            in: [1, 2]
            steps:
              - c:
                  call: fetcher
                  result: x
              - keep:
                  assign:
                    - got: \${list.concat(got, x)}
    - r:
        return: \${got}
fetcher:
  steps:
    - get:
        call: http.get
        args:
          url: http://mock.invalid/
        result: r
    - back:
        return: \${r}
`,
    undefined,
    withHooks({ interceptor: ic }),
  );
  assert.ok('result' in out);
  if ('result' in out) {
    assert.equal(JSON.parse(out.result).sort(), ['fetcher/get/1', 'fetcher/get/2']);
  }
});

s('the interceptor\'s signal aborts when the execution is cancelled', async () => {
  let seen: CancelSignal | undefined;
  const ic = interceptor((call) => {
    seen = call.signal;
    return new Promise<Value>((_resolve, reject) => call.signal.addEventListener('abort', () => reject(call.signal.reason)));
  });
  const h = withHooks({ interceptor: ic });
  const def = compileDefinition('main:\n  steps:\n    - g:\n        call: http.get\n        args:\n          url: http://x.invalid/\n', DEFINITION_LIBRARY);
  const ctrl = new AbortController();
  const p = runExecution(def, null, h.deps, ctrl.signal);
  await until(() => seen, 'the interceptor to be called');
  assert.is(seen?.aborted, false);
  const reason = new Error('stop');
  ctrl.abort(reason);
  assert.is(await p.catch((e: unknown) => e), reason);
  assert.is(seen?.aborted, true);
});

s('argument errors are raised before the interceptor is asked (a mock cannot hide a wrong argument name)', async () => {
  const ic = interceptor(() => 'mocked');
  const out = await run(
    'main:\n  steps:\n    - g:\n        call: http.get\n        args:\n          uri: http://x.invalid/\n',
    undefined,
    withHooks({ interceptor: ic }),
  );
  assert.ok('error' in out && toJson(out.error.value).includes('TypeError'));
  assert.is(ic.calls.length, 0);
});

s('with no hooks the results are the same (observer and interceptor only watch)', async () => {
  const plain = await run(everyKind);
  const rec = recorder();
  const watched = await run(everyKind, undefined, withHooks({ observer: rec.observer, interceptor: interceptor((_c, p) => p()) }));
  assert.equal(watched, plain);
});

s.run();
