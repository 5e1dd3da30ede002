/**
 * The service core (docs/api-resources.md#resources-and-their-fields, docs/api-resources.md#states-and-transitions, docs/rest-api.md#endpoints and docs/api-resources.md#events,
 * docs/api-resources.md#versioning): workflows with their revisions, executions pinned to a revision and run in the background,
 * callbacks and sys.log entries per execution (read through executions/execution-queries.ts). One instance is
 * shared by REST, gRPC, the web UI and the directory watcher; nothing here knows about a transport.
 *
 * Decisions where the spec is silent (each documented in docs/differences.md):
 * - Deleting a workflow keeps its executions: running ones finish with the revision they were pinned to,
 *   and get/list/cancel of executions under the deleted workflow ID keep working. (Google's service "also
 *   cancels and deletes all running executions of the workflow",
 *   https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.workflows/delete; here a
 *   file deleted or renamed in the watched directory must not kill a run, as docs/cli.md#directory-watching rule 6 asks.) A workflow created again under the same ID lists the old executions too, and its
 *   revision counter goes on from the old one, so a revision ID always names one source.
 * - A non-null argument given to a `main` without params is accepted, recorded in `argument`, and not passed
 *   to the workflow, as Google's service does: "For a workflow to receive runtime arguments there must be a
 *   main block" with `params` (https://cloud.google.com/workflows/docs/reference/syntax/runtime-args).
 */
import { toJson } from '../lang/json.ts';
import { SourceProblems } from './watch/source-problems.ts';
import { DEFINITION_LIBRARY } from '../stdlib/index.ts';
import type { Definition } from '../lang/definition/ast.ts';
import type { Value } from '../lang/value.ts';
import type { Clock, FunctionLibrary, LogEntry } from '../stdlib/types.ts';
import { checkCallLogLevel } from './executions/call-log-observer.ts';
import { prepareExecution, type DebuggerHooks } from './executions/prepare-execution.ts';
import { lineWriter, LogRecord } from './executions/log-sink.ts';
import { DetailBudget } from './history/detail-budget.ts';
import { replayingHub, replayPlan, savedCasePlan, type ReplayPlan } from './recording/replay.ts';
import { platformFetch } from '../stdlib/http.ts';
import { checkLabels } from './store/workflow-settings.ts';
import { announcingHub, CallbackRegistry, ExecutionOwner } from './callbacks/callback-registry.ts';
import { systemClock } from '../engine/system-clock.ts';
import type { VirtualTime } from '../engine/virtual-time.ts';
import { ApiError } from './errors.ts';
import { NO_MOCKS, type MockSet } from '../mocks/mock-file.ts';
import { loadModule } from '../platform/libraries.ts';
import { standardOutput } from '../platform/std-streams.ts';
import { RecordedBytes } from '../mocks/call-log.ts';
import { childWorkflowConnectors, storeChildHost } from './children/child-workflow-connectors.ts';
import type { EmulatorControl, Execution, ExecutionState, ServiceCore, ServiceEvent } from './model.ts';
import { newExecutionId, parentName } from './names.ts';
import { createWorkflowStore, type WorkflowMethods, type WorkflowRecord, type WorkflowStore } from './store/workflow-store.ts';
import type { CoverageCounts } from '../coverage/counts.ts';
import { serviceCoverage, type ServiceCoverage } from './executions/coverage-control.ts';
import { logLine, runToOutcome } from './executions/run-to-outcome.ts';
import { Cancellation } from '../platform/cancellation.ts';
import { settleHistory } from './history/settled-history.ts';
import { activeExecution, checkHistoryLevel, executionView, historyLevelOf } from './executions/execution-view.ts';
import { ExecutionStore, OfferedExecution, type ExecutionRecord } from './executions/execution-store.ts';
import { executionQueries, type ExecutionQueries } from './executions/execution-queries.ts';
import { parseExecutionArgument } from './executions/execution-argument.ts';
import { ServiceEvents } from './service-events.ts';
import { checkDebug, checkedWrites, notResumed } from './core-checks.ts';
import type { CoreInternals, StateSink } from './persist/hooks.ts';
import { MAX_ACTIVE_EXECUTIONS, MAX_CHILD_DEPTH, MAX_RETAINED_EXECUTIONS, type ServiceCoreOptions } from './service-core-options.ts';

