// The emulator for benchmarks that need to see inside the server: the built JS API (dist/emulator.js, imported,
// which starts no command line) in a child process started with child_process.fork.
// It sends {url, port, grpcPort} once listening and answers IPC messages:
//   'cpu'   -> {cpu: process.cpuUsage()} (microseconds of user and system CPU time of the server process)
//   'close' -> closes the emulator and exits.
import { startEmulator } from '../../dist/emulator.js';

const emulator = await startEmulator();
process.on('message', (message) => {
  if (message === 'cpu') process.send({ cpu: process.cpuUsage() });
  if (message === 'close') emulator.close().then(() => process.exit(0));
});
process.send({ url: emulator.url, port: emulator.port, grpcPort: emulator.grpcPort });
