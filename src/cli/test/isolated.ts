/**
 * One isolated execution for a test case (issue 14): its own clock, its own callback registry, its own
 * mocks and call record, nothing shared with other cases, so cases run concurrently without touching each
 * other. Callbacks the case lists are delivered in order, one each time the workflow awaits a callback;
 * when none is left, the wait's timeout passes at once under the virtual clock (time is advanced by it,
 * so a case can test the timeout path), and after its real duration under the real clock.
 */
import { systemClock } from '../../engine/clock.ts';
import { createVirtualTime, fetchHoldingTime } from '../../engine/virtual-time.ts';
import { platformFetch } from '../../stdlib/http.ts';
import type { ExecutionDeps } from '../../engine/types.ts';
import type { Definition } from '../../lang/definition/ast.ts';
import { WorkflowError } from '../../lang/errors.ts';
import { isMap, type Value, type WMap } from '../../lang/value.ts';
import { toJson } from '../../lang/json.ts';
import { CallbackRegistry } from '../../service/callbacks.ts';
import { runToOutcome } from '../../service/runner.ts';
import { executionEnv } from '../../stdlib/sys.ts';
import type { CaseOutcome } from './expect.ts';
import { StepHistory } from '../../service/step-history.ts';
import type { HistoryEntry } from '../../service/step-ring.ts';
import { callRecordValue } from '../../mocks/call-log.ts';
import type { MockSet } from '../../mocks/mock-file.ts';
import { mockExecution } from '../../mocks/mock-interceptor.ts';
import type { CallbackDelivery } from './suite.ts';
import type { Compat } from '../../lang/compat.ts';

/** Entries inside a step (iterations, branches, conditions, retries, except blocks): not steps that ran. */
const INNER_ENTRIES: ReadonlySet<string> = new Set(['STEP_CONDITION', 'STEP_FOR_ITERATION', 'STEP_PARALLEL_BRANCH_ENTRY', 'STEP_RETRY', 'STEP_EXCEPT']);

/** What {@link runIsolated} runs. */
export interface IsolatedRun {
  readonly definition: Definition;
  readonly workflowId: string;
  /** The workflow's revision ID (CLOUD_WORKFLOW_REVISION_ID). */
  readonly revisionId: string;
  readonly argument?: Value;
  readonly env: Readonly<Record<string, string>>;
  /** The case's mocks (the file's with the case's laid over them). */
  readonly mocks: MockSet;
  readonly callbacks: readonly CallbackDelivery[];
  readonly clock: 'virtual' | 'real';
  /** Wall-time limit, seconds: past it the execution is cancelled and the run rejects. */
  readonly timeoutSec: number;
  /** `google`: Google's behaviour where it and the spec differ (docs/compat.md). */
  readonly compat?: Compat;
}

/**
 * Runs the execution to its end and says what it did.
 * @throws Error when the wall-time limit passes (the execution is cancelled first).
 */
export async function runIsolated(r: IsolatedRun): Promise<CaseOutcome & { failedPos?: { line: number; col: number } }> {
  // The virtual clock of `--clock virtual` (src/engine/virtual-time.ts), one per case.
  const virtual = r.clock === 'virtual' ? createVirtualTime() : undefined;
  const clock = virtual ?? systemClock;
  const executionId = crypto.randomUUID();
  const executionName = `projects/test/locations/local/workflows/${r.workflowId}/executions/${executionId}`;
  const registry = new CallbackRegistry('http://localhost', clock);
  let active = true;
  const hub = registry.hubFor({ executionName, isActive: () => active });
  const pending = [...r.callbacks];
  let created = 0;
  const logs: Value[] = [];
  // The steps that ran and where the failure came from are the step history's (one record for the API's
  // stepEntries, the stack trace and this): every entry kept, up to far past the 100,000-step limit.
  const history = new StepHistory({ detailed: false, now: () => clock.now(), maxEntries: 1_000_000 });
  const stepsRan = (): string[] => history.entries().filter((e) => !INNER_ENTRIES.has(e.stepType)).map((e) => e.step);
  const abort = new AbortController();
  // Passthrough requests go out as the service sends them, holding virtual time while they are out.
  const mocked = mockExecution(r.mocks, { realFetch: fetchHoldingTime(clock, platformFetch), clock });
  const calls = (): WMap[] => mocked.calls.records.map((rec) => {
    const m = callRecordValue(rec);
    // `body` reads as the request body in expectations (`calls: [{method: POST, body: {...}}]`).
    if (rec.requestBody !== undefined) m.set('body', m.get('requestBody')!);
    return m;
  });
  const deps: ExecutionDeps = {
    clock,
    fetch: mocked.fetch,
    env: executionEnv(
      { project: 'test', location: 'local', workflowId: r.workflowId, revisionId: r.revisionId, executionId },
      r.env,
    ),
    log: (entry) => logs.push(entry.payload),
    ...(r.compat ? { compat: r.compat } : {}),
    callbacks: {
      create: (method) => {
        created++;
        return hub.create(method);
      },
      await: (callback, timeoutMs, signal) => {
        const next = pending.shift();
        const url = isMap(callback) ? callback.get('url') : undefined;
        if (next && typeof url === 'string') {
          const id = url.slice(url.lastIndexOf('/') + 1);
          const resource = registry.list(executionName).find((c) => c.url === url);
          const body = next.body === undefined ? new Uint8Array() : new TextEncoder().encode(typeof next.body === 'string' ? next.body : toJson(next.body));
          const headers: Record<string, string> = { ...(next.body !== undefined && typeof next.body !== 'string' ? { 'content-type': 'application/json' } : {}), ...next.headers };
          const answer = registry.deliver(id, { method: next.method ?? resource?.method ?? 'POST', headers, query: { ...next.query }, body });
          if (answer.status !== 200) {
            return Promise.reject(WorkflowError.of('SystemError', `the test's callback request was refused: ${JSON.stringify(answer.body)}`));
          }
        }
        const waiting = hub.await(callback, timeoutMs, signal);
        // Nothing left to deliver: on the virtual clock the wait's timeout passes at once (a deadline never
        // moves time by itself).
        if (!next && virtual) void virtual.advance(timeoutMs);
        return waiting;
      },
    },
    hooks: { observer: history, interceptor: mocked.interceptor },
  };
  const timer = setTimeout(() => abort.abort(new Error(`the case did not end within ${r.timeoutSec} s of wall time (timeout)`)), r.timeoutSec * 1000);
  try {
    const outcome = await runToOutcome(r.definition, r.argument, deps, abort.signal);
    if (abort.signal.aborted) throw abort.signal.reason;
    if (outcome.state === 'FAILED') return failed(outcome.raised);
    return { state: 'SUCCEEDED', result: outcome.value, steps: stepsRan(), calls: calls(), logs, callbacksCreated: created };
  } finally {
    clearTimeout(timer);
    active = false;
    registry.forget(executionName);
  }

  function failed(e: WorkflowError): CaseOutcome & { failedPos?: { line: number; col: number } } {
    const origin: HistoryEntry | undefined = history.failurePath()[0];
    return {
      state: 'FAILED',
      error: e.value,
      ...(e.stepName !== undefined ? { failedStep: e.stepName } : {}),
      steps: stepsRan(),
      calls: calls(),
      logs,
      callbacksCreated: created,
      ...(origin ? { failedPos: { line: origin.pos.line, col: origin.pos.col } } : {}),
    };
  }
}
