/**
 * The JS API for test suites (docs/testing.md#the-js-api): `import { startEmulator } from
 * 'workflows-emulator'` starts the whole emulator in-process (REST and the web UI, gRPC, and optionally a
 * watched workflows directory) on free loopback ports, so a Vitest, Jest, node:test or uvu suite can deploy
 * workflows, run them to their end and read results without a child process.
 *
 * ```ts
 * const emulator = await startEmulator();
 * await emulator.deploy('hello', 'main:\n  params: [args]\n  steps:\n    - done:\n        return: ${args.x + 1}\n');
 * const execution = await emulator.run('hello', { x: 41 });   // { state: 'SUCCEEDED', result: 42, ... }
 * await emulator.close();
 * ```
 *
 * The public types are declared here, self-contained, so build.mjs can emit dist/index.d.ts from this one
 * file; they match the REST resources of
 * docs/api-resources.md#resources-and-their-fields.
 */
import { startEmulatorInProcess } from './start-emulator.ts';
import { runWorkflowInProcess } from './cli/run-workflow.ts';

/** Options of {@link startEmulator}; every field is optional. */
export interface EmulatorOptions {
  /**
   * A directory of workflow files: every `.yaml`/`.json` file in it is deployed at start (the file name is
   * the workflow ID) and kept in sync while running (docs/cli.md#directory-watching). Default: none (start with
   * zero workflows and deploy with {@link Emulator.deploy}).
   */
  readonly workflowsDir?: string;
  /** REST and web UI port. Default 0: a free port. */
  readonly port?: number;
  /** gRPC port. Default 0: a free port. */
  readonly grpcPort?: number;
  /** Bind address of both ports. Default `127.0.0.1` (loopback only). */
  readonly host?: string;
  /** PROJECT: in resource names and CLOUD_PROJECT_ID. Default `my-project`. */
  readonly project?: string;
  /** LOCATION: in resource names and CLOUD_LOCATION. Default `us-central1`. */
  readonly location?: string;
  /** Extra variables every execution can read with `sys.get_env` (the CLOUD_* built-ins win). */
  readonly env?: Readonly<Record<string, string>>;
  /** GOOGLE_CLOUD_PROJECT_NUMBER of every execution (digits). Default `123456789012`. */
  readonly projectNumber?: string;
  /**
   * `spec` (default) or `google`: Google's behaviour at each point where it and the specification differ
   * (docs/compat.md: `+` with a string, operator precedence, `text.find_all`, `text.replace_all_regex`, a
   * parallel step's default exception policy, the non-idempotent retry policy, the default `http.*` timeout).
   */
  readonly compat?: 'spec' | 'google';
  /**
   * Receives each `sys.log` line as the command-line emulator prints it (one JSON object, no newline).
   * Default: nothing is printed; the entries are on {@link FinishedExecution.logs}.
   */
  readonly onLog?: (line: string) => void;
  /**
   * Step history of executions that set no executionHistoryLevel (docs/rest-api.md#step-history): `basic` (default),
   * `detailed` (the variables after each step too) or `none`.
   */
  readonly history?: 'none' | 'basic' | 'detailed';
  /**
   * Mocks every execution starts with (docs/mocks-and-clock.md#mocks): a mock file's path, or the same content as an
   * object (`{http: [...], connectors: [...], unmatched: {http: 'error'}}`). Rejects with the problem's
   * file, line and column when invalid. Default: none.
   */
  readonly mocks?: string | object;
  /**
   * `real` (default) or `virtual`: time jumps to the next timer whenever every execution waits
   * (docs/mocks-and-clock.md#virtual-clock); move it yourself with {@link Emulator.advanceClock}.
   */
  readonly clock?: 'real' | 'virtual';
  /**
   * A data directory (docs/persistence.md): workflows, executions with their step history, calls, logs and
   * callbacks are kept there and read back by the next emulator started with it. Default: memory only.
   * Rejects with an Error (name `DataDirError`) naming the file and byte offset when it cannot be read.
   */
  readonly dataDir?: string;
  /** With `dataDir`: executions that were ACTIVE when the last emulator stopped run again instead of ending FAILED. */
  readonly resume?: boolean;
  /** Finished executions kept, oldest dropped first. Default 100,000. */
  readonly maxExecutions?: number;
  /** An export (docs/persistence.md#import-and-export) loaded at start-up. */
  readonly importDir?: string;
  /** Where {@link Emulator.close} writes an export of the state first. */
  readonly exportOnExit?: string;
}

