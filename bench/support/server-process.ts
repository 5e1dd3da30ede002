/**
 * Starts bench/support/server-process.mjs (the built JS API in a child process) and returns its addresses,
 * a reader of the server's CPU time (`process.cpuUsage()` inside the server, user + system, microseconds) and
 * a close(). `BENCH_SERVER_NODE_ARGS` adds Node flags to the child, e.g. `--cpu-prof --cpu-prof-dir=prof` to
 * profile the server under a benchmark's load.
 */
import { fork } from 'node:child_process';

/** A running benchmark server. */
export interface BenchServer {
  readonly url: string;
  readonly port: number;
  readonly grpcPort: number;
  /** The server's CPU time so far (user + system), in microseconds. */
  cpuMicros(): Promise<number>;
  close(): Promise<void>;
}

/** Forks the server (of `file`, another build of dist/emulator.js, when given); resolves once it listens. */
export async function startBenchServer(file?: string): Promise<BenchServer> {
  const execArgv = (process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const env = file === undefined ? process.env : { ...process.env, BENCH_EMULATOR: file };
  const child = fork(new URL('./server-process.mjs', import.meta.url), [], { execArgv, env, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T>(): Promise<T> =>
    new Promise((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`bench server exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (m) => {
        child.off('exit', onExit);
        resolve(m as T);
      });
    });
  const ready = await next<{ url: string; port: number; grpcPort: number }>();
  return {
    ...ready,
    async cpuMicros() {
      const reply = next<{ cpu: NodeJS.CpuUsage }>();
      child.send('cpu');
      const { cpu } = await reply;
      return cpu.user + cpu.system;
    },
    close: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.send('close');
      }),
  };
}
