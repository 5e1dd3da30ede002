/**
 * Starts the built emulator (dist/emulator.js, `npm run build` first) as a child process on free ports with
 * a temporary workflows directory, waits for its listening line and returns its URL, for black-box tests.
 *
 *   const emu = await startEmulator({ files: { 'hello.yaml': '...' } });
 *   const r = await emu.request('GET', '/workflows');   // relative to the API prefix
 *   await emu.close();                                  // SIGTERM, wait for exit, remove the temp dir
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The bundle under test. */
export const EMULATOR_JS = resolve(new URL('../../dist/emulator.js', import.meta.url).pathname);

/** Options of {@link startEmulator}. */
export interface EmulatorOptions {
  /** Files written into the temporary workflows directory before start (name → content). */
  readonly files?: Readonly<Record<string, string>>;
  /** Use this directory instead of a temporary one (it is not removed on close); `false`: no directory (API-only). */
  readonly workflowsDir?: string | false;
  /** Extra command-line arguments. */
  readonly args?: readonly string[];
  /** Extra environment variables (PORT and friends are cleared unless given here). */
  readonly env?: Readonly<Record<string, string>>;
  /** The command that runs the bundle: default `[process.execPath]` (e.g. `['deno', 'run', '-A']`). */
  readonly command?: readonly string[];
  /** Project and location (default the spec's defaults). */
  readonly project?: string;
  readonly location?: string;
  /** How long to wait for the listening line, in milliseconds (default 15000). */
  readonly startTimeoutMs?: number;
}

/** A running emulator process. */
export interface EmulatorProcess {
  /** Base URL, e.g. `http://localhost:41234`. */
  readonly url: string;
  /** `url` + `/v1/projects/{project}/locations/{location}`. */
  readonly api: string;
  readonly port: number;
  /** gRPC port, when the listening line names one. */
  readonly grpcPort?: number;
  /** The watched directory (undefined in API-only mode). */
  readonly workflowsDir?: string;
  readonly child: ChildProcess;
  /** Everything printed so far. */
  stdout(): string;
  stderr(): string;
  /**
   * Resolves with the output (stdout + stderr) once `pattern` matches it; rejects after `timeoutMs`, or at once
   * when the process has exited without printing it.
   */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /**
   * A JSON request: `path` is relative to {@link api} when it starts with `/` and does not start with `/v1`,
   * `/callbacks` or `/ui`; otherwise relative to {@link url}; a full URL is used as is.
   */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; text: string; headers: Headers }>;
  /** SIGTERM, wait for exit (SIGKILL after 5 s), remove the temporary directory; resolves to the exit code. */
  close(): Promise<number | null>;
}

