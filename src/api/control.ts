/**
 * The control API (docs/rest-api.md#the-control-api): what a test suite steers besides the Workflows API, under
 * `/emulator/v1/` on the REST port (the convention of Google's Firebase emulators). JSON in and out; errors
 * in Google's JSON error shape, as the rest of the REST API.
 *
 * | Method and path | Does |
 * |---|---|
 * | `GET /emulator/v1/health` | `{"status": "ok", "version", "clock": "real" or "virtual"}`, and with a data directory `"storage": {"dataDir", "bytes"}` (docs/persistence.md) |
 * | `POST /emulator/v1:export` | `{"directory": DIR}`: writes an export of the state there (docs/persistence.md#import-and-export); answers `{"directory", "workflows", "executions"}` |
 * | `GET /emulator/v1/mocks` | the mocks new executions start with, as JSON `{http, connectors, unmatched}` |
 * | `PUT /emulator/v1/mocks` | replaces them with the body (a mock file's content, JSON or YAML); 400 naming line and column leaves the current ones |
 * | `DELETE /emulator/v1/mocks` | no mocks |
 * | `GET /emulator/v1/clock` | `{"mode", "now", "pendingSleeps", "pendingDeadlines"}` |
 * | `POST /emulator/v1/clock:advance` | `{"seconds": N}`: moves the virtual clock (400 under the real clock); answers when done |
 * | `POST /emulator/v1/reset` | back to the start: executions cancelled and forgotten, workflows deleted (a watched directory's deployed again), start-up mocks back |
 * | `GET /emulator/v1/coverage` | `{"coverage": [...]}`: steps, branches and routines covered per workflow revision since start or the last reset (docs/coverage.md) |
 * | `DELETE /emulator/v1/coverage` | coverage counts back to zero |
 * | `GET /emulator/v1/{execution name}/calls` | `{"calls": [...]}`: the execution's outbound calls (src/mocks/call-log.ts) |
 * | `POST /emulator/v1/{execution name}:replay` | `{"revision": "latest", "strict": true}` (both optional): a new execution replayed from the recording (src/service/recording/replay.ts); answers it |
 * | `POST /emulator/v1/{workflow name}:replay` | the body is a saved test file (YAML or JSON; `?case=NAME` picks its case): a new execution of the current revision from that recording (src/service/recording/replay.ts `savedCasePlan`); answers it; 400 with `test file:line:col` for a malformed one |
 * | `GET /emulator/v1/{execution name}:testCase` | the execution as a `*.test.yaml` file (src/service/recording/test-case.ts); `?workflow=PATH` names the workflow file (default `{workflow ID}.yaml`) |
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toJson } from '../lang/json.ts';
import { callRecordValue } from '../mocks/call-log.ts';
import { MockFileError, NO_MOCKS, parseMocks } from '../mocks/mock-file.ts';
import type { VirtualTime } from '../engine/virtual-time.ts';
import { ApiError } from '../service/errors.ts';
import type { EmulatorControl, ServiceCore } from '../service/model.ts';
import { VERSION } from '../service/version.ts';
import { splitName } from '../service/names.ts';
import { readBody } from '../platform/request-body.ts';
import { decodeSegment, sendJson } from './http-json.ts';
import { appendTestCase, testCaseOf } from '../service/recording/test-case.ts';
import { loadLibrary } from '../platform/libraries.ts';

/** The path prefix of the control API. */
const CONTROL_PREFIX = '/emulator/v1/';

/** What the control API acts on: the service, its control side, and the server's reset (redeploys). */
export interface ControlTarget {
  readonly service: ServiceCore & EmulatorControl;
  /** Resets the service and deploys the watched directory again. */
  reset(): Promise<void>;
}

/**
 * Answers one control API request (`path` starts with {@link CONTROL_PREFIX}). Returns a promise when the
 * answer comes later. @throws ApiError NOT_FOUND for an unknown path or method, INVALID_ARGUMENT for bad input.
 */
