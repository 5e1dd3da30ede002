/**
 * The resources of the management API and the one service core that REST, gRPC and the web UI share
 * (docs/api-resources.md#resources-and-their-fields, docs/rest-api.md#endpoints). Transport code converts these to its own shapes; nothing here
 * knows about HTTP or protobuf.
 */
import type { SourceCoverage } from '../coverage/summary.ts';
import type { Clock, LogEntry } from '../stdlib/types.ts';
import type { CallRecord } from '../mocks/call-log.ts';
import type { MockSet } from '../mocks/mock-file.ts';
import type { SourceProblems } from './watch/source-problems.ts';
import type { WorkflowSettings } from './store/workflow-settings.ts';
import type { StepEntryOutline } from './history/step-entries.ts';
import type { Recording } from './recording/recording.ts';
import type { ReplayOptions } from './recording/replay.ts';

/** Execution states (docs/api-resources.md#states-and-transitions). */
export type ExecutionState = 'ACTIVE' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

/** A workflow resource, exactly the spec's fields. Timestamps are RFC 3339 UTC with fractional seconds. */
export interface Workflow extends WorkflowSettings {
  /** `projects/{project}/locations/{location}/workflows/{workflowId}` */
  readonly name: string;
  readonly state: 'ACTIVE';
  /** Like the real service's: `000001-a4f` (a counter and a short hash of the source). */
  readonly revisionId: string;
  readonly sourceContents: string;
  /** Empty string when none was given. */
  readonly description: string;
  readonly createTime: string;
  readonly updateTime: string;
  /** Google's field: the step history its executions record unless they set their own (docs/rest-api.md#step-history). */
  readonly executionHistoryLevel?: 'EXECUTION_HISTORY_BASIC' | 'EXECUTION_HISTORY_DETAILED';
  /** Google's field: call logging of its executions unless they set their own (src/service/executions/call-log-observer.ts). */
  readonly callLogLevel?: 'LOG_ALL_CALLS' | 'LOG_ERRORS_ONLY' | 'LOG_NONE';
  /** When the current revision was made (RFC 3339). */
  readonly revisionCreateTime?: string;
}

/** One element of Google's Execution.Error.stackTrace; int64 fields are decimal strings, as in Google's JSON. */
export interface StackTraceElement {
  readonly step: string;
  readonly routine: string;
  /** Where the step is written: 1-based line and column of its name, and the name's length in bytes. */
  readonly position: { readonly line: string; readonly column: string; readonly length: string };
}

/** An execution resource: the spec's fields, and Google's step history fields (docs/rest-api.md#step-history). */
export interface Execution {
  /** `projects/{project}/locations/{location}/workflows/{workflowId}/executions/{executionId}` */
  readonly name: string;
  readonly state: ExecutionState;
  /** JSON-encoded input; absent when none was given. */
  readonly argument?: string;
  /** JSON-encoded result; present on SUCCEEDED. */
  readonly result?: string;
  /**
   * Present on FAILED: `payload` is the JSON-encoded error map, `context` is `step: <step_name>`, and
   * `stackTrace` (when history was recorded) where the error was raised, innermost first, through subworkflow
   * calls.
   */
  readonly error?: {
    readonly payload: string;
    readonly context: string;
    readonly stackTrace?: { readonly elements: readonly StackTraceElement[] };
  };
  readonly startTime: string;
  /**
   * When the execution was created: Google's `createTime` ("startTime will be the same as createTime for
   * executions that start immediately", https://cloud.google.com/workflows/docs/reference/executions/rest/v1/projects.locations.workflows.executions);
   * executions here always start at once, so it is `startTime`. REST only: Google's published
   * executions.proto has no such field for gRPC.
   */
  readonly createTime: string;
  /** Set once the state is terminal. */
  readonly endTime?: string;
  /** Set once the state is terminal: endTime - startTime in Google's JSON form (`"1.25s"`). */
  readonly duration?: string;
  readonly workflowRevisionId: string;
  /**
   * Google's Execution.Status: on an ACTIVE execution the innermost step running on each thread (one per
   * running parallel branch); once ended, the last step entered. Absent when no history is recorded.
   */
  readonly status?: { readonly currentSteps: readonly { readonly routine: string; readonly step: string }[] };
  /** Google's field: the step history this execution records (it wins over the workflow's). */
  readonly executionHistoryLevel?: 'EXECUTION_HISTORY_BASIC' | 'EXECUTION_HISTORY_DETAILED';
  /** Google's field: call logging of this execution (it wins over the workflow's). */
  readonly callLogLevel?: 'LOG_ALL_CALLS' | 'LOG_ERRORS_ONLY' | 'LOG_NONE';
  /** Its labels: the workflow's, overridden by those given at creation (Google's Execution.labels). */
  readonly labels?: Readonly<Record<string, string>>;
}

