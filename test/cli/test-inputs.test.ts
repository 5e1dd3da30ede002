// What the test command reads and how it stops (docs/limits.md "The test command"): only regular files of
// bounded size (a test file naming /dev/zero or a FIFO is a clear error, not a 3 GB read or a wait without
// end), each real directory walked once whatever symbolic links point back, and SIGINT/SIGTERM stop a run
// with the results so far. In process: testCommand with its own IO.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testCommand, type TestIO } from '../../src/cli/test-command/test-command.ts';
import { findTestFiles } from '../../src/cli/test-command/find-test-files.ts';
import { readBoundedFile } from '../../src/cli/read-bounded.ts';

const s = suite('cli: test command inputs and interruption (docs/limits.md "The test command")');

function io(cwd: string, interrupt?: AbortSignal): TestIO & { out: string[]; err: string[] } {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), cwd, ...(interrupt ? { interrupt } : {}), color: false };
}

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'wfemu-inputs-'));
}

s('a test file naming /dev/zero as its workflow is an invalid test file (not a regular file), at once', async () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir, 'z.test.yaml'), 'workflow: /dev/zero\ncases:\n  - name: x\n');
    const o = io(dir);
    assert.is(await testCommand([], o), 2);
    assert.match(o.err.join(''), /cannot read the workflow \/dev\/zero: ENOTREG/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('a FIFO is refused without waiting for a writer; an over-large file is EFBIG', () => {
  const dir = tempDir();
  try {
    const fifo = join(dir, 'pipe.yaml');
    if (spawnSync('mkfifo', [fifo]).status === 0) assert.throws(() => readBoundedFile(fifo), /not a regular file/);
    writeFileSync(join(dir, 'big.yaml'), 'x'.repeat(2000));
    assert.throws(() => readBoundedFile(join(dir, 'big.yaml'), 1000), /2000 bytes, over the limit of 1000/);
    assert.is(readBoundedFile(join(dir, 'big.yaml')).length, 2000);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('two symbolic links to "." do not make the walk repeat: each real directory is walked once', () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir, 'a.test.yaml'), 'workflow: w.yaml\ncases: []\n');
    symlinkSync('.', join(dir, 'l1'));
    symlinkSync('.', join(dir, 'l2'));
    assert.equal(findTestFiles([], dir), [join(dir, 'a.test.yaml')]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

for (const [signal, exit] of [['SIGINT', 130], ['SIGTERM', 143]] as const) s(`${signal} stops a run: the results so far are reported and the exit code is ${exit}`, async () => {
  const dir = tempDir();
  try {
    writeFileSync(join(dir, 'w.yaml'), 'main:\n  steps:\n    - s:\n        call: sys.sleep\n        args: {seconds: 3600}\n');
    writeFileSync(join(dir, 'q.yaml'), 'main:\n  steps:\n    - r:\n        return: 1\n');
    writeFileSync(join(dir, 'a.test.yaml'), 'workflow: q.yaml\ncases:\n  - name: quick\n    expect: {result: 1}\n');
    writeFileSync(join(dir, 'b.test.yaml'), 'workflow: w.yaml\ncases:\n  - name: sleeps an hour\n');
    const ac = new AbortController();
    const o = io(dir, ac.signal);
    setTimeout(() => ac.abort(signal), 300);
    const code = await testCommand(['--clock', 'real', '--concurrency', '1'], o);
    assert.is(code, exit);
    const report = o.out.join('');
    assert.match(report, /quick/);
    assert.ok(report.includes(`interrupted (${signal})`), report);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s.run();
