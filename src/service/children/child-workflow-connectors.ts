/**
 * Child workflows (docs/standard-library.md#connectors): the Workflow Executions connector runs executions in the emulator itself, as
 * Google's connector reference describes it
 * (https://cloud.google.com/workflows/docs/reference/googleapis/workflowexecutions/Overview):
 *
 * - `googleapis.workflowexecutions.v1.projects.locations.workflows.executions.run` (`workflow_id`, optional
 *   `argument` as a value, `project_id`, `location`): starts the workflow's current revision, waits for it,
 *   and returns its result decoded from JSON; with `connector_params.skip_polling` true it returns null at
 *   once and the child runs on ("run() doesn't return anything",
 *   https://cloud.google.com/workflows/docs/reference/googleapis/workflowexecutions/v1/projects.locations.workflows.executions/run);
 * - `....executions.create` (`parent` = `projects/*\/locations/*\/workflows/{id}`, optional `body` with the
 *   Executions API's `argument` JSON string): starts it and, unless `connector_params.skip_polling` is
 *   true, waits for it; returns the Execution resource (`name`, `state`, `argument`, `result`, `error`,
 *   `startTime`, `endTime`, `workflowRevisionId`);
 * - `....executions.get` (`name`): the Execution resource;
 * - `....executions.cancel` (`name`): cancels an ACTIVE execution and returns it.
 *
 * A child that fails or is cancelled makes `run` (and a waiting `create`) raise what Google's connectors
 * raise for a failed long-running operation: `{message: "Execution failed or cancelled.", code: 0, tags:
 * [OperationError], operation: <the child's Execution resource>}`. A wait longer than
 * `connector_params.timeout` (seconds above 0, default 1800, at most 31536000: one year; anything else is a
 * ValueError, a non-number a TypeError) raises TimeoutError. When the caller's run stops while it waits (the
 * caller is cancelled), the child it waits on is cancelled too. An unknown workflow or execution
 * raises HttpError 404, as the connector does for the API's 404. Children are ordinary executions, listed
 * and shown like any other, with their parent recorded (ServiceCore.executionParent).
 *
 * Decision: `project_id` and `location` (and those of `parent` and `name`) may name anything; calls always
 * resolve to this emulator's project and location, so a workflow that passes its own project and region
 * from sys.get_env or as literals runs unchanged.
 */
import type { ExecutionStore } from '../executions/execution-store.ts';
import { WorkflowError } from '../../lang/errors.ts';
import { parseJson, toJson } from '../../lang/json.ts';
import { fromJs, isMap, type Value, type WMap } from '../../lang/value.ts';
import type { ConnectorImpl } from '../../mocks/mock-interceptor.ts';
import type { Clock } from '../../stdlib/types.ts';
import { ApiError } from '../errors.ts';
import { inScope, splitName } from '../names.ts';
import type { Execution } from '../model.ts';
import { Cancellation, type CancelSignal } from '../../platform/cancellation.ts';

/** The connector's module prefix. */
const EXECUTIONS_CONNECTOR = 'googleapis.workflowexecutions.v1.projects.locations.workflows.executions';

/** Default wait of a waiting call, seconds (Google's connector default). */
const DEFAULT_TIMEOUT_SEC = 1800;
/**
 * Longest `connector_params.timeout`, seconds: one year, as Google's reference of executions.create says
 * ("can be changed to a maximum value of 31536000 seconds (one year)",
 * https://cloud.google.com/workflows/docs/reference/googleapis/workflowexecutions/v1/projects.locations.workflows.executions/create).
 */
const MAX_TIMEOUT_SEC = 31_536_000;

/** What the connector needs from the service core. */
export interface ChildHost {
  readonly project: string;
  readonly location: string;
  readonly clock: Clock;
  /** Starts an execution of `workflowId` with a JSON argument (or none), recording its parent. @throws ApiError */
  start(workflowId: string, argument: string | undefined, parentExecution: string): Execution;
  /** An execution by full name. @throws ApiError NOT_FOUND */
  get(name: string): Execution;
  /** Resolves with the resource once the execution has ended. @throws ApiError NOT_FOUND */
  whenEnded(name: string): Promise<Execution>;
  /** Cancels an ACTIVE execution. @throws ApiError */
  cancel(name: string): Execution;
}