/** A workflow resource, as REST returns it (docs/api-resources.md#workflow). Timestamps are RFC 3339 UTC. */
export interface Workflow {
  /** `projects/{project}/locations/{location}/workflows/{workflowId}` */
  readonly name: string;
  readonly state: 'ACTIVE';
  readonly revisionId: string;
  readonly sourceContents: string;
  readonly description: string;
  readonly createTime: string;
  readonly updateTime: string;
  /** The step history its executions record unless they set their own. */
  readonly executionHistoryLevel?: 'EXECUTION_HISTORY_BASIC' | 'EXECUTION_HISTORY_DETAILED';
  /** Call logging of its executions unless they set their own. */
  readonly callLogLevel?: 'LOG_ALL_CALLS' | 'LOG_ERRORS_ONLY' | 'LOG_NONE';
}

/** Where an error was raised or passed through (Google's StackTraceElement); int64 fields are decimal strings. */
export interface StackTraceElement {
  readonly step: string;
  readonly routine: string;
  /** 1-based line and column of the step's name in the source, and the name's length in bytes. */
  readonly position: { readonly line: string; readonly column: string; readonly length: string };
}

/** Execution states (docs/api-resources.md#states-and-transitions). */
export type ExecutionState = 'ACTIVE' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

/** An execution resource, as REST returns it (docs/api-resources.md#execution): `argument` and `result` are JSON text. */
export interface Execution {
  /** `projects/{project}/locations/{location}/workflows/{workflowId}/executions/{executionId}` */
  readonly name: string;
  readonly state: ExecutionState;
  readonly argument?: string;
  readonly result?: string;
  /**
   * On FAILED: `payload` is the JSON text of the error map, `context` is `step: <step name>`, `stackTrace`
   * where it was raised, innermost first, through subworkflow calls.
   */
  readonly error?: {
    readonly payload: string;
    readonly context: string;
    readonly stackTrace?: { readonly elements: readonly StackTraceElement[] };
  };
  readonly startTime: string;
  /** When the execution was created (Google's `createTime`); the same as `startTime` here. */
  readonly createTime: string;
  readonly endTime?: string;
  /** Once ended: endTime - startTime, e.g. `"0.012s"`. */
  readonly duration?: string;
  readonly workflowRevisionId: string;
  /** ACTIVE: the step running on each thread; ended: the last step entered. */
  readonly status?: { readonly currentSteps: readonly { readonly routine: string; readonly step: string }[] };
  readonly executionHistoryLevel?: 'EXECUTION_HISTORY_BASIC' | 'EXECUTION_HISTORY_DETAILED';
  readonly callLogLevel?: 'LOG_ALL_CALLS' | 'LOG_ERRORS_ONLY' | 'LOG_NONE';
  /** The execution's labels (its own over its workflow's); a replay has `replay-of: {source execution ID}`. */
  readonly labels?: Readonly<Record<string, string>>;
}

/**
 * One step entry of an execution's history, as REST's stepEntries return it (Google's StepEntry; README
 * "Step history"). int64 fields are decimal strings.
 */
