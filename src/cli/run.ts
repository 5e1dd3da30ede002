/**
 * The one-shot command (docs/cli.md#one-shot-runs): `workflows-emulator run <file.yaml|file.json> [--data
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
 * LOCATION, CLOUD_WORKFLOW_ID from the file name, a revision ID and an execution ID. It runs on a service core
 * of its own (src/service/core.ts), so it is built as the server builds executions: `--history` records the
 * step history and prints its entries on stderr after the run, `--call-log` writes call log lines on stderr,
 * and child workflows (the Workflow Executions connector) are deployed from the files of the run file's
 * directory or of `--workflows-dir` (docs/run.md).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { displayHost, listenHttp, type HttpListener } from '../api/http-server.ts';
import { createCallbackHandler } from '../api/callback-handler.ts';
import { argvTokens, parseConfig } from './config.ts';
import { compileWorkflowFile, workflowIdOfFile } from './workflow-file.ts';
import { systemClock } from '../engine/system-clock.ts';
import { createVirtualTime } from '../engine/virtual-time.ts';
import type { MockSet } from '../mocks/mock-file.ts';
import { userEnvFromArgs } from './env-args.ts';
import type { Compat } from '../lang/compat.ts';
import type { Clock } from '../stdlib/types.ts';
import { type Value } from '../lang/value.ts';
import { JsonSyntaxError, parseJson, toJson } from '../lang/json.ts';
import { createServiceCore, MAX_ARGUMENT_BYTES } from '../service/core.ts';
import type { Execution, ServiceCore } from '../service/model.ts';
import { recordToFile } from './record.ts';
import { loadLibrary, loadModule } from '../platform/libraries.ts';
import { ignoreStreamErrors, standardError, standardOutput } from '../platform/std-streams.ts';

/** Exit codes of the one-shot command (docs/cli.md#one-shot-runs). */
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
  /** `--mocks FILE` read and checked (docs/mocks-and-clock.md#mocks). */
  readonly mocks?: MockSet;
  readonly clock?: 'real' | 'virtual';
  /** `--history`: the step history recorded and printed on stderr; `none` unless given. */
  readonly history: 'none' | 'basic' | 'detailed';
  /** `--call-log`: the execution's callLogLevel. */
  readonly callLog?: 'LOG_ALL_CALLS' | 'LOG_ERRORS_ONLY' | 'LOG_NONE';
  /** Where child workflows are looked up: `--workflows-dir`, else the file's directory. */
  readonly workflowsDir: string;
  /** `--record FILE`: the test file the run is written to as a case (docs/recording.md). */
  readonly record?: string;
  /** `--project-number`: GOOGLE_CLOUD_PROJECT_NUMBER. */
  readonly projectNumber?: string;
  /** `--compat google`: Google's behaviour where it and the specification differ (docs/compat.md). */
  readonly compat?: Compat;
  /** `--env` and `--env-file`: the user environment variables sys.get_env reads. */
  readonly userEnv?: Readonly<Record<string, string>>;
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
  let source: string;
  let argument: Value = null;
  try {
    parsed = parseRunArgs(args, io.env);
    if (parsed === 'help') {
      await io.stdout((await loadModule('help', 'src/cli/help.ts', () => import('./help.ts'))).RUN_USAGE);
      return RUN_EXIT.succeeded;
    }
    source = readSource(parsed.file);
    compileFile(parsed.file, source, parsed.compat);
    if (parsed.data !== undefined) argument = await readArgument(parsed.data, io);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    await io.stderr(`workflows-emulator run: ${e.message}\n`);
    return RUN_EXIT.usage;
  }
  return execute(parsed, source, argument, io);
}

