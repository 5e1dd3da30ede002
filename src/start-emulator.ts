/**
 * The emulator of the JS API (src/index.ts `startEmulator`, docs/testing.md#the-js-api): the whole
 * emulator started in this process (src/server.ts) and the {@link Emulator} handle over its service core:
 * deploy, start, wait for the end, run, callbacks, step entries, cancel, calls, replay, test cases, mocks, the virtual clock,
 * reset and close. The public types are declared in src/index.ts (build.mjs emits dist/index.d.ts from that
 * file alone); this file implements them.
 */
import { startServer, type RunningServer } from './server.ts';
import type { Execution as ServiceExecution, ServiceCore, ServiceEvent } from './service/model.ts';
import { callRecordValue } from './mocks/call-log.ts';
import { NO_MOCKS } from './mocks/mock-file.ts';
import type { VirtualTime } from './engine/virtual-time.ts';
import { loadMocks, plainJs } from './cli/run-workflow.ts';
import { recordToFile } from './cli/record.ts';
import { appendTestCase, testCaseOf } from './service/recording/test-case.ts';
import { ApiError } from './service/errors.ts';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type {
  Emulator,
  EmulatorOptions,
  ErrorPayload,
  Execution,
  FinishedExecution,
  RecordedCall,
  StepEntry,
  WaitOptions,
} from './index.ts';

/**
 * Starts the emulator in this process on free loopback ports (by default) and resolves once REST, the web
 * UI and gRPC listen and any `workflowsDir` files are deployed: src/index.ts `startEmulator`, which documents
 * the options and errors.
 */
export async function startEmulatorInProcess(options: EmulatorOptions): Promise<Emulator> {
  return new EmulatorHandle(await startServer(serverOptionsOf(options)));
}

/** The server's options for the JS API's options: loopback and free ports unless given; logs go to `onLog` only. */
function serverOptionsOf(options: EmulatorOptions): Parameters<typeof startServer>[0] {
  const startMocks = options.mocks === undefined ? undefined : loadMocks(options.mocks);
  return {
    ...(startMocks !== undefined ? { mocks: startMocks } : {}),
    ...(options.clock !== undefined ? { clock: options.clock } : {}),
    host: options.host ?? '127.0.0.1',
    port: options.port ?? 0,
    grpcPort: options.grpcPort ?? 0,
    ...(options.project !== undefined ? { project: options.project } : {}),
    ...(options.location !== undefined ? { location: options.location } : {}),
    ...(options.projectNumber !== undefined ? { projectNumber: options.projectNumber } : {}),
    ...(options.compat !== undefined ? { compat: options.compat } : {}),
    ...(options.workflowsDir !== undefined ? { workflowsDir: options.workflowsDir } : {}),
    ...(options.history !== undefined ? { history: options.history } : {}),
    ...(options.dataDir !== undefined ? { dataDir: resolve(options.dataDir) } : {}),
    ...(options.resume ? { resume: true } : {}),
    ...(options.maxExecutions !== undefined ? { maxExecutions: options.maxExecutions } : {}),
    ...(options.importDir !== undefined ? { importDir: resolve(options.importDir) } : {}),
    ...(options.exportOnExit !== undefined ? { exportOnExit: resolve(options.exportOnExit) } : {}),
    service: { log: options.onLog ?? (() => {}), ...(options.env ? { env: options.env } : {}) },
    printExecutionEnd: () => {},
  };
}

type ExecutionRef = string | { readonly name: string };
type ExecutionIds = { workflowId: string; executionId: string };

/** The workflow and execution IDs of an execution's name (or of a resource's `name`). @throws TypeError */
function idsOf(execution: ExecutionRef): ExecutionIds {
  const name = typeof execution === 'string' ? execution : execution.name;
  const m = /workflows\/([^/]+)\/executions\/([^/]+)$/.exec(name);
  if (!m) throw new TypeError(`not an execution name: ${name}`);
  return { workflowId: m[1]!, executionId: m[2]! };
}

/** An execution's calls as plain JS values. */
function callsOf(service: ServiceCore, { workflowId, executionId }: ExecutionIds): RecordedCall[] {
  return service.executionCalls(workflowId, executionId).map((c) => plainJs(callRecordValue(c)) as RecordedCall);
}

/** An ended execution as the JS API answers it: result and error parsed, its logs and calls as plain values. */
function finishedExecution(service: ServiceCore, ids: ExecutionIds, resource: ServiceExecution): FinishedExecution {
  const logs = service.executionLogs(ids.workflowId, ids.executionId).map((e) => ({
    time: e.time,
    severity: e.severity,
    payload: plainJs(e.payload),
  }));
  return {
    name: resource.name,
    ...ids,
    state: resource.state as FinishedExecution['state'],
    ...(resource.result !== undefined ? { result: JSON.parse(resource.result) as unknown } : {}),
    ...(resource.error !== undefined
      ? { error: { payload: JSON.parse(resource.error.payload) as ErrorPayload, context: resource.error.context } }
      : {}),
    logs,
    calls: callsOf(service, ids),
    resource,
  };
}

/**
 * Resolves once the execution has ended (told by the service's events), rejects when it is not found or
 * `timeoutMs` passes first.
 */