/** The writable fields of a workflow (create and update). */
export interface WorkflowInput {
  readonly sourceContents?: string;
  readonly description?: string;
  /** `EXECUTION_HISTORY_BASIC`, `EXECUTION_HISTORY_DETAILED`, or empty/UNSPECIFIED for none (INVALID_ARGUMENT otherwise). */
  readonly executionHistoryLevel?: string;
  /** `LOG_ALL_CALLS`, `LOG_ERRORS_ONLY`, `LOG_NONE`, or empty/UNSPECIFIED for none (INVALID_ARGUMENT otherwise). */
  readonly callLogLevel?: string;
  /** labels, userEnvVars, serviceAccount, cryptoKeyName as received (checked by workflow-settings.ts). */
  readonly labels?: unknown;
  readonly userEnvVars?: unknown;
  readonly serviceAccount?: unknown;
  readonly cryptoKeyName?: unknown;
}

/** A callback resource (docs/api-resources.md#callback). */
export interface Callback {
  readonly name: string;
  /** HTTP method the callback accepts, POST by default. */
  readonly method: string;
  /** `http://<host>:<port>/callbacks/<callback_id>` */
  readonly url: string;
  readonly createTime: string;
}

/** An incoming request to `/callbacks/{callbackId}`, as any transport received it. */
export interface CallbackRequest {
  readonly method: string;
  /** Header names lowercased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  /** The raw body (empty when none). */
  readonly body: Uint8Array;
}

/** What the service tells a change listener (used by the UI to refresh, and by tests). */
export type ServiceEvent =
  | { readonly type: 'workflow'; readonly workflowId: string }
  | { readonly type: 'execution'; readonly workflowId: string; readonly executionId: string }
  | { readonly type: 'reset' };

/**
 * The service core: workflows, executions, callbacks. Every method is synchronous except where waiting is
 * real; executions run in the background.
 *
 * Every method throws {@link ApiError} (src/service/errors.ts): NOT_FOUND for unknown workflows or
 * executions, INVALID_ARGUMENT for bad input (with a message naming the problem; for an invalid definition,
 * the step and line:column), ALREADY_EXISTS for a duplicate workflow ID, FAILED_PRECONDITION for cancel on a
 * non-ACTIVE execution.
 */
export interface ServiceCore {
  readonly project: string;
  readonly location: string;

  createWorkflow(workflowId: string, input: WorkflowInput & { sourceContents: string }): Workflow;
  /** The workflow, or one of its kept revisions (NOT_FOUND for a revision not kept). */
  getWorkflow(workflowId: string, revisionId?: string): Workflow;
  /** The kept revisions of a workflow, newest first (at most MAX_REVISIONS_PER_WORKFLOW). */
  listWorkflowRevisions(workflowId: string): Workflow[];
  /** Newest first. */
  listWorkflows(): Workflow[];
  /**
   * Replaces the given fields. `updateMask` (field names as in the resource: `sourceContents`, `description`)
   * limits which of the given fields are applied; absent: all given fields. A new revision only when the
   * source changes.
   */
  updateWorkflow(
    workflowId: string,
    input: WorkflowInput,
    updateMask?: readonly string[],
  ): Workflow;
  deleteWorkflow(workflowId: string): void;