export { MAX_ARGUMENT_BYTES } from './executions/execution-argument.ts';
export { MAX_ACTIVE_EXECUTIONS, MAX_CHILD_DEPTH } from './service-core-options.ts';

/** Why an execution stopped when it was cancelled: the reason its signal carries. */
class ExecutionCancelled extends Error {
  constructor() {
    super('the execution was cancelled');
    this.name = 'ExecutionCancelled';
  }
}

/** The fields of a createExecution request. */
type ExecutionInput = Parameters<ServiceCore['createExecution']>[1];

/** What a revision gives the executions pinned to it. */
interface PinnedRevision {
  readonly definition: Definition;
  readonly revision: string;
  readonly userEnv: Readonly<Record<string, string>> | undefined;
  readonly serviceAccount: string | undefined;
  /** The coverage counts its executions add to (docs/coverage.md). */
  readonly counts: CoverageCounts;
}

/**
 * Creates the service core: an empty store of workflows and executions (API-only mode until something is
 * deployed). `close()` cancels every ACTIVE execution (so a process can exit) and drops all listeners.
 *
 * Every method throws {@link ApiError} as described on {@link ServiceCore}.
 */
export function createServiceCore(options: ServiceCoreOptions): ServiceCore & EmulatorControl & { close(): void } {
  return new EmulatorService(options);
}

// The workflow methods are the store's own, the execution reads execution-queries.ts's (assigned in the constructor).
interface EmulatorService extends WorkflowMethods, ExecutionQueries {}

/**
 * The service core: the workflow store's methods, the executions it starts and keeps, their callbacks, logs
 * and step histories, and the emulator's controls. Its methods are bound, so they may be passed around alone.
 */
class EmulatorService implements ServiceCore, EmulatorControl {
  readonly project: string;
  readonly location: string;
  readonly clock: Clock;
  readonly sourceProblems = new SourceProblems();
  readonly #options: ServiceCoreOptions;
  readonly #parent: string;
  readonly #fetch: typeof fetch;
  readonly #library: FunctionLibrary;
  readonly #startMocks: MockSet;
  #mocks: MockSet;
  readonly #printLog: (line: string) => void;
  readonly #defaultHistory: 'none' | 'basic' | 'detailed';
  readonly #compat: { compat?: 'google' };
  readonly #events = new ServiceEvents();
  readonly #callbacks: CallbackRegistry;
  readonly #store: WorkflowStore;
  readonly #executions: ExecutionStore;
  readonly #children: ReturnType<typeof childWorkflowConnectors>;
  readonly #logRecord = new LogRecord();
  readonly #recordedBytes = new RecordedBytes();
  readonly #detailBudget: DetailBudget;
  /** Coverage counts per workflow revision (docs/coverage.md), kept as executions run. */
  readonly #coverage: ServiceCoverage;
  readonly #maxActive: number;
  /** Executions ACTIVE now (counted up in #createExecution, down in #finish). */
  #activeCount = 0;
  /** The data directory changes go to (docs/persistence.md); undefined in memory only. */
  readonly #persist: StateSink | undefined;

