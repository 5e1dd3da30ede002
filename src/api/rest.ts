/**
 * The REST API on node:http (spec "Endpoints"): every row of the endpoints table under
 * `/v1/projects/{project}/locations/{location}`, the callback endpoint `/callbacks/{callbackId}`, and the web
 * UI's paths (`/`, `/ui`, `/ui/*`) handed to the UI handler.
 *
 * Every error, including a malformed JSON body, a field of the wrong type and an unknown path, is answered in
 * Google's JSON error shape `{"error": {"code": <http status>, "message": "...", "status": "<CODE>"}}`
 * (https://cloud.google.com/apis/design/errors); nothing a client sends can crash the server.
 *
 * The hot path (GET of an execution) allocates little: the path is split by hand, and each resource's JSON
 * text is cached by identity (the core replaces a resource object whenever it changes, so a cached text is
 * never stale).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../service/errors.ts';
import {
  EXECUTION_FIELDS,
  executionPageSizes,
  listPage,
  REVISION_PAGE_SIZES,
  WORKFLOW_FIELDS,
  WORKFLOW_PAGE_SIZES,
} from '../service/lists.ts';
import type { CallbackRequest, Execution, ServiceCore, StepEntryListRequest, Workflow } from '../service/model.ts';
import { createBrowserGuard, type BrowserGuardOptions } from './browser-guard.ts';

/** Largest request body accepted on the management API, in bytes (a 128 KB source, JSON-escaped, fits). */
export const MAX_API_BODY_BYTES = 4 * 1024 * 1024;
/** Largest callback request body accepted, in bytes (the variable memory limit is 512 KB). */
export const MAX_CALLBACK_BODY_BYTES = 1024 * 1024;

/** A node:http request handler. It never throws and never rejects. */
export type RestHandler = (req: IncomingMessage, res: ServerResponse) => void;

