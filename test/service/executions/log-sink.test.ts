// sys.log output and the entries kept (docs/limits.md "Logs"): a closed stdout never stops the emulator, a
// slow reader makes lines drop with a counted notice instead of a buffer without end, and the entries kept
// are bounded per execution and in total.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { lineWriter, LogRecord, MAX_LOG_ENTRIES_PER_EXECUTION } from '../../../src/service/executions/log-sink.ts';
import type { LogEntry } from '../../../src/stdlib/types.ts';
import { EMULATOR_JS } from '../../support/emulator.ts';

const s = suite('sys.log output and records (docs/limits.md "Logs")');

s('behind a closed pipe (`| head -n 1`), sys.log goes on and the server keeps answering', async () => {
  // The bundle (dist/emulator.js, built by npm test), as users run it.
  const child = spawn(process.execPath, [EMULATOR_JS, '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: fileURLToPath(new URL('../../..', import.meta.url)),
  });
  let exited: number | null | undefined;
  child.on('exit', (code) => (exited = code));
  try {
    const first = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stdout.on('data', (d: Buffer) => {
        text += d.toString();
        if (text.includes('\n')) resolve(text.split('\n')[0]!);
      });
      child.on('exit', () => reject(new Error('exited before listening')));
    });
    const url = /listening on (http:\/\/[^ ]+)/.exec(first)![1]!;
    child.stdout.destroy(); // the reader goes away: the next write is EPIPE
    const api = `${url}/v1/projects/my-project/locations/us-central1`;
    const src = 'main:\n  steps:\n    - l:\n        call: sys.log\n        args: {data: "hello"}\n    - r:\n        return: 1\n';
    assert.is((await fetch(`${api}/workflows?workflowId=w`, { method: 'POST', body: JSON.stringify({ sourceContents: src }) })).status, 200);
    for (let i = 0; i < 5; i++) {
      const r = (await (await fetch(`${api}/workflows/w/executions`, { method: 'POST', body: '{}' })).json()) as { name: string };
      await new Promise((r) => setTimeout(r, 50));
      assert.ok(r.name);
    }
    await new Promise((r) => setTimeout(r, 200));
    assert.is(exited, undefined, 'the emulator exited');
    assert.is((await fetch(`${url}/emulator/v1/health`)).status, 200);
  } finally {
    child.kill('SIGTERM');
  }
});

/** A writable that takes nothing until `flow()` is called: a slow reader. */
function slowStream(): { stream: Writable; written: string[]; flow(): void } {
  const written: string[] = [];
  const pending: (() => void)[] = [];
  let flowing = false;
  const stream = new Writable({
    highWaterMark: 16,
    write(chunk: Buffer, _enc, cb) {
      written.push(chunk.toString());
      if (flowing) cb();
      else pending.push(cb);
    },
  });
  return { stream, written, flow: () => ((flowing = true), pending.splice(0).forEach((cb) => cb())) };
}

s('a slow reader: lines past the unwritten limit are dropped and counted, and the count is printed once it drains', async () => {
  const { stream, written, flow } = slowStream();
  const print = lineWriter(stream, 100);
  for (let i = 0; i < 1000; i++) print(`line ${i} ${'x'.repeat(20)}`);
  assert.ok(stream.writableLength < 200, `unwritten ${stream.writableLength}`);
  flow();
  await new Promise((r) => setImmediate(r));
  print('after');
  const all = written.join('');
  assert.match(all, /workflows-emulator: \d+ log lines dropped: the output was read too slowly/);
  assert.ok(all.endsWith('after\n'));
  const dropped = Number(/(\d+) log lines dropped/.exec(all)![1]);
  assert.is(all.split('\n').filter((l) => l.startsWith('line ')).length + dropped, 1000);
});

s('a failing stream: the writer stops writing and never throws', () => {
  const stream = new Writable({ write: (_c, _e, cb) => cb(new Error('EPIPE')) });
  const print = lineWriter(stream);
  print('a');
  stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
  print('b');
});

s('a stream given by a function is got when the first line is printed, not before (src/platform/std-streams.ts)', () => {
  const { stream, written, flow } = slowStream();
  flow();
  let got = 0;
  const print = lineWriter(() => (got++, stream));
  assert.is(got, 0, 'no stream before the first line');
  print('one');
  print('two');
  assert.is(got, 1);
  assert.is(written.join(''), 'one\ntwo\n');
});

const entry = (bytes: number): LogEntry => ({ time: '2026-01-01T00:00:00Z', severity: 'INFO', payload: 'x'.repeat(bytes), structured: false });

s('entries kept: per execution and in total within their byte limits, the oldest dropped first', () => {
  const record = new LogRecord(10_000, 4_000);
  const a = {};
  const b = {};
  for (let i = 0; i < 100; i++) record.add(a, entry(936)); // 1000 bytes each as counted
  assert.is(record.read(a).entries.length, 4);
  assert.is(record.read(a).dropped, 96);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 4; j++) record.add({}, entry(936));
  }
  record.add(b, entry(936));
  assert.ok(record.totalBytes <= 10_000);
  assert.is(record.read(a).entries.length, 0, 'the oldest execution\'s entries went first');
  assert.is(record.read(b).entries.length, 1);
  record.forget(b);
  record.clear();
  assert.is(record.totalBytes, 0);
});

s('entries kept: at most MAX_LOG_ENTRIES_PER_EXECUTION per execution, whatever their size', () => {
  const record = new LogRecord();
  const a = {};
  for (let i = 0; i < MAX_LOG_ENTRIES_PER_EXECUTION + 10; i++) record.add(a, entry(1));
  assert.is(record.read(a).entries.length, MAX_LOG_ENTRIES_PER_EXECUTION);
});

s.run();