export interface StepEntry {
  readonly name: string;
  readonly createTime: string;
  readonly updateTime: string;
  readonly routine: string;
  readonly step: string;
  /** `STEP_ASSIGN`, `STEP_STD_LIB_CALL`, `STEP_FOR_ITERATION`, ... (Google's StepType names). */
  readonly stepType: string;
  readonly state: 'STATE_IN_PROGRESS' | 'STATE_SUCCEEDED' | 'STATE_FAILED' | 'STATE_CANCELLED';
  /** A failed entry's error map as JSON text. */
  readonly exception?: { readonly payload: string };
  readonly entryId: string;
  readonly navigationInfo: {
    readonly children?: readonly string[];
    readonly parent?: string;
    readonly next?: string;
    readonly previous?: string;
  };
  readonly stepEntryMetadata: {
    readonly progressType?: string;
    readonly progressNumber?: string;
    readonly threadId?: string;
    readonly expectedIteration?: string;
  };
  /** Detailed history only: the variables when the step ended. */
  readonly variableData?: { readonly variables: Readonly<Record<string, unknown>> };
}

/** Parameters of {@link Emulator.stepEntries} (stepEntries.list's). */
export interface StepEntryQuery {
  /** e.g. `state="FAILED"`, `stepType=STEP_RETRY AND entryId>10` (AIP-160). */
  readonly filter?: string;
  /** e.g. `entryId desc` (AIP-132). */
  readonly orderBy?: string;
}

/** The error map of a failed execution (docs/api-resources.md#error-map), decoded. */
export interface ErrorPayload {
  readonly message: string;
  /** HTTP status for HttpError, otherwise usually 0. */
  readonly code: number;
  /** Error tags such as `KeyError`, `HttpError`, or a workflow's own. */
  readonly tags: readonly string[];
  /** Only for HTTP errors: response headers and body. */
  readonly headers?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  /** Other fields of a map raised by the workflow. */
  readonly [field: string]: unknown;
}

/** One `sys.log` call of an execution. */
export interface LogRecord {
  /** Time of the call, RFC 3339 UTC. */
  readonly time: string;
  /** DEFAULT, DEBUG, INFO, NOTICE, WARNING, ERROR, CRITICAL, ALERT or EMERGENCY. */
  readonly severity: string;
  /** The logged text or value (the `json` map for structured logging), as plain JS. */
  readonly payload: unknown;
}

/** A callback endpoint of an execution (docs/api-resources.md#callback). */
export interface Callback {
  readonly name: string;
  /** The HTTP method it accepts (`POST` by default). */
  readonly method: string;
  /** `http://<host>:<port>/callbacks/<id>`: send the request here. */
  readonly url: string;
  readonly createTime: string;
}

/** An execution that has ended, with its result or error decoded from JSON. */
export interface FinishedExecution {
  /** The resource name. */
  readonly name: string;
  readonly workflowId: string;
  readonly executionId: string;
  readonly state: 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  /**
   * On SUCCEEDED: the returned value, decoded with `JSON.parse` (ints beyond 2^53 lose precision there; the
   * exact text is `resource.result`). Undefined otherwise.
   */
  readonly result?: unknown;
  /** On FAILED: the decoded error map and `step: <step name>`. */
  readonly error?: { readonly payload: ErrorPayload; readonly context: string };
  /** The `sys.log` calls of the execution, oldest first. */
  readonly logs: readonly LogRecord[];
  /** Its outbound calls (http.* and connectors), oldest first. */
  readonly calls: readonly RecordedCall[];
  /** The execution resource exactly as REST returns it. */
  readonly resource: Execution;
}

/** Options of {@link Emulator.run} and {@link Emulator.wait}. */
export interface WaitOptions {
  /**
   * Give up waiting after this many milliseconds: the promise rejects (the execution goes on). Default: wait
   * as long as it takes (your test runner's timeout applies).
   */
  readonly timeoutMs?: number;
}

