// The emulator for benchmarks that need to see inside the server: the built JS API (dist/emulator.js, imported,
// which starts no command line) in a child process started with child_process.fork.
// It sends {url, port, grpcPort} once listening and answers IPC messages:
//   'cpu'   -> {cpu: process.cpuUsage()} (microseconds of user and system CPU time of the server process)
//   'close' -> closes the emulator and exits.
// BENCH_EMULATOR=<file> in its environment serves another build of the bundle instead (bench/deploy.bench.ts
// compares two that way).
import { pathToFileURL } from 'node:url';

const file = process.env.BENCH_EMULATOR;
const { startEmulator } = await import(file ? pathToFileURL(file).href : '../../dist/emulator.js');

const emulator = await startEmulator();
process.on('message', (message) => {
  if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
  if (message === 'close') emulator.close().then(() => process.exit(0));
});
process.send({ url: emulator.url, port: emulator.port, grpcPort: emulator.grpcPort });