  constructor(options: ServiceCoreOptions) {
    this.#options = options;
    this.project = options.project;
    this.location = options.location;
    this.#parent = parentName(options.project, options.location);
    this.clock = options.clock ?? systemClock;
    this.#fetch = options.fetch ?? platformFetch;
    this.#library = options.library ?? DEFINITION_LIBRARY;
    this.#mocks = this.#startMocks = options.mocks ?? NO_MOCKS;
    // Printed with backpressure and never fatal (docs/limits.md "Logs"); kept within byte limits.
    this.#printLog = options.log ?? lineWriter(standardOutput);
    this.#detailBudget = new DetailBudget(options.maxDetailedHistoryBytes);
    this.#maxActive = options.maxActiveExecutions ?? MAX_ACTIVE_EXECUTIONS;
    this.#defaultHistory = options.defaultHistory ?? 'basic';
    this.#compat = options.compat === 'google' ? { compat: 'google' } : {};
    this.#callbacks = new CallbackRegistry(options.callbackBaseUrl.replace(/\/+$/, ''), this.clock);
    const events = this.#events.emit.bind(this.#events);
    const emit = options.persistence ? (e: ServiceEvent) => (e.type === 'workflow' && this.#persist?.workflowChanged(e.workflowId), events(e)) : events;
    this.#store = createWorkflowStore({ parent: this.#parent, clock: this.clock, library: this.#library, emit, ...this.#compat });
    Object.assign(this, options.persistence ? checkedWrites(this.#store.methods, () => this.#persist?.checkWritable()) : this.#store.methods);
    this.#coverage = serviceCoverage(this.#store);
    this.coverage = this.#coverage.coverage;
    this.workflowCoverage = this.#coverage.workflowCoverage;
    this.resetCoverage = this.#coverage.resetCoverage;
    const maxRetained = options.maxRetainedExecutions ?? MAX_RETAINED_EXECUTIONS;
    this.#executions = new ExecutionStore(this.#parent, maxRetained, (ex) => this.#forget(ex));
    this.#children = this.#childConnectors();
    Object.assign(this, executionQueries({ executions: this.#executions, callbacks: this.#callbacks, logRecord: this.#logRecord }));
    // Last: restoring may start executions again (--resume), which needs everything above.
    this.#persist = options.persistence?.attach(this.#internals());
    if (this.#persist) this.whenDurable = this.#persist.whenDurable.bind(this.#persist);
    this.#persist?.restore();
  }

  /** What a data directory (src/service/persist/) reads of this core and puts back into it. */
  #internals(): CoreInternals {
    return {
      parent: this.#parent,
      store: this.#store,
      executions: this.#executions,
      logsOf: (ex) => this.#logRecord.read(ex).entries,
      adopt: (ex, logs, active) => {
        if (active) this.#activeCount++;
        this.#executions.add(ex);
        for (const l of logs) this.#logRecord.add(ex, l);
      },
      fail: (ex, error) => this.#finish(ex, 'FAILED', { error }),
      rerun: (ex, plan) => {
        const wf = this.#store.has(ex.workflowId) ? this.#store.find(ex.workflowId) : undefined;
        if (wf?.resource.revisionId !== ex.resource.workflowRevisionId) return this.#finish(ex, 'FAILED', { error: notResumed(ex, wf === undefined) });
        const argument = wf.definition.main.params.length === 0 ? null : parseExecutionArgument(ex.resource.argument).argument;
        this.#start(ex, this.#pinned(wf), argument, undefined, { source: ex.name, mocks: this.#mocks, ...plan });
      },
    };
  }

  /** What a workflow's current revision gives an execution started now. */
  #pinned(wf: WorkflowRecord): PinnedRevision {
    const r = wf.resource;
    return { definition: wf.definition, revision: r.revisionId, userEnv: r.userEnvVars, serviceAccount: r.serviceAccount, counts: this.#coverage.countsOf(wf) };
  }

  /** Children started by the Workflow Executions connector (src/service/children/child-workflow-connectors.ts). */
  #childConnectors(): ReturnType<typeof childWorkflowConnectors> {
    return childWorkflowConnectors({
      project: this.project,
      location: this.location,
      clock: this.clock,
      start: (workflowId, argument, parentExecution) => {
        if (this.#options.deployOnDemand && !this.#store.has(workflowId)) this.#options.deployOnDemand(workflowId, this);
        return this.#createExecution(workflowId, argument === undefined ? {} : { argument }, parentExecution);
      },
      ...storeChildHost(this.#executions, (workflowId, executionId) => this.cancelExecution(workflowId, executionId)),
    });
  }


  /** What a pruned execution still holds elsewhere: its callbacks, sys.log entries, kept variables and calls. */
  #forget(ex: ExecutionRecord): void {
    this.#callbacks.forget(ex.name);
    this.#logRecord.forget(ex);
    this.#detailBudget.forget(ex);
    ex.calls?.release();
    this.#persist?.executionForgotten(ex);
  }

  /** Moves an ACTIVE execution to a terminal state; a no-op for one that already ended. */
  #finish(ex: ExecutionRecord, state: Exclude<ExecutionState, 'ACTIVE'>, fields: { result?: string; error?: Execution['error'] }): void {
    if (ex.resource.state !== 'ACTIVE') return;
    this.#activeCount--;
    ex.resource = executionView(ex.resource, state, fields, ex.startMs, this.clock.now(), ex.recording);
    const waiting = ex.onEnd;
    ex.onEnd = undefined;
    if (waiting) for (const f of waiting) f();
    // Nobody can await the callbacks of an ended execution: forget them with the requests they still hold.
    this.#callbacks.forget(ex.name);
    this.#persist?.executionChanged(ex);
    this.#events.emit({ type: 'execution', workflowId: ex.workflowId, executionId: ex.executionId });
    this.#options.onExecutionEnd?.(ex.resource);
  }

  /** Builds the execution's dependencies (prepare-execution.ts) and runs it in the background. */
  #start(ex: ExecutionRecord, pinned: PinnedRevision, argument: Value, debug: DebuggerHooks | undefined, replay: ReplayPlan | undefined): void {
    const { project, location } = this;
    const announcing = announcingHub(this.#callbacks, new ExecutionOwner(ex), this.#options.onCallbackWait, replay?.playback.callbacks);
    const hub = this.#persist ? this.#persist.hubOf(announcing, ex) : announcing;
    const prepared = prepareExecution({
      // sys.get_env: the revision's userEnvVars over the server's extra values; the built-in values win.
      ids: {
        project,
        location,
        projectNumber: this.#options.projectNumber,
        serviceAccount: pinned.serviceAccount,
        workflowId: ex.workflowId,
        revisionId: pinned.revision,
        executionId: ex.executionId,
      },
      userEnv: pinned.userEnv,
      baseEnv: this.#options.env ?? {},
      clock: this.clock,
      fetch: this.#fetch,
      library: this.#library,
      mocks: replay?.mocks ?? this.#mocks,
      playback: replay?.playback,
      history: ex.historyLevel,
      maxStepEntries: this.#options.maxStepEntries,
      callLogLevel: ex.callLogLevel,
      writeCallLog: this.#printLog,
      log: (entry) => this.#recordLog(ex, entry),
      callbacks: replay ? replayingHub(hub, replay.callbacks, (id, request) => this.#callbacks.deliver(id, request)) : hub,
      connectors: () => this.#children.connectorsFor(ex.name),
      recordedBytes: this.#recordedBytes,
      ...this.#compat,
      coverage: pinned.counts,
      ...(debug ? { debugger: debug } : {}),
    });
    ex.calls = prepared.calls;
    ex.inputs = prepared.recording;
    ex.recording = prepared.history;
    if (ex.history === undefined) ex.history = prepared.history;
    const abort = (ex.abort = new Cancellation());
    void runToOutcome(pinned.definition, argument, prepared.deps, abort.signal).then((outcome) => {
      if (ex.resource.state === 'ACTIVE') {
        if (outcome.state === 'SUCCEEDED') this.#finish(ex, 'SUCCEEDED', { result: outcome.result });
        else this.#finish(ex, 'FAILED', { error: outcome.error });
      }
      this.#runEnded(ex);
    });
  }

  /**
   * The engine's run of `ex` is over (or will never start): what only a run needs is let go, and its step
   * history is kept in its settled form (settled-history.ts), so a finished execution holds little memory.
   */
  #runEnded(ex: ExecutionRecord): void {
    ex.abort = undefined;
    if (ex.calls?.records.length === 0) ex.calls = undefined;
    if (ex.recording) {
      ex.history = settleHistory(ex.recording);
      ex.recording = undefined;
      this.#detailBudget.ended(ex, ex.history);
    }
  }

  /** The debugger `ex` runs under, if the host gives it one (ServiceCoreOptions.debuggerFor). */
  #debuggerOf(ex: ExecutionRecord, definition: Definition, sourceContents: string, requested: boolean): DebuggerHooks | undefined {
    const debuggerFor = this.#options.debuggerFor;
    if (!debuggerFor) return undefined;
    return debuggerFor(new OfferedExecution(ex, definition, sourceContents), requested);
  }

  /**
   * Starts an execution pinned to the workflow's current revision (the API's createExecution; with
   * `parentExecution`, a child started by the Workflow Executions connector).
   */
  #createExecution(workflowId: string, input: ExecutionInput, parentExecution: string | undefined, replay?: ReplayPlan): Execution {
    this.#persist?.checkWritable();
    const wf = this.#store.find(workflowId);
    const debugRequested = checkDebug(input.debug);
    if (debugRequested && !this.#options.debuggerFor) {
      throw ApiError.invalidArgument('debug: this emulator runs no debugger (start it with --inspect; docs/debugging.md)');
    }
    const depth = this.#checkRoom(parentExecution);
    let { argument, recorded } = parseExecutionArgument(input.argument);
    const executionLevel = checkHistoryLevel(input.executionHistoryLevel);
    const callLogLevel = checkCallLogLevel(input.callLogLevel);
    const ownLabels = checkLabels(input.labels, 'labels');
    const labels = wf.resource.labels || ownLabels ? { ...wf.resource.labels, ...ownLabels } : undefined;
    // A main without params does not receive the argument (see the module header).
    if (wf.definition.main.params.length === 0) argument = null;
    const executionId = newExecutionId();
    const name = `${wf.resource.name}/executions/${executionId}`;
    const startMs = Math.trunc(this.clock.now());
    const resource = activeExecution(name, recorded, startMs, wf.resource.revisionId, executionLevel, labels, callLogLevel);
    const ex: ExecutionRecord = {
      workflowId,
      executionId,
      name,
      resource,
      startMs,
      abort: undefined,
      historyLevel: historyLevelOf(wf.resource.executionHistoryLevel, executionLevel, this.#defaultHistory),
      recording: undefined,
      history: undefined,
      callLogLevel: callLogLevel ?? wf.resource.callLogLevel,
      onEnd: undefined,
      parent: parentExecution,
      depth,
    };
    this.#activeCount++;
    this.#executions.add(ex);
    this.#persist?.executionChanged(ex);
    const pinned = this.#pinned(wf);
    const debug = this.#debuggerOf(ex, wf.definition, wf.resource.sourceContents ?? '', debugRequested);
    // Start after the caller has the ACTIVE resource in hand (and REST has answered).
    setImmediate(() => {
      if (ex.resource.state === 'ACTIVE') this.#start(ex, pinned, argument, debug, replay);
      else this.#runEnded(ex);
    });
    this.#events.emit({ type: 'execution', workflowId, executionId });
    return resource;
  }

  /**
   * The depth a new execution would have, once it is known to fit under the child depth and ACTIVE caps.
   * @throws ApiError RESOURCE_EXHAUSTED past {@link MAX_CHILD_DEPTH} or {@link MAX_ACTIVE_EXECUTIONS}
   */
  #checkRoom(parentExecution: string | undefined): number {
    const depth = parentExecution === undefined ? 0 : this.#depthOf(parentExecution) + 1;
    if (depth > MAX_CHILD_DEPTH) {
      throw new ApiError('RESOURCE_EXHAUSTED', `child executions may nest at most ${MAX_CHILD_DEPTH} deep (docs/limits.md "Executions")`);
    }
    if (this.#activeCount >= this.#maxActive) {
      throw new ApiError(
        'RESOURCE_EXHAUSTED',
        `${this.#activeCount} executions are ACTIVE, the limit of concurrent executions (docs/limits.md "Executions"); cancel some or wait for them to end`,
      );
    }
    return depth;
  }

  /** The depth of an execution by full name; 0 when it is gone (pruned). */
  #depthOf(name: string): number {
    try {
      return this.#executions.byName(name).depth;
    } catch {
      return 0;
    }
  }

  /** Cancels every ACTIVE execution (reset and close). */
  #cancelAll(): void {
    for (const ex of this.#executions.list()) {
      if (ex.resource.state === 'ACTIVE') this.#cancel(ex);
    }
  }

  /** Cancels an ACTIVE execution: its resource ends CANCELLED first, then its run is stopped. */
  #cancel(ex: ExecutionRecord): void {
    const abort = ex.abort;
    this.#finish(ex, 'CANCELLED', {});
    abort?.abort(new ExecutionCancelled());
  }

