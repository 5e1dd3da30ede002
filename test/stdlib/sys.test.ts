import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { WorkflowError } from '../../src/lang/errors.ts';
import { mapOf, type Value } from '../../src/lang/value.ts';
import { recordingVirtualTime } from '../support/virtual-time.ts';
import { testCallbacks } from '../support/callbacks.ts';
import { bindNamedArgs, bindPositionalArgs, STDLIB } from '../../src/stdlib/index.ts';
import type { CallContext, LogEntry } from '../../src/stdlib/types.ts';
import { executionEnv } from '../../src/stdlib/sys.ts';

// docs/standard-library.md#sys, the sys table and the built-in environment variables; Google's sys reference for
// sys.sleep_until and the `timestamp` argument of sys.log.
const s = suite('stdlib sys.*');

function setup(startMs = Date.UTC(2026, 10, 21, 8, 0, 0) + 0.25) {
  const clock = recordingVirtualTime(startMs);
  const logs: LogEntry[] = [];
  const ctx: CallContext = {
    clock,
    fetch: globalThis.fetch,
    env: new Map([
      ['CLOUD_PROJECT_ID', 'p'],
      ['GOOGLE_CLOUD_PROJECT_ID', 'p'],
    ]),
    signal: new AbortController().signal,
    log: (e) => logs.push(e),
    callbacks: testCallbacks(clock).hub,
  };
  const call = (name: string, ...args: Value[]) => {
    const fn = STDLIB.get(name)!;
    return fn.impl(bindPositionalArgs(fn, args), ctx);
  };
  const named = (name: string, args: Record<string, Value>) => {
    const fn = STDLIB.get(name)!;
    return fn.impl(bindNamedArgs(fn, mapOf(args)), ctx);
  };
  return { clock, logs, ctx, call, named };
}

function raises(f: () => unknown, tag: string, inMessage?: string): void {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof WorkflowError, String(e));
    assert.ok((e as WorkflowError).tags.includes(tag), `${(e as WorkflowError).tags} lacks ${tag}`);
    if (inMessage !== undefined) assert.match((e as WorkflowError).message, inMessage);
    return;
  }
  assert.unreachable(`expected ${tag}`);
}

s('sys.get_env returns the value, the default when unset, KeyError otherwise (docs/standard-library.md#sys)', () => {
  const { call } = setup();
  assert.is(call('sys.get_env', 'CLOUD_PROJECT_ID'), 'p');
  assert.is(call('sys.get_env', 'GOOGLE_CLOUD_PROJECT_ID'), 'p');
  assert.is(call('sys.get_env', 'NOPE', 'd'), 'd');
  raises(() => call('sys.get_env', 'NOPE'), 'KeyError');
  raises(() => call('sys.get_env', 1n), 'TypeError');
});

s('sys.get_env raises TypeError for a name or default that is not a string, set or not (https://cloud.google.com/workflows/docs/reference/stdlib/sys/get_env)', () => {
  const { call } = setup();
  raises(() => call('sys.get_env', 'NOPE', 5n), 'TypeError', 'default');
  raises(() => call('sys.get_env', 'CLOUD_PROJECT_ID', 5n), 'TypeError', 'default');
  raises(() => call('sys.get_env', 'NOPE', null), 'TypeError', 'default');
  raises(() => call('sys.get_env', 5n, 'd'), 'TypeError', 'name');
});

s('sys.now is the clock time as double seconds, sub-millisecond (docs/standard-library.md#sys)', () => {
  const { call, clock } = setup();
  const t = call('sys.now');
  assert.is(typeof t, 'number');
  assert.is(t, clock.now() / 1000);
  assert.ok(!Number.isInteger((t as number) * 1000));
});

s('sys.log records data with DEFAULT severity; text is an alias of data; a map or list as data is structured (docs/standard-library.md#sys; Google\'s sys.log)', () => {
  const { named, logs, clock } = setup();
  assert.is(named('sys.log', { data: mapOf({ a: 1n }) }), null);
  named('sys.log', { text: 'hello', severity: 'warning' });
  assert.is(logs.length, 2);
  assert.is(logs[0]!.severity, 'DEFAULT');
  assert.equal(logs[0]!.payload, mapOf({ a: 1n }));
  assert.is(logs[0]!.structured, true);
  assert.is(logs[1]!.structured, false);
  named('sys.log', { data: [1n, 'two'] });
  named('sys.log', { data: 3n });
  assert.equal([logs[2]!.structured, logs[3]!.structured], [true, false]);
  assert.is(logs[0]!.time, new Date(clock.now()).toISOString());
  assert.equal([logs[1]!.severity, logs[1]!.payload], ['WARNING', 'hello']);
});

