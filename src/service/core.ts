/**
 * The service core (spec "Resources and their fields", "States and transitions", "Endpoints", "Events",
 * "Versioning"): workflows with their revisions, executions pinned to a revision and run in the background,
 * callbacks and sys.log entries per execution. One instance is shared by REST, gRPC, the web UI and the
 * directory watcher; nothing here knows about a transport.
 *
 * Decisions where the spec is silent (each documented in README "Differences from the real service"):
 * - Deleting a workflow keeps its executions: running ones finish with the revision they were pinned to,
 *   and get/list/cancel of executions under the deleted workflow ID keep working. (Google's service "also
 *   cancels and deletes all running executions of the workflow",
 *   https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.workflows/delete; here a
 *   file deleted or renamed in the watched directory must not kill a run, as "Directory watching" rule 6 asks.) A workflow created again under the same ID lists the old executions too, and its
 *   revision counter goes on from the old one, so a revision ID always names one source.
 * - A non-null argument given to a `main` without params is accepted, recorded in `argument`, and not passed
 *   to the workflow, as Google's service does: "For a workflow to receive runtime arguments there must be a
 *   main block" with `params` (https://cloud.google.com/workflows/docs/reference/syntax/runtime-args).
 */
import { SourceProblems } from './source-problems.ts';
import { DEFINITION_LIBRARY } from '../stdlib/index.ts';
import type { Definition } from '../lang/definition/ast.ts';
import type { Compat } from '../lang/compat.ts';
import { type Value } from '../lang/value.ts';
import { JsonSyntaxError, parseJson } from '../lang/json.ts';
import type { Clock, FunctionLibrary, LogEntry } from '../stdlib/types.ts';
import { checkCallLogLevel, type CallLogLevel } from './call-logging.ts';
import type { StepHistory } from './step-history.ts';
import { prepareExecution, type DebuggerHooks, type HistoryLevel } from './execution-setup.ts';
import { platformFetch } from '../stdlib/http.ts';
import { checkLabels } from './workflow-settings.ts';
import { announcingHub, CallbackRegistry, type CallbackWait } from './callbacks.ts';
import { systemClock } from '../engine/system-clock.ts';
import { ApiError } from './errors.ts';
import { NO_MOCKS, type MockSet } from '../mocks/mock-file.ts';
import type { CallLog } from '../mocks/call-log.ts';
import { childWorkflowConnectors } from './child-workflows.ts';
import type {
  Callback,
  CallbackRequest,
  EmulatorControl,
  Execution,
  ExecutionState,
  ServiceCore,
  ServiceEvent,
} from './model.ts';
import { parentName, splitName } from './names.ts';
import { createWorkflowStore } from './workflow-store.ts';
import { logLine, runToOutcome } from './runner.ts';
import { giveBackController, takeController } from './abort-pool.ts';
import { EMPTY_HISTORY, settleHistory, type StepHistoryReader } from './settled-history.ts';
import { getStepEntry, listStepEntries } from './step-entries.ts';
import { activeExecution, activeView, checkHistoryLevel, executionView, historyLevelOf } from './execution-view.ts';

/** Largest execution argument, in UTF-8 bytes (spec "Execution": max 32 KB). */
export const MAX_ARGUMENT_BYTES = 32 * 1024;
/** sys.log entries kept per execution; older ones are dropped first (they are still printed). */
const MAX_LOG_ENTRIES_PER_EXECUTION = 10_000;
/**
 * Executions kept in memory. Beyond this (plus a tenth, so pruning is amortized), the oldest terminal ones
 * are forgotten, with their callbacks and logs; ACTIVE executions are never dropped. Google keeps execution
 * history for 90 days; a long load test against the emulator must not exhaust its memory.
 */
const MAX_RETAINED_EXECUTIONS = 100_000;