/** A handler of the web UI's paths, given the request URL already parsed (src/ui/routes.ts `createUi`). */
export type UiHandler = (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>;

/** Options of {@link createRestHandler}: the browser guard's, the web UI and the control API to serve. */
export interface RestOptions extends BrowserGuardOptions {
  /** Serves `/`, `/ui` and `/ui/*`; without it those paths are 404 (the server wires in `createUi`). */
  readonly ui?: UiHandler;
  /** Serves `/emulator/*` (src/api/control.ts); undefined when it does not handle the path. */
  readonly control?: (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void> | undefined;
}

/**
 * Creates the handler for the REST port: the management API, `/callbacks/{id}`, the web UI (`options.ui`,
 * which src/server.ts sets to `createUi(service)` of src/ui/routes.ts) for `/`, `/ui` and `/ui/*`, and, when
 * given, the control API for `/emulator/*` (`options.control`, src/api/control.ts). Every request first passes
 * the browser guard (src/api/browser-guard.ts: cross-origin and DNS-rebinding requests that would change state
 * get 403 PERMISSION_DENIED), and every response carries `X-Content-Type-Options: nosniff`.
 */
export function createRestHandler(service: ServiceCore, options: RestOptions = {}): RestHandler {
  const { ui, control, ...guardOptions } = options;
  const guard = createBrowserGuard(guardOptions);
  const prefix = `/v1/projects/${service.project}/locations/${service.location}/`;

  return (req, res) => {
    try {
      res.setHeader('x-content-type-options', 'nosniff');
      const rawUrl = req.url ?? '/';
      const q = rawUrl.indexOf('?');
      const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
      const query = q < 0 ? '' : rawUrl.slice(q + 1);
      const refused = guard(req, res, path);
      if (refused === 'preflight') return;
      if (refused) throw refused;

      if (path.startsWith(prefix)) {
        // Google's REST-transport clients (and the operations they poll) go to the gRPC API's transcoder.
        if (query.includes('$alt=') || path.startsWith('operations/', prefix.length)) {
          const taken = serveRestTransport(service, req, res, path, query);
          if (taken === true) return;
          if (taken !== false) {
            taken.then((yes) => (yes ? undefined : route(service, req, path.slice(prefix.length), query, res))).catch((e: unknown) => sendError(res, e));
            return;
          }
        }
        const result = route(service, req, path.slice(prefix.length), query, res);
        if (result) result.catch((e: unknown) => sendError(res, e));
        return;
      }
      if (control && path.startsWith('/emulator/')) {
        // The control API (src/api/control.ts, issue 13).
        const result = control(req, res, path);
        if (result) result.catch((e: unknown) => sendError(res, e));
        return;
      }
      if (path.startsWith('/callbacks/')) {
        deliverCallback((id, r) => service.deliverCallback(id, r), req, res, path.slice('/callbacks/'.length), query).catch((e: unknown) => sendError(res, e));
        return;
      }
      if (ui && (path === '/' || path === '/ui' || path.startsWith('/ui/'))) {
        const url = new URL(rawUrl, 'http://localhost');
        Promise.resolve(ui(req, res, url)).catch((e: unknown) => sendError(res, e));
        return;
      }
      if (path.startsWith('/v1/') && path !== prefix.slice(0, -1)) {
        throw ApiError.notFound(
          `${path} is not served: this emulator serves projects/${service.project}/locations/${service.location} ` +
            `(the PROJECT and LOCATION it was started with)`,
        );
      }
      throw ApiError.notFound(`no such path: ${req.method} ${path}`);
    } catch (e) {
      sendError(res, e);
    }
  };
}

/**
 * A handler serving only `/callbacks/{id}` (any method), answering exactly as the REST port does (200 when
 * delivered, 404 unknown, 405 wrong method, 400 ended, 429 over the limits; spec "Callbacks"); any other path
 * is 404 naming `servedBy`. The one-shot run (src/cli/run.ts) serves its callbacks with it.
 */
export function createCallbackHandler(deliver: ServiceCore['deliverCallback'], servedBy: string): RestHandler {
  return (req, res) => {
    try {
      res.setHeader('x-content-type-options', 'nosniff');
      const rawUrl = req.url ?? '/';
      const q = rawUrl.indexOf('?');
      const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
      if (!path.startsWith('/callbacks/')) throw ApiError.notFound(`no such path: ${req.method} ${path} (${servedBy} serves only /callbacks/{id})`);
      deliverCallback(deliver, req, res, path.slice('/callbacks/'.length), q < 0 ? '' : rawUrl.slice(q + 1)).catch((e: unknown) => sendError(res, e));
    } catch (e) {
      sendError(res, e);
    }
  };
}

/** src/api/rest-google.ts once loaded (by the first request for it: start-up does not need its protobuf descriptors). */
let googleRest: typeof import('./rest-google.ts') | undefined;
let googleRestLoading: Promise<typeof import('./rest-google.ts')> | undefined;

/**
 * The place for Google's REST-transport client libraries (google-gax `fallback: 'rest'`), which call the same
 * paths with `$alt=json;enum-encoding=int` and expect operations and int enums in the protobuf JSON mapping;
 * they also poll `{prefix}/operations/{id}`. Called for those requests only; it hands them to the gRPC API's
 * transcoder (src/api/rest-google.ts, issue 5). Returns true when that took the request (and answers it,
 * possibly later); false lets the plain REST routes serve it. On the first such request the transcoder is
 * loaded first: the answer is then a promise of the same boolean.
 */
function serveRestTransport(service: ServiceCore, req: IncomingMessage, res: ServerResponse, path: string, query: string): boolean | Promise<boolean> {
  if (googleRest) return googleRest.serveGoogleRest(service, req, res, path, query);
  googleRestLoading ??= import('./rest-google.ts').then((m) => (googleRest = m));
  return googleRestLoading.then((m) => m.serveGoogleRest(service, req, res, path, query));
}

/**
 * Routes a management API request by the part of the path after the prefix. Returns a promise when the
 * request has a body to read, undefined when it was answered synchronously.
 */
function route(service: ServiceCore, req: IncomingMessage, rest: string, query: string, res: ServerResponse): Promise<void> | undefined {
  const method = req.method ?? 'GET';
  const seg = rest.split('/');
  if (seg[0] !== 'workflows') throw notFoundPath(method, rest);
  const n = seg.length;
  if (n === 1 || (n === 2 && seg[1] === '')) {
    // {prefix}/workflows
    if (method === 'GET') {
      const page = listPage(service.listWorkflows(), listQuery(query), WORKFLOW_FIELDS, WORKFLOW_PAGE_SIZES, (w) => w.name);
      return sendJson(res, 200, { workflows: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) });
    }
    if (method === 'POST') {
      return readJsonBody(req).then((body) => {
        const params = new URLSearchParams(query);
        const workflowId = params.get('workflowId') ?? params.get('workflow_id');
        if (!workflowId) throw ApiError.invalidArgument('the workflowId query parameter is required');
        const sourceContents = stringField(body, 'sourceContents', 'source_contents');
        if (sourceContents === undefined || sourceContents === '') {
          throw ApiError.invalidArgument('sourceContents is required and must not be empty');
        }
        const description = stringField(body, 'description');
        const executionHistoryLevel = stringField(body, 'executionHistoryLevel', 'execution_history_level');
        const callLogLevel = stringField(body, 'callLogLevel', 'call_log_level');
        sendJson(
          res,
          200,
          service.createWorkflow(workflowId, {
            sourceContents,
            ...(description !== undefined ? { description } : {}),
            ...(executionHistoryLevel !== undefined ? { executionHistoryLevel } : {}),
            ...(callLogLevel !== undefined ? { callLogLevel } : {}),
            ...settingFields(body),
          }),
        );
      });
    }
    throw methodNotFound(method, rest);
  }
  if (n === 2 && seg[1]!.endsWith(':listRevisions')) {
    // {prefix}/workflows/{id}:listRevisions (Google's workflows.listRevisions): newest first, 20 a page.
    if (method !== 'GET') throw methodNotFound(method, rest);
    const id = decodeSegment(seg[1]!.slice(0, -':listRevisions'.length));
    const page = listPage(service.listWorkflowRevisions(id), listQuery(query), {}, REVISION_PAGE_SIZES, (w) => w.revisionId);
    return sendJson(res, 200, { workflows: page.items, ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}) });
  }
  const workflowId = decodeSegment(seg[1]!);
  if (n === 2) {
    if (method === 'GET') {
      const params = new URLSearchParams(query);
      const revision = params.get('revisionId') ?? params.get('revision_id') ?? undefined;
      return sendJson(res, 200, service.getWorkflow(workflowId, revision));
    }
    if (method === 'PATCH') {
      return readJsonBody(req).then((body) => {
        const params = new URLSearchParams(query);
        const maskText = params.get('updateMask') ?? params.get('update_mask');
        const mask = maskText ? maskText.split(',').map((f) => camelField(f.trim())).filter((f) => f !== '') : undefined;
        const sourceContents = stringField(body, 'sourceContents', 'source_contents');
        const description = stringField(body, 'description');
        const executionHistoryLevel = stringField(body, 'executionHistoryLevel', 'execution_history_level');
        const callLogLevel = stringField(body, 'callLogLevel', 'call_log_level');
        if (sourceContents === '' && (!mask || mask.includes('sourceContents'))) {
          throw ApiError.invalidArgument('sourceContents must not be empty');
        }
        const wf = service.updateWorkflow(
          workflowId,
          {
            ...(sourceContents !== undefined ? { sourceContents } : {}),
            ...(description !== undefined ? { description } : {}),
            ...(executionHistoryLevel !== undefined ? { executionHistoryLevel } : {}),
            ...(callLogLevel !== undefined ? { callLogLevel } : {}),
            ...settingFields(body),
          },
          mask,
        );
        sendJson(res, 200, updateOperation(service, wf));
      });
    }
    if (method === 'DELETE') {
      service.deleteWorkflow(workflowId);
      return sendJson(res, 200, deleteOperation(service, workflowId));
    }
    throw methodNotFound(method, rest);
  }
  if (seg[2] !== 'executions') throw notFoundPath(method, rest);
  if (n === 3 || (n === 4 && seg[3] === '')) {
    if (method === 'GET') {
      const basic = executionViewIsBasic(query);
      const sizes = executionPageSizes(basic ? 'BASIC' : 'FULL');
      const page = listPage(service.listExecutions(workflowId), listQuery(query), EXECUTION_FIELDS, sizes, (e) => e.name);
      return sendJson(res, 200, {
        executions: basic ? page.items.map(basicExecution) : page.items,
        ...(page.nextPageToken ? { nextPageToken: page.nextPageToken } : {}),
      });
    }
    if (method === 'POST') {
      return readJsonBody(req).then((body) => {
        const argument = stringField(body, 'argument');
        const executionHistoryLevel = stringField(body, 'executionHistoryLevel', 'execution_history_level');
        const callLogLevel = stringField(body, 'callLogLevel', 'call_log_level');
        sendJson(
          res,
          200,
          service.createExecution(workflowId, {
            ...(argument !== undefined ? { argument } : {}),
            ...(executionHistoryLevel !== undefined ? { executionHistoryLevel } : {}),
            ...(callLogLevel !== undefined ? { callLogLevel } : {}),
            ...rawFields(body, [['labels', 'labels']]),
          }),
        );
      });
    }
    throw methodNotFound(method, rest);
  }
  const last = seg[3]!;
  if (n === 4) {
    if (last.endsWith(':cancel')) {
      if (method !== 'POST') throw methodNotFound(method, rest);
      const executionId = decodeSegment(last.slice(0, -':cancel'.length));
      // The body (an empty object, if any) carries nothing; drain it before answering.
      return drain(req).then(() => sendJson(res, 200, service.cancelExecution(workflowId, executionId)));
    }
    if (method === 'GET') {
      const execution = service.getExecution(workflowId, decodeSegment(last));
      return sendJson(res, 200, executionViewIsBasic(query) ? basicExecution(execution) : execution);
    }
    throw methodNotFound(method, rest);
  }
  if (seg[4] === 'stepEntries' && (n === 5 || (n === 6 && seg[5] === ''))) {
    if (method !== 'GET') throw methodNotFound(method, rest);
    return sendJson(res, 200, service.listStepEntries(workflowId, decodeSegment(last), listQuery(query)));
  }
  if (seg[4] === 'stepEntries' && n === 6) {
    if (method !== 'GET') throw methodNotFound(method, rest);
    const view = new URLSearchParams(query).get('view') ?? undefined;
    return sendJson(res, 200, service.getStepEntry(workflowId, decodeSegment(last), decodeSegment(seg[5]!), view));
  }
  if (n === 5 && seg[4] === 'callbacks') {
    if (method === 'GET') return sendJson(res, 200, { callbacks: service.listCallbacks(workflowId, decodeSegment(last)) });
    throw methodNotFound(method, rest);
  }
  throw notFoundPath(method, rest);
}

