/**
 * Plain REST's answers (https://cloud.google.com/workflows/docs/reference/rest,
 * https://cloud.google.com/workflows/docs/reference/executions/rest): the thin layer over the REST port's one
 * route table (rest-routes.ts) where plain REST differs from Google's REST transport (rest-google.ts). It
 * answers with the service core's resources as they are (enums as names, every field), create answers with
 * the workflow itself rather than an operation, list methods take the REST reference's query parameters
 * (`pageSize`, `skip`, `view`, snake_case too), bodies take JSON or proto field names, and it serves the
 * REST-only methods (step entries, callbacks). Update and delete answer with a done operation recorded in the
 * same operation store as every other transport's (grpc-operations.ts), so polling it answers.
 *
 * The hot path (GET of an execution) allocates little: each resource's JSON text is cached by identity in
 * sendJson (the core replaces a resource object whenever it changes, so a cached text is never stale), and the
 * answer to a URL asked again is kept (execution-answers.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../service/errors.ts';
import {
  EXECUTION_FIELDS,
  executionPageSizes,
  listPage,
  withPage,
  REVISION_PAGE_SIZES,
  WORKFLOW_FIELDS,
  WORKFLOW_PAGE_SIZES,
} from '../service/lists/list-page.ts';
import type { Execution, ServiceCore, StepEntryListRequest } from '../service/model.ts';
import { parentName } from '../service/names.ts';
import { decodeSegment, drain, jsonText, readJsonBody, sendJson, sendJsonPage, sendJsonText } from './http-json.ts';
import type { ExecutionAnswers } from './execution-answers.ts';
import { loadModule } from '../platform/libraries.ts';

/**
 * One method's plain REST answer, given the IDs after the location in the resource name of the route's path
 * (as sent, not percent-decoded: rest-routes.ts `resourceIds`), the raw query string (without `?`) and the
 * handler's kept answers (GetExecution keeps its answers there). Returns a promise when the request has a body
 * to read, undefined when it answered at once.
 * @throws ApiError for a request it refuses.
 */
export type PlainAnswer = (
  service: ServiceCore,
  req: IncomingMessage,
  res: ServerResponse,
  ids: readonly string[],
  query: string,
  answers: ExecutionAnswers,
) => Promise<void> | undefined;

/** The IDs of the resource a route's path names, percent-decoded (`['w', 'e']` for an execution). */
function decoded(ids: readonly string[]): string[] {
  return ids.map(decodeSegment);
}


/** Answers one page of a list under `key`, with nextPageToken when there is one. */
function sendPage<T>(res: ServerResponse, key: string, page: { items: readonly T[]; nextPageToken?: string }): undefined {
  return sendJsonPage(res, key, page.items, page.nextPageToken);
}

