// Standard output and error of the server (src/platform/std-streams.ts; docs/limits.md "Logs"): the listening line
// is printed, and once the reader of both has gone (EPIPE behind `| head -n 1`), sys.log lines and the lines of
// ended executions are no longer printed, but the emulator runs on and answers. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const s = suite<{ emu?: EmulatorProcess }>('dist: standard output and error of the server');

s.after.each(async (ctx) => {
  await ctx.emu?.close();
});

const LOGGING = `main:
  steps:
    - each:
        for:
          value: i
          range: [1, 200]
          steps:
            - say:
                call: sys.log
                args:
                  text: \${"line " + string(i) + " of a log that nobody reads any more"}
    - done:
        return: "logged"
`;

/** Fails: the emulator prints a line for every FAILED execution on stderr (docs/cli.md#failures-on-the-terminal). */
const FAILING = `main:
  steps:
    - boom:
        raise: "a failure printed to nobody"
`;

/** Creates an execution of `workflowId` and polls it until it has ended; its resource. */
async function runToEnd(emu: EmulatorProcess, workflowId: string): Promise<{ state: string; result?: string; error?: unknown }> {
  const created = await emu.request('POST', `/workflows/${workflowId}/executions`, {});
  assert.is(created.status, 200, created.text);
  return until(async () => {
    const r = await emu.request('GET', `/v1/${created.body.name}`);
    return r.body?.state === 'ACTIVE' ? undefined : r.body;
  }, `an execution of ${workflowId} to end`);
}

s('with its stdout and stderr closed by their reader, the server runs executions that log or fail (a line on stderr) and still answers', async (ctx) => {
  const emu = (ctx.emu = await startEmulator({ workflowsDir: false }));
  assert.match(emu.stdout(), /^workflows-emulator listening on http:\/\/\S+ \(REST API; web UI at /);
  emu.child.stdout!.destroy();
  emu.child.stderr!.destroy();
  const deployed = await emu.request('POST', '/workflows?workflowId=logger', { sourceContents: LOGGING });
  assert.is(deployed.status, 200, deployed.text);
  for (let round = 0; round < 3; round++) {
    const done = await runToEnd(emu, 'logger');
    assert.is(done.state, 'SUCCEEDED', JSON.stringify(done.error));
    assert.is(done.result, '"logged"');
  }
  const failing = await emu.request('POST', '/workflows?workflowId=failing', { sourceContents: FAILING });
  assert.is(failing.status, 200, failing.text);
  for (let round = 0; round < 3; round++) assert.is((await runToEnd(emu, 'failing')).state, 'FAILED');
  assert.is(emu.child.exitCode, null, 'the emulator is still running');
  assert.is((await emu.request('GET', '/workflows/logger')).status, 200);
});

s.run();
