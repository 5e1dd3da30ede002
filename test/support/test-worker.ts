/**
 * One test process of test/run.ts: it runs the test files it is sent, one unit (a file, or files that go
 * together) at a time, with uvu's public runner (`uvu/run`, what its CLI calls), and asks for the next.
 *
 * Protocol (an IPC channel from test/run.ts): a message `{ files: [absolute paths] }` runs those files as one uvu
 * run; its report goes to stdout, stderr included (redirected there, so the two stay in order), followed by the
 * line {@link UNIT_DONE} with `pass` or `fail`; a message `{ end: true }` ends the process at once, with code 1
 * if any unit failed.
 */
import { relative } from 'node:path';

/** The line that ends a unit's report: `UNIT_DONE + ' pass'` or `' fail'`. */
export const UNIT_DONE = '@@ test/run.ts: unit done @@';

const root = new URL('..', import.meta.url).pathname;

interface Queue {
  UVU_QUEUE?: unknown[];
}

/** Runs one unit with uvu/run; resolves to whether every test passed. */
async function runUnit(files: readonly string[]): Promise<boolean> {
  // uvu/run numbers its groups from 0 on each call: the queue must start empty, or this unit's suites would
  // join an earlier unit's group.
  (globalThis as Queue).UVU_QUEUE?.splice(0);
  process.exitCode = 0;
  const { run } = await import('uvu/run');
  await run(files.map((file) => ({ name: relative(root, file), file })));
  const passed = (process.exitCode ?? 0) === 0;
  process.exitCode = 0;
  return passed;
}

if (process.send) {
  process.stderr.write = process.stdout.write.bind(process.stdout) as typeof process.stderr.write;
  let failedOnce = false;
  process.on('message', (message: { files?: string[]; end?: boolean }) => {
    if (message.end) {
      // Every unit has ended: a timer or socket a test left behind must not keep the run waiting.
      process.exit(failedOnce ? 1 : 0);
    }
    void runUnit(message.files ?? []).then(
      (passed) => {
        failedOnce ||= !passed;
        process.stdout.write(`\n${UNIT_DONE} ${passed ? 'pass' : 'fail'}\n`);
      },
      (error: unknown) => {
        failedOnce = true;
        process.stdout.write(`\n${(error as Error)?.stack ?? String(error)}\n${UNIT_DONE} fail\n`);
      },
    );
  });
}