/**
 * The part of a {@link ChildHost} the service core's executions answer: `get`, `cancel` (through the core's
 * `cancelExecution`, so a cancel is checked and recorded as over the API) and `whenEnded`, by resource name.
 */
export function storeChildHost(executions: ExecutionStore, cancelExecution: (workflowId: string, executionId: string) => Execution): Pick<ChildHost, 'get' | 'cancel' | 'whenEnded'> {
  return {
    get: (name) => executions.byName(name).resource,
    cancel: (name) => {
      const ex = executions.byName(name);
      return cancelExecution(ex.workflowId, ex.executionId);
    },
    whenEnded: (name) => {
      const ex = executions.byName(name);
      if (ex.resource.state !== 'ACTIVE') return Promise.resolve(ex.resource);
      return new Promise((resolve) => (ex.onEnd ??= []).push(() => resolve(ex.resource)));
    },
  };
}

/** The connector functions, per calling execution: `connectorsFor(parentName)` gives the table. */
export function childWorkflowConnectors(host: ChildHost): { connectorsFor(parentExecution: string): ReadonlyMap<string, ConnectorImpl> } {
  return {
    connectorsFor(parentExecution) {
      return new Map<string, ConnectorImpl>([
        [
          `${EXECUTIONS_CONNECTOR}.run`,
          async (call) => {
            const workflowId = requiredString(call.args, 'workflow_id', 'run');
            const arg = call.args.get('argument');
            const argument = arg === undefined || arg === null ? undefined : jsonArgument(arg);
            const timeoutSec = timeoutSecOf(call.args);
            const child = apiCall(() => host.start(workflowId, argument, parentExecution));
            // "if skip_polling is set to True, run() doesn't return anything" (the child runs on).
            if (skipPolling(call.args)) return null;
            const done = await waitFor(host, child.name, timeoutSec, call.signal);
            if (done.state !== 'SUCCEEDED') throw operationError(done);
            return done.result === undefined ? null : parseJson(done.result);
          },
        ],
        [
          `${EXECUTIONS_CONNECTOR}.create`,
          async (call) => {
            const parent = requiredString(call.args, 'parent', 'create');
            const workflowId = splitName(parent, ['workflows'])?.ids[0];
            if (workflowId === undefined) throw httpError(400, `parent "${parent}" is not projects/{project}/locations/{location}/workflows/{workflow}`);
            const body = call.args.get('body');
            let argument: string | undefined;
            if (isMap(body)) {
              const a = body.get('argument');
              if (a !== undefined && a !== null) {
                if (typeof a !== 'string') throw WorkflowError.of('TypeError', 'create: body.argument must be a JSON string');
                argument = a;
              }
            }
            const timeoutSec = timeoutSecOf(call.args);
            const child = apiCall(() => host.start(workflowId, argument, parentExecution));
            if (skipPolling(call.args)) return resourceValue(child);
            const done = await waitFor(host, child.name, timeoutSec, call.signal);
            if (done.state !== 'SUCCEEDED') throw operationError(done);
            return resourceValue(done);
          },
        ],
        [
          `${EXECUTIONS_CONNECTOR}.get`,
          (call) => resourceValue(apiCall(() => host.get(local(host, requiredString(call.args, 'name', 'get'))))),
        ],
        [
          `${EXECUTIONS_CONNECTOR}.cancel`,
          (call) => resourceValue(apiCall(() => host.cancel(local(host, requiredString(call.args, 'name', 'cancel'))))),
        ],
      ]);
    },
  };
}

/** True when the call's `connector_params.skip_polling` is true: start the child and do not wait for it. */
function skipPolling(args: WMap): boolean {
  const params = args.get('connector_params');
  return isMap(params) && params.get('skip_polling') === true;
}

/** An execution name with any project and location, as this emulator's. */
function local(host: ChildHost, name: string): string {
  return inScope(host, name);
}