/** The workflow settings of a request body (workflow-settings.ts checks them), by JSON or proto name. */
function settingFields(body: unknown): Record<string, unknown> {
  return rawFields(body, [
    ['labels', 'labels'],
    ['userEnvVars', 'user_env_vars'],
    ['callLogLevel', 'call_log_level'],
    ['serviceAccount', 'service_account'],
    ['cryptoKeyName', 'crypto_key_name'],
  ]);
}

/** The fields of a JSON body present under their JSON name or their proto name, as given. */
function rawFields(body: unknown, names: readonly (readonly [string, string])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof body !== 'object' || body === null) return out;
  const b = body as Record<string, unknown>;
  for (const [json, proto] of names) {
    const v = Object.hasOwn(b, json) ? b[json] : Object.hasOwn(b, proto) ? b[proto] : undefined;
    if (v !== undefined) out[json] = v;
  }
  return out;
}

/**
 * The query of a list method (Google's REST reference for workflows.list, executions.list and
 * stepEntries.list): `pageSize`, `pageToken`, `skip`, `filter`, `orderBy`, `view` (snake_case names accepted
 * too). A page size or skip that is not an integer is a 400.
 */
function listQuery(query: string): StepEntryListRequest {
  const p = new URLSearchParams(query);
  const get = (name: string, alt: string) => p.get(name) ?? p.get(alt) ?? undefined;
  const int = (name: string, alt: string): number | undefined => {
    const text = get(name, alt);
    if (text === undefined || text === '') return undefined;
    if (!/^-?\d+$/.test(text)) throw ApiError.invalidArgument(`${name} must be an integer, not "${text}"`);
    return Number(text);
  };
  const pageSize = int('pageSize', 'page_size');
  const skip = int('skip', 'skip');
  const pageToken = get('pageToken', 'page_token');
  const filter = get('filter', 'filter');
  const orderBy = get('orderBy', 'order_by');
  const view = get('view', 'view');
  return {
    ...(pageSize !== undefined ? { pageSize } : {}),
    ...(skip !== undefined ? { skip } : {}),
    ...(pageToken !== undefined ? { pageToken } : {}),
    ...(filter !== undefined ? { filter } : {}),
    ...(orderBy !== undefined ? { orderBy } : {}),
    ...(view !== undefined ? { view } : {}),
  };
}