/** Options of {@link createServiceCore}. */
export interface ServiceCoreOptions {
  /** PROJECT: used in resource names and CLOUD_PROJECT_ID. */
  readonly project: string;
  /** LOCATION: used in resource names and CLOUD_LOCATION. */
  readonly location: string;
  /** PROJECT_NUMBER: GOOGLE_CLOUD_PROJECT_NUMBER; default DEFAULT_PROJECT_NUMBER (src/stdlib/sys.ts). */
  readonly projectNumber?: string;
  /**
   * `google` (`--compat google`): definitions and executions follow Google's behaviour where it and the
   * specification differ (docs/compat.md). Default: the specification's.
   */
  readonly compat?: Compat;
  /**
   * Scheme, host and port that callback URLs start with (`http://localhost:8787`); a trailing slash is
   * dropped. Callback URLs are `<callbackBaseUrl>/callbacks/<id>`.
   */
  readonly callbackBaseUrl: string;
  /**
   * Extra environment values every execution can read with sys.get_env; the built-in CLOUD_* and
   * GOOGLE_CLOUD_* values of the execution win over these.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Time for executions (sleeps, timeouts, backoff, callback waits); the system clock by default. */
  readonly clock?: Clock;
  /** Outbound HTTP for http.*; the platform fetch by default. */
  readonly fetch?: typeof fetch;
  /** The mocks every execution starts with (issue 13); none by default. `setMocks` replaces them. */
  readonly mocks?: MockSet;
  /**
   * Where sys.log lines go: one JSON object per call, without the trailing newline. Default: stdout, one line
   * each.
   */
  readonly log?: (line: string) => void;
  /** Executions kept in memory; default {@link MAX_RETAINED_EXECUTIONS}. */
  readonly maxRetainedExecutions?: number;
  /**
   * The functions, retry policies and backoffs definitions may name and executions call; the standard
   * library's by default.
   */
  readonly library?: FunctionLibrary;
  /**
   * The step history recorded for an execution whose workflow and execution do not set
   * `executionHistoryLevel`: `basic` (the default), `detailed` (variables too), or `none` (issue 12; README
   * "Step history").
   */
  readonly defaultHistory?: 'none' | 'basic' | 'detailed';
  /** Cap on step entries kept per execution; default MAX_STEP_ENTRIES_PER_EXECUTION (step-ring.ts). */
  readonly maxStepEntries?: number;
  /** Called once when an execution ends (after its resource has its terminal state). */
  readonly onExecutionEnd?: (execution: Execution) => void;
  /**
   * Called when a child workflow is asked of a workflow ID that is not deployed, before the answer is NOT_FOUND:
   * it may deploy it (the one-shot run deploys child workflows from the files beside the workflow it runs).
   */
  readonly deployOnDemand?: (workflowId: string, core: ServiceCore) => void;
  /** Called as an execution starts waiting on a callback (the one-shot run prints the URL it waits on). */
  readonly onCallbackWait?: (wait: CallbackWait) => void;  /**
   * Asked as each execution starts: the debugger to run it under (docs/debugging.md), or undefined for none
   * (then the execution runs exactly as without this option). `requested`: the execution was created with
   * `debug: true`.
   */
  readonly debuggerFor?: (execution: DebuggedExecution, requested: boolean) => DebuggerHooks | undefined;
}

/** An execution as a debugger is offered it: its names, its definition and the source it was compiled from. */
export interface DebuggedExecution {
  readonly workflowId: string;
  readonly executionId: string;
  /** The execution's resource name. */
  readonly name: string;
  readonly definition: Definition;
  readonly sourceContents: string;
  /** Settles when the execution ends, with its resource in its terminal state. */
  readonly ended: Promise<Execution>;
}