function waitForEnd(service: ServiceCore, ids: ExecutionIds, waitOptions: WaitOptions): Promise<FinishedExecution> {
  const { workflowId, executionId } = ids;
  return new Promise((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let unsubscribe = (): void => {};
    const stop = (): void => {
      unsubscribe();
      if (timer !== undefined) clearTimeout(timer);
    };
    const check = (): boolean => {
      let resource: ServiceExecution;
      try {
        resource = service.getExecution(workflowId, executionId);
      } catch (e) {
        stop();
        reject(e);
        return true;
      }
      if (resource.state === 'ACTIVE') return false;
      stop();
      resolve(finishedExecution(service, ids, resource));
      return true;
    };
    if (check()) return;
    unsubscribe = service.subscribe((event: ServiceEvent) => {
      if (event.type === 'execution' && event.executionId === executionId) check();
    });
    if (waitOptions.timeoutMs !== undefined) {
      timer = setTimeout(() => {
        stop();
        reject(new Error(`execution ${workflowId}/${executionId} did not end within ${waitOptions.timeoutMs} ms`));
      }, waitOptions.timeoutMs);
    }
  });
}

/** The {@link Emulator} handle over a running server; its methods are bound, so they may be passed around alone. */
class EmulatorHandle implements Emulator {
  readonly url: string;
  readonly port: number;
  readonly grpcAddress: string;
  readonly grpcPort: number;
  readonly project: string;
  readonly location: string;
  readonly parent: string;
  readonly #server: RunningServer;
  readonly #service: RunningServer['service'];

  constructor(server: RunningServer) {
    this.#server = server;
    this.#service = server.service;
    this.url = server.url;
    this.port = server.port;
    this.grpcAddress = `${new URL(server.url).hostname}:${server.grpcPort}`;
    this.grpcPort = server.grpcPort ?? 0;
    this.project = server.service.project;
    this.location = server.service.location;
    this.parent = `projects/${this.project}/locations/${this.location}`;
  }

  readonly deploy: Emulator['deploy'] = async (workflowId, source, deployOptions = {}) => {
    const service = this.#service;
    const input = { sourceContents: source, ...(deployOptions.description !== undefined ? { description: deployOptions.description } : {}) };
    let exists = true;
    try {
      service.getWorkflow(workflowId);
    } catch {
      exists = false;
    }
    return exists ? service.updateWorkflow(workflowId, input) : service.createWorkflow(workflowId, input);
  };

  readonly start = async (workflowId: string, argument?: unknown): Promise<Execution> =>
    this.#service.createExecution(workflowId, argument === undefined ? {} : { argument: JSON.stringify(argument) });

  readonly wait = (execution: ExecutionRef, waitOptions: WaitOptions = {}): Promise<FinishedExecution> =>
    waitForEnd(this.#service, idsOf(execution), waitOptions);

  readonly run: Emulator['run'] = async (workflowId, argument, waitOptions) => {
    const execution = await this.start(workflowId, argument);
    return this.wait(execution, waitOptions);
  };

  readonly callbacks: Emulator['callbacks'] = async (execution) => {
    const { workflowId, executionId } = idsOf(execution);
    return this.#service.listCallbacks(workflowId, executionId);
  };

  readonly stepEntries: Emulator['stepEntries'] = async (execution, query = {}) => {
    const { workflowId, executionId } = idsOf(execution);
    const out: StepEntry[] = [];
    let pageToken: string | undefined;
    do {
      const page = this.#service.listStepEntries(workflowId, executionId, { ...query, ...(pageToken ? { pageToken } : {}) });
      out.push(...page.stepEntries);
      pageToken = page.nextPageToken;
    } while (pageToken);
    return out;
  };

  readonly cancel: Emulator['cancel'] = async (execution) => {
    const { workflowId, executionId } = idsOf(execution);
    return this.#service.cancelExecution(workflowId, executionId);
  };

  readonly calls: Emulator['calls'] = async (execution) => callsOf(this.#service, idsOf(execution));

  readonly replay: Emulator['replay'] = async (execution, options) => {
    const { workflowId, executionId } = idsOf(execution);
    return this.#service.replayExecution(workflowId, executionId, { latest: options?.revision === 'latest', strict: options?.strict === true });
  };

  readonly testCase: Emulator['testCase'] = async (execution, options) => {
    const { workflowId, executionId } = idsOf(execution);
    const recorded = this.#service.executionRecording(workflowId, executionId);
    if (recorded.execution.state === 'ACTIVE') {
      throw new ApiError('FAILED_PRECONDITION', 'the execution is still ACTIVE: a test case is made of an execution that has ended');
    }
    if (!options.file) return appendTestCase(undefined, options.workflow, testCaseOf(recorded, `execution ${executionId}`), 'test file');
    const problem = recordToFile(recorded, options.workflow, options.file, 'execution');
    if (problem) throw new Error(problem);
    return readFileSync(options.file, 'utf8');
  };

  readonly setMocks: Emulator['setMocks'] = async (mocks) => {
    this.#service.setMocks(mocks === null ? NO_MOCKS : loadMocks(mocks));
  };

  readonly advanceClock: Emulator['advanceClock'] = async (seconds) => {
    const clock = this.#service.clock as Partial<VirtualTime>;
    if (!clock.advance) throw new Error("the clock is real: start the emulator with clock: 'virtual' to advance it");
    await clock.advance(seconds * 1000);
  };

  readonly now = (): number => this.#service.clock.now();
  readonly reset: Emulator['reset'] = () => this.#server.reset();
  readonly coverage: Emulator['coverage'] = async () => this.#service.coverage();
  readonly resetCoverage: Emulator['resetCoverage'] = async () => this.#service.resetCoverage();
  readonly close: Emulator['close'] = () => this.#server.close();
}