/** A running in-process emulator, from {@link startEmulator}. */
export interface Emulator {
  /** REST API and web UI base URL, e.g. `http://127.0.0.1:41234` (what `WORKFLOWS_EMULATOR_HOST` holds). */
  readonly url: string;
  /** The REST port. */
  readonly port: number;
  /** gRPC address for Google's clients, e.g. `127.0.0.1:41235` (cleartext, no credentials). */
  readonly grpcAddress: string;
  /** The gRPC port. */
  readonly grpcPort: number;
  readonly project: string;
  readonly location: string;
  /** `projects/{project}/locations/{location}`: the parent of every workflow. */
  readonly parent: string;
  /**
   * Deploys `source` (YAML or JSON, at most 128 KB) as workflow `workflowId`: creates it, or updates it when
   * it exists (a new revision when the source changed). Resolves to the workflow resource.
   *
   * @throws (rejects with) an Error whose `code` is `INVALID_ARGUMENT` for an invalid workflow ID or an
   *   invalid definition; the message names the step, line and column.
   */
  deploy(workflowId: string, source: string, options?: { readonly description?: string }): Promise<Workflow>;
  /**
   * Runs workflow `workflowId` with `argument` (any JSON-serialisable JS value, passed to `main`'s
   * parameter; undefined: no argument) and resolves when the execution has ended, whatever its state: a
   * FAILED execution resolves too, with `error` set.
   *
   * @throws (rejects with) an Error with `code` `NOT_FOUND` for an unknown workflow, `INVALID_ARGUMENT` for
   *   an argument over 32 KB; a plain Error when `timeoutMs` passes first.
   */
  run(workflowId: string, argument?: unknown, options?: WaitOptions): Promise<FinishedExecution>;
  /** Starts an execution and resolves at once with it ACTIVE (for callbacks or cancellation); see `run`. */
  start(workflowId: string, argument?: unknown): Promise<Execution>;
  /** Waits until the execution (by resource or name) has ended. Rejects when `timeoutMs` passes first. */
  wait(execution: string | { readonly name: string }, options?: WaitOptions): Promise<FinishedExecution>;
  /** The callback endpoints an execution has created so far, oldest first. */
  callbacks(execution: string | { readonly name: string }): Promise<Callback[]>;
  /**
   * The step history of an execution (docs/rest-api.md#step-history), every entry matching `query`, oldest first
   * unless `orderBy` says otherwise. Rejects with `code` `NOT_FOUND` for an unknown execution and
   * `INVALID_ARGUMENT` for a bad filter or orderBy.
   */
  stepEntries(execution: string | { readonly name: string }, query?: StepEntryQuery): Promise<StepEntry[]>;
  /** Cancels an ACTIVE execution; rejects with `code` `FAILED_PRECONDITION` when it has ended. */
  cancel(execution: string | { readonly name: string }): Promise<Execution>;
  /** The outbound calls of an execution so far, oldest first. */
  calls(execution: string | { readonly name: string }): Promise<RecordedCall[]>;
  /**
   * An ended execution as a test case for `workflows-emulator test` (docs/recording.md): argument, mocks from
   * its recorded calls, callbacks, environment, times and UUIDs read, and `expect` from its outcome. Resolves
   * to the YAML text of the test file; with `file`, the case is appended to that file (created when missing)
   * and `workflow` (the workflow file's path) is written relative to it. Rejects with `code`
   * `FAILED_PRECONDITION` for an ACTIVE execution, `NOT_FOUND` for an unknown one, and with the problem for a
   * test file that cannot be read, written or appended to.
   */
  testCase(execution: string | { readonly name: string }, options: TestCaseOptions): Promise<string>;
  /**
   * Starts a new execution replayed from an ended one's recording (docs/recording.md "Replay and redrive"):
   * same argument, answers, times, UUIDs and callbacks, no outbound request; labelled `replay-of`. With
   * `revision: 'latest'` the current revision runs and calls the recording does not hold go out (`strict`:
   * they fail). Resolves to the new ACTIVE execution (`wait` for its end). Rejects with `code` `NOT_FOUND` when
   * the recording is gone, `FAILED_PRECONDITION` for an ACTIVE source or a workflow now at another revision.
   */
  replay(execution: string | { readonly name: string }, options?: { readonly revision?: 'latest'; readonly strict?: boolean }): Promise<Execution>;
  /**
   * Replaces the mocks new executions start with (a file path or an object, as the `mocks` option); running
   * executions keep theirs. Rejects with file, line and column for invalid mocks, leaving the current ones.
   */
  setMocks(mocks: string | object | null): Promise<void>;
  /** Moves the virtual clock `seconds` forward, firing the timers due on the way; rejects under the real clock. */
  advanceClock(seconds: number): Promise<void>;
  /** The emulator's current time (the virtual clock's under `clock: 'virtual'`), ms since the epoch. */
  now(): number;
  /** Back to the start (POST /emulator/v1/reset): executions cancelled and forgotten, workflows deleted (a watched directory's deployed again), the start-up mocks back. */
  reset(): Promise<void>;
  /**
   * Coverage of steps, branches and routines over every execution since start or the last reset, one entry
   * per workflow revision executed or deployed (GET /emulator/v1/coverage; docs/coverage.md).
   */
  coverage(): Promise<WorkflowCoverage[]>;
  /** Coverage counts back to zero (DELETE /emulator/v1/coverage). */
  resetCoverage(): Promise<void>;
  /** Stops the listeners and the watcher and cancels running executions. Safe to call twice. */
  close(): Promise<void>;
}