s('sys.log with json is structured logging of a map (docs/standard-library.md#sys)', () => {
  const { named, logs } = setup();
  named('sys.log', { json: mapOf({ k: 'v' }), severity: 'INFO' });
  assert.is(logs[0]!.structured, true);
  assert.equal(logs[0]!.payload, mapOf({ k: 'v' }));
  raises(() => named('sys.log', { json: 'not a map' }), 'TypeError');
  raises(() => named('sys.log', { json: mapOf({}), data: 'x' }), 'TypeError');
});

s('sys.log: json other than a map, data or text of another type (bytes, null alone), two payloads or none are TypeErrors (https://cloud.google.com/workflows/docs/reference/stdlib/sys/log)', () => {
  const { named, call, logs } = setup();
  raises(() => named('sys.log', { json: [1n] }), 'TypeError', 'json must be a map');
  raises(() => named('sys.log', { data: new Uint8Array([1]) }), 'TypeError', 'bytes');
  raises(() => named('sys.log', { text: new Uint8Array([1]) }), 'TypeError', 'text must be');
  raises(() => named('sys.log', { data: null }), 'TypeError', 'missing');
  raises(() => named('sys.log', { data: 'a', text: 'b' }), 'TypeError', 'data and text');
  raises(() => named('sys.log', { severity: 'INFO' }), 'TypeError', 'missing');
  // The list form's order is data, severity, text, json, timeout; null stands for "not given".
  call('sys.log', null, 'ERROR', mapOf({ a: 1n }));
  assert.equal([logs[0]!.severity, logs[0]!.structured], ['ERROR', false]);
  call('sys.log', null, 'INFO', null, mapOf({ a: 1n }));
  assert.equal([logs[1]!.severity, logs[1]!.structured], ['INFO', true]);
  assert.is(logs.length, 2);
});

s('sys.log accepts every spec severity and refuses others (docs/standard-library.md#sys)', () => {
  const { named, logs } = setup();
  for (const sev of ['DEFAULT', 'DEBUG', 'INFO', 'NOTICE', 'WARNING', 'ERROR', 'CRITICAL', 'ALERT', 'EMERGENCY']) {
    named('sys.log', { data: 1n, severity: sev });
  }
  assert.is(logs.length, 9);
  raises(() => named('sys.log', { data: 1n, severity: 'LOUD' }), 'ValueError');
});

s('sys.sleep waits the given seconds on the clock and returns null (docs/standard-library.md#sys)', async () => {
  const { call, clock } = setup();
  assert.is(await call('sys.sleep', 1.5), null);
  assert.is(await call('sys.sleep', 2n), null);
  assert.equal(clock.sleepsMs, [1500, 2000]);
  raises(() => call('sys.sleep', -1n), 'ValueError');
  raises(() => call('sys.sleep', 'x'), 'TypeError');
});

s('sys.sleep accepts up to 31,536,000 seconds (one year) and raises ValueError beyond (Google sys.sleep: "Maximum is 31536000")', async () => {
  const { call, clock } = setup();
  assert.is(await call('sys.sleep', 31_536_000n), null);
  assert.equal(clock.sleepsMs, [31_536_000_000]);
  raises(() => call('sys.sleep', 31_536_001n), 'ValueError', '31536000');
  raises(() => call('sys.sleep', 31_536_000.5), 'ValueError');
  raises(() => call('sys.sleep', 1e300), 'ValueError');
  raises(() => call('sys.sleep_until', '2999-01-01T00:00:00Z'), 'ValueError', 'one year');
});

s('sys.sleep rejects with the signal reason when the execution is cancelled (docs/standard-library.md#sys)', async () => {
  const { ctx } = setup();
  const ctrl = new AbortController();
  const fn = STDLIB.get('sys.sleep')!;
  const p = fn.impl([10n], { ...ctx, signal: ctrl.signal, clock: recordingVirtualTime() });
  ctrl.abort('gone');
  try {
    await p;
    assert.unreachable();
  } catch (e) {
    assert.is(e, 'gone');
  }
});

