/**
 * One isolated execution for a test case (docs/testing.md#the-test-command): its own clock, its own callback registry, its own
 * mocks and call record, nothing shared with other cases, so cases run concurrently without touching each
 * other. Callbacks the case lists are delivered in order, one each time the workflow awaits a callback;
 * when none is left, the wait's timeout passes at once under the virtual clock (time is advanced by it,
 * so a case can test the timeout path), and after its real duration under the real clock.
 */
import { systemClock } from '../engine/system-clock.ts';
import { createVirtualTime, type VirtualTime } from '../engine/virtual-time.ts';
import { platformFetch } from '../stdlib/http.ts';
import type { Definition } from '../lang/definition/ast.ts';
import { WorkflowError } from '../lang/errors.ts';
import { isMap, type Value, type WMap } from '../lang/value.ts';
import { toJson } from '../lang/json.ts';
import { CallbackRegistry } from '../service/callbacks/callback-registry.ts';
import { runToOutcome } from '../service/executions/run-to-outcome.ts';
import { DEFINITION_LIBRARY } from '../stdlib/index.ts';
import type { CallbackHub, Clock } from '../stdlib/types.ts';
import { prepareExecution } from '../service/executions/prepare-execution.ts';
import type { CoverageCounts } from '../coverage/counts.ts';
import { INNER_STEP_TYPES } from '../engine/hooks.ts';
import type { CaseOutcome } from './test-command/expectations.ts';
import type { HistoryEntry } from '../service/history/step-ring.ts';
import { callRecordValue } from '../mocks/call-log.ts';
import type { MockSet } from '../mocks/mock-file.ts';
import type { CallbackDelivery } from '../service/recording/test-file.ts';
import type { Compat } from '../lang/compat.ts';
import type { PlaybackValues } from '../service/recording/recording.ts';
import type { RoutineEntry } from '../engine/run.ts';

/** The project and location a case runs in unless its file sets them: the server's defaults (docs/cli.md). */
export const DEFAULT_PROJECT = 'my-project';
export const DEFAULT_LOCATION = 'us-central1';

/** What {@link runIsolated} runs. */
export interface IsolatedRun {
  readonly definition: Definition;
  readonly workflowId: string;
  /** The workflow's revision ID (CLOUD_WORKFLOW_REVISION_ID). */
  readonly revisionId: string;
  readonly argument?: Value;
  /** The routine the execution starts in instead of `main`, with its named parameters (a case's `routine`). */
  readonly entry?: RoutineEntry;
  readonly env: Readonly<Record<string, string>>;
  /** The case's mocks (the file's with the case's laid over them). */
  readonly mocks: MockSet;
  readonly callbacks: readonly CallbackDelivery[];
  readonly clock: 'virtual' | 'real';
  /** Wall-time limit, seconds: past it the execution is cancelled and the run rejects. */
  readonly timeoutSec: number;
  /** CLOUD_PROJECT_ID and CLOUD_LOCATION (default the server's: `my-project`, `us-central1`). */
  readonly project?: string | undefined;
  readonly location?: string | undefined;
  /** Times and UUIDs handed back first (a recorded run's). */
  readonly playback?: PlaybackValues | undefined;
  /** `google`: Google's behaviour where it and the spec differ (docs/compat.md). */
  readonly compat?: Compat;
  /** The coverage counts the run adds to (docs/coverage.md), when coverage is counted. */
  readonly coverage?: CoverageCounts | undefined;
}

/** What a case's run gives back: the case's outcome, and where the failure came from. */
type IsolatedOutcome = CaseOutcome & { failedPos?: { line: number; col: number } };

/**
 * Runs the execution to its end and says what it did.
 * @throws Error when the wall-time limit passes (the execution is cancelled first).
 */