/**
 * `view` of executions get and list (Google's ExecutionView): BASIC or FULL; absent (and
 * EXECUTION_VIEW_UNSPECIFIED) is FULL on get and list alike, as on gRPC here. Anything else is a 400.
 */
function executionViewIsBasic(query: string): boolean {
  const view = new URLSearchParams(query).get('view');
  if (view === null || view === '' || view === 'FULL' || view === 'EXECUTION_VIEW_UNSPECIFIED') return false;
  if (view === 'BASIC') return true;
  throw ApiError.invalidArgument(`invalid view "${view}": use BASIC or FULL`);
}

/** Google's BASIC view of an execution: name, startTime, endTime, duration, state and workflowRevisionId. */
function basicExecution(e: Execution): Partial<Execution> {
  return {
    name: e.name,
    startTime: e.startTime,
    ...(e.endTime !== undefined ? { endTime: e.endTime } : {}),
    ...(e.duration !== undefined ? { duration: e.duration } : {}),
    state: e.state,
    workflowRevisionId: e.workflowRevisionId,
  };
}

/** `POST /callbacks/{id}` (any method): hands the request to the waiting execution (spec "Events"). */
async function deliverCallback(
  deliver: ServiceCore['deliverCallback'],
  req: IncomingMessage,
  res: ServerResponse,
  rawId: string,
  query: string,
): Promise<void> {
  const id = decodeSegment(rawId);
  const body = await readBody(req, MAX_CALLBACK_BODY_BYTES);
  const headers: Record<string, string> = {};
  const h = req.headers;
  for (const k of Object.keys(h)) {
    const v = h[k];
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  const q: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(query)) if (!Object.hasOwn(q, k)) q[k] = v;
  const request: CallbackRequest = { method: (req.method ?? 'POST').toUpperCase(), headers, query: q, body };
  const answer = deliver(id, request);
  if (req.method === 'HEAD') {
    res.writeHead(answer.status, { 'content-type': JSON_TYPE });
    res.end();
    return;
  }
  sendJson(res, answer.status, answer.body);
}

