/**
 * Helpers for engine tests: compile a YAML workflow and run it with injected dependencies (a virtual clock
 * unless told otherwise, the product's callback registry, a fixed environment, captured logs).
 */
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { WorkflowError } from '../../src/lang/errors.ts';
import { type Value } from '../../src/lang/value.ts';
import { toJson } from '../../src/lang/json.ts';
import { fetchHoldingTime } from '../../src/engine/virtual-time.ts';
import { recordingVirtualTime } from '../support/virtual-time.ts';
import { runExecution } from '../../src/engine/run.ts';
import type { ExecutionDeps } from '../../src/engine/types.ts';
import type { Clock, LogEntry } from '../../src/stdlib/types.ts';
import { testCallbacks, type TestCallbacks } from '../support/callbacks.ts';

/** The environment every test execution sees. */
export const TEST_ENV: ReadonlyMap<string, string> = new Map([
  ['CLOUD_PROJECT_ID', 'my-project'],
  ['CLOUD_LOCATION', 'us-central1'],
  ['CLOUD_WORKFLOW_ID', 'wf'],
  ['CLOUD_WORKFLOW_REVISION_ID', '000001-abc'],
  ['CLOUD_WORKFLOW_EXECUTION_ID', 'exec-1'],
  ['GOOGLE_CLOUD_PROJECT_ID', 'my-project'],
]);

/** A test harness: the deps handed to the engine plus what the test inspects. */
export interface Harness {
  readonly deps: ExecutionDeps;
  readonly clock: Clock;
  readonly logs: LogEntry[];
  readonly callbacks: TestCallbacks;
}

/**
 * Builds deps with the given clock, by default the product's virtual clock (src/engine/virtual-time.ts): a sleep
 * ends as soon as nothing else runs, and a deadline (an http.* or callback timeout) only when sleeps or an
 * `advance` carry time past it, so real requests to local servers never time out by themselves. Real requests
 * hold virtual time while they are out, as the product's do.
 */
export function harness(clock: Clock = recordingVirtualTime()): Harness {
  const logs: LogEntry[] = [];
  const callbacks = testCallbacks(clock);
  return {
    clock,
    logs,
    callbacks,
    deps: { clock, fetch: fetchHoldingTime(clock, globalThis.fetch), env: TEST_ENV, log: (e) => logs.push(e), callbacks: callbacks.hub, library: DEFINITION_LIBRARY },
  };
}

/** The outcome of a run, in JSON text so ints and doubles stay distinct in comparisons. */
export type Outcome = { result: string } | { error: { value: Value; json: string; step: string | undefined } };

/** Compiles and runs `yaml`; never rejects (except on cancellation, which it rethrows). */
export async function run(
  yaml: string,
  argument?: Value,
  h: Harness = harness(),
  signal: AbortSignal = new AbortController().signal,
): Promise<Outcome> {
  const def = compileDefinition(yaml, DEFINITION_LIBRARY);
  try {
    const v = await runExecution(def, argument, h.deps, signal);
    return { result: toJson(v) };
  } catch (e) {
    if (!(e instanceof WorkflowError)) throw e;
    return { error: { value: e.value, json: toJson(e.value), step: e.stepName } };
  }
}

/** Runs and returns the result's JSON, failing with the error's JSON when the run failed. */
export async function result(yaml: string, argument?: Value, h?: Harness): Promise<string> {
  const o = await run(yaml, argument, h);
  if ('error' in o) throw new Error(`expected a result, got error ${o.error.json} at step ${o.error.step}`);
  return o.result;
}

/** Runs and returns the error, failing when the run succeeded. */
export async function failure(
  yaml: string,
  argument?: Value,
  h?: Harness,
): Promise<{ value: Value; json: string; step: string | undefined; tags: string[]; message: string }> {
  const o = await run(yaml, argument, h);
  if ('result' in o) throw new Error(`expected an error, got result ${o.result}`);
  const e = new WorkflowError(o.error.value);
  return { ...o.error, tags: e.tags, message: e.message };
}

export type { RecordingVirtualTime } from '../support/virtual-time.ts';
