/**
 * The one-shot command (issue 7 "One-shot runs"): `workflows-emulator run <file.yaml|file.json> [--data
 * '<json>' | --data @args.json]` compiles one workflow file and runs one execution of it with the engine,
 * without the management API, for CI scripts and for trying a workflow once.
 *
 * Streams and exit codes:
 * - stdout holds the result's JSON only (one line, ints exact), so `... | jq` always works;
 * - stderr holds everything else: sys.log lines (the same JSON lines the server prints on stdout), the
 *   callback URLs the execution waits on, and on failure a line naming the failing step followed by the
 *   error payload's JSON as the last line;
 * - exit 0 for SUCCEEDED, 1 for FAILED, 2 when the run could not start (an invalid definition, reported as
 *   `<file>:<line>:<col>: invalid workflow definition: ...`, a bad option or `--data`, an unreadable file, or
 *   the callback port in use), 130 (SIGINT) or 143 (SIGTERM) when interrupted: the execution is cancelled.
 *
 * Callbacks: when the definition uses `events.create_callback_endpoint`, an HTTP listener serving only
 * `/callbacks/{id}` is opened on PORT/HOST (a free port unless `--port` or PORT names one) for as long
 * as the execution runs; every `events.await_callback` prints the URL it waits on to stderr. Workflows that
 * never create a callback open no port, so a one-shot run works next to a running emulator.
 *
 * The execution sees what the service would give it: CLOUD_PROJECT_ID and CLOUD_LOCATION from PROJECT and
 * LOCATION, CLOUD_WORKFLOW_ID from the file name, a revision ID and an execution ID (spec "sys").
 */
import { readFileSync } from 'node:fs';
import { displayHost, listenHttp, type HttpListener } from '../api/http-server.ts';
import { createCallbackHandler } from '../api/callback-handler.ts';
import { argvTokens, parseConfig } from './config.ts';
import { compileWorkflowFile, workflowIdOfFile } from './workflow-file.ts';
import { systemClock } from '../engine/clock.ts';
import { createVirtualTime, fetchHoldingTime } from '../engine/virtual-time.ts';
import { NO_MOCKS, type MockSet } from '../mocks/mock-file.ts';
import { mockExecution } from '../mocks/mock-interceptor.ts';
import type { Clock } from '../stdlib/types.ts';
import type { ExecutionDeps } from '../engine/types.ts';
import type { Definition } from '../lang/definition/ast.ts';
import { WorkflowError } from '../lang/errors.ts';
import { type Value } from '../lang/value.ts';
import { JsonSyntaxError, parseJson } from '../lang/json.ts';
import { CallbackRegistry } from '../service/callbacks.ts';
import { MAX_ARGUMENT_BYTES } from '../service/core.ts';
import { revisionId } from '../service/names.ts';
import { logLine, runToOutcome } from '../service/runner.ts';
import { executionEnv } from '../stdlib/sys.ts';
import { platformFetch } from '../stdlib/http.ts';

/** Exit codes of the one-shot command (issue 7 "One-shot runs"). */
const RUN_EXIT = {
  /** The execution SUCCEEDED; its result's JSON is on stdout. */
  succeeded: 0,
  /** The execution FAILED; its error payload's JSON is the last line of stderr. */
  failed: 1,
  /** Nothing ran: invalid definition (with file:line:col), bad option or `--data`, unreadable file, port in use. */
  usage: 2,
  /** Interrupted by SIGINT (128 + 2); the execution was cancelled. */
  sigint: 130,
  /** Interrupted by SIGTERM (128 + 15); the execution was cancelled. */
  sigterm: 143,
} as const;

