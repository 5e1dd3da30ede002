// One execution never holds the emulator (docs/architecture.md#running-fairness-and-value-semantics): while a workflow computes for a long time without
// ever waiting, the API answers, other executions' timers fire, cancel takes effect, and SIGTERM ends the
// process. Black-box, against the built bundle.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const s = suite('REST API while an execution computes (black-box)');

let emu: EmulatorProcess;
s.before(async () => {
  emu = await startEmulator({ workflowsDir: false });
  // Tens of thousands of steps that never wait, each doing real work: minutes of CPU for the engine.
  const busy = `main:
  steps:
    - init:
        assign:
          - s: \${text.replace_all(text.replace_all("0123456789", "", "0123456789"), "", "0123456789abcdefghij")}
          - s: \${s + s + s + s + s + s + s + s + s + s + s + s + s + s + s + s + s + s + s + s}
    - spin:
        for:
          value: i
          range: [1, 45000]
          steps:
            - work:
                assign:
                  - t: \${text.replace_all(s, "a", "b")}
    - done:
        return: finished
`;
  assert.is((await emu.request('POST', '/workflows?workflowId=busy', { sourceContents: busy })).status, 200);
  const sleeper = 'main:\n  steps:\n    - nap:\n        call: sys.sleep\n        args:\n          seconds: 0.2\n    - done:\n        return: rested\n';
  assert.is((await emu.request('POST', '/workflows?workflowId=sleeper', { sourceContents: sleeper })).status, 200);
});
s.after(async () => {
  if (emu.child.exitCode === null) await emu.close();
});

async function start(id: string): Promise<string> {
  const r = await emu.request('POST', `/workflows/${id}/executions`, {});
  assert.is(r.status, 200, r.text);
  return r.body.name;
}

s('the API answers and another execution\'s sleep ends while one execution computes; cancel stops it (docs/architecture.md#running-fairness-and-value-semantics)', async () => {
  const busy = await start('busy');
  // Answered while the computation goes on: the execution is still ACTIVE in the answer.
  const seen = await emu.request('GET', `/v1/${busy}`);
  assert.is(seen.body.state, 'ACTIVE');
  assert.is((await emu.request('GET', '/workflows')).status, 200);
  // Another execution sleeps 0.2 s and finishes while the busy one still runs.
  const sleeper = await start('sleeper');
  const rested = await until(async () => {
    const r = await emu.request('GET', `/v1/${sleeper}`);
    return r.body.state === 'ACTIVE' ? undefined : r.body;
  }, 'the sleeper to finish');
  assert.is(rested.state, 'SUCCEEDED');
  assert.is((await emu.request('GET', `/v1/${busy}`)).body.state, 'ACTIVE', 'the busy execution is still computing');
  const c = await emu.request('POST', `/v1/${busy}:cancel`);
  assert.is(c.body.state, 'CANCELLED');
});

s('SIGTERM ends the process while an execution computes (docs/cli.md#running-the-emulator: SIGINT and SIGTERM exit 0)', async () => {
  await start('busy');
  await until(async () => ((await emu.request('GET', '/workflows/busy/executions')).body.executions.some((e: any) => e.state === 'ACTIVE') ? true : undefined), 'a busy execution');
  // close() sends SIGTERM and falls back to SIGKILL after 5 s, which would give no exit code.
  assert.is(await emu.close(), 0);
});

s.run();