s('sys.sleep_until sleeps until an RFC 3339 time; a past time returns at once (Google sys reference)', async () => {
  const { call, clock } = setup(Date.UTC(2026, 0, 1));
  assert.is(await call('sys.sleep_until', '2026-01-01T00:00:10Z'), null);
  assert.equal(clock.sleepsMs, [10_000]);
  assert.is(call('sys.sleep_until', '2025-01-01T00:00:00Z'), null);
  assert.equal(clock.sleepsMs, [10_000]);
  raises(() => call('sys.sleep_until', 'tomorrow'), 'ValueError');
});

s('sys.sleep and sys.sleep_until are blocking; get_env, now and log are not (expressions compile accordingly)', () => {
  assert.is(STDLIB.get('sys.sleep')!.blocking, true);
  assert.is(STDLIB.get('sys.sleep_until')!.blocking, true);
  for (const n of ['sys.get_env', 'sys.now', 'sys.log']) assert.not.ok(STDLIB.get(n)!.blocking, n);
});

s("GOOGLE_CLOUD_PROJECT_NUMBER and GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME: the project number (default 123456789012) and the workflow's service account, else the default compute account (https://cloud.google.com/workflows/docs/reference/environment-variables)", () => {
  const ids = { project: 'p', location: 'l', workflowId: 'w', revisionId: '000001-abc', executionId: 'e1' };
  const plain = executionEnv(ids);
  assert.is(plain.get('GOOGLE_CLOUD_PROJECT_NUMBER'), '123456789012');
  assert.is(plain.get('GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME'), '123456789012-compute@developer.gserviceaccount.com');
  const numbered = executionEnv({ ...ids, projectNumber: '42' });
  assert.is(numbered.get('GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME'), '42-compute@developer.gserviceaccount.com');
  const named = executionEnv({ ...ids, serviceAccount: 'projects/p/serviceAccounts/sa@p.iam.gserviceaccount.com' }, { GOOGLE_CLOUD_PROJECT_NUMBER: 'spoofed' });
  assert.is(named.get('GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME'), 'sa@p.iam.gserviceaccount.com');
  assert.is(named.get('GOOGLE_CLOUD_PROJECT_NUMBER'), '123456789012');
  assert.is(executionEnv({ ...ids, serviceAccount: 'bare@p.iam.gserviceaccount.com' }).get('GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME'), 'bare@p.iam.gserviceaccount.com');
});

s('an execution\'s environment: built-ins (CLOUD_* and GOOGLE_CLOUD_*) win over userEnvVars, which win over the server\'s values (docs/standard-library.md#sys)', () => {
  const ids = { project: 'p', location: 'l', workflowId: 'w', revisionId: '000001-abc', executionId: 'e1' };
  const user = JSON.parse('{"MODE": "user", "CLOUD_PROJECT_ID": "spoofed", "__proto__": "just a key"}') as Record<string, string>;
  const env = executionEnv(ids, user, { MODE: 'server', REGION: 'eu' });
  assert.is(env.get('MODE'), 'user');
  assert.is(env.get('REGION'), 'eu');
  assert.is(env.get('CLOUD_PROJECT_ID'), 'p');
  assert.is(env.get('GOOGLE_CLOUD_WORKFLOW_EXECUTION_ID'), 'e1');
  assert.is(env.get('CLOUD_WORKFLOW_REVISION_ID'), '000001-abc');
  assert.is(env.get('__proto__'), 'just a key');
  assert.is(env.get('toString'), undefined);
  assert.is(env.has('constructor'), false);
  assert.is(env.has('REGION'), true);
  const all = Object.fromEntries(env);
  assert.equal(Object.keys(all).sort(), [
    'CLOUD_LOCATION', 'CLOUD_PROJECT_ID', 'CLOUD_WORKFLOW_EXECUTION_ID', 'CLOUD_WORKFLOW_ID', 'CLOUD_WORKFLOW_REVISION_ID',
    'GOOGLE_CLOUD_LOCATION', 'GOOGLE_CLOUD_PROJECT_ID', 'GOOGLE_CLOUD_PROJECT_NUMBER', 'GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME',
    'GOOGLE_CLOUD_WORKFLOW_EXECUTION_ID', 'GOOGLE_CLOUD_WORKFLOW_ID', 'GOOGLE_CLOUD_WORKFLOW_REVISION_ID', 'MODE', 'REGION', '__proto__',
  ]);
  assert.is(all['CLOUD_PROJECT_ID'], 'p');
  assert.is(env.size, 15);
  assert.equal([...env.keys()].length, 15);
  assert.equal(executionEnv(ids).get('CLOUD_LOCATION'), 'l');
});

s.run();
