/**
 * The emulator of the JS API (src/index.ts `startEmulator`, docs/testing.md#the-js-api): the whole
 * emulator started in this process (src/server.ts) and the {@link Emulator} handle over its service core:
 * deploy, start, wait for the end, run, callbacks, step entries, cancel, calls, mocks, the virtual clock,
 * reset and close. The public types are declared in src/index.ts (build.mjs emits dist/index.d.ts from that
 * file alone); this file implements them.
 */
import { startServer, type RunningServer } from './server.ts';
import type { Execution as ServiceExecution, ServiceEvent } from './service/model.ts';
import { callRecordValue } from './mocks/call-log.ts';
import { NO_MOCKS } from './mocks/mock-file.ts';
import type { VirtualTime } from './engine/virtual-time.ts';
import { loadMocks, plainJs } from './cli/test/run-workflow.ts';
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
  const startMocks = options.mocks === undefined ? undefined : loadMocks(options.mocks);
  const server: RunningServer = await startServer({
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
    service: { log: options.onLog ?? (() => {}), ...(options.env ? { env: options.env } : {}) },
    printExecutionEnd: () => {},
  });
  const service = server.service;
  const parent = `projects/${service.project}/locations/${service.location}`;
  const host = new URL(server.url).hostname;

  const idsOf = (execution: string | { readonly name: string }): { workflowId: string; executionId: string } => {
    const name = typeof execution === 'string' ? execution : execution.name;
    const m = /workflows\/([^/]+)\/executions\/([^/]+)$/.exec(name);
    if (!m) throw new TypeError(`not an execution name: ${name}`);
    return { workflowId: m[1]!, executionId: m[2]! };
  };

  const finished = (workflowId: string, executionId: string, resource: ServiceExecution): FinishedExecution => {
    const logs = service.executionLogs(workflowId, executionId).map((e) => ({
      time: e.time,
      severity: e.severity,
      payload: plainJs(e.payload),
    }));
    return {
      name: resource.name,
      workflowId,
      executionId,
      state: resource.state as FinishedExecution['state'],
      ...(resource.result !== undefined ? { result: JSON.parse(resource.result) as unknown } : {}),
      ...(resource.error !== undefined
        ? { error: { payload: JSON.parse(resource.error.payload) as ErrorPayload, context: resource.error.context } }
        : {}),
      logs,
      calls: callsOf(workflowId, executionId),
      resource,
    };
  };

  const callsOf = (workflowId: string, executionId: string): RecordedCall[] =>
    service.executionCalls(workflowId, executionId).map((c) => plainJs(callRecordValue(c)) as RecordedCall);

  const wait = (execution: string | { readonly name: string }, waitOptions: WaitOptions = {}): Promise<FinishedExecution> => {
    const { workflowId, executionId } = idsOf(execution);
    return new Promise((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      let unsubscribe = (): void => {};
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
        resolve(finished(workflowId, executionId, resource));
        return true;
      };
      const stop = (): void => {
        unsubscribe();
        if (timer !== undefined) clearTimeout(timer);
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
  };

  const start = async (workflowId: string, argument?: unknown): Promise<Execution> =>
    service.createExecution(workflowId, argument === undefined ? {} : { argument: JSON.stringify(argument) });

  return {
    url: server.url,
    port: server.port,
    grpcAddress: `${host}:${server.grpcPort}`,
    grpcPort: server.grpcPort ?? 0,
    project: service.project,
    location: service.location,
    parent,
    async deploy(workflowId, source, deployOptions = {}) {
      const input = { sourceContents: source, ...(deployOptions.description !== undefined ? { description: deployOptions.description } : {}) };
      let exists = true;
      try {
        service.getWorkflow(workflowId);
      } catch {
        exists = false;
      }
      return exists ? service.updateWorkflow(workflowId, input) : service.createWorkflow(workflowId, input);
    },
    start,
    wait,
    async run(workflowId, argument, waitOptions) {
      const execution = await start(workflowId, argument);
      return wait(execution, waitOptions);
    },
    async callbacks(execution) {
      const { workflowId, executionId } = idsOf(execution);
      return service.listCallbacks(workflowId, executionId);
    },
    async stepEntries(execution, query = {}) {
      const { workflowId, executionId } = idsOf(execution);
      const out: StepEntry[] = [];
      let pageToken: string | undefined;
      do {
        const page = service.listStepEntries(workflowId, executionId, { ...query, ...(pageToken ? { pageToken } : {}) });
        out.push(...page.stepEntries);
        pageToken = page.nextPageToken;
      } while (pageToken);
      return out;
    },
    async cancel(execution) {
      const { workflowId, executionId } = idsOf(execution);
      return service.cancelExecution(workflowId, executionId);
    },
    async calls(execution) {
      const { workflowId, executionId } = idsOf(execution);
      return callsOf(workflowId, executionId);
    },
    async setMocks(mocks) {
      service.setMocks(mocks === null ? NO_MOCKS : loadMocks(mocks));
    },
    async advanceClock(seconds) {
      const clock = service.clock as Partial<VirtualTime>;
      if (!clock.advance) throw new Error("the clock is real: start the emulator with clock: 'virtual' to advance it");
      await clock.advance(seconds * 1000);
    },
    now: () => service.clock.now(),
    reset: () => server.reset(),
    coverage: async () => service.coverage(),
    resetCoverage: async () => service.resetCoverage(),
    close: () => server.close(),
  };
}