/** Options of {@link Emulator.testCase}. */
export interface TestCaseOptions {
  /** The workflow file the case runs (absolute, or relative to the working directory when `file` is given). */
  readonly workflow: string;
  /** A `*.test.yaml` file to append the case to (created when missing). */
  readonly file?: string;
}

/** Covered out of total; `percent` from 0 to 100 (100 when there is nothing to cover). */
export interface CoverageFigure {
  readonly covered: number;
  readonly total: number;
  readonly percent: number;
}

/** The coverage of one workflow revision (docs/coverage.md). Lines and columns are 1-based. */
export interface WorkflowCoverage {
  /** The workflow's ID. */
  readonly name: string;
  readonly revisionId?: string;
  /** Executions counted. */
  readonly executions: number;
  readonly steps: CoverageFigure;
  readonly branches: CoverageFigure;
  readonly routines: CoverageFigure;
  /** Lines of steps never started, as [first, last] ranges. */
  readonly uncoveredLines: readonly (readonly [number, number])[];
  readonly uncoveredSteps: readonly { readonly routine: string; readonly step: string; readonly line: number; readonly col: number }[];
  /** Branch paths never taken: `kind` switch, try, for, parallel or next; `path` such as `condition 2` or `except`. */
  readonly uncoveredBranches: readonly {
    readonly routine: string;
    readonly step: string;
    readonly kind: string;
    readonly path: string;
    readonly line: number;
    readonly col: number;
  }[];
}