// ---------------------------------------------------------------------------------------------------------
// Operations (spec "Operation": update and delete return an operation already done).

const WORKFLOW_TYPE = 'type.googleapis.com/google.cloud.workflows.v1.Workflow';
const EMPTY_TYPE = 'type.googleapis.com/google.protobuf.Empty';

function operationName(service: ServiceCore): string {
  return `projects/${service.project}/locations/${service.location}/operations/operation-${Date.now()}-${crypto.randomUUID().slice(0, 8)}`;
}

/** The done operation PATCH answers with: `response` is the updated workflow, typed as Google's JSON does for Any. */
function updateOperation(service: ServiceCore, wf: Workflow): unknown {
  return { name: operationName(service), done: true, response: { '@type': WORKFLOW_TYPE, ...wf } };
}

/** The done operation DELETE answers with: `response` is google.protobuf.Empty. */
function deleteOperation(service: ServiceCore, _workflowId: string): unknown {
  return { name: operationName(service), done: true, response: { '@type': EMPTY_TYPE } };
}

// ---------------------------------------------------------------------------------------------------------
// Requests.

/**
 * A client closed its connection before its request body was complete (it gave up, or crashed): there is
 * no one to answer, and nothing went wrong here, so it is logged as one line, not as an internal error.
 */
class ClientGone extends Error {}

