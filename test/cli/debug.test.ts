// The `debug` command of the built bundle (docs/debugging.md#launch): `workflows-emulator debug FILE` speaks
// the Debug Adapter Protocol on stdin/stdout (nothing else is written there: sys.log lines and the result are
// output events), stops at breakpoints, and refuses bad options with exit 2. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMULATOR_JS } from '../support/emulator.ts';

const SOURCE = `main:
  params: [args]
  steps:
    - say:
        call: sys.log
        args:
          text: \${"hello " + args.who}
    - done:
        return: \${args.who}
`;

const s = suite<{ dir: string; file: string }>('cli: workflows-emulator debug (docs/debugging.md#launch)');

s.before((c) => {
  c.dir = mkdtempSync(join(tmpdir(), 'wfe-debug-cli-'));
  c.file = join(c.dir, 'hello.yaml');
  writeFileSync(c.file, SOURCE);
});

s.after((c) => rmSync(c.dir, { recursive: true, force: true }));

/** A protocol client on a child's stdio: sends requests, collects every message the child writes. */
function client(p: ChildProcessWithoutNullStreams) {
  const messages: Record<string, any>[] = [];
  let buf = Buffer.alloc(0);
  let waiters: (() => void)[] = [];
  p.stdout.on('data', (d: Buffer) => {
    buf = Buffer.concat([buf, d]);
    for (;;) {
      const sep = buf.indexOf('\r\n\r\n');
      if (sep < 0) break;
      const m = /^Content-Length: (\d+)$/.exec(buf.subarray(0, sep).toString());
      assert.ok(m, `stdout holds protocol messages only: ${buf.subarray(0, sep).toString()}`);
      const len = Number(m![1]);
      if (buf.length < sep + 4 + len) break;
      messages.push(JSON.parse(buf.subarray(sep + 4, sep + 4 + len).toString()));
      buf = buf.subarray(sep + 4 + len);
      waiters.splice(0).forEach((w) => w());
    }
  });
  let seq = 0;
  return {
    messages,
    send(command: string, args: unknown = {}): number {
      const body = JSON.stringify({ seq: ++seq, type: 'request', command, arguments: args });
      p.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      return seq;
    },
    async wait(pred: (m: Record<string, any>) => boolean): Promise<Record<string, any>> {
      for (;;) {
        const hit = messages.find(pred);
        if (hit) return hit;
        await new Promise<void>((r) => waiters.push(r));
      }
    },
  };
}

s('debug FILE --argument JSON stops at a breakpoint over stdio and reports the log line and the result as output events', async (c) => {
  const p = spawn(process.execPath, [EMULATOR_JS, 'debug', c.file, '--argument', '{"who": "dap"}']);
  const dc = client(p);
  try {
    dc.send('initialize', { adapterID: 'workflows', pathFormat: 'path', linesStartAt1: true });
    dc.send('launch', {});
    await dc.wait((m) => m.event === 'initialized');
    const bp = dc.send('setFunctionBreakpoints', { breakpoints: [{ name: 'done' }] });
    assert.ok((await dc.wait((m) => m.request_seq === bp)).success);
    dc.send('configurationDone');
    const stopped = await dc.wait((m) => m.event === 'stopped');
    const st = dc.send('stackTrace', { threadId: stopped.body.threadId });
    const frames = (await dc.wait((m) => m.request_seq === st)).body.stackFrames;
    assert.is(frames[0].name, 'main.done');
    assert.is(frames[0].line, 8);
    assert.is(frames[0].source.path, c.file);
    dc.send('continue', { threadId: stopped.body.threadId });
    await dc.wait((m) => m.event === 'terminated');
    const outputs = dc.messages.filter((m) => m.event === 'output').map((m) => m.body.output).join('');
    assert.match(outputs, /hello dap/);
    assert.match(outputs, /execution succeeded: dap/);
  } finally {
    p.stdin.end();
    p.kill();
  }
});

s('debug FILE --mocks FILE --clock virtual: the http call is answered by the mock and an hour of sys.sleep takes no wall time', async (c) => {
  const file = join(c.dir, 'nap.yaml');
  writeFileSync(file, `main:
  steps:
    - get:
        call: http.get
        args:
          url: https://prices.example.test/tea
        result: r
    - nap:
        call: sys.sleep
        args:
          seconds: 3600
    - done:
        return: \${r.body.amount}
`);
  const mocks = join(c.dir, 'prices.yaml');
  writeFileSync(mocks, 'http:\n  - match: {url: "https://prices.example.test/tea"}\n    respond: {status: 200, body: {amount: 4}}\n');
  const p = spawn(process.execPath, [EMULATOR_JS, 'debug', file, '--mocks', mocks, '--clock', 'virtual']);
  const dc = client(p);
  try {
    dc.send('initialize', { adapterID: 'workflows', pathFormat: 'path', linesStartAt1: true });
    dc.send('launch', {});
    await dc.wait((m) => m.event === 'initialized');
    dc.send('configurationDone');
    // Under the real clock the sleep would hold the execution for an hour and this wait would not end.
    await dc.wait((m) => m.event === 'terminated');
    const outputs = dc.messages.filter((m) => m.event === 'output').map((m) => m.body.output).join('');
    assert.match(outputs, /execution succeeded: 4\b/);
  } finally {
    p.stdin.end();
    p.kill();
  }
});

s('debug refuses an unknown option with exit 2 and its usage', () => {
  const r = spawnSync(process.execPath, [EMULATOR_JS, 'debug', '--nope'], { encoding: 'utf8', timeout: 20_000 });
  assert.is(r.status, 2);
  assert.match(r.stderr, /unknown option --nope/);
  assert.match(r.stderr, /Usage: workflows-emulator debug/);
});

s.run();