/**
 * Starts the emulator in this process on free loopback ports (by default) and resolves once REST, the web
 * UI and gRPC listen and any `workflowsDir` files are deployed.
 *
 * @throws (rejects with) the listen error (e.g. `EADDRINUSE` for a fixed port in use) or an Error for a
 *   `workflowsDir` that does not exist.
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulatorInProcess(options);
}

/** Options of {@link runWorkflow}: exactly one of `source` and `file`; every other field optional. */
export interface RunWorkflowOptions {
  /** The workflow definition, YAML or JSON text (at most 128 KB). */
  readonly source?: string;
  /** A workflow file to read instead (`.yaml`, `.yml` or `.json`). */
  readonly file?: string;
  /** The execution argument: any JSON-serialisable value (undefined: no argument). */
  readonly argument?: unknown;
  /**
   * Mocks of `http.*` calls and connectors (docs/mocks-and-clock.md#mocks): a mock file's path, or the same content as an
   * object (`{http: [{match: {url: ...}, respond: {status: 200, body: ...}}], connectors: [...]}`).
   */
  readonly mocks?: string | object;
  /**
   * Callback requests delivered in order, one each time the workflow awaits a callback; when none is left the
   * wait times out (at once on the virtual clock).
   */
  readonly callbacks?: readonly { readonly body?: unknown; readonly method?: string; readonly headers?: Readonly<Record<string, string>>; readonly query?: Readonly<Record<string, string>> }[];
  /** User environment variables for `sys.get_env` (the CLOUD_* built-ins win). */
  readonly env?: Readonly<Record<string, string>>;
  /** `virtual` (default): sleeps, retry backoffs and timeouts take no wall time; `real`: they take their time. */
  readonly clock?: 'virtual' | 'real';
  /** Wall-time limit in seconds (default 30): past it the execution is cancelled and the promise rejects. */
  readonly timeoutSec?: number;
  /** `spec` (default) or `google`: Google's behaviour where it and the specification differ (docs/compat.md). */
  readonly compat?: 'spec' | 'google';
}

/** One outbound call of a {@link WorkflowRun}, as recorded (docs/mocks-and-clock.md#mocks: recorded calls). */
export interface RecordedCall {
  /** `http` or `connector`. */
  readonly kind: string;
  /** The function called: `http.post`, `googleapis.bigquery.v2.jobs.query`. */
  readonly name: string;
  /** The step that made the call, and its routine. */
  readonly step?: string;
  readonly routine?: string;
  /** http: the method and URL sent, and the request body (also as `body`). */
  readonly method?: string;
  readonly url?: string;
  readonly requestBody?: unknown;
  readonly body?: unknown;
  /** connector: the call's arguments. */
  readonly args?: unknown;
  /** The response map (`{code, headers, body}` for http) or the connector's result. */
  readonly response?: unknown;
  /** The error the workflow saw. */
  readonly error?: unknown;
  /** True when a mock answered. */
  readonly mocked: boolean;
  readonly [field: string]: unknown;
}

/** What {@link runWorkflow} resolves to: the execution's end and what it did. */
export interface WorkflowRun {
  readonly state: 'SUCCEEDED' | 'FAILED';
  /** On SUCCEEDED: the result, decoded from its JSON. */
  readonly result?: unknown;
  /** On FAILED: the error map (`{message, code, tags, ...}`), and the step that raised it. */
  readonly error?: ErrorPayload;
  readonly failedStep?: string;
  /** The steps that ran, in the order they started (loop bodies once per iteration). */
  readonly steps: readonly string[];
  /** Every outbound call (http.* and connectors), oldest first. */
  readonly calls: readonly RecordedCall[];
  /** The payload of each `sys.log` call, oldest first. */
  readonly logs: readonly unknown[];
  /** How many callback endpoints the execution created. */
  readonly callbacksCreated: number;
}

/**
 * Runs one workflow execution in this process, with no server: the engine of `workflows-emulator test`, for
 * node:test, uvu, Vitest or Jest. Resolves when the execution has ended, FAILED ones included.
 *
 * ```ts
 * const run = await runWorkflow({ file: 'workflows/order-saga.yaml', argument: { orderId: 'ord-1' }, mocks: 'tests/mocks/shop.yaml' });
 * assert.equal(run.result, { status: 'SHIPPED' });
 * ```
 *
 * @throws (rejects with) an Error whose `code` is `INVALID_ARGUMENT` for no or two sources, an unreadable
 *   file, an invalid definition or invalid mocks (the message names file, line and column); a plain Error
 *   when `timeoutSec` passes first.
 */
export async function runWorkflow(options: RunWorkflowOptions): Promise<WorkflowRun> {
  return (await runWorkflowInProcess(options)) as WorkflowRun;
}
