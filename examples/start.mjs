#!/usr/bin/env node
// `npm start`: the example services (examples/services.mjs, on SERVICES_PORT, default 8790) and the emulator
// (dist/emulator.js, built by `npm run build`) on examples/workflows. Ctrl-C stops both.
// Usage: node examples/start.mjs [emulator options...]
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startServices } from './services.mjs';

const here = fileURLToPath(new URL('.', import.meta.url));
const servicesPort = Number(process.env.SERVICES_PORT ?? 8790);
let services;
try {
  services = await startServices(servicesPort);
} catch (e) {
  // One clear line, no stack trace: the usual cause is another `npm start` still running.
  const why = e?.code === 'EADDRINUSE' ? 'is already in use (is another `npm start` running?)' : `cannot be used: ${e?.message ?? e}`;
  process.stderr.write(
    `npm start: port ${servicesPort} for the example services ${why}. Stop what uses it, or start with ` +
      `SERVICES_PORT=<another port> (then pass "services_url": "http://localhost:<that port>" in each example's argument).\n`,
  );
  process.exit(1);
}
process.stdout.write(`example services listening on ${services.url}\n`);
const emulator = spawn(
  process.execPath,
  [`${here}../dist/emulator.js`, '--workflows-dir', `${here}workflows`, ...process.argv.slice(2)],
  { stdio: 'inherit' },
);
const stop = () => emulator.kill('SIGTERM');
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
emulator.on('exit', async (code) => {
  await services.close();
  process.exit(code ?? 0);
});
