/**
 * The `debug` command (docs/debugging.md): `workflows-emulator debug [FILE] [--argument JSON] [--mocks FILE]
 * [--clock virtual]` speaks the Debug Adapter Protocol on standard input and output and runs one execution of
 * the workflow file under the debugger when the client sends `launch` (whose `program`, `argument`, `mocks`,
 * `clock` and `stopOnEntry` fields override the command line's). sys.log lines and the result go to the client
 * as output events: standard output carries protocol messages only.
 */
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { systemClock } from '../engine/system-clock.ts';
import { createVirtualTime } from '../engine/virtual-time.ts';
import { parseJson } from '../lang/json.ts';
import type { Value } from '../lang/value.ts';
import { parseMocks, NO_MOCKS, type MockSet } from '../mocks/mock-file.ts';
import { CallbackRegistry } from '../service/callbacks/callback-registry.ts';
import { prepareExecution } from '../service/executions/prepare-execution.ts';
import { logLine, runToOutcome } from '../service/executions/run-to-outcome.ts';
import { platformFetch } from '../stdlib/http.ts';
import { DEFINITION_LIBRARY } from '../stdlib/index.ts';
import { WorkflowDebugAdapter, type DebugHost, type DebugTarget } from '../debug/adapter.ts';
import { DebugSession, type SessionEvents } from '../debug/session.ts';
import { compileWorkflowFile, workflowIdOfFile } from './workflow-file.ts';

/** The usage text of `workflows-emulator debug --help`. */
export const DEBUG_USAGE = `Usage: workflows-emulator debug [<file.yaml|file.json>] [--argument '<json>'] [--mocks <file>] [--clock virtual]

Speaks the Debug Adapter Protocol on stdin/stdout (for VS Code, Neovim, Emacs, JetBrains editors) and runs one
execution of the workflow under the debugger when the client sends launch. The launch request's fields
program, argument, mocks, clock and stopOnEntry override these options. See docs/debugging.md.
`;

/** What `debug` was given on the command line. */
interface DebugOptions {
  file?: string;
  argument?: string;
  mocks?: string;
  clock?: string;
}

/** Parses the words after `debug`; throws an Error naming a bad option. */
export function parseDebugArgs(args: readonly string[]): DebugOptions | 'help' {
  const o: DebugOptions = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--help' || a === '-h') return 'help';
    const eq = a.indexOf('=');
    const name = a.startsWith('--') ? (eq > 0 ? a.slice(2, eq) : a.slice(2)) : undefined;
    if (name === undefined) {
      if (o.file !== undefined) throw new Error(`unexpected argument ${JSON.stringify(a)}: one workflow file only`);
      o.file = a;
      continue;
    }
    if (name !== 'argument' && name !== 'mocks' && name !== 'clock') throw new Error(`unknown option --${name}`);
    const value = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (value === undefined) throw new Error(`--${name} needs a value`);
    o[name] = value;
  }
  return o;
}

/** Runs the command: serves one client on stdin/stdout until it disconnects. Resolves to the exit code. */
export async function debugCommand(args: readonly string[]): Promise<number> {
  let options: DebugOptions | 'help';
  try {
    options = parseDebugArgs(args);
  } catch (e) {
    process.stderr.write(`workflows-emulator debug: ${(e as Error).message}\n${DEBUG_USAGE}`);
    return 2;
  }
  if (options === 'help') {
    process.stdout.write(DEBUG_USAGE);
    return 0;
  }
  const adapter = new WorkflowDebugAdapter(fileHost(options));
  adapter.start(process.stdin, process.stdout);
  return new Promise((done) => process.stdin.on('close', () => done(0)));
}

/** Launches executions of a workflow file (the launch request's fields over the command line's). */
export function fileHost(defaults: DebugOptions): DebugHost {
  return {
    launch: (args, events) => launchFile({ ...defaults, ...launchOptions(args) }, args.stopOnEntry === true, events),
  };
}

function launchOptions(args: Record<string, unknown>): DebugOptions {
  const o: DebugOptions = {};
  if (typeof args.program === 'string') o.file = args.program;
  if (args.argument !== undefined) o.argument = typeof args.argument === 'string' ? args.argument : JSON.stringify(args.argument);
  if (typeof args.mocks === 'string') o.mocks = args.mocks;
  if (typeof args.clock === 'string') o.clock = args.clock;
  return o;
}

async function launchFile(o: DebugOptions, stopOnEntry: boolean, events: SessionEvents): Promise<DebugTarget> {
  if (o.file === undefined) throw new Error('no workflow file: give one on the command line or as the launch request\'s "program"');
  const path = resolve(o.file);
  const source = await readFile(path, 'utf8').catch((e: Error) => {
    throw new Error(`cannot read ${path}: ${e.message}`);
  });
  const compiled = compileWorkflowFile(path, source);
  if ('error' in compiled) throw new Error(compiled.error);
  let argument: Value | undefined;
  if (o.argument !== undefined) {
    try {
      argument = parseJson(o.argument);
    } catch (e) {
      throw new Error(`--argument is not JSON: ${(e as Error).message}`);
    }
  }
  const mocks: MockSet = o.mocks !== undefined ? parseMocks(await readFile(resolve(o.mocks), 'utf8'), o.mocks) : NO_MOCKS;
  if (o.clock !== undefined && o.clock !== 'real' && o.clock !== 'virtual') throw new Error(`--clock is real or virtual, not ${JSON.stringify(o.clock)}`);
  const clock = o.clock === 'virtual' ? createVirtualTime() : systemClock;
  const workflowId = workflowIdOfFile(path);
  const executionId = crypto.randomUUID();
  const session = new DebugSession(compiled.definition, source.split('\n').length, events, stopOnEntry);
  const registry = new CallbackRegistry('http://localhost', clock);
  const executionName = `projects/my-project/locations/us-central1/workflows/${workflowId}/executions/${executionId}`;
  const { deps } = prepareExecution({
    ids: { project: 'my-project', location: 'us-central1', workflowId, revisionId: '000001-debug', executionId },
    clock,
    fetch: platformFetch,
    library: DEFINITION_LIBRARY,
    mocks,
    history: 'none',
    log: (entry) => events.output(logLine(entry, workflowId, executionId) + '\n'),
    callbacks: registry.hubFor({ executionName, isActive: () => true }),
    debugger: { observer: session, gate: session },
  });
  let start!: () => void;
  const started = new Promise<void>((r) => (start = r));
  const done = started.then(async () => {
    const outcome = await runToOutcome(compiled.definition, argument, deps, new AbortController().signal);
    registry.forget(executionName);
    return outcome.state === 'SUCCEEDED' ? { result: outcome.value } : { error: outcome.raised };
  });
  return { session, sourcePath: path, sourceIsFile: true, sourceText: source, start, done };
}
