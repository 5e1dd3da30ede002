// `npm start` (examples/start.mjs) says in one clear line, without a stack trace, when the example services'
// port is taken, and exits 1 without starting the emulator (README.md#five-minute-start).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';

const s = suite('npm start: the example services port taken (README.md#five-minute-start)');
const START = new URL('../../examples/start.mjs', import.meta.url).pathname;

s('one line naming the port and what to do, exit code 1, no stack trace', async () => {
  const held: Server = createServer();
  await new Promise<void>((r) => held.listen(0, '127.0.0.1', r));
  const port = (held.address() as { port: number }).port;
  try {
    const child = spawn(process.execPath, [START, '--port', '0', '--grpc-port', '0'], { env: { ...process.env, SERVICES_PORT: String(port) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
    assert.is(code, 1);
    assert.is(err.trim().split('\n').length, 1, err);
    assert.match(err, `npm start: port ${port} for the example services is already in use`);
    assert.match(err, 'SERVICES_PORT=');
    assert.not.match(err, /\n\s+at /, 'no stack trace');
    assert.not.match(out, /listening/, 'nothing started');
  } finally {
    await new Promise<void>((r) => held.close(() => r()));
  }
});

s.run();