export async function runIsolated(r: IsolatedRun): Promise<IsolatedOutcome> {
  // The virtual clock of `--clock virtual` (src/engine/virtual-time.ts), one per case.
  const virtual = r.clock === 'virtual' ? createVirtualTime() : undefined;
  const clock = virtual ?? systemClock;
  const executionId = crypto.randomUUID();
  const project = r.project ?? DEFAULT_PROJECT;
  const location = r.location ?? DEFAULT_LOCATION;
  const callbacks = caseCallbacks(r.callbacks, `projects/${project}/locations/${location}/workflows/${r.workflowId}/executions/${executionId}`, clock, virtual, r.playback?.callbacks);
  const logs: Value[] = [];
  const abort = new AbortController();
  // The steps that ran and where the failure came from are the step history's (one record for the API's
  // stepEntries, the stack trace and this): every entry kept, up to far past the 100,000-step limit.
  const { deps, calls: callLog, history } = prepareExecution({
    ids: { project, location, workflowId: r.workflowId, revisionId: r.revisionId, executionId },
    userEnv: r.env,
    clock,
    fetch: platformFetch,
    library: DEFINITION_LIBRARY,
    mocks: r.mocks,
    history: 'basic',
    maxStepEntries: 1_000_000,
    log: (entry) => void logs.push(entry.payload),
    compat: r.compat,
    callbacks: callbacks.hub,
    playback: r.playback,
    coverage: r.coverage,
  });
  const record = (): WMap[] => callLog.records.map((rec) => {
    const m = callRecordValue(rec);
    // `body` reads as the request body in expectations (`calls: [{method: POST, body: {...}}]`).
    if (rec.requestBody !== undefined) m.set('body', m.get('requestBody')!);
    return m;
  });
  const timer = setTimeout(() => abort.abort(new Error(`the case did not end within ${r.timeoutSec} s of wall time (timeout)`)), r.timeoutSec * 1000);
  try {
    const outcome = await runToOutcome(r.definition, r.argument, deps, abort.signal, r.entry);
    if (abort.signal.aborted) throw abort.signal.reason;
    const steps = history!.entries().filter((e) => !INNER_STEP_TYPES.has(e.stepType)).map((e) => e.step);
    const seen = { steps, calls: record(), logs, callbacksCreated: callbacks.created() };
    if (outcome.state === 'SUCCEEDED') return { state: 'SUCCEEDED', result: outcome.value, ...seen };
    const e = outcome.raised;
    const origin: HistoryEntry | undefined = history!.failurePath()[0];
    return {
      state: 'FAILED',
      error: e.value,
      ...(e.stepName !== undefined ? { failedStep: e.stepName } : {}),
      ...seen,
      ...(origin ? { failedPos: { line: origin.pos.line, col: origin.pos.col } } : {}),
    };
  } finally {
    clearTimeout(timer);
    callbacks.end();
  }
}

/**
 * The callback hub of one case: the case's requests are delivered in order, one each time the workflow awaits a
 * callback; with none left, the wait's timeout passes at once on the virtual clock (a deadline never moves time
 * by itself). `created()` counts the callbacks created; `end()` lets them go.
 */
function caseCallbacks(
  deliveries: readonly CallbackDelivery[],
  executionName: string,
  clock: Clock,
  virtual: VirtualTime | undefined,
  urls: readonly string[] = [],
): { readonly hub: CallbackHub; created(): number; end(): void } {
  const registry = new CallbackRegistry('http://localhost', clock);
  let active = true;
  let nextUrl = 0;
  const hub = registry.hubFor({ executionName, isActive: () => active, nextUrl: () => urls[nextUrl++] });
  const pending = [...deliveries];
  let created = 0;
  return {
    hub: {
      create: (method) => {
        created++;
        return hub.create(method);
      },
      await: (callback, timeoutMs, signal) => {
        const next = pending.shift();
        const refused = next ? deliver(registry, executionName, next, callback) : undefined;
        if (refused) return Promise.reject(refused);
        const waiting = hub.await(callback, timeoutMs, signal);
        if (!next && virtual) void virtual.advance(timeoutMs);
        return waiting;
      },
    },
    created: () => created,
    end: () => {
      active = false;
      registry.forget(executionName);
    },
  };
}

/** Delivers a case's callback request to the callback awaited; the refusal as an error, if refused. */
function deliver(registry: CallbackRegistry, executionName: string, next: CallbackDelivery, callback: Value): WorkflowError | undefined {
  const url = isMap(callback) ? callback.get('url') : undefined;
  if (typeof url !== 'string') return undefined;
  const id = url.slice(url.lastIndexOf('/') + 1);
  const resource = registry.list(executionName).find((c) => c.url === url);
  const body = next.body === undefined ? new Uint8Array() : new TextEncoder().encode(typeof next.body === 'string' ? next.body : toJson(next.body));
  const headers: Record<string, string> = { ...(next.body !== undefined && typeof next.body !== 'string' ? { 'content-type': 'application/json' } : {}), ...next.headers };
  const answer = registry.deliver(id, { method: next.method ?? resource?.method ?? 'POST', headers, query: { ...next.query }, body });
  if (answer.status === 200) return undefined;
  return WorkflowError.of('SystemError', `the test's callback request was refused: ${JSON.stringify(answer.body)}`);
}
