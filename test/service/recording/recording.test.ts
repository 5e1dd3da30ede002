// The recording of an execution (docs/recording.md "What an execution records"): the times it read, the UUIDs
// it drew, the environment variables it read, the callbacks it created and the requests they delivered; kept
// with the execution by the service core; bounded; and played back in order by a case's `playback`.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServiceCore } from '../../../src/service/core.ts';
import type { Execution, ServiceCore } from '../../../src/service/model.ts';
import { MAX_RECORDED, Recording, recordingClock, recordingUuid } from '../../../src/service/recording/recording.ts';
import { systemClock } from '../../../src/engine/system-clock.ts';

const s = suite('service: what an execution records besides its calls');

function core(): ServiceCore & { close(): void } {
  return createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost:9999', log: () => {}, env: { REGION: 'eu' } });
}

async function ended(c: ServiceCore, workflowId: string, id: string): Promise<Execution> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const ex = c.getExecution(workflowId, id);
    if (ex.state !== 'ACTIVE') return ex;
    if (Date.now() > deadline) throw new Error('the execution did not end');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const READS = `main:
  steps:
    - read:
        assign:
          - t1: \${sys.now()}
          - u: \${uuid.generate()}
          - region: \${sys.get_env("REGION")}
          - missing: \${sys.get_env("NOPE", "fallback")}
          - cb: \${events.create_callback_endpoint("POST")}
    - wait:
        call: events.await_callback
        args:
          callback: \${cb}
          timeout: 60
        result: got
    - done:
        return:
          t1: \${t1}
          u: \${u}
          region: \${region}
          approved: \${got.http_request.body.approved}
`;

s('the core keeps what an execution read: times, UUIDs, environment, callbacks created and delivered', async () => {
  const c = core();
  try {
    c.createWorkflow('reads', { sourceContents: READS });
    const started = c.createExecution('reads', {});
    const id = started.name.split('/').pop()!;
    let cbId: string | undefined;
    for (let i = 0; i < 400 && !cbId; i++) {
      await new Promise((r) => setTimeout(r, 5));
      cbId = c.listCallbacks('reads', id)[0]?.name.split('/').pop();
    }
    assert.ok(cbId, 'the callback was created');
    const answer = c.deliverCallback(cbId!, { method: 'POST', headers: { 'content-type': 'application/json', 'x-approver': 'ada' }, query: { q: '1' }, body: new TextEncoder().encode('{"approved": true}') });
    assert.is(answer.status, 200);
    const ex = await ended(c, 'reads', id);
    assert.is(ex.state, 'SUCCEEDED', JSON.stringify(ex));
    const result = JSON.parse(ex.result!);
    const rec = c.executionRecording('reads', id).inputs!;
    assert.is(rec.times[0]! / 1000, result.t1, 'sys.now read the first recorded time');
    assert.equal(rec.uuids, [result.u]);
    assert.equal([...rec.env], [['REGION', 'eu'], ['NOPE', null]]);
    assert.is(rec.callbacksCreated.length, 1);
    assert.equal(rec.callbacks.map((cb) => ({ method: cb.method, approver: cb.headers['x-approver'], query: cb.query })), [{ method: 'POST', approver: 'ada', query: { q: '1' } }]);
    assert.is(rec.truncated, false);
  } finally {
    c.close();
  }
});

s('playback answers the recorded times and UUIDs in order, then the clock and the platform', () => {
  const rec = new Recording();
  const clock = recordingClock(systemClock, rec, { times: [1000.5, 2000.25], uuids: ['u-1'] });
  const uuid = recordingUuid(rec, { times: [], uuids: ['u-1'] });
  assert.is(clock.now(), 1000.5);
  assert.is(clock.now(), 2000.25);
  const live = clock.now();
  assert.ok(Math.abs(live - Date.now()) < 5_000, 'after the recorded times, the clock');
  assert.is(uuid(), 'u-1');
  assert.match(uuid(), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  assert.equal(rec.times, [1000.5, 2000.25, live], 'played-back values are recorded again');
});

s('the recording is bounded: the first MAX_RECORDED of each kind are kept and truncated says more were drawn', () => {
  const rec = new Recording();
  const clock = recordingClock({ now: () => 1, sleep: () => Promise.resolve() }, rec);
  for (let i = 0; i < MAX_RECORDED + 5; i++) clock.now();
  assert.is(rec.times.length, MAX_RECORDED);
  assert.is(rec.truncated, true);
});

s('replaying an execution whose recording is gone (it never started) or incomplete is NOT_FOUND with the reason (docs/recording.md#replay-and-redrive)', async () => {
  const c = core();
  try {
    c.createWorkflow('w', { sourceContents: `main:\n  steps:\n    - draw:\n        for:\n          value: i\n          range: [0, ${MAX_RECORDED}]\n          steps:\n            - u:\n                assign:\n                  - u: \${uuid.generate()}\n` });
    // Cancelled before it started: nothing was recorded.
    const never = c.createExecution('w', {}).name.split('/').pop()!;
    c.cancelExecution('w', never);
    const notFound = (reason: RegExp) => (e: { code?: string; message: string }) => e.code === 'NOT_FOUND' && reason.test(e.message);
    assert.throws(() => c.replayExecution('w', never, { latest: false, strict: false }), notFound(/the recording of execution ".*" is gone: it never started/));
    // Drew one UUID more than a recording keeps.
    const long = c.createExecution('w', {}).name.split('/').pop()!;
    assert.is((await ended(c, 'w', long)).state, 'SUCCEEDED');
    assert.throws(() => c.replayExecution('w', long, { latest: false, strict: false }), notFound(/is incomplete: it read more values than a recording keeps/));
  } finally {
    c.close();
  }
});

s.run();