export function serveControl(target: ControlTarget, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> | undefined {
  const { service } = target;
  const method = req.method ?? 'GET';
  const rest = path.slice(CONTROL_PREFIX.length);
  const virtual = 'advance' in service.clock ? (service.clock as VirtualTime) : undefined;
  if (path === '/emulator/v1:export') {
    if (method !== 'POST') throw ApiError.notFound(`${method} is not served on ${path}`);
    return exportState(service, req, res);
  }
  switch (rest) {
    case 'health':
      if (method !== 'GET') break;
      return sendJson(res, 200, health(service, virtual));
    case 'mocks':
      if (method === 'GET') return sendJson(res, 200, service.mocks().content);
      if (method === 'DELETE') {
        service.setMocks(NO_MOCKS);
        return sendJson(res, 200, NO_MOCKS.content);
      }
      if (method === 'PUT') return replaceMocks(service, req, res);
      break;
    case 'clock':
      if (method !== 'GET') break;
      return sendJson(res, 200, clockState(service, virtual));
    case 'clock:advance':
      if (method !== 'POST') break;
      return advanceClock(service, virtual, req, res);
    case 'coverage':
      if (method === 'GET') return sendJson(res, 200, { coverage: service.coverage() });
      if (method === 'DELETE') {
        service.resetCoverage();
        return sendJson(res, 200, { coverage: service.coverage() });
      }
      break;
    case 'reset':
      if (method !== 'POST') break;
      return target.reset().then(() => void sendJson(res, 200, {}));
    default: {
      const m = rest.endsWith('/calls') ? splitName(rest.slice(0, -'/calls'.length), ['workflows', 'executions']) : undefined;
      if (m && method === 'GET') {
        const calls = service.executionCalls(decodeSegment(m.ids[0]!), decodeSegment(m.ids[1]!));
        const text = `{"calls":[${calls.map((c) => toJson(callRecordValue(c))).join(',')}]}`;
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
        res.end(text);
        return undefined;
      }
      if (m) break;
      const t = /^projects\/[^/]+\/locations\/[^/]+\/workflows\/([^/]+)\/executions\/([^/]+):(testCase|replay)$/.exec(rest);
      if (t?.[3] === 'testCase' && method === 'GET') return sendTestCase(service, req, res, decodeSegment(t[1]!), decodeSegment(t[2]!));
      if (t?.[3] === 'replay' && method === 'POST') return replay(service, req, res, decodeSegment(t[1]!), decodeSegment(t[2]!));
      if (t) break;
      const w = /^projects\/[^/]+\/locations\/[^/]+\/workflows\/([^/]+):replay$/.exec(rest);
      if (w && method === 'POST') return replaySavedCase(service, req, res, decodeSegment(w[1]!));
      if (w) break;
      throw ApiError.notFound(`no such control API path: ${method} ${path} (see docs/rest-api.md#the-control-api)`);
    }
  }
  throw ApiError.notFound(`${method} is not served on ${path}`);
}

/** `PUT mocks`: the body is a mock file (JSON or YAML); one that does not parse leaves the current mocks. */
function replaceMocks(service: EmulatorControl, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return readBody(req).then((raw) => {
    const text = new TextDecoder().decode(raw);
    try {
      service.setMocks(parseMocks(text, 'request body'));
    } catch (e) {
      if (e instanceof MockFileError) throw ApiError.invalidArgument(`invalid mocks: ${e.message}`);
      throw e;
    }
    sendJson(res, 200, service.mocks().content);
  });
}

/**
 * A control request's JSON body, at most 64 KiB (empty: `{}`).
 * @throws ApiError INVALID_ARGUMENT naming the `expected` body when it is not JSON
 */
async function readControlBody(req: IncomingMessage, expected: string): Promise<unknown> {
  const raw = await readBody(req, 64 * 1024);
  try {
    return JSON.parse(new TextDecoder().decode(raw) || '{}');
  } catch {
    throw ApiError.invalidArgument(`the body is not JSON: expected ${expected}`);
  }
}

/** `clock:advance`: reads `{"seconds": N}`, moves the virtual clock, and answers the clock once it has moved. */
function advanceClock(service: EmulatorControl, virtual: VirtualTime | undefined, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return readControlBody(req, '{"seconds": N}').then(async (body) => {
    const seconds = (body as { seconds?: unknown } | null)?.seconds;
    if (typeof seconds !== 'number' || !(seconds >= 0) || !Number.isFinite(seconds)) {
      throw ApiError.invalidArgument('seconds must be a number of 0 or more: {"seconds": N}');
    }
    if (!virtual) {
      throw new ApiError('FAILED_PRECONDITION', 'the clock is real: start the emulator with --clock virtual (CLOCK=virtual) to advance it');
    }
    const problem = virtual.advanceProblem(seconds * 1000);
    if (problem !== undefined) throw ApiError.invalidArgument(`seconds: ${problem}`);
    await virtual.advance(seconds * 1000);
    sendJson(res, 200, clockState(service, virtual));
  });
}

/**
 * Answers an execution as a test file (YAML text), once the `yaml` library is loaded (src/platform/libraries.ts).
 * @throws ApiError NOT_FOUND for an unknown execution.
 */
function sendTestCase(service: ServiceCore, req: IncomingMessage, res: ServerResponse, workflowId: string, executionId: string): Promise<void> {
  const recorded = service.executionRecording(workflowId, executionId);
  if (recorded.execution.state === 'ACTIVE') throw new ApiError('FAILED_PRECONDITION', 'the execution is still ACTIVE: a test case is made of an execution that has ended');
  const workflow = new URL(req.url ?? '/', 'http://localhost').searchParams.get('workflow') || `${workflowId}.yaml`;
  const testCase = testCaseOf(recorded, `execution ${executionId}`);
  return loadLibrary('yaml').then(() => {
    const text = appendTestCase(undefined, workflow, testCase, 'test file');
    res.writeHead(200, { 'content-type': 'application/yaml; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
}

/** `:replay`: reads `{revision?: "latest", strict?: boolean}` and answers the new execution. */
function replay(service: ServiceCore, req: IncomingMessage, res: ServerResponse, workflowId: string, executionId: string): Promise<void> {
  return readBody(req, 64 * 1024).then((raw) => {
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(raw) || '{}');
    } catch {
      throw ApiError.invalidArgument('the body is not JSON: expected {"revision": "latest", "strict": true} (both optional)');
    }
    const { revision, strict, ...other } = (body ?? {}) as { revision?: unknown; strict?: unknown };
    const unknown = Object.keys(other)[0];
    if (typeof body !== 'object' || body === null || Array.isArray(body) || unknown !== undefined) {
      throw ApiError.invalidArgument(`the body must be {"revision": "latest", "strict": true}${unknown !== undefined ? `: unknown field "${unknown}"` : ''}`);
    }
    if (revision !== undefined && revision !== 'latest') throw ApiError.invalidArgument('revision must be "latest" (or absent: the revision the execution ran)');
    if (strict !== undefined && typeof strict !== 'boolean') throw ApiError.invalidArgument('strict must be true or false');
    sendJson(res, 200, service.replayExecution(workflowId, executionId, { latest: revision === 'latest', strict: strict === true }));
  });
}

/** `{workflow}:replay`: the body is a saved test file; `?case=NAME` names its case. Answers the new execution. */
function replaySavedCase(service: ServiceCore, req: IncomingMessage, res: ServerResponse, workflowId: string): Promise<void> {
  return readBody(req).then((raw) => {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
    } catch {
      throw ApiError.invalidArgument('the body is not UTF-8 text: send the test file (YAML or JSON) as it was saved');
    }
    if (text.trim() === '') throw ApiError.invalidArgument('the body is empty: send a saved test file (YAML or JSON), as :testCase or "Save as test…" give it');
    const caseName = new URL(req.url ?? '/', 'http://localhost').searchParams.get('case') ?? undefined;
    sendJson(res, 200, service.replaySavedCase(workflowId, text, caseName));
  });
}

/** The health answer: status, version, clock, and the data directory's size when there is one. */
function health(service: EmulatorControl, virtual: VirtualTime | undefined): unknown {
  const storage = service.storage();
  return { status: 'ok', version: VERSION, clock: virtual ? 'virtual' : 'real', ...(storage ? { storage } : {}) };
}

/** `:export`: reads `{"directory": DIR}` and writes an export there (docs/persistence.md#import-and-export). */
function exportState(service: EmulatorControl, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return readControlBody(req, '{"directory": "/path/to/export"}').then(async (body) => {
    const directory = (body as { directory?: unknown } | null)?.directory;
    if (typeof directory !== 'string' || directory.trim() === '') throw ApiError.invalidArgument('directory must be a path: {"directory": "/path/to/export"}');
    let summary;
    try {
      summary = await service.exportTo(directory);
    } catch (e) {
      throw new ApiError('FAILED_PRECONDITION', (e as Error).message);
    }
    sendJson(res, 200, summary);
  });
}

function clockState(service: EmulatorControl, virtual: VirtualTime | undefined): unknown {
  const now = service.clock.now();
  const pending = virtual?.pending();
  return {
    mode: virtual ? 'virtual' : 'real',
    now: new Date(now).toISOString(),
    ...(pending ? { pendingSleeps: pending.sleeps, pendingDeadlines: pending.deadlines } : {}),
  };
}
