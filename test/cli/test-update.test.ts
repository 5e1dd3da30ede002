// `workflows-emulator test --update` (docs/testing.md "Updating expectations"): failing cases get their actual
// result or error (and steps where they have them) written into `expect`; passing cases, comments, key order,
// quoting and formatting stay; every change is listed; a case whose workflow does not deploy is not updated.
// In process, through the command's function.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { testCommand } from '../../src/cli/test-command/test-command.ts';

const s = suite<{ dir: string }>('cli: test --update writes the actual outcome into failing cases');

const WORKFLOW = `main:
  params: [args]
  steps:
    - check:
        switch:
          - condition: \${args.n < 0}
            raise: {message: negative, code: 400, tags: [ValueError]}
    - double:
        return:
          n: \${args.n * 2}
          half: \${args.n / 2}
`;

const TESTS = `# Doubling: kept as written
workflow: ./double.yaml
cases:
  - name: 'passes'          # untouched
    argument: {n: 2}
    expect:
      result: {n: 4, half: 1.0}

  - name: stale result
    argument: {n: 3}
    expect:
      steps: [check, double]   # the steps line is rewritten
      result: {n: 5, half: 1.5}
      logs: []

  - name: "now fails"
    argument: {n: -1}
    expect:
      result: {n: -2, half: -0.5}
`;

function io(cwd: string) {
  let out = '';
  return {
    io: { stdout: (t: string) => void (out += t), stderr: (t: string) => void (out += t), cwd },
    output: () => out,
  };
}

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'test-update-'));
  writeFileSync(join(ctx.dir, 'double.yaml'), WORKFLOW);
  writeFileSync(join(ctx.dir, 'double.test.yaml'), TESTS);
});

s.after.each((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

s('failing cases get their actual result or error; the rest of the file stays as written', async (ctx) => {
  const o = io(ctx.dir);
  assert.is(await testCommand(['--update', '.'], o.io), 1, o.output());
  assert.match(o.output(), /updated: double\.test\.yaml > stale result: result, steps\n/);
  assert.match(o.output(), /updated: double\.test\.yaml > now fails: error\n/);
  assert.not.match(o.output(), /updated: .*passes/);
  const text = readFileSync(join(ctx.dir, 'double.test.yaml'), 'utf8');
  assert.is(
    text,
    TESTS.replace('      steps: [check, double]   # the steps line is rewritten\n      result: {n: 5, half: 1.5}', '      steps: [check, double] # the steps line is rewritten\n      result: {n: 6, half: 1.5}')
      .replace("  - name: 'passes'          # untouched", "  - name: 'passes' # untouched")
      .replace('      result: {n: -2, half: -0.5}\n', '      error:\n        message: negative\n        code: 400\n        tags: [ValueError]\n'),
  );
  const again = io(ctx.dir);
  assert.is(await testCommand(['.'], again.io), 0, again.output());
  assert.match(again.output(), /3 passed/);
});

s('-u is --update; a case whose workflow does not deploy is not updated', async (ctx) => {
  writeFileSync(join(ctx.dir, 'double.yaml'), 'main:\n  steps:\n    - broken:\n        nonsense: 1\n');
  const o = io(ctx.dir);
  assert.is(await testCommand(['-u', '.'], o.io), 1);
  assert.not.match(o.output(), /updated:/);
  assert.is(readFileSync(join(ctx.dir, 'double.test.yaml'), 'utf8'), TESTS);
});

s('a malformed playback is an invalid test file: exit 2 with file:line:col (docs/recording.md)', async (ctx) => {
  writeFileSync(join(ctx.dir, 'double.test.yaml'), 'workflow: ./double.yaml\ncases:\n  - name: bad\n    playback: {times: [-1], uuids: [u1], callbacks: [not-a-url]}\n');
  const o = io(ctx.dir);
  assert.is(await testCommand(['.'], o.io), 2);
  assert.match(o.output(), /double\.test\.yaml:4:24: 'playback\.times' holds milliseconds since the epoch/);
  writeFileSync(join(ctx.dir, 'double.test.yaml'), 'workflow: ./double.yaml\ncases:\n  - name: bad\n    playback: {callbacks: [not-a-url], when: 1}\n');
  const again = io(ctx.dir);
  assert.is(await testCommand(['.'], again.io), 2);
  assert.match(again.output(), /double\.test\.yaml:4:40: unknown key 'when' in 'playback'/);
});

s.run();
