/**
 * The REST API on node:http (spec "Endpoints"): every row of the endpoints table under
 * `/v1/projects/{project}/locations/{location}`, the callback endpoint `/callbacks/{callbackId}`, and the web
 * UI's paths (`/`, `/ui`, `/ui/*`) handed to the UI handler. The callback endpoint is callback-handler.ts; reading
 * bodies and answering in JSON, http-json.ts.
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
import type { Execution, ServiceCore, StepEntryListRequest, Workflow } from '../service/model.ts';
import { createBrowserGuard, type BrowserGuardOptions } from './browser-guard.ts';
import { deliverCallback } from './callback-handler.ts';
import { decodeSegment, drain, NOSNIFF, readJsonBody, sendError, sendJson } from './http-json.ts';

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
      const rawUrl = req.url ?? '/';
      const q = rawUrl.indexOf('?');
      const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
      const query = q < 0 ? '' : rawUrl.slice(q + 1);
      const api = path.startsWith(prefix);
      // Every answer carries nosniff: the API's own (sendJson, sendError) write it with their other headers.
      if (!api) res.setHeader(NOSNIFF, 'nosniff');
      const refused = guard(req, res, path);
      if (refused === 'preflight') return;
      if (refused) throw refused;

      if (api) {
        // Google's REST-transport clients (and the operations they poll) go to the gRPC API's transcoder.
        if (query.includes('$alt=') || path.startsWith('operations/', prefix.length)) {
          res.setHeader(NOSNIFF, 'nosniff');
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
        // Field by field (no spreads): every execution created over REST comes this way (issue 17).
        const input: Parameters<ServiceCore['createExecution']>[1] = {};
        const argument = stringField(body, 'argument');
        if (argument !== undefined) input.argument = argument;
        const executionHistoryLevel = stringField(body, 'executionHistoryLevel', 'execution_history_level');
        if (executionHistoryLevel !== undefined) input.executionHistoryLevel = executionHistoryLevel;
        const callLogLevel = stringField(body, 'callLogLevel', 'call_log_level');
        if (callLogLevel !== undefined) input.callLogLevel = callLogLevel;
        const labels = body['labels'];
        if (labels !== undefined) input.labels = labels;
        sendJson(res, 200, service.createExecution(workflowId, input));
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
  if (query === '') return false;
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

function notFoundPath(method: string, rest: string): ApiError {
  return ApiError.notFound(`no such path: ${method} .../locations/{location}/${rest}`);
}

function methodNotFound(method: string, rest: string): ApiError {
  return ApiError.notFound(`method ${method} is not served on .../locations/{location}/${rest}`);
}