  /** Starts an execution pinned to the current revision; returns it ACTIVE. `argument` is JSON text, max 32 KB. */
  createExecution(
    workflowId: string,
    input: {
      argument?: string;
      executionHistoryLevel?: string;
      callLogLevel?: string;
      labels?: unknown;
      /** Run under the debugger from its first step, held there until a debugger lets it go (docs/debugging.md). */
      debug?: unknown;
    },
  ): Execution;
  getExecution(workflowId: string, executionId: string): Execution;
  /** Executions of one workflow, or of all workflows when `workflowId` is undefined; newest first. */
  listExecutions(workflowId?: string): Execution[];
  /** Moves an ACTIVE execution to CANCELLED at once and interrupts what it waits on. */
  cancelExecution(workflowId: string, executionId: string): Execution;
  listCallbacks(workflowId: string, executionId: string): Callback[];
  /** sys.log entries of an execution, oldest first. */
  executionLogs(workflowId: string, executionId: string): LogEntry[];
  /** stepEntries.list (docs/rest-api.md#step-history): a page of the execution's step entries; empty when no history is recorded. */
  listStepEntries(workflowId: string, executionId: string, request: StepEntryListRequest): StepEntryList;
  /** Every kept step entry of the execution in outline (routine, step, state, parent, progress), in order. */
  stepEntryOutlines(workflowId: string, executionId: string): StepEntryOutline[];
  /** stepEntries.get: one step entry by its entryId (NOT_FOUND when unknown). */
  getStepEntry(workflowId: string, executionId: string, entryId: string, view?: string): StepEntry;

  /**
   * Delivers a request to a callback endpoint. Returns the HTTP status and JSON body to answer with: 200 when
   * delivered (or kept for a later await), 404 for an unknown callback, 405 for a wrong method, an error for a
   * callback of an ended execution.
   */
  deliverCallback(callbackId: string, request: CallbackRequest): { status: number; body: unknown };
  /** Watched files that failed to deploy, recorded by the directory watcher, shown by the web UI (docs/web-ui.md#pages). */
  readonly sourceProblems: SourceProblems;

  /** Subscribes to changes; returns the unsubscribe function. */
  subscribe(listener: (event: ServiceEvent) => void): () => void;

  /** The outbound calls of an execution, oldest first (docs/mocks-and-clock.md#recorded-calls; src/mocks/call-log.ts). */
  executionCalls(workflowId: string, executionId: string): readonly CallRecord[];
  /**
   * What an execution did and took in, to turn it into a test case (src/service/recording/test-case.ts): its resource,
   * its outbound calls, the names of the steps that ran (undefined when its history level is none) and its
   * recording (undefined before it starts). @throws ApiError NOT_FOUND for an unknown execution.
   */
  executionRecording(workflowId: string, executionId: string): RecordedExecution;
  /**
   * Starts a new execution from an ended one's recording (src/service/recording/replay.ts): its argument, calls
   * answered from the recorded ones, its times, UUIDs and callbacks; labelled `replay-of: {source ID}`.
   * @throws ApiError NOT_FOUND for an unknown execution or a recording that is gone; FAILED_PRECONDITION for
   *   an ACTIVE one, or when the workflow has a newer revision and `latest` is false.
   */
  replayExecution(workflowId: string, executionId: string, options: ReplayOptions): Execution;
  /**
   * Starts a new execution of the workflow's current revision from a saved case (src/service/recording/replay.ts
   * `savedCasePlan`): `testFile` is the test file's text, `caseName` its case (needed when it has several).
   * @throws ApiError NOT_FOUND for an unknown workflow; INVALID_ARGUMENT for a malformed test file
   *   (`test file:line:col: problem`) or a case that cannot be replayed, naming why.
   */
  replaySavedCase(workflowId: string, testFile: string, caseName: string | undefined): Execution;
  /** The name of the execution that started this one through the Workflow Executions connector, if any. */
  executionParent(workflowId: string, executionId: string): string | undefined;
  /**
   * With a data directory (docs/persistence.md): resolves once every change made so far is on disk, and
   * rejects with ApiError UNAVAILABLE when it cannot be written; undefined when nothing is waiting (always,
   * without a data directory). Transports await it before they answer a request that changed state.
   */
  whenDurable?(): Promise<void> | undefined;
}

/** What {@link ServiceCore.executionRecording} gives: an execution's resource, calls, steps and recording. */
export interface RecordedExecution {
  readonly execution: Execution;
  readonly calls: readonly CallRecord[];
  readonly steps: readonly string[] | undefined;
  readonly inputs: Recording | undefined;
}

/**
 * What the control API (`/emulator/v1/`, docs/rest-api.md#the-control-api) and the JS API steer besides the Workflows API: the
 * mocks, the clock, and a reset between test cases.
 */