/** Starts dist/emulator.js with `--port 0 --grpc-port 0` and resolves once it prints its listening line. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<EmulatorProcess> {
  let workflowsDir: string | undefined;
  let ownDir = false;
  if (options.workflowsDir === false) workflowsDir = undefined;
  else if (typeof options.workflowsDir === 'string') workflowsDir = options.workflowsDir;
  else {
    workflowsDir = mkdtempSync(join(tmpdir(), 'wfemu-'));
    ownDir = true;
  }
  if (workflowsDir && options.files) {
    for (const [name, content] of Object.entries(options.files)) writeFileSync(join(workflowsDir, name), content);
  }
  const project = options.project ?? 'my-project';
  const location = options.location ?? 'us-central1';
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v !== undefined && !['PORT', 'HOST', 'GRPC_PORT', 'PROJECT', 'LOCATION', 'WORKFLOWS_DIR'].includes(k)) env[k] = v;
  }
  Object.assign(env, options.env ?? {});
  const args = [
    EMULATOR_JS,
    '--port',
    '0',
    '--grpc-port',
    '0',
    '--host',
    '127.0.0.1',
    '--project',
    project,
    '--location',
    location,
    ...(workflowsDir ? ['--workflows-dir', workflowsDir] : []),
    ...(options.args ?? []),
  ];
  const [cmd, ...cmdArgs] = options.command ?? [process.execPath];
  const child = spawn(cmd!, [...cmdArgs, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const waiters = new Set<() => void>();
  child.stdout!.setEncoding('utf8').on('data', (d: string) => {
    out += d;
    for (const w of waiters) w();
  });
  child.stderr!.setEncoding('utf8').on('data', (d: string) => {
    err += d;
    for (const w of waiters) w();
  });
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  // 'close' comes after 'exit', once the output streams are drained: the output is then complete.
  let hasExited = false;
  child.on('close', () => {
    hasExited = true;
    for (const w of waiters) w();
  });

  // A waiter ends when the pattern matches, when the time is up, or when the process has exited without
  // printing it (then no timer is left running to hold the test process open).
  const waitForOutput = (pattern: RegExp, timeoutMs = 10_000): Promise<string> =>
    new Promise((res, rej) => {
      const check = (): void => {
        if (pattern.test(out + err)) {
          done();
          res(out + err);
        } else if (hasExited) {
          done();
          rej(new Error(`emulator exited with code ${child.exitCode} without printing ${pattern}:\n${out}${err}`));
        }
      };
      const timer = setTimeout(() => {
        done();
        rej(new Error(`timed out waiting for ${pattern} in emulator output:\n${out}${err}`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });

  const cleanup = (): void => {
    if (ownDir && workflowsDir) rmSync(workflowsDir, { recursive: true, force: true });
  };
  let listening: string;
  try {
    // Fails at once, with everything the process printed, if it exits before listening.
    listening = await waitForOutput(/listening on http:\/\/\S+/, options.startTimeoutMs ?? 15_000);
  } catch (e) {
    child.kill('SIGKILL');
    cleanup();
    throw e;
  }
  const url = /listening on (http:\/\/[^\s;)]+)/.exec(listening)![1]!;
  const port = Number(/:(\d+)$/.exec(url)![1]);
  const grpcMatch = /gRPC on [^;)\s]*:(\d+)/.exec(listening);
  const api = `${url}/v1/projects/${project}/locations/${location}`;

  let closing: Promise<number | null> | undefined;
  return {
    url,
    api,
    port,
    ...(grpcMatch ? { grpcPort: Number(grpcMatch[1]) } : {}),
    ...(workflowsDir ? { workflowsDir } : {}),
    child,
    stdout: () => out,
    stderr: () => err,
    waitForOutput,
    async request(method, path, body, headers) {
      const target = /^https?:/.test(path)
        ? path
        : path.startsWith('/v1') || path.startsWith('/callbacks') || path.startsWith('/ui') || path.startsWith('/emulator/') || path === '/'
          ? url + path
          : api + path;
      const init: RequestInit = { method, headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers }, redirect: 'manual' };
      if (body !== undefined) init.body = typeof body === 'string' ? body : JSON.stringify(body);
      const r = await fetch(target, init);
      const text = await r.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: r.status, body: parsed, text, headers: r.headers };
    },
    close() {
      closing ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGTERM');
          const t = setTimeout(() => child.kill('SIGKILL'), 5000);
          const code = await exited;
          clearTimeout(t);
          cleanup();
          return code;
        }
        cleanup();
        return child.exitCode;
      })();
      return closing;
    },
  };
}

/** A TCP port that was free on 127.0.0.1 a moment ago (for a child that must be told its port up front). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/** Polls `fn` until it returns a value other than undefined, or throws after `timeoutMs` (no timed assertions). */
export async function until<T>(fn: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 10_000, intervalMs = 20): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/**
 * Runs the bundle with `args` (on free ports, bound to 127.0.0.1) until it exits, for start-ups that must fail;
 * killed with SIGKILL after 15 s, so a hang shows as a null exit code. Resolves to its exit code and stderr.
 */
export function runToExit(args: readonly string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [EMULATOR_JS, '--port', '0', '--grpc-port', '0', '--host', '127.0.0.1', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const t = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('close', (code) => {
      clearTimeout(t);
      done({ code, stderr });
    });
  });
}