/** The workflow fields of a create or update body, by JSON or proto name. @throws ApiError INVALID_ARGUMENT */
function workflowFields(body: Record<string, unknown>): { sourceContents?: string; [field: string]: unknown } {
  const sourceContents = stringField(body, 'sourceContents', 'source_contents');
  const description = stringField(body, 'description');
  const executionHistoryLevel = stringField(body, 'executionHistoryLevel', 'execution_history_level');
  const callLogLevel = stringField(body, 'callLogLevel', 'call_log_level');
  return {
    ...(sourceContents !== undefined ? { sourceContents } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(executionHistoryLevel !== undefined ? { executionHistoryLevel } : {}),
    ...(callLogLevel !== undefined ? { callLogLevel } : {}),
    ...settingFields(body),
  };
}

const createWorkflow: PlainAnswer = (service, req, res, _ids, query) =>
  readJsonBody(req).then((body) => {
    const params = new URLSearchParams(query);
    const workflowId = params.get('workflowId') ?? params.get('workflow_id');
    if (!workflowId) throw ApiError.invalidArgument('the workflowId query parameter is required');
    const fields = workflowFields(body);
    if (fields.sourceContents === undefined || fields.sourceContents === '') {
      throw ApiError.invalidArgument('sourceContents is required and must not be empty');
    }
    sendJson(res, 200, service.createWorkflow(workflowId, fields as Parameters<ServiceCore['createWorkflow']>[1]));
  });

const updateWorkflow: PlainAnswer = (service, req, res, ids, query) => {
  const workflowId = decodeSegment(ids[0]!);
  return readJsonBody(req).then(async (body) => {
    const params = new URLSearchParams(query);
    const maskText = params.get('updateMask') ?? params.get('update_mask');
    const mask = maskText ? maskText.split(',').map((f) => camelField(f.trim())).filter((f) => f !== '') : undefined;
    const fields = workflowFields(body);
    if (fields.sourceContents === '' && (!mask || mask.includes('sourceContents'))) {
      throw ApiError.invalidArgument('sourceContents must not be empty');
    }
    const store = (await operations()).operationStoreFor(service);
    const wf = service.updateWorkflow(workflowId, fields, mask);
    const operation = store.recordUpdate(wf);
    sendJson(res, 200, { name: operation.name, done: true, response: { '@type': WORKFLOW_TYPE, ...wf } });
  });
};

const deleteWorkflow: PlainAnswer = async (service, _req, res, ids) => {
  const workflowId = decodeSegment(ids[0]!);
  const store = (await operations()).operationStoreFor(service);
  service.deleteWorkflow(workflowId);
  const operation = store.recordDelete(`${parentName(service.project, service.location)}/workflows/${workflowId}`);
  sendJson(res, 200, { name: operation.name, done: true, response: { '@type': EMPTY_TYPE } });
};

/**
 * grpc-operations.ts, the one operation store, loaded on the first update or delete (it needs the protobuf
 * descriptors, which plain REST's other methods do not).
 */
function operations(): Promise<typeof import('./grpc-operations.ts')> {
  return loadModule('grpc', 'src/api/grpc-operations.ts', () => import('./grpc-operations.ts'));
}

const createExecution: PlainAnswer = (service, req, res, ids) => {
  const workflowId = decodeSegment(ids[0]!);
  return readJsonBody(req).then((body) => {
    // Field by field (no spreads): every execution created over REST comes this way.
    const input: Parameters<ServiceCore['createExecution']>[1] = {};
    const argument = stringField(body, 'argument');
    if (argument !== undefined) input.argument = argument;
    const executionHistoryLevel = stringField(body, 'executionHistoryLevel', 'execution_history_level');
    if (executionHistoryLevel !== undefined) input.executionHistoryLevel = executionHistoryLevel;
    const callLogLevel = stringField(body, 'callLogLevel', 'call_log_level');
    if (callLogLevel !== undefined) input.callLogLevel = callLogLevel;
    const labels = body['labels'];
    if (labels !== undefined) input.labels = labels;
    // The emulator's own field (docs/debugging.md): run under the debugger, held at the first step.
    if (body['debug'] !== undefined) input.debug = body['debug'];
    sendJson(res, 200, service.createExecution(workflowId, input));
  });
};

/** Plain REST's answer of every method that has one, by route name (rest-routes.ts); the others are Google's REST transport's. */
export const PLAIN_ANSWERS: Readonly<Record<string, PlainAnswer>> = {
  ListWorkflows: (service, _req, res, _ids, query) =>
    withPage(listPage(service.listWorkflows(), listQuery(query), WORKFLOW_FIELDS, WORKFLOW_PAGE_SIZES, (w) => w.name), (page) => sendPage(res, 'workflows', page)),
  CreateWorkflow: createWorkflow,
  GetWorkflow: (service, _req, res, ids, query) => {
    const params = new URLSearchParams(query);
    const revision = params.get('revisionId') ?? params.get('revision_id') ?? undefined;
    return sendJson(res, 200, service.getWorkflow(decodeSegment(ids[0]!), revision));
  },
  UpdateWorkflow: updateWorkflow,
  DeleteWorkflow: deleteWorkflow,
  // Google's workflows.listRevisions: newest first, 20 a page.
  ListWorkflowRevisions: (service, _req, res, ids, query) => {
    const revisions = service.listWorkflowRevisions(decodeSegment(ids[0]!));
    return withPage(listPage(revisions, listQuery(query), {}, REVISION_PAGE_SIZES, (w) => w.revisionId), (page) => sendPage(res, 'workflows', page));
  },
  ListExecutions: (service, _req, res, ids, query) => {
    const request = listQuery(query);
    const basic = viewIsBasic(request.view);
    const executions = service.listExecutions(decodeSegment(ids[0]!));
    const page = listPage(executions, request, EXECUTION_FIELDS, executionPageSizes(basic ? 'BASIC' : 'FULL'), (e) => e.name);
    return withPage(page, (p) => sendPage(res, 'executions', basic ? { ...p, items: p.items.map(basicExecution) } : p));
  },
  CreateExecution: createExecution,
  GetExecution: (service, req, res, ids, query, answers) => {
    const [workflowId, executionId] = decoded(ids);
    const execution = service.getExecution(workflowId!, executionId!);
    const text = jsonText(executionViewIsBasic(query) ? basicExecution(execution) : execution);
    // The same URL asked again is answered by rest.ts from here while the resource is the same.
    answers.keep(req.url ?? '', workflowId!, executionId!, execution, text);
    return sendJsonText(res, 200, text);
  },
  CancelExecution: (service, req, res, ids) => {
    const [workflowId, executionId] = decoded(ids);
    // The body (an empty object, if any) carries nothing; drain it before answering.
    return drain(req).then(() => sendJson(res, 200, service.cancelExecution(workflowId!, executionId!)));
  },
  ListStepEntries: (service, _req, res, ids, query) => {
    const [workflowId, executionId] = decoded(ids);
    return sendJson(res, 200, service.listStepEntries(workflowId!, executionId!, listQuery(query)));
  },
  GetStepEntry: (service, _req, res, ids, query) => {
    const [workflowId, executionId, entryId] = decoded(ids);
    const view = new URLSearchParams(query).get('view') ?? undefined;
    return sendJson(res, 200, service.getStepEntry(workflowId!, executionId!, entryId!, view));
  },
  ListCallbacks: (service, _req, res, ids) => {
    const [workflowId, executionId] = decoded(ids);
    return sendJson(res, 200, { callbacks: service.listCallbacks(workflowId!, executionId!) });
  },
};

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
  return query !== '' && viewIsBasic(new URLSearchParams(query).get('view') ?? undefined);
}