  /** Keeps a sys.log entry of `ex` (executionLogs reads it) and prints its line. */
  #recordLog(ex: ExecutionRecord, entry: LogEntry): void {
    this.#logRecord.add(ex, entry);
    this.#printLog(logLine(entry, ex.workflowId, ex.executionId));
  }

  readonly createExecution = (workflowId: string, input: ExecutionInput): Execution =>
    this.#createExecution(workflowId, input, undefined);

  readonly replayExecution: ServiceCore['replayExecution'] = (workflowId, executionId, o) => {
    const rec = this.executionRecording(workflowId, executionId);
    const plan = replayPlan(rec, o, this.#store.find(workflowId).resource.revisionId);
    const { argument, labels } = rec.execution;
    const input = { ...(argument !== undefined ? { argument } : {}), labels: { ...labels, 'replay-of': executionId } };
    return this.#createExecution(workflowId, input, undefined, plan);
  };

  readonly replaySavedCase: ServiceCore['replaySavedCase'] = (workflowId, testFile, caseName) => {
    this.#store.find(workflowId);
    const { plan, argument } = savedCasePlan(testFile, caseName);
    return this.#createExecution(workflowId, argument === undefined ? {} : { argument: toJson(argument) }, undefined, plan);
  };

  readonly mocks = (): MockSet => this.#mocks;

  readonly setMocks = (m: MockSet): void => {
    this.#mocks = m;
  };

  readonly reset = (): void => {
    this.#cancelAll();
    // A virtual clock that sleeps carried ahead comes back to the real time (nothing waits on it now).
    if ('rewind' in this.clock) (this.clock as VirtualTime).rewind();
    this.#store.clear();
    for (const ex of this.#executions.list()) ex.calls?.release();
    this.#executions.clear();
    this.#logRecord.clear();
    this.#detailBudget.clear();
    this.#callbacks.clear();
    this.#mocks = this.#startMocks;
    this.#coverage.clear();
    // After the cancellations above, which the data directory records first.
    this.#persist?.reset();
    this.#events.emit({ type: 'reset' });
  };

  readonly coverage: EmulatorControl['coverage'];
  readonly workflowCoverage: EmulatorControl['workflowCoverage'];
  readonly resetCoverage: EmulatorControl['resetCoverage'];

  readonly cancelExecution: ServiceCore['cancelExecution'] = (workflowId, executionId) => {
    const ex = this.#executions.find(workflowId, executionId);
    if (ex.resource.state !== 'ACTIVE') {
      throw new ApiError('FAILED_PRECONDITION', `execution "${ex.name}" is ${ex.resource.state}; only an ACTIVE execution can be cancelled`);
    }
    this.#persist?.checkWritable();
    this.#cancel(ex);
    return ex.resource;
  };

  readonly deliverCallback: ServiceCore['deliverCallback'] = (callbackId, request) => {
    if (!this.#persist) return this.#callbacks.deliver(callbackId, request);
    this.#persist.checkWritable();
    const owner = this.#callbacks.executionOf(callbackId);
    const answer = this.#callbacks.deliver(callbackId, request);
    if (answer.status === 200) this.#persist.callbackDelivered(owner, callbackId, request);
    return answer;
  };

  /** Set only with a data directory (or an import), so transports know to wait for the disk (ServiceCore.whenDurable). */
  readonly whenDurable?: () => Promise<void> | undefined;

  readonly exportTo: EmulatorControl['exportTo'] = async (directory) =>
    (await loadModule('persist', 'src/service/persist/export.ts', () => import('./persist/export.ts'))).exportState(this.#internals(), directory, this.#persist?.activeCallbacks() ?? new Map());

  readonly storage: EmulatorControl['storage'] = () => this.#persist?.storage();

  readonly subscribe: ServiceCore['subscribe'] = (listener) => this.#events.subscribe(listener);

  readonly close = (): void => {
    this.#cancelAll();
    this.#events.clear();
  };
}