/** @internal An execution and everything it owns. */
interface ExecutionRecord {
  readonly workflowId: string;
  readonly executionId: string;
  readonly name: string;
  resource: Execution;
  /** `startTime` in milliseconds (the clock's reading, whole milliseconds as the timestamp shows). */
  readonly startMs: number;
  /** Stops the engine's run: set when it starts, dropped once the run has ended. */
  abort: AbortController | undefined;
  /** Its sys.log entries, oldest first (created by the first one). */
  logs: LogEntry[] | undefined;
  /** The step history it records (https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.workflows.executions.stepEntries). */
  readonly historyLevel: HistoryLevel;
  /** The step history being recorded, until the run has ended (then {@link history} holds what was recorded). */
  recording: StepHistory | undefined;
  /** The step history to read, unless history is off for this execution (settled-history.ts once it ended). */
  history: StepHistoryReader | undefined;
  /** Its call logging: its own level, else its workflow's when it was created. */
  readonly callLogLevel: CallLogLevel | undefined;
  /** Its outbound calls (set when it starts; dropped at the end when it made none). */
  calls?: CallLog | undefined;
  /** The execution that started it through the Workflow Executions connector. */
  readonly parent: string | undefined;
  /** Called once when it ends (created by the first waiter). */
  onEnd: (() => void)[] | undefined;
}

/** Why an execution stopped when it was cancelled: the reason its signal carries. */
class ExecutionCancelled extends Error {
  constructor() {
    super('the execution was cancelled');
    this.name = 'ExecutionCancelled';
  }
}

/**
 * Creates the service core: an empty store of workflows and executions (API-only mode until something is
 * deployed). `close()` cancels every ACTIVE execution (so a process can exit) and drops all listeners.
 *
 * Every method throws {@link ApiError} as described on {@link ServiceCore}.
 */