/** The usage text of `workflows-emulator run --help`. */
const RUN_USAGE = `Usage: workflows-emulator run <file.yaml|file.json> [--data '<json>' | --data @args.json] [options]

Runs one execution of the workflow in the file, without the management API, and exits.
  stdout  the result as JSON (nothing else)
  stderr  sys.log lines (JSON), callback URLs being waited on, and on failure the error payload's JSON
          as the last line
  exit    0 SUCCEEDED, 1 FAILED, 2 invalid definition (file:line:col) or bad arguments,
          130/143 interrupted (SIGINT/SIGTERM; the execution is cancelled)

Options:
  --data <json>         the execution argument as JSON text (default: none, i.e. null)
  --data @<file>        the argument read from a JSON file; --data @- reads standard input
  --port <n>            port of the callback endpoint, opened only when the workflow creates a callback
                        (PORT; default: a free port)
  --host <addr>         bind address of the callback endpoint (HOST, default 0.0.0.0)
  --project <id>        CLOUD_PROJECT_ID (PROJECT, default my-project)
  --location <id>       CLOUD_LOCATION (LOCATION, default us-central1)
  --mocks <file>        mock file for http.* and connector calls (MOCKS); an invalid one exits 2
  --clock <mode>        real (default) or virtual: sleeps, backoffs and mock delays take no time (CLOCK)
  --help                print this help
`;

/** The lines the server's `--help` ends with, pointing at this command. */
export const RUN_HINT = `
One-shot runs (no management API; result on stdout, exit 0 SUCCEEDED, 1 FAILED, 2 invalid):
  workflows-emulator run <file.yaml|file.json> [--data '<json>' | --data @args.json]   (see run --help)
`;

/** Where the command writes and what it reads; the process's by default, replaceable in tests. */
export interface RunIO {
  /** Writes to standard output; resolves once written. */
  stdout(text: string): Promise<void>;
  /** Writes to standard error; resolves once written. */
  stderr(text: string): Promise<void>;
  /** Environment variables (PORT, HOST, PROJECT, LOCATION). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Reads standard input to its end (for `--data @-`). */
  readStdin(): Promise<string>;
  /**
   * Aborted to interrupt the run (SIGINT/SIGTERM in the command): the execution is cancelled and the
   * command resolves with the exit code carried as the abort reason (a number), or 130 by default.
   */
  readonly interrupt?: AbortSignal;
}

/** The parsed command line of `run`. */
interface RunArgs {
  readonly file: string;
  /** `--data` as given: JSON text, `@path`, or undefined. */
  readonly data: string | undefined;
  readonly port: number;
  readonly host: string;
  readonly project: string;
  readonly location: string;
  /** `--mocks FILE` read and checked (issue 13). */
  readonly mocks?: MockSet;
  readonly clock?: 'real' | 'virtual';
}

/** A reason the run could not start: printed on one line, exit code 2. */
class UsageError extends Error {}

/**
 * Runs the `run` command with `args` (the words after `run`) and resolves to its exit code (see
 * {@link RUN_EXIT}). It never rejects: every problem is reported on `io.stderr` and becomes an exit code.
 * The caller exits the process with the code.
 */
export async function runCommand(args: readonly string[], io: RunIO = processIO()): Promise<number> {
  let parsed: RunArgs | 'help';
  let definition: Definition;
  let source: string;
  let argument: Value = null;
  try {
    parsed = parseRunArgs(args, io.env);
    if (parsed === 'help') {
      await io.stdout(RUN_USAGE);
      return RUN_EXIT.succeeded;
    }
    source = readSource(parsed.file);
    definition = compileFile(parsed.file, source);
    if (parsed.data !== undefined) argument = await readArgument(parsed.data, io);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    await io.stderr(`workflows-emulator run: ${e.message}\n`);
    return RUN_EXIT.usage;
  }
  return execute(parsed, definition, source, argument, io);
}

