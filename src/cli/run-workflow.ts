/**
 * The JS API's in-process run of one workflow (docs/testing.md#runworkflow): what a case of
 * `workflows-emulator test` does, for node:test, uvu, Vitest or Jest suites — a workflow source or file, an
 * argument, mocks, callbacks and the virtual clock in; the execution's result or error, its steps, its
 * outbound calls, its logs out. No server, no port.
 */
import { readFileSync } from 'node:fs';
import { parseJson, toJson } from '../lang/json.ts';
import { fromJs, type Value } from '../lang/value.ts';
import { mocksFromData, NO_MOCKS, parseMocks, type MockSet } from '../mocks/mock-file.ts';
import { DEFAULT_CASE_TIMEOUT_SEC, type CallbackDelivery } from '../service/recording/test-file.ts';
import { runIsolated } from './run-isolated.ts';
import { revisionId } from '../service/names.ts';
import { compileWorkflowFile, workflowIdOfFile } from './workflow-file.ts';

/** Input of {@link runWorkflowInProcess}; see `RunWorkflowOptions` in src/index.ts for the public docs. */
export interface RunWorkflowInput {
  readonly source?: string;
  readonly file?: string;
  readonly argument?: unknown;
  readonly mocks?: string | object;
  readonly callbacks?: readonly { readonly body?: unknown; readonly method?: string; readonly headers?: Readonly<Record<string, string>>; readonly query?: Readonly<Record<string, string>> }[];
  readonly env?: Readonly<Record<string, string>>;
  readonly clock?: 'virtual' | 'real';
  readonly timeoutSec?: number;
  readonly compat?: 'spec' | 'google';
}

/** Output of {@link runWorkflowInProcess}: plain JS values decoded from the execution's JSON. */
export interface RunWorkflowOutput {
  readonly state: 'SUCCEEDED' | 'FAILED';
  readonly result?: unknown;
  readonly error?: Record<string, unknown>;
  readonly failedStep?: string;
  readonly steps: readonly string[];
  readonly calls: readonly Record<string, unknown>[];
  readonly logs: readonly unknown[];
  readonly callbacksCreated: number;
}

/** An input the run cannot start with: `code` INVALID_ARGUMENT, the message says what and where. */
class RunWorkflowError extends Error {
  readonly code = 'INVALID_ARGUMENT';
  constructor(message: string) {
    super(message);
    this.name = 'RunWorkflowError';
  }
}

/**
 * Runs one execution in process and resolves when it has ended (a FAILED one resolves too).
 * @throws RunWorkflowError for no or two sources, an unreadable file, an invalid definition (file:line:col),
 *   invalid mocks (file:line:col), or an argument that is not JSON-serialisable; an Error when `timeoutSec`
 *   of wall time passes (the execution is cancelled).
 */
export async function runWorkflowInProcess(input: RunWorkflowInput): Promise<RunWorkflowOutput> {
  if ((input.source === undefined) === (input.file === undefined)) throw new RunWorkflowError('give exactly one of `source` and `file`');
  let source: string;
  const name = input.file ?? 'source';
  if (input.file !== undefined) {
    try {
      source = readFileSync(input.file, 'utf8');
    } catch (e) {
      throw new RunWorkflowError(`cannot read ${input.file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  } else source = input.source!;
  const compiled = compileWorkflowFile(name, source, input.compat);
  if ('error' in compiled) throw new RunWorkflowError(compiled.error);
  const definition = compiled.definition;
  let mocks: MockSet = NO_MOCKS;
  try {
    if (input.mocks !== undefined) mocks = loadMocks(input.mocks);
  } catch (e) {
    throw new RunWorkflowError(`invalid mocks: ${(e as Error).message}`);
  }
  let argument: Value | undefined;
  try {
    // Through JSON, as an execution argument always is: ints stay ints, 2.5 a double.
    argument = input.argument === undefined ? undefined : parseJson(JSON.stringify(input.argument));
  } catch (e) {
    throw new RunWorkflowError(`the argument is not JSON-serialisable: ${(e as Error).message}`);
  }
  const callbacks: CallbackDelivery[] = (input.callbacks ?? []).map((c) => ({
    ...(c.body !== undefined ? { body: typeof c.body === 'string' ? c.body : fromJs(c.body) } : {}),
    ...(c.method !== undefined ? { method: c.method.toUpperCase() } : {}),
    ...(c.headers ? { headers: c.headers } : {}),
    ...(c.query ? { query: c.query } : {}),
  }));
  const o = await runIsolated({
    definition,
    workflowId: workflowIdOfFile(name),
    revisionId: revisionId(1, source),
    ...(argument !== undefined ? { argument } : {}),
    env: input.env ?? {},
    mocks,
    callbacks,
    clock: input.clock ?? 'virtual',
    timeoutSec: input.timeoutSec ?? DEFAULT_CASE_TIMEOUT_SEC,
    ...(input.compat === 'google' ? { compat: input.compat } : {}),
  });
  return {
    state: o.state === 'SUCCEEDED' ? 'SUCCEEDED' : 'FAILED',
    ...(o.result !== undefined ? { result: plainJs(o.result) } : {}),
    ...(o.error !== undefined ? { error: plainJs(o.error) as Record<string, unknown> } : {}),
    ...(o.failedStep !== undefined ? { failedStep: o.failedStep } : {}),
    steps: o.steps,
    calls: o.calls.map((c) => plainJs(c) as Record<string, unknown>),
    logs: o.logs.map(plainJs),
    callbacksCreated: o.callbacksCreated,
  };
}

/**
 * Mocks from a mock file's path (YAML or JSON) or the same content as an object (docs/mocks-and-clock.md#mocks).
 * @throws MockFileError naming file, line and column; the file's read error when it cannot be read
 */
export function loadMocks(mocks: string | object): MockSet {
  return typeof mocks === 'string' ? parseMocks(readFileSync(mocks, 'utf8'), mocks) : mocksFromData(mocks, 'mocks option');
}

/** A workflow value as plain JS through its JSON (ints beyond 2^53 lose precision; bytes become base64 text). */
export function plainJs(v: Value): unknown {
  try {
    return JSON.parse(toJson(v)) as unknown;
  } catch {
    return v instanceof Uint8Array ? Buffer.from(v).toString('base64') : String(v);
  }
}