/**
 * Reads a request body up to `maxBytes`; a larger one is a 400 (INVALID_ARGUMENT). Rejects with
 * {@link ClientGone} when the client goes away mid-body.
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      if (failed) return;
      size += c.length;
      if (size > maxBytes) {
        failed = true;
        chunks.length = 0;
        reject(ApiError.invalidArgument(`the request body is larger than ${maxBytes} bytes`));
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    });
    // A client that goes away mid-body ('error' with "aborted", then 'close'): settle, so nothing waits forever.
    const gone = (): void => {
      if (failed) return;
      failed = true;
      chunks.length = 0;
      reject(new ClientGone(`${req.method} ${(req.url ?? '/').split('?')[0]}: the client closed the connection before its request body was complete`));
    };
    req.on('error', gone);
    req.on('close', () => {
      if (!req.complete) gone();
    });
  });
}

function drain(req: IncomingMessage): Promise<void> {
  return readBody(req, MAX_API_BODY_BYTES).then(() => undefined);
}

/**
 * Reads a JSON object body. An empty body is `{}`. Not JSON, or JSON that is not an object: 400.
 * The result has a null prototype, so `__proto__` in a body is just a (then ignored) key.
 */
async function readJsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const bytes = await readBody(req, MAX_API_BODY_BYTES);
  if (bytes.length === 0) return Object.create(null) as Record<string, unknown>;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  if (text.trim() === '') return Object.create(null) as Record<string, unknown>;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw ApiError.invalidArgument(`Invalid JSON payload received: ${(e as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw ApiError.invalidArgument('Invalid JSON payload received: the request body must be a JSON object');
  }
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(parsed)) out[k] = (parsed as Record<string, unknown>)[k];
  return out;
}

/**
 * A string field of a request body (by its JSON name or its proto name), undefined when absent or null.
 * @throws ApiError INVALID_ARGUMENT when present with another type.
 */
function stringField(body: Record<string, unknown>, name: string, altName?: string): string | undefined {
  let v = body[name];
  if (v === undefined && altName !== undefined) v = body[altName];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') {
    throw ApiError.invalidArgument(`Invalid value for field "${name}": expected a string, got ${Array.isArray(v) ? 'an array' : typeof v}`);
  }
  return v;
}

/** `source_contents` → `sourceContents`: update masks may use proto or JSON field names. */
function camelField(f: string): string {
  return f.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
}

function decodeSegment(s: string): string {
  if (!s.includes('%')) return s;
  try {
    return decodeURIComponent(s);
  } catch {
    throw ApiError.invalidArgument(`malformed percent-encoding in the path segment "${s}"`);
  }
}

function notFoundPath(method: string, rest: string): ApiError {
  return ApiError.notFound(`no such path: ${method} .../locations/{location}/${rest}`);
}

function methodNotFound(method: string, rest: string): ApiError {
  return ApiError.notFound(`method ${method} is not served on .../locations/{location}/${rest}`);
}

// ---------------------------------------------------------------------------------------------------------
// Responses.

const JSON_TYPE = 'application/json; charset=utf-8';
/** JSON text of resources by identity: resources are frozen and replaced on change, so this never goes stale. */
const jsonCache = new WeakMap<object, string>();

/** Answers with a JSON body. Resources (frozen objects) are serialized once. Returns undefined (answered). */
export function sendJson(res: ServerResponse, status: number, body: unknown): undefined {
  let text: string;
  if (body !== null && typeof body === 'object' && Object.isFrozen(body)) {
    let cached = jsonCache.get(body);
    if (cached === undefined) jsonCache.set(body, (cached = JSON.stringify(body)));
    text = cached;
  } else text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text) });
  res.end(text);
  return undefined;
}

/**
 * Answers with Google's error JSON; anything that is not an ApiError is a 500 INTERNAL (and logged with its
 * stack). A client gone mid-body gets no answer and one line on stderr.
 */
export function sendError(res: ServerResponse, e: unknown): void {
  if (e instanceof ClientGone) {
    process.stderr.write(`workflows-emulator: ${e.message}\n`);
    res.destroy();
    return;
  }
  let err: ApiError;
  if (e instanceof ApiError) err = e;
  else {
    process.stderr.write(`workflows-emulator: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
    err = new ApiError('INTERNAL', `internal error: ${(e as Error)?.message ?? String(e)}`);
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const text = JSON.stringify(err.toJSON());
  const headers: Record<string, string | number> = { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(text) };
  // A body we stopped reading cannot be left on a keep-alive connection.
  if ((res as { req?: IncomingMessage }).req?.complete === false) headers['connection'] = 'close';
  res.writeHead(err.httpStatus, headers);
  res.end(text);
}
