/**
 * The one wiring of an execution: everything an execution reads and calls (ExecutionDeps, src/engine/types.ts)
 * built from one options object. The service core, the one-shot `run` (through the service core) and the `test`
 * command with the JS API's `runWorkflow` (src/cli/run-isolated.ts) all build their executions here, so they
 * differ only in the options they pass: the clock, the mocks, the step history level, the call log level,
 * where sys.log and call log lines go, the callback hub and the connectors the emulator runs itself (child
 * workflows, https://cloud.google.com/workflows/docs/reference/googleapis/workflowexecutions/Overview).
 * Every execution built here is recorded (src/service/recording/recording.ts): the times it reads, the UUIDs it
 * draws, the environment it reads and the callbacks it receives, beside its outbound calls.
 */
import type { CoverageCounts } from '../../coverage/counts.ts';
import type { StepEnd, StepEvent, StepGate, StepObserver } from '../../engine/hooks.ts';
import type { ExecutionDeps } from '../../engine/types.ts';
import type { Compat } from '../../lang/compat.ts';
import { fetchHoldingTime } from '../../engine/virtual-time.ts';
import type { CallLog, RecordedBytes } from '../../mocks/call-log.ts';
import type { MockSet } from '../../mocks/mock-file.ts';
import { mockExecution, type ConnectorImpl } from '../../mocks/mock-interceptor.ts';
import { executionEnv, type ExecutionIds } from '../../stdlib/sys.ts';
import type { CallbackHub, Clock, FunctionLibrary, LogEntry } from '../../stdlib/types.ts';
import { callLogObserver, type CallLogLevel } from './call-log-observer.ts';
import { StepHistory } from '../history/step-history.ts';
import { Recording, recordingCallbacks, recordingClock, recordingEnv, recordingUuid, type PlaybackValues } from '../recording/recording.ts';

/** The step history an execution records (https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.workflows.executions.stepEntries): none, basic, or detailed (with variables). */
export type HistoryLevel = 'none' | 'basic' | 'detailed';

/** Options of {@link prepareExecution}: what distinguishes one host's executions from another's. */
export interface ExecutionOptions {
  /** The IDs sys.get_env reports (CLOUD_PROJECT_ID, ..., CLOUD_WORKFLOW_EXECUTION_ID) and log lines carry. */
  readonly ids: ExecutionIds;
  /** The revision's userEnvVars (or a test case's env): sys.get_env values under the built-in ones. */
  readonly userEnv?: Readonly<Record<string, string>> | undefined;
  /** Values under `userEnv` (the server's extra environment). */
  readonly baseEnv?: Readonly<Record<string, string>> | undefined;
  /** Time for sleeps, timeouts, backoff and callback waits; also stamps step entries and call records. */
  readonly clock: Clock;
  /** The real outbound fetch under the mocks (held on the virtual clock while a request is out). */
  readonly fetch: typeof fetch;
  /** The functions and retry policies calls resolve to (the library the definition was compiled with). */
  readonly library: FunctionLibrary;
  /** The mocks the execution starts with (a fresh session: sequences start again). */
  readonly mocks: MockSet;
  /** Step history to record: `none` records nothing. */
  readonly history: HistoryLevel;
  /** Cap on step entries kept (default: the step ring's). */
  readonly maxStepEntries?: number | undefined;
  /** Call logging level (Google's callLogLevel); undefined or LOG_NONE writes nothing. */
  readonly callLogLevel?: CallLogLevel | undefined;
  /** Where call log lines go (one JSON object each, no newline); required for call logging to write. */
  readonly writeCallLog?: ((line: string) => void) | undefined;
  /** Where sys.log entries go. */
  readonly log: (entry: LogEntry) => void;
  /** events.create_callback_endpoint and events.await_callback for this execution. */
  readonly callbacks: CallbackHub;
  /** Connectors the emulator runs itself (asked for on the first connector call), mocks winning over them. */
  readonly connectors?: (() => ReadonlyMap<string, ConnectorImpl>) | undefined;
  /** Times and UUIDs to hand back in order before the clock's and the platform's (a replay's, a test case's). */
  readonly playback?: PlaybackValues | undefined;
  /** The service's budget of recorded call bytes (docs/limits.md), shared by its executions; none in one-off runs. */
  readonly recordedBytes?: RecordedBytes | undefined;
  /** `google`: Google's behaviour where it and the emulator's default differ (docs/compat.md). */
  readonly compat?: Compat | undefined;
  /** The coverage counts of the execution's source (docs/coverage.md), when its steps are counted. */
  readonly coverage?: CoverageCounts | undefined;
  /** A debugger attached from the first step (docs/debugging.md): its observer beside the history's and coverage's, and its gate. */
  readonly debugger?: DebuggerHooks | undefined;
}