/**
 * `connector_params.timeout` in seconds: absent, the default 1800; else a number above 0 and at most one year.
 * @throws WorkflowError TypeError for a value that is not a number, ValueError for one out of that range
 *   (Google's connector raises ValueError for "a negative timeout").
 */
function timeoutSecOf(args: WMap): number {
  const params = args.get('connector_params');
  const t = isMap(params) ? params.get('timeout') : undefined;
  if (t === undefined || t === null) return DEFAULT_TIMEOUT_SEC;
  if (typeof t !== 'bigint' && typeof t !== 'number') {
    throw WorkflowError.of('TypeError', `connector_params.timeout must be a number of seconds, got ${toJson(t)}`);
  }
  const sec = Number(t);
  if (!(sec > 0) || sec > MAX_TIMEOUT_SEC) {
    throw WorkflowError.of('ValueError', `connector_params.timeout must be above 0 and at most ${MAX_TIMEOUT_SEC} seconds (one year), got ${sec}`);
  }
  return sec;
}

/**
 * Waits for the child `name` to end, at most the call's timeout. When the caller stops waiting because its
 * own run is stopped (the caller is cancelled or ends), the child is cancelled too, as Google's connector
 * does for the child it waits on: nothing is left running that nobody waits for.
 */
async function waitFor(host: ChildHost, name: string, timeoutSec: number, signal: CancelSignal): Promise<Execution> {
  const timer = new Cancellation();
  let rejectCancelled: (reason: unknown) => void = () => {};
  // One listener on the run's signal, removed however the wait ends.
  const onAbort = (): void => {
    timer.abort();
    cancelChild(host, name);
    rejectCancelled(signal.reason);
  };
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const timeout = (host.clock.deadline ?? host.clock.sleep).call(host.clock, timeoutSec * 1000, timer.signal).then(
      () => {
        throw WorkflowError.of('TimeoutError', `the child execution ${name} did not end within ${timeoutSec} seconds`);
      },
      () => new Promise<never>(() => {}),
    );
    const cancelled = new Promise<never>((_, reject) => {
      if (signal.aborted) {
        cancelChild(host, name);
        reject(signal.reason);
      }
      rejectCancelled = reject;
    });
    return await Promise.race([host.whenEnded(name), timeout, cancelled]);
  } finally {
    timer.abort();
    signal.removeEventListener('abort', onAbort);
  }
}

/** Cancels the child when it is still ACTIVE (one that has ended, or is gone, is left as it is). */
function cancelChild(host: ChildHost, name: string): void {
  try {
    if (host.get(name).state === 'ACTIVE') host.cancel(name);
  } catch {
    // gone already (reset): nothing to cancel
  }
}

function operationError(done: Execution): WorkflowError {
  const m: WMap = new Map<string, Value>([
    ['message', 'Execution failed or cancelled.'],
    ['code', 0n],
    ['tags', ['OperationError']],
    ['operation', resourceValue(done)],
  ]);
  return new WorkflowError(m);
}

/** The Execution resource as the connector returns it (Executions API field names). */
function resourceValue(e: Execution): Value {
  return fromJs(JSON.parse(JSON.stringify(e)));
}

function jsonArgument(v: Value): string {
  try {
    return toJson(v);
  } catch (e) {
    throw WorkflowError.of('TypeError', `run: argument cannot be encoded as JSON: ${(e as Error).message}`);
  }
}

function requiredString(args: WMap, name: string, fn: string): string {
  const v = args.get(name);
  if (typeof v !== 'string' || v === '') throw WorkflowError.of('TypeError', `${EXECUTIONS_CONNECTOR}.${fn}: ${name} is required (a string)`);
  return v;
}

/** Runs a service call, turning its ApiError into the HttpError the connector raises for that status. */
function apiCall<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof ApiError) throw httpError(e.httpStatus, e.message);
    throw e;
  }
}

function httpError(status: number, message: string): WorkflowError {
  return WorkflowError.of('HttpError', message, {
    code: status,
    body: new Map<string, Value>([['error', new Map<string, Value>([['code', BigInt(status)], ['message', message]])]]),
  });
}