/** {@link executionViewIsBasic} of the `view` parameter's value. @throws ApiError INVALID_ARGUMENT */
function viewIsBasic(view: string | undefined): boolean {
  if (view === undefined || view === '' || view === 'FULL' || view === 'EXECUTION_VIEW_UNSPECIFIED') return false;
  if (view === 'BASIC') return true;
  throw ApiError.invalidArgument(`invalid view "${view}": use BASIC or FULL`);
}

/** The BASIC views made so far, by execution resource (resources are replaced on change, never changed). */
const basicViews = new WeakMap<Execution, Partial<Execution>>();

/**
 * Google's BASIC view of an execution: name, startTime, endTime, duration, state and workflowRevisionId.
 * Frozen and made once per resource, so its JSON text is cached as the resource's is (http-json.ts).
 */
function basicExecution(e: Execution): Partial<Execution> {
  let view = basicViews.get(e);
  if (view === undefined) {
    view = Object.freeze({
      name: e.name,
      startTime: e.startTime,
      ...(e.endTime !== undefined ? { endTime: e.endTime } : {}),
      ...(e.duration !== undefined ? { duration: e.duration } : {}),
      state: e.state,
      workflowRevisionId: e.workflowRevisionId,
    });
    if (Object.isFrozen(e)) basicViews.set(e, view);
  }
  return view;
}

// Operations: update and delete answer with an operation already done, its `response` typed as Google's
// JSON does for Any.
const WORKFLOW_TYPE = 'type.googleapis.com/google.cloud.workflows.v1.Workflow';
const EMPTY_TYPE = 'type.googleapis.com/google.protobuf.Empty';

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