export interface EmulatorControl {
  /** The clock of every execution (a VirtualTime under `--clock virtual`). */
  readonly clock: Clock;
  /** The mocks new executions start with. */
  mocks(): MockSet;
  /** Replaces the mocks; executions already running keep the ones they started with. */
  setMocks(mocks: MockSet): void;
  /**
   * Back to the start: every ACTIVE execution cancelled, every workflow and execution forgotten, the mocks
   * given at start-up back in place, coverage counts gone. (The server then deploys its watched directory again.)
   */
  reset(): void;
  /**
   * Coverage of steps, branches and routines (docs/coverage.md) over every execution since start or the last
   * reset: one entry per workflow revision executed, and per deployed workflow's current revision (0% until run).
   * Counts are kept as executions run, so this costs the size of the sources, not the number of executions.
   */
  coverage(): SourceCoverage[];
  /** The coverage of one deployed workflow's current revision. @throws ApiError NOT_FOUND */
  workflowCoverage(workflowId: string): SourceCoverage;
  /** Sets every coverage count back to zero (executions running go on counting from zero). */
  resetCoverage(): void;
  /**
   * Writes the state (workflows with their revisions, executions with their histories, calls, logs and
   * recordings) as an export into `directory` (docs/persistence.md#import-and-export); an earlier export there
   * is replaced. @throws Error when the directory holds something else or cannot be written
   */
  exportTo(directory: string): Promise<{ readonly directory: string; readonly workflows: number; readonly executions: number }>;
  /** The data directory and the bytes of its files (docs/persistence.md); undefined without one. */
  storage(): { readonly dataDir: string; readonly bytes: number } | undefined;
}

/**
 * One step entry (Google's REST resource `projects.locations.workflows.executions.stepEntries`, docs/rest-api.md#step-history).
 * int64 fields (`entryId`, navigation IDs, progress numbers) are decimal strings, as in Google's JSON.
 */
export interface StepEntry {
  /** `{execution name}/stepEntries/{entryId}` */
  readonly name: string;
  readonly createTime: string;
  readonly updateTime: string;
  /** `main` or the subworkflow the step belongs to. */
  readonly routine: string;
  readonly step: string;
  /** Google's StepType names (`STEP_ASSIGN`, `STEP_FOR_ITERATION`, ...). */
  readonly stepType: string;
  readonly state: 'STATE_IN_PROGRESS' | 'STATE_SUCCEEDED' | 'STATE_FAILED' | 'STATE_CANCELLED';
  /** A failed entry's error: `payload` is the JSON of the error map. */
  readonly exception?: { readonly payload: string };
  readonly entryId: string;
  readonly navigationInfo: {
    readonly children?: readonly string[];
    readonly parent?: string;
    readonly next?: string;
    readonly previous?: string;
  };
  readonly stepEntryMetadata: {
    /** PROGRESS_TYPE_FOR, PROGRESS_TYPE_SWITCH, PROGRESS_TYPE_RETRY, PROGRESS_TYPE_PARALLEL_FOR, PROGRESS_TYPE_PARALLEL_BRANCH */
    readonly progressType?: string;
    /** The 1-based iteration or retry attempt. */
    readonly progressNumber?: string;
    /** The parallel thread (`2`, `2.3`); absent on the main thread. */
    readonly threadId?: string;
    /** A loop's number of iterations. */
    readonly expectedIteration?: string;
  };
  /** Detailed history: the variables visible when the step ended. */
  readonly variableData?: { readonly variables: Readonly<Record<string, unknown>> };
}

/** The list parameters of stepEntries.list (Google's REST reference). */
export interface StepEntryListRequest {
  /** 1 to 1000; default and larger values: 1000. */
  readonly pageSize?: number;
  readonly pageToken?: string;
  /** Entries to skip before the page (after the page token's position). */
  readonly skip?: number;
  /** AIP-160 over entryId, createTime, updateTime, routine, step, stepType, parent, state. */
  readonly filter?: string;
  /** AIP-132 over entryId, createTime, updateTime, routine, step, stepType, state; default `entryId`. */
  readonly orderBy?: string;
  /** `EXECUTION_ENTRY_VIEW_BASIC` leaves out `variableData`; DETAILED and unspecified include it. */
  readonly view?: string;
}

/** The answer of stepEntries.list. */
export interface StepEntryList {
  readonly stepEntries: StepEntry[];
  /** Present when more entries follow. */
  readonly nextPageToken?: string;
  /** Entries matching the filter (for a running execution, so far). */
  readonly totalSize: number;
  /**
   * Not in Google's API: entries dropped from this execution's history by the per-execution cap (the
   * oldest finished ones); absent when none were.
   */
  readonly droppedEntries?: number;
}