/** Parses `run`'s words: one file, `--data`, and the server's --port/--host/--project/--location. */
function parseRunArgs(args: readonly string[], env: Readonly<Record<string, string | undefined>>): RunArgs | 'help' {
  let file: string | undefined;
  let data: string | undefined;
  const rest: string[] = [];
  for (const token of argvTokens(args, { data: { type: 'string' } })) {
    if (token.kind === 'option-terminator') throw new UsageError('unknown option "--" (see workflows-emulator run --help)');
    if (token.kind === 'positional') {
      if (file !== undefined) throw new UsageError(`one workflow file at a time (got "${file}" and "${token.value}")`);
      file = token.value;
      continue;
    }
    if (token.name === 'help') return 'help';
    if (token.rawName === '--data') {
      if (data !== undefined) throw new UsageError('--data given twice');
      if (token.value === undefined) throw new UsageError('option --data needs a value: JSON text, @file or @-');
      data = token.value;
      continue;
    }
    if (/^--(port|host|project|location|mocks|clock)$/.test(token.rawName)) {
      // The server's options, checked by its parser below.
      if (token.inlineValue) rest.push(`${token.rawName}=${token.value}`);
      else rest.push(token.rawName, ...(token.value !== undefined ? [token.value] : []));
      continue;
    }
    const given = `${token.rawName}${token.inlineValue ? `=${token.value}` : ''}`;
    throw new UsageError(`unknown option "${given}" (see workflows-emulator run --help)`);
  }
  if (file === undefined) throw new UsageError('missing the workflow file: workflows-emulator run <file.yaml|file.json> (see --help)');
  // The server's parser checks the shared options and their variables; the watcher and gRPC play no part here.
  const { PORT, HOST, PROJECT, LOCATION, MOCKS, CLOCK } = env;
  // The callback endpoint takes a free port unless one is asked for, so a run works next to a running emulator.
  const config = parseConfig(rest, { PORT: PORT || '0', HOST, PROJECT, LOCATION, MOCKS, CLOCK });
  if (config.kind === 'error') throw new UsageError(config.message);
  if (config.kind !== 'config') return 'help';
  const { port, host, project, location, mocks, clock } = config.config;
  return { file, data, port, host, project, location, ...(mocks ? { mocks } : {}), ...(clock ? { clock } : {}) };
}

function readSource(file: string): string {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  if (source.trim() === '') throw new UsageError(`${file}: the file is empty: a workflow definition is required`);
  return source;
}

/** Compiles the file; a definition error becomes `<file>:<line>:<col>: invalid workflow definition: ...`. */
function compileFile(file: string, source: string): Definition {
  const compiled = compileWorkflowFile(file, source);
  if ('error' in compiled) throw new UsageError(compiled.error);
  return compiled.definition;
}