/** Parses `run`'s words: one file, `--data`, and the server's --port/--host/--project/--location. */
function parseRunArgs(args: readonly string[], env: Readonly<Record<string, string | undefined>>): RunArgs | 'help' {
  let file: string | undefined;
  let data: string | undefined;
  let callLog: RunArgs['callLog'];
  let record: string | undefined;
  let historyGiven = false;
  const rest: string[] = [];
  const envAssignments: string[] = [];
  const envFiles: string[] = [];
  for (const token of argvTokens(args, { data: { type: 'string' }, 'call-log': { type: 'string' }, env: { type: 'string' }, 'env-file': { type: 'string' }, record: { type: 'string' } })) {
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
    if (token.rawName === '--record') {
      if (!token.value) throw new UsageError('option --record needs a file: --record FILE.test.yaml');
      record = token.value;
      continue;
    }
    if (token.rawName === '--env' || token.rawName === '--env-file') {
      if (token.value === undefined) throw new UsageError(`option ${token.rawName} needs a value`);
      (token.rawName === '--env' ? envAssignments : envFiles).push(token.value);
      continue;
    }
    if (token.rawName === '--call-log') {
      callLog = callLogOption(token.value);
      continue;
    }
    if (/^--(port|host|project|location|mocks|clock|history|workflows-dir|project-number|compat)$/.test(token.rawName)) {
      if (token.rawName === '--history') historyGiven = true;
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
  const { PORT, HOST, PROJECT, LOCATION, MOCKS, CLOCK, PROJECT_NUMBER, COMPAT } = env;
  // The callback endpoint takes a free port unless one is asked for, so a run works next to a running emulator.
  const config = parseConfig(rest, { PORT: PORT || '0', HOST, PROJECT, LOCATION, MOCKS, CLOCK, PROJECT_NUMBER, COMPAT });
  if (config.kind === 'error') throw new UsageError(config.message);
  if (config.kind !== 'config') return 'help';
  const { port, host, project, location, mocks, clock, history, workflowsDir, projectNumber, compat } = config.config;
  const userEnv = userEnvFromArgs(envFiles, envAssignments);
  if (typeof userEnv === 'string') throw new UsageError(userEnv);
  return {
    file,
    data,
    port,
    host,
    project,
    location,
    ...(mocks ? { mocks } : {}),
    ...(clock ? { clock } : {}),
    history: historyGiven ? (history ?? 'basic') : 'none',
    ...(callLog ? { callLog } : {}),
    workflowsDir: workflowsDir ?? dirname(resolve(file)),
    ...(record ? { record } : {}),
    ...(projectNumber !== undefined ? { projectNumber } : {}),
    ...(compat ? { compat } : {}),
    userEnv,
  };
}

/** `--call-log`'s value: one of Google's callLogLevel names (any case). */
function callLogOption(value: string | undefined): RunArgs['callLog'] {
  const v = value?.toUpperCase();
  if (v === 'LOG_ALL_CALLS' || v === 'LOG_ERRORS_ONLY' || v === 'LOG_NONE') return v;
  throw new UsageError(`invalid --call-log ${JSON.stringify(value ?? '')}: use LOG_ALL_CALLS, LOG_ERRORS_ONLY or LOG_NONE`);
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

/** Checks that the file compiles; a definition error becomes `<file>:<line>:<col>: invalid workflow definition: ...`. */
function compileFile(file: string, source: string, compat: Compat | undefined): void {
  const compiled = compileWorkflowFile(file, source, compat);
  if ('error' in compiled) throw new UsageError(compiled.error);
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

async function execute(args: RunArgs, source: string, argument: Value, io: RunIO): Promise<number> {
  const workflowId = workflowIdOfFile(args.file);
  const clock: Clock = args.clock === 'virtual' ? createVirtualTime() : systemClock;
  // Output is written in order: logs and callback notices may be printed while the execution runs.
  let written: Promise<void> = Promise.resolve();
  const err = (text: string): void => {
    written = written.then(() => io.stderr(text));
  };
  let core: ReturnType<typeof createServiceCore> | undefined;
  const listener = await callbackListener(args, source, (id, request) => core!.deliverCallback(id, request));
  if (typeof listener === 'string') {
    await io.stderr(`workflows-emulator run: ${listener}\n`);
    return RUN_EXIT.usage;
  }
  let ended: (e: Execution) => void = () => {};
  const end = new Promise<Execution>((resolve) => (ended = resolve));
  const c = (core = createServiceCore({
    project: args.project,
    location: args.location,
    ...(args.projectNumber !== undefined ? { projectNumber: args.projectNumber } : {}),
    ...(args.compat ? { compat: args.compat } : {}),
    callbackBaseUrl: listener ? `http://${displayHost(args.host)}:${listener.port}` : NO_CALLBACK_URL,
    clock,
    ...(args.mocks ? { mocks: args.mocks } : {}),
    log: (line) => err(line + '\n'),
    // A recorded run keeps its steps for the case's `expect`, printed only when --history asks.
    defaultHistory: args.record && args.history === 'none' ? 'basic' : args.history,
    onExecutionEnd: (e) => {
      if (e.name === name) ended(e);
    },
    onCallbackWait: (w) => {
      if (!listener) return;
      err(`workflows-emulator run: waiting for a callback: ${w.method} ${w.url} (timeout ${w.timeoutMs / 1000} s)\n`);
    },
    deployOnDemand: (id, target) => deployFromDirectory(args.workflowsDir, id, target),
  }));
  c.createWorkflow(workflowId, { sourceContents: source, ...(args.userEnv && Object.keys(args.userEnv).length > 0 ? { userEnvVars: args.userEnv } : {}) });
  const started = c.createExecution(workflowId, {
    ...(argument !== null ? { argument: toJson(argument) } : {}),
    ...(args.callLog ? { callLogLevel: args.callLog } : {}),
  });
  const name = started.name;
  const executionId = name.slice(name.lastIndexOf('/') + 1);
  let interruptCode: number | undefined;
  const onInterrupt = (): void => {
    const reason: unknown = io.interrupt?.reason;
    interruptCode = typeof reason === 'number' ? reason : RUN_EXIT.sigint;
    try {
      c.cancelExecution(workflowId, executionId);
    } catch {
      // It ended meanwhile.
    }
  };
  io.interrupt?.addEventListener('abort', onInterrupt, { once: true });
  let code: number;
  try {
    const done = await end;
    if (args.history !== 'none') printStepEntries(c, workflowId, executionId, err);
    code = report(done, interruptCode, err, (text) => {
      written = written.then(() => io.stdout(text));
    });
    if (args.record && interruptCode === undefined) {
      await loadLibrary('yaml');
      const problem = recordToFile(c.executionRecording(workflowId, executionId), args.file, args.record, 'run');
      if (problem) {
        err(`workflows-emulator run: --record: ${problem}\n`);
        code = RUN_EXIT.usage;
      } else err(`workflows-emulator run: recorded as a test case in ${args.record}\n`);
    }
  } finally {
    io.interrupt?.removeEventListener('abort', onInterrupt);
    c.close();
    if (listener) await listener.close();
  }
  await written;
  return code;
}

/** Callback URLs of a run that serves no callback endpoint: they name no server, so a request to one fails. */
const NO_CALLBACK_URL = 'http://localhost:0';

/**
 * The callback endpoint, only for workflows that can create a callback (the call must be named literally, in
 * the file or, when it starts child workflows, in a workflow file where they are found): undefined when none is
 * needed, the reason as text when the port cannot be opened.
 */
async function callbackListener(
  args: RunArgs,
  source: string,
  deliver: Parameters<typeof createCallbackHandler>[0],
): Promise<HttpListener | string | undefined> {
  if (!mayCreateCallbacks(source, args.workflowsDir)) return undefined;
  try {
    return await listenHttp(createCallbackHandler(deliver, 'a one-shot run'), { host: args.host, port: args.port });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'EADDRINUSE' ? `port ${args.port} is in use (use --port or PORT; 0 picks a free port)` : (e as Error).message;
    return `cannot serve the callback endpoint on ${args.host}:${args.port}: ${why}`;
  }
}

/** Whether the run may create a callback: its source names the function, or a child workflow file may. */
function mayCreateCallbacks(source: string, dir: string): boolean {
  const creates = (text: string): boolean => text.includes('create_callback_endpoint');
  if (creates(source)) return true;
  if (!source.includes('googleapis.workflowexecutions.')) return false;
  return workflowFiles(dir).some((file) => {
    try {
      return creates(readFileSync(join(dir, file), 'utf8'));
    } catch {
      return false;
    }
  });
}

/** The names of the workflow files (`.yaml`, `.yml`, `.json`) in `dir`, sorted; none when it cannot be read. */
function workflowFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => /\.(ya?ml|json)$/i.test(n))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Deploys the workflow `workflowId` a child-workflow call names from the directory `dir` (docs/run.md "Child
 * workflows"): the first `.yaml`, `.yml` or `.json` file there whose name gives that workflow ID, as the file
 * of the run gives its own. Nothing is deployed when none does (the call then raises HttpError 404); a file
 * that does not compile raises ApiError INVALID_ARGUMENT (HttpError 400 in the workflow).
 */
function deployFromDirectory(dir: string, workflowId: string, core: ServiceCore): void {
  const file = workflowFiles(dir).find((n) => workflowIdOfFile(n) === workflowId);
  if (file === undefined) return;
  let source: string;
  try {
    source = readFileSync(join(dir, file), 'utf8');
  } catch {
    return;
  }
  core.createWorkflow(workflowId, { sourceContents: source });
}

/** Prints the execution's step entries on stderr, one JSON line each, oldest first (docs/run.md "Step history"). */
function printStepEntries(core: ServiceCore, workflowId: string, executionId: string, err: (text: string) => void): void {
  let pageToken: string | undefined;
  do {
    const page = core.listStepEntries(workflowId, executionId, { view: 'EXECUTION_ENTRY_VIEW_DETAILED', ...(pageToken ? { pageToken } : {}) });
    for (const entry of page.stepEntries) err(JSON.stringify({ stepEntry: entry }) + '\n');
    pageToken = page.nextPageToken;
  } while (pageToken);
}

/** Writes the outcome (result on stdout; failure lines on stderr) and gives the exit code. */
function report(done: Execution, interruptCode: number | undefined, err: (text: string) => void, out: (text: string) => void): number {
  if (interruptCode !== undefined) {
    err(`workflows-emulator run: interrupted; the execution was cancelled\n`);
    return interruptCode;
  }
  if (done.state === 'SUCCEEDED') {
    out((done.result ?? 'null') + '\n');
    return RUN_EXIT.succeeded;
  }
  // The failing step, then the error payload as the last line of stderr.
  const step = done.error?.context?.replace(/^step: /, '') ?? 'main';
  err(`workflows-emulator run: the execution ${done.state} (step: ${step})\n`);
  err((done.error?.payload ?? '{}') + '\n');
  return RUN_EXIT.failed;
}

/** The process's streams, environment and signals. */
export function processIO(): RunIO {
  const write = (stream: NodeJS.WriteStream, text: string): Promise<void> =>
    new Promise((resolve) => {
      stream.write(text, () => resolve());
    });
  // A closed reader (EPIPE behind `| head`) ends the printing, not the run (docs/limits.md "Logs").
  ignoreStreamErrors();
  const interrupt = new AbortController();
  process.once('SIGINT', () => interrupt.abort(RUN_EXIT.sigint));
  process.once('SIGTERM', () => interrupt.abort(RUN_EXIT.sigterm));
  return {
    stdout: (text) => write(standardOutput(), text),
    stderr: (text) => write(standardError(), text),
    env: process.env,
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const c of process.stdin) chunks.push(c as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
    interrupt: interrupt.signal,
  };
}