export function createServiceCore(options: ServiceCoreOptions): ServiceCore & EmulatorControl & { close(): void } {
  const { project, location, projectNumber } = options;
  const parent = parentName(project, location);
  const clock = options.clock ?? systemClock;
  const realFetch = options.fetch ?? platformFetch;
  const library = options.library ?? DEFINITION_LIBRARY;
  const startMocks = options.mocks ?? NO_MOCKS;
  let mocks = startMocks;
  const printLog = options.log ?? ((line: string) => void process.stdout.write(line + '\n'));
  const extraEnv = options.env ?? {};
  const maxRetained = options.maxRetainedExecutions ?? MAX_RETAINED_EXECUTIONS;
  const defaultHistory = options.defaultHistory ?? 'basic';
  const callbacks = new CallbackRegistry(options.callbackBaseUrl.replace(/\/+$/, ''), clock);

  const compat = options.compat === 'google' ? ({ compat: 'google' } as const) : {};
  const store = createWorkflowStore({ parent, clock, library, emit, ...compat });
  /** Every execution by ID; insertion order is creation order. */
  const executions = new Map<string, ExecutionRecord>();
  /** Execution IDs per workflow ID, oldest first. */
  const executionsByWorkflow = new Map<string, ExecutionRecord[]>();
  const listeners = new Set<(e: ServiceEvent) => void>();

  function emit(event: ServiceEvent): void {
    for (const l of listeners) {
      try {
        l(event);
      } catch {
        // A listener's failure must not break the service or other listeners.
      }
    }
  }

  function findExecution(workflowId: string, executionId: string): ExecutionRecord {
    const ex = executions.get(executionId);
    if (!ex || ex.workflowId !== workflowId) {
      throw ApiError.notFound(`execution "${parent}/workflows/${workflowId}/executions/${executionId}" not found`);
    }
    return ex;
  }

  /** Moves an ACTIVE execution to a terminal state; a no-op for one that already ended. */
  function finish(ex: ExecutionRecord, state: Exclude<ExecutionState, 'ACTIVE'>, fields: { result?: string; error?: Execution['error'] }): void {
    if (ex.resource.state !== 'ACTIVE') return;
    ex.resource = executionView(ex.resource, state, fields, ex.startMs, clock.now(), ex.recording);
    const waiting = ex.onEnd;
    ex.onEnd = undefined;
    if (waiting) for (const f of waiting) f();
    // Nobody can await the callbacks of an ended execution: free the requests they still hold.
    callbacks.release(ex.name);
    emit({ type: 'execution', workflowId: ex.workflowId, executionId: ex.executionId });
    options.onExecutionEnd?.(ex.resource);
  }

  function start(
    ex: ExecutionRecord,
    definition: Definition,
    argument: Value,
    revision: string,
    userEnv: Readonly<Record<string, string>> | undefined,
    serviceAccount: string | undefined,
    debug?: DebuggerHooks,
  ): void {
    const prepared = prepareExecution({
      // sys.get_env: the revision's userEnvVars over the server's extra values; the built-in values win.
      ids: { project, location, projectNumber, serviceAccount, workflowId: ex.workflowId, revisionId: revision, executionId: ex.executionId },
      userEnv,
      baseEnv: extraEnv,
      clock,
      fetch: realFetch,
      library,
      mocks,
      history: ex.historyLevel,
      maxStepEntries: options.maxStepEntries,
      callLogLevel: ex.callLogLevel,
      writeCallLog: printLog,
      log: (entry) => recordLog(ex, entry),
      callbacks: announcingHub(callbacks, ex.name, () => ex.resource.state === 'ACTIVE', options.onCallbackWait),
      connectors: () => children.connectorsFor(ex.name),
      ...compat,
      ...(debug ? { debugger: debug } : {}),
    });
    ex.calls = prepared.calls;
    ex.recording = prepared.history;
    if (ex.history === undefined) ex.history = prepared.history;
    const abort = (ex.abort = takeController());
    void runToOutcome(definition, argument, prepared.deps, abort.signal).then((outcome) => {
      if (ex.resource.state === 'ACTIVE') {
        if (outcome.state === 'SUCCEEDED') finish(ex, 'SUCCEEDED', { result: outcome.result });
        else finish(ex, 'FAILED', { error: outcome.error });
      }
      runEnded(ex);
    });
  }

  /**
   * The engine's run of `ex` is over (or will never start): what only a run needs is let go, and its step
   * history is kept in its settled form (settled-history.ts), so a finished execution holds little memory.
   */
  function runEnded(ex: ExecutionRecord): void {
    if (ex.abort) giveBackController(ex.abort);
    ex.abort = undefined;
    if (ex.calls?.records.length === 0) ex.calls = undefined;
    if (ex.recording) {
      ex.history = settleHistory(ex.recording);
      ex.recording = undefined;
    }
  }

  /** The debugger `ex` runs under, if the host gives it one (ServiceCoreOptions.debuggerFor). */
  function debuggerOf(ex: ExecutionRecord, definition: Definition, sourceContents: string, requested: boolean): DebuggerHooks | undefined {
    if (!options.debuggerFor) return undefined;
    const ended = new Promise<Execution>((resolve) => {
      (ex.onEnd ??= []).push(() => resolve(ex.resource));
    });
    return options.debuggerFor({ workflowId: ex.workflowId, executionId: ex.executionId, name: ex.name, definition, sourceContents, ended }, requested);
  }

  /**
   * Starts an execution pinned to the workflow's current revision (the API's createExecution; with
   * `parentExecution`, a child started by the Workflow Executions connector).
   */
  function createExecution(
    workflowId: string,
    input: Parameters<ServiceCore['createExecution']>[1],
    parentExecution: string | undefined,
  ): Execution {
    const wf = store.find(workflowId);
    const raw = input.argument;
    let argument: Value = null;
    let recorded: string | undefined;
    if (raw !== undefined && raw !== null) {
      if (typeof raw !== 'string') throw ApiError.invalidArgument('argument must be a string holding JSON');
      if (raw !== '') {
        const bytes = Buffer.byteLength(raw, 'utf8');
        if (bytes > MAX_ARGUMENT_BYTES) {
          throw ApiError.invalidArgument(`argument is ${bytes} bytes; the limit is ${MAX_ARGUMENT_BYTES} bytes (32 KB)`);
        }
        try {
          argument = parseJson(raw);
        } catch (e) {
          const why = e instanceof JsonSyntaxError ? e.message : String(e);
          throw ApiError.invalidArgument(`argument is not valid JSON: ${why}`);
        }
        recorded = raw;
      }
    }
    const debugRequested = checkDebug(input.debug);
    if (debugRequested && !options.debuggerFor) throw ApiError.invalidArgument('debug: this emulator runs no debugger (start it with --inspect; docs/debugging.md)');
    const executionLevel = checkHistoryLevel(input.executionHistoryLevel);
    const callLogLevel = checkCallLogLevel(input.callLogLevel);
    const ownLabels = checkLabels(input.labels, 'labels');
    const labels = wf.resource.labels || ownLabels ? { ...wf.resource.labels, ...ownLabels } : undefined;
    // A main without params does not receive the argument (see the module header).
    if (wf.definition.main.params.length === 0) argument = null;
    const executionId = crypto.randomUUID();
    const name = `${wf.resource.name}/executions/${executionId}`;
    const startMs = Math.trunc(clock.now());
    const resource = activeExecution(name, recorded, startMs, wf.resource.revisionId, executionLevel, labels, callLogLevel);
    const historyLevel = historyLevelOf(wf.resource.executionHistoryLevel, executionLevel, defaultHistory);
    const ex: ExecutionRecord = {
      workflowId,
      executionId,
      name,
      resource,
      startMs,
      abort: undefined,
      logs: undefined,
      historyLevel,
      recording: undefined,
      history: undefined,
      callLogLevel: callLogLevel ?? wf.resource.callLogLevel,
      onEnd: undefined,
      parent: parentExecution,
    };
    executions.set(executionId, ex);
    let list = executionsByWorkflow.get(workflowId);
    if (!list) executionsByWorkflow.set(workflowId, (list = []));
    list.push(ex);
    if (executions.size > maxRetained * 1.1) prune();
    const definition = wf.definition;
    const revision = wf.resource.revisionId;
    const userEnv = wf.resource.userEnvVars;
    const serviceAccount = wf.resource.serviceAccount;
    const debug = debuggerOf(ex, definition, wf.resource.sourceContents ?? '', debugRequested);
    // Start after the caller has the ACTIVE resource in hand (and REST has answered).
    setImmediate(() => {
      if (ex.resource.state === 'ACTIVE') start(ex, definition, argument, revision, userEnv, serviceAccount, debug);
      else runEnded(ex);
    });
    emit({ type: 'execution', workflowId, executionId });
    return resource;
  }

  function cancelAll(): void {
    for (const ex of executions.values()) {
      if (ex.resource.state === 'ACTIVE') cancel(ex);
    }
  }

  // Children started by the Workflow Executions connector (src/service/child-workflows.ts).
  const children = childWorkflowConnectors({
    project,
    location,
    clock,
    start: (workflowId, argument, parentExecution) => {
      if (options.deployOnDemand && !store.has(workflowId)) options.deployOnDemand(workflowId, core);
      return createExecution(workflowId, argument === undefined ? {} : { argument }, parentExecution);
    },
    get: (name) => byName(name).resource,
    cancel: (name) => {
      const ex = byName(name);
      return core.cancelExecution(ex.workflowId, ex.executionId);
    },
    whenEnded: (name) => {
      const ex = byName(name);
      if (ex.resource.state !== 'ACTIVE') return Promise.resolve(ex.resource);
      return new Promise((resolve) => (ex.onEnd ??= []).push(() => resolve(ex.resource)));
    },
  });

  /** The execution of a full resource name. @throws ApiError NOT_FOUND */
  function byName(name: string): ExecutionRecord {
    const parts = splitName(name, ['workflows', 'executions']);
    if (!parts || !name.startsWith(parent + '/')) throw ApiError.notFound(`execution "${name}" not found`);
    return findExecution(parts.ids[0]!, parts.ids[1]!);
  }

  /** Forgets the oldest terminal executions down to the retention limit. */
  function prune(): void {
    let excess = executions.size - maxRetained;
    const dropped = new Set<ExecutionRecord>();
    for (const ex of executions.values()) {
      if (excess <= 0) break;
      if (ex.resource.state === 'ACTIVE') continue;
      dropped.add(ex);
      excess--;
    }
    for (const ex of dropped) {
      executions.delete(ex.executionId);
      callbacks.forget(ex.name);
    }
    for (const [id, list] of executionsByWorkflow) {
      const kept = list.filter((ex) => !dropped.has(ex));
      if (kept.length) executionsByWorkflow.set(id, kept);
      else executionsByWorkflow.delete(id);
    }
  }

  /** Cancels an ACTIVE execution: its resource ends CANCELLED first, then its run is stopped. */
  function cancel(ex: ExecutionRecord): void {
    const abort = ex.abort;
    finish(ex, 'CANCELLED', {});
    abort?.abort(new ExecutionCancelled());
  }

  function recordLog(ex: ExecutionRecord, entry: LogEntry): void {
    const logs = (ex.logs ??= []);
    if (logs.length >= MAX_LOG_ENTRIES_PER_EXECUTION) logs.shift();
    logs.push(entry);
    printLog(logLine(entry, ex.workflowId, ex.executionId));
  }

  const core: ServiceCore & EmulatorControl & { close(): void } = {
    project,
    location,
    sourceProblems: new SourceProblems(),
    ...store.methods,

    createExecution(workflowId, input) {
      return createExecution(workflowId, input, undefined);
    },

    executionCalls(workflowId, executionId) {
      return findExecution(workflowId, executionId).calls?.records.slice() ?? [];
    },

    executionParent(workflowId, executionId) {
      return findExecution(workflowId, executionId).parent;
    },

    clock,

    mocks: () => mocks,

    setMocks(m) {
      mocks = m;
    },

    reset() {
      cancelAll();
      store.clear();
      executions.clear();
      executionsByWorkflow.clear();
      mocks = startMocks;
      emit({ type: 'reset' });
    },

    getExecution(workflowId, executionId) {
      const ex = findExecution(workflowId, executionId);
      return activeView(ex.resource, ex.recording);
    },

    listExecutions(workflowId) {
      const source = workflowId === undefined ? executions.values() : (executionsByWorkflow.get(workflowId) ?? []);
      const out: Execution[] = [];
      for (const ex of source) out.push(activeView(ex.resource, ex.recording));
      return out.reverse();
    },

    cancelExecution(workflowId, executionId) {
      const ex = findExecution(workflowId, executionId);
      if (ex.resource.state !== 'ACTIVE') {
        throw new ApiError('FAILED_PRECONDITION', `execution "${ex.name}" is ${ex.resource.state}; only an ACTIVE execution can be cancelled`);
      }
      cancel(ex);
      return ex.resource;
    },

    listCallbacks(workflowId, executionId): Callback[] {
      const ex = findExecution(workflowId, executionId);
      return callbacks.list(ex.name);
    },

    executionLogs(workflowId, executionId) {
      return findExecution(workflowId, executionId).logs?.slice() ?? [];
    },

    listStepEntries(workflowId, executionId, request) {
      const ex = findExecution(workflowId, executionId);
      return listStepEntries(ex.history ?? EMPTY_HISTORY, ex.name, request);
    },

    getStepEntry(workflowId, executionId, entryId, view) {
      const ex = findExecution(workflowId, executionId);
      return getStepEntry(ex.history ?? EMPTY_HISTORY, ex.name, entryId, view);
    },

    deliverCallback(callbackId: string, request: CallbackRequest) {
      return callbacks.deliver(callbackId, request);
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },

    close() {
      cancelAll();
      listeners.clear();
    },
  };
  return core;
}

/** The createExecution field `debug` (docs/debugging.md): a bool when given. */
function checkDebug(v: unknown): boolean {
  if (v === undefined || v === null || v === false) return false;
  if (v === true) return true;
  throw ApiError.invalidArgument(`debug must be a bool, not ${JSON.stringify(v)}`);
}