/** The argument from `--data`: JSON text, `@file` or `@-` (stdin); ints stay exact. */
async function readArgument(data: string, io: RunIO): Promise<Value> {
  let text = data;
  let from = '--data';
  if (data.startsWith('@')) {
    const path = data.slice(1);
    from = path === '-' ? '--data @- (standard input)' : `--data @${path}`;
    try {
      text = path === '-' ? await io.readStdin() : readFileSync(path, 'utf8');
    } catch (e) {
      throw new UsageError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > MAX_ARGUMENT_BYTES) throw new UsageError(`${from}: the argument is ${bytes} bytes; the limit is ${MAX_ARGUMENT_BYTES} bytes (32 KB)`);
  try {
    return parseJson(text.trim() === '' ? 'null' : text);
  } catch (e) {
    throw new UsageError(`${from} is not valid JSON: ${e instanceof JsonSyntaxError ? e.message : String(e)}`);
  }
}

async function execute(args: RunArgs, definition: Definition, source: string, argument: Value, io: RunIO): Promise<number> {
  const workflowId = workflowIdOfFile(args.file);
  const executionId = crypto.randomUUID();
  const executionName = `projects/${args.project}/locations/${args.location}/workflows/${workflowId}/executions/${executionId}`;
  const revision = revisionId(1, source);
  const abort = new AbortController();
  let active = true;
  const virtual = args.clock === 'virtual' ? createVirtualTime() : undefined;
  const clock: Clock = virtual ?? systemClock;
  // Output is written in order: logs and callback notices may be printed while the execution runs.
  let written: Promise<void> = Promise.resolve();
  const err = (text: string): void => {
    written = written.then(() => io.stderr(text));
  };

  // The callback endpoint, only for workflows that can create a callback (the call must be named literally).
  let listener: HttpListener | undefined;
  let callbacks: CallbackRegistry | undefined;
  if (source.includes('create_callback_endpoint')) {
    try {
      const serve = createCallbackHandler((id, request) => callbacks!.deliver(id, request), 'a one-shot run');
      listener = await listenHttp(serve, { host: args.host, port: args.port });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      const why = code === 'EADDRINUSE' ? `port ${args.port} is in use (use --port or PORT; 0 picks a free port)` : (e as Error).message;
      await io.stderr(`workflows-emulator run: cannot serve the callback endpoint on ${args.host}:${args.port}: ${why}\n`);
      return RUN_EXIT.usage;
    }
    callbacks = new CallbackRegistry(`http://${displayHost(args.host)}:${listener.port}`, clock);
  }
  const hub = callbacks?.hubFor({ executionName, isActive: () => active });
  const mocked = mockExecution(args.mocks ?? NO_MOCKS, { realFetch: fetchHoldingTime(clock, platformFetch), clock });

  const env = executionEnv({
    project: args.project,
    location: args.location,
    workflowId,
    revisionId: revision,
    executionId,
  });
  const deps: ExecutionDeps = {
    clock,
    fetch: mocked.fetch,
    hooks: { interceptor: mocked.interceptor },
    env,
    log: (entry) => err(logLine(entry, workflowId, executionId) + '\n'),
    callbacks: {
      create: (method) => {
        if (!hub) throw WorkflowError.of('SystemError', 'events.create_callback_endpoint: no callback endpoint is served');
        return hub.create(method);
      },
      await: (callback, timeoutMs, signal) => {
        if (!hub) return Promise.reject(WorkflowError.of('SystemError', 'events.await_callback: no callback endpoint is served'));
        const url = callback instanceof Map ? callback.get('url') : undefined;
        const method = typeof url === 'string' ? (callbacks!.list(executionName).find((c) => c.url === url)?.method ?? 'POST') : 'POST';
        err(`workflows-emulator run: waiting for a callback: ${method} ${String(url)} (timeout ${timeoutMs / 1000} s)\n`);
        return hub.await(callback, timeoutMs, signal);
      },
    },
  };

  const onInterrupt = (): void => abort.abort(io.interrupt?.reason);
  io.interrupt?.addEventListener('abort', onInterrupt, { once: true });
  let code: number;
  try {
    const outcome = await runToOutcome(definition, argument, deps, abort.signal);
    if (abort.signal.aborted) {
      const reason = abort.signal.reason;
      code = typeof reason === 'number' ? reason : RUN_EXIT.sigint;
      err(`workflows-emulator run: interrupted; the execution was cancelled\n`);
    } else if (outcome.state === 'SUCCEEDED') {
      written = written.then(() => io.stdout(outcome.result + '\n'));
      code = RUN_EXIT.succeeded;
    } else {
      // The failing step, then the error payload as the last line of stderr.
      err(`workflows-emulator run: the execution FAILED (step: ${outcome.stepName})\n`);
      err(outcome.error.payload + '\n');
      code = RUN_EXIT.failed;
    }
  } finally {
    active = false;
    io.interrupt?.removeEventListener('abort', onInterrupt);
    await listener?.close();
  }
  await written;
  return code;
}

/** The process's streams, environment and signals. */
export function processIO(): RunIO {
  const write = (stream: NodeJS.WriteStream, text: string): Promise<void> =>
    new Promise((resolve) => {
      stream.write(text, () => resolve());
    });
  // A closed reader (EPIPE behind `| head`) ends the printing, not the run (docs/limits.md "Logs").
  process.stdout.on('error', () => {});
  process.stderr.on('error', () => {});
  const interrupt = new AbortController();
  process.once('SIGINT', () => interrupt.abort(RUN_EXIT.sigint));
  process.once('SIGTERM', () => interrupt.abort(RUN_EXIT.sigterm));
  return {
    stdout: (text) => write(process.stdout, text),
    stderr: (text) => write(process.stderr, text),
    env: process.env,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    interrupt: interrupt.signal,
  };
}