/** What a debugger hooks into an execution: a step observer (its handles are what its gate receives) and a gate. */
export interface DebuggerHooks {
  readonly observer: StepObserver;
  readonly gate: StepGate;
}

/** A prepared execution: its dependencies for `runExecution`/`runToOutcome`, and what it records. */
export interface PreparedExecution {
  readonly deps: ExecutionDeps;
  /** Its outbound calls (http.* and connectors), filled as they happen. */
  readonly calls: CallLog;
  /** Its step history, unless the level is `none`. */
  readonly history: StepHistory | undefined;
  /** What it takes in from outside besides its calls (times, UUIDs, env reads, callbacks), filled as it runs. */
  readonly recording: Recording;
}

/** Builds one execution's dependencies from `o` (see the module header). Never throws. */
export function prepareExecution(o: ExecutionOptions): PreparedExecution {
  const clock = o.clock;
  const mocked = mockExecution(o.mocks, {
    realFetch: fetchHoldingTime(clock, o.fetch),
    clock,
    ...(o.connectors ? { connectors: o.connectors } : {}),
    ...(o.recordedBytes ? { recordedBytes: o.recordedBytes } : {}),
  });
  const history =
    o.history === 'none'
      ? undefined
      : new StepHistory({
          detailed: o.history === 'detailed',
          now: () => clock.now(),
          ...(o.maxStepEntries !== undefined ? { maxEntries: o.maxStepEntries } : {}),
        });
  const callSteps = o.writeCallLog
    ? callLogObserver(o.callLogLevel, {
        workflowId: o.ids.workflowId,
        executionId: o.ids.executionId,
        now: () => clock.now(),
        write: o.writeCallLog,
      })
    : undefined;
  const recording = new Recording();
  const counting = o.coverage?.observer();
  const observer = history && counting ? new BothObservers(history, counting) : (history ?? counting);
  const deps: ExecutionDeps = {
    clock: recordingClock(clock, recording, o.playback),
    fetch: mocked.fetch,
    env: recordingEnv(executionEnv(o.ids, o.userEnv, o.baseEnv), recording),
    log: o.log,
    callbacks: recordingCallbacks(o.callbacks, recording),
    uuid: recordingUuid(recording, o.playback),
    library: o.library,
    ...(o.compat === 'google' ? { compat: o.compat } : {}),
    hooks: {
      interceptor: mocked.interceptor,
      ...(callSteps ? { callSteps } : {}),
      ...(o.debugger ? withDebugger(observer, o.debugger) : observer ? { observer } : {}),
    },
  };
  return { deps, calls: mocked.calls, history, recording };
}

/**
 * The observer and gate of an execution with a debugger: the other observers (step history, coverage) and the
 * debugger's side by side (each entry's handle a pair), the gate handed the debugger's own handle.
 */
function withDebugger(others: StepObserver | undefined, d: DebuggerHooks): { observer: StepObserver; gate: StepGate } {
  if (others === undefined) return d;
  type Pair = readonly [unknown, unknown];
  const gate: StepGate = {
    before: (step, entry) => d.gate.before(step, (entry as Pair)[1]),
    raised: (step, entry, error) => d.gate.raised(step, (entry as Pair)[1], error),
  };
  return { observer: new BothObservers(others, d.observer) as StepObserver, gate };
}

/** Two step observers as one: both see every entry (the history and coverage counts; those and a debugger). */
class BothObservers implements StepObserver<readonly [unknown, unknown]> {
  constructor(
    private readonly a: StepObserver,
    private readonly b: StepObserver,
  ) {}

  enter(event: StepEvent, parent: readonly [unknown, unknown] | undefined): readonly [unknown, unknown] {
    return [this.a.enter(event, parent?.[0]), this.b.enter(event, parent?.[1])];
  }

  leave(handle: readonly [unknown, unknown], end: StepEnd): void {
    this.a.leave(handle[0], end);
    this.b.leave(handle[1], end);
  }
}
