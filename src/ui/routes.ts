/**
 * The web UI's HTTP handler (docs/web-ui.md#pages): server-rendered HTML pages with htmx fragments, served on the
 * REST port under `/ui`, with `/` redirecting to `/ui`. Everything goes through the one ServiceCore that REST
 * and gRPC use; starting and cancelling executions are form POSTs under `/ui/...`.
 *
 * | Method | Path | Answer |
 * |---|---|---|
 * | GET | `/` | 302 to `/ui` |
 * | GET | `/ui` | dashboard |
 * | GET | `/ui/workflows` | workflow list |
 * | GET | `/ui/workflows/{id}` | workflow: details, start form, executions, source |
 * | GET | `/ui/workflows/{id}/executions[?state=S][&page=N]` | executions of one workflow, 100 a page |
 * | GET | `/ui/workflows/{id}/diff?from=R1&to=R2` | the diff of two kept revisions |
 * | POST | `/ui/workflows/{id}` | the workflow page with its start form filled in (field `argument`: "Run again…") |
 * | POST | `/ui/workflows/{id}/executions` | start an execution (form field `argument`, JSON text) |
 * | GET | `/ui/executions[?state=S][&page=N]` | executions of all workflows, 100 a page |
 * | GET | `/ui/executions/{workflowId}/{executionId}` | execution |
 * | POST | `/ui/executions/{workflowId}/{executionId}/cancel` | cancel it |
 * | POST | `/ui/executions/{workflowId}/{executionId}/replay` | replay it (`revision=latest`: redrive), then show the replay |
 * | POST | `/ui/executions/{workflowId}/{executionId}/callbacks/{callbackId}` | send the callback (field `body`) |
 * | GET | `/ui/executions/{workflowId}/{executionId}/debug` | the debugger's state fragment (debug-panel.ts) |
 * | POST | `/ui/executions/{workflowId}/{executionId}/debug/{control,breakpoint,evaluate}` | debugger actions |
 * | GET | `/ui/assets/{name}` | htmx, stylesheet, ui.js (src/ui/assets.ts) |
 *
 * htmx requests: a GET with `HX-Request: true` and `HX-Target: live` (a live region polling itself) gets that
 * region alone. A start POST answers `HX-Redirect` to the new execution, or the form with its error (status
 * 422); a cancel POST answers the execution's live region. Without JavaScript the same forms answer 303 See
 * Other (or the full page with the error). Unknown workflows and executions get a 404 page; a poll that finds
 * its resource gone gets `HX-Refresh` so the browser shows that page.
 *
 * Security: every user string is escaped by the `html` template; pages carry a Content-Security-Policy that
 * allows scripts and styles from this origin only (no inline script, no eval). POSTs from another origin or
 * by a foreign Host name are refused with 403 before they get here, by the REST port's one browser guard
 * (src/api/browser-guard.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../service/errors.ts';
import { MAX_REVISIONS_PER_WORKFLOW } from '../service/store/workflow-store.ts';
import type { EmulatorControl, Execution, ServiceCore, Workflow } from '../service/model.ts';
import { diffPage } from './diff-page.ts';
import { JsonSyntaxError, parseJson } from '../lang/json.ts';
import { getAsset } from './assets.ts';
import type { UiDebugged } from '../debug/hub.ts';
import { control, debugSection, debugState, evaluateFragment, toggleBreakpoint } from './debug-panel.ts';
import { executionIds, lastSegment } from './format.ts';
import { html, uiPath } from './html.ts';
import { executionLive, executionPage } from './execution-page.ts';
import {
  attempt,
  countStates,
  executionData,
  exists,
  newestFirst,
  parseState,
  workflowData,
  workflowRows,
} from './page-data.ts';
import { errorPage, layout, type Site } from './layout.ts';
import { FORM_TOO_LARGE, fragment, htmlReply, isHtmx, methodIs, notFound, page, readForm, redirect, type Reply } from './reply.ts';
import {
  dashboardLive,
  dashboardPage,
  executionsLive,
  executionsPage,
  type ExecutionsData,
  type StartForm,
  startForm,
  workflowLive,
  workflowPage,
  workflowsLive,
  workflowsPage,
} from './views.ts';

/** Options of {@link createUi}. */
export interface UiOptions {
  /** Current time in milliseconds since the epoch, for running durations; `Date.now` by default. */
  readonly now?: () => number;
  /** The executions running under the debugger (src/debug/hub.ts), for the debugger panel. */
  readonly debug?: { forUi(executionName: string): UiDebugged | undefined };
}

/** Executions shown on the dashboard. */
const RECENT_EXECUTIONS = 10;
/** Executions on one page of an executions list. */
const EXECUTIONS_PAGE_SIZE = 100;
/** What the UI reads: the service core, and the coverage of a workflow (docs/coverage.md). */
export type UiService = ServiceCore & Pick<EmulatorControl, 'workflowCoverage'>;

/**
 * Creates the web UI handler for `/`, `/ui` and `/ui/*` on the REST port. The HTTP server calls it for those
 * paths only, with the request URL already parsed. The handler never throws: an unexpected failure is
 * answered with a 500 page.
 */
export function createUi(
  service: UiService,
  options: UiOptions = {},
): (req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void> {
  const now = options.now ?? Date.now;
  return async (req, res, url) => {
    // The server may build `url` on a placeholder host; the browser's Host header says how it reached us.
    const host = req.headers.host;
    const origin = host && /^[\w.:[\]-]+$/.test(host) ? `http://${host}` : url.origin;
    const site: Site = { project: service.project, location: service.location, origin };
    let reply: Reply;
    try {
      reply = await route(service, site, now, req, url, options.debug);
    } catch (err) {
      reply = htmlReply(500, layout(site, errorPage(ApiError.from(err).message)));
    }
    if (res.headersSent) {
      res.end();
      return;
    }
    res.writeHead(reply.status, reply.headers ?? {});
    res.end(req.method === 'HEAD' ? undefined : reply.body);
  };
}

// ---------------------------------------------------------------------------------------------------------
// Routing

async function route(service: UiService, site: Site, now: () => number, req: IncomingMessage, url: URL, dbg: UiOptions['debug']): Promise<Reply> {
  const method = req.method ?? 'GET';
  const path = url.pathname;
  if (path === '/') return methodIs(method, ['GET', 'HEAD']) ?? redirect(302, '/ui');
  if (path !== '/ui' && !path.startsWith('/ui/')) return notFound(site, req, 'There is no page at this address.');

  let segments: string[];
  try {
    segments = path.slice(3).split('/').filter((s) => s !== '').map(decodeURIComponent);
  } catch {
    return notFound(site, req, 'There is no page at this address.');
  }
  const [a, b, c, d, ...rest] = segments;
  const live = isHtmx(req) && req.headers['hx-target'] === 'live';

  if (a === undefined) return methodIs(method, ['GET', 'HEAD']) ?? dashboard(service, site, now, live);
  if (a === 'assets' && b !== undefined && c === undefined) return methodIs(method, ['GET', 'HEAD']) ?? asset(req, url, b);
  if (a === 'workflows') {
    if (b === undefined) return methodIs(method, ['GET', 'HEAD']) ?? workflows(service, site, live);
    if (c === undefined) {
      if (method === 'POST') return prefilledWorkflow(service, site, now, req, b);
      return methodIs(method, ['GET', 'HEAD', 'POST']) ?? workflow(service, site, now, req, b, live);
    }
    if (c === 'diff' && d === undefined) return methodIs(method, ['GET', 'HEAD']) ?? revisionDiff(service, site, req, url, b);
    if (c === 'executions' && d === undefined) {
      if (method === 'POST') return startExecution(service, site, now, req, b);
      return methodIs(method, ['GET', 'HEAD', 'POST']) ?? executions(service, site, now, req, url, b, live);
    }
  }
  if (a === 'executions') {
    if (b === undefined) return methodIs(method, ['GET', 'HEAD']) ?? executions(service, site, now, req, url, undefined, live);
    if (c !== undefined && d === undefined) {
      const reply = methodIs(method, ['GET', 'HEAD']) ?? execution(service, site, now, req, b, c, live);
      const ui = !live && reply.status === 200 ? dbg?.forUi(executionName(service, b, c)) : undefined;
      return ui && reply.body ? { ...reply, body: reply.body.replace('</main>', `${debugSection(b, c, ui)}</main>`) } : reply;
    }
    if (c !== undefined && d === 'debug' && rest.length <= 1) return debugRoute(service, site, req, method, b, c, rest[0], dbg);
    if (c !== undefined && d === 'cancel' && rest.length === 0) {
      return methodIs(method, ['POST']) ?? cancelExecution(service, site, now, req, b, c);
    }
    if (c !== undefined && d === 'replay' && rest.length === 0) {
      return methodIs(method, ['POST']) ?? replayExecution(service, site, now, req, b, c);
    }
    if (c !== undefined && d === 'callbacks' && rest.length === 1) {
      return methodIs(method, ['POST']) ?? sendCallback(service, site, now, req, b, c, rest[0]!);
    }
  }
  return notFound(site, req, 'There is no page at this address.');
}

/** The resource name of an execution. */
function executionName(service: ServiceCore, workflowId: string, executionId: string): string {
  return `projects/${service.project}/locations/${service.location}/workflows/${workflowId}/executions/${executionId}`;
}

/**
 * The debugger panel's routes (debug-panel.ts): GET its state fragment; POST `control` (a thread's button),
 * `breakpoint` (a line's button) or `evaluate` (the expression box). A POST without htmx answers 303 to the
 * execution page.
 */
async function debugRoute(service: ServiceCore, site: Site, req: IncomingMessage, method: string, wf: string, ex: string, action: string | undefined, dbg: UiOptions['debug']): Promise<Reply> {
  const ui = dbg?.forUi(executionName(service, wf, ex));
  if (!ui) return notFound(site, req, `Execution “${ex}” of workflow “${wf}” is not running under the debugger.`);
  if (action === undefined) return methodIs(method, ['GET', 'HEAD']) ?? fragment(debugState(wf, ex, ui));
  const refused = methodIs(method, ['POST']);
  if (refused) return refused;
  const form = await readForm(req);
  if (!form) return FORM_TOO_LARGE;
  if (action === 'evaluate') return fragment(await evaluateFragment(ui, form.get('expression') ?? ''));
  const problem = action === 'control' ? control(ui, form) : action === 'breakpoint' ? toggleBreakpoint(ui, form) : 'There is no such debugger action.';
  if (!isHtmx(req)) return problem ? { status: 422, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: problem + '\n' } : redirect(303, uiPath('executions', wf, ex));
  // The held thread may stop again at once: give a step's run a moment before showing the state.
  await new Promise((r) => setTimeout(r, 50));
  return fragment(html`${problem ? html`<p class="field-error" role="alert">${problem}</p>` : ''}${debugState(wf, ex, ui)}`);
}

// ---------------------------------------------------------------------------------------------------------
// Pages

function dashboard(service: ServiceCore, site: Site, now: () => number, live: boolean): Reply {
  const all = newestFirst(service.listExecutions());
  const data = {
    counts: countStates(all),
    workflows: workflowRows(service, all),
    recent: all.slice(0, RECENT_EXECUTIONS),
    totalExecutions: all.length,
    nowMs: now(),
    problems: service.sourceProblems.list(),
    watching: service.sourceProblems.watching,
  };
  return live ? fragment(dashboardLive(site, data)) : page(site, 200, dashboardPage(site, data));
}

function workflows(service: ServiceCore, site: Site, live: boolean): Reply {
  const rows = workflowRows(service, service.listExecutions());
  return live ? fragment(workflowsLive(site, rows)) : page(site, 200, workflowsPage(site, rows));
}

function workflow(service: UiService, site: Site, now: () => number, req: IncomingMessage, id: string, live: boolean): Reply {
  const found = workflowData(service, now, id);
  if (!found) return notFound(site, req, `There is no workflow “${id}”.`);
  // ?revision=R shows that kept revision's source (docs/rest-api.md#workflow-settings-and-revisions).
  const revision = new URL(req.url ?? '/', 'http://ui').searchParams.get('revision');
  const shown = revision ? attempt(() => service.getWorkflow(id, revision)) : undefined;
  if (revision && !shown) {
    return notFound(site, req, `Workflow “${id}” holds no revision “${revision}”: it was never deployed, or it is no longer kept (the last ${MAX_REVISIONS_PER_WORKFLOW} revisions are), so its source cannot be shown.`);
  }
  const coverage = attempt(() => service.workflowCoverage(id));
  const data = { ...found, ...(shown ? { shown } : {}), ...(coverage ? { coverage } : {}) };
  return live ? fragment(workflowLive(data)) : page(site, 200, workflowPage(data, { argument: '' }));
}

/** `?from=R1&to=R2`: the diff of two kept revisions; a missing or unknown one is a 404 page saying which. */
function revisionDiff(service: ServiceCore, site: Site, req: IncomingMessage, url: URL, id: string): Reply {
  if (!exists(() => service.getWorkflow(id))) return notFound(site, req, `There is no workflow “${id}”.`);
  const pick = (name: 'from' | 'to'): Workflow | string => {
    const r = url.searchParams.get(name) ?? '';
    if (r === '') return `Name two revisions to compare (“from” and “to”).`;
    return attempt(() => service.getWorkflow(id, r)) ?? `Workflow “${id}” holds no revision “${r}” (the last ${MAX_REVISIONS_PER_WORKFLOW} revisions are kept).`;
  };
  const from = pick('from');
  const to = pick('to');
  if (typeof from === 'string') return notFound(site, req, from);
  if (typeof to === 'string') return notFound(site, req, to);
  return page(site, 200, diffPage(id, from, to));
}

function executions(
  service: ServiceCore,
  site: Site,
  now: () => number,
  req: IncomingMessage,
  url: URL,
  workflowId: string | undefined,
  live: boolean,
): Reply {
  if (workflowId !== undefined && !exists(() => service.getWorkflow(workflowId)) && service.listExecutions(workflowId).length === 0) {
    return notFound(site, req, `There is no workflow “${workflowId}”.`);
  }
  const all = newestFirst(service.listExecutions(workflowId));
  const state = parseState(url.searchParams.get('state'));
  const matching = state ? all.filter((e) => e.state === state) : all;
  const pages = Math.max(1, Math.ceil(matching.length / EXECUTIONS_PAGE_SIZE));
  const pageNo = Math.min(pages, Math.max(1, Number.parseInt(url.searchParams.get('page') ?? '1', 10) || 1));
  const data: ExecutionsData = {
    ...(workflowId !== undefined ? { workflowId } : {}),
    ...(state ? { state } : {}),
    executions: matching.slice((pageNo - 1) * EXECUTIONS_PAGE_SIZE, pageNo * EXECUTIONS_PAGE_SIZE),
    matching: matching.length,
    page: pageNo,
    pageSize: EXECUTIONS_PAGE_SIZE,
    counts: countStates(all),
    nowMs: now(),
  };
  return live ? fragment(executionsLive(data)) : page(site, 200, executionsPage(data));
}

function execution(
  service: ServiceCore,
  site: Site,
  now: () => number,
  req: IncomingMessage,
  workflowId: string,
  executionId: string,
  live: boolean,
): Reply {
  const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
  const fromText = query.get('from') ?? '0';
  const from = /^\d{1,9}$/.test(fromText) ? Number(fromText) : 0;
  const data = executionData(service, now, workflowId, executionId, from, query.get('node') ?? undefined);
  if (!data) return notFound(site, req, `There is no execution “${executionId}” of workflow “${workflowId}”.`);
  return live ? fragment(executionLive(data)) : page(site, 200, executionPage(data));
}

function asset(req: IncomingMessage, url: URL, name: string): Reply {
  const a = getAsset(name);
  if (!a) return { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: 'No such asset.\n' };
  const etag = `"${a.hash}"`;
  const headers = {
    'content-type': a.contentType,
    etag,
    'x-content-type-options': 'nosniff',
    'cache-control': url.searchParams.get('v') === a.hash ? 'public, max-age=31536000, immutable' : 'no-cache',
  };
  if (req.headers['if-none-match'] === etag) return { status: 304, headers };
  return { status: 200, headers, body: a.body };
}

// ---------------------------------------------------------------------------------------------------------
// Actions

async function startExecution(service: ServiceCore, site: Site, now: () => number, req: IncomingMessage, id: string): Promise<Reply> {
  const form = await readForm(req);
  if (!form) return FORM_TOO_LARGE;
  const argument = (form.get('argument') ?? '').trim();
  if (!exists(() => service.getWorkflow(id))) return notFound(site, req, `There is no workflow “${id}”.`);

  const again = (error: string): Reply => {
    const state: StartForm = { argument, error };
    if (isHtmx(req)) return fragment(startForm(id, state), 422);
    const data = workflowData(service, now, id);
    return data ? page(site, 422, workflowPage(data, state)) : notFound(site, req, `There is no workflow “${id}”.`);
  };

  if (argument !== '') {
    try {
      parseJson(argument);
    } catch (err) {
      return again(`The argument is not valid JSON: ${err instanceof JsonSyntaxError ? err.message : String(err)}.`);
    }
  }
  let created: Execution;
  try {
    created = service.createExecution(id, { ...(argument === '' ? {} : { argument }), ...(form.get('debug') === 'on' ? { debug: true } : {}) });
  } catch (err) {
    if (err instanceof ApiError && err.code === 'NOT_FOUND') return notFound(site, req, `There is no workflow “${id}”.`);
    if (err instanceof ApiError) return again(err.message);
    throw err;
  }
  const { executionId } = executionIds(created);
  const location = uiPath('executions', id, executionId);
  if (isHtmx(req)) return { status: 200, headers: { 'hx-redirect': location, 'cache-control': 'no-store' }, body: '' };
  return redirect(303, location);
}

async function cancelExecution(
  service: ServiceCore,
  site: Site,
  now: () => number,
  req: IncomingMessage,
  workflowId: string,
  executionId: string,
): Promise<Reply> {
  await readForm(req);
  let notice: string | undefined;
  try {
    service.cancelExecution(workflowId, executionId);
  } catch (err) {
    if (err instanceof ApiError && err.code === 'NOT_FOUND') {
      return notFound(site, req, `There is no execution “${executionId}” of workflow “${workflowId}”.`);
    }
    if (!(err instanceof ApiError)) throw err;
    notice = `Not cancelled: ${err.message}`;
  }
  if (!isHtmx(req)) return redirect(303, uiPath('executions', workflowId, executionId));
  const data = executionData(service, now, workflowId, executionId);
  if (!data) return notFound(site, req, `There is no execution “${executionId}” of workflow “${workflowId}”.`);
  return fragment(executionLive(notice ? { ...data, notice } : data));
}

/**
 * "Replay" and "Replay with the current revision" (docs/recording.md "Replay and redrive"): a new execution
 * from the recording, whose page is then shown; a refusal is a notice on this execution's page.
 */
async function replayExecution(service: ServiceCore, site: Site, now: () => number, req: IncomingMessage, workflowId: string, executionId: string): Promise<Reply> {
  const form = await readForm(req);
  let notice: string;
  try {
    const r = service.replayExecution(workflowId, executionId, { latest: form?.get('revision') === 'latest', strict: false });
    const location = uiPath('executions', workflowId, r.name.slice(r.name.lastIndexOf('/') + 1));
    if (isHtmx(req)) return { status: 200, headers: { 'hx-redirect': location, 'cache-control': 'no-store' }, body: '' };
    return redirect(303, location);
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    notice = `Not replayed: ${err.message}`;
  }
  const data = executionData(service, now, workflowId, executionId);
  if (!data) return notFound(site, req, `There is no execution “${executionId}” of workflow “${workflowId}”.`);
  return isHtmx(req) ? fragment(executionLive({ ...data, notice })) : page(site, 409, executionPage({ ...data, notice }));
}

/** "Run again…": the workflow page with the start form filled in with the posted argument, to edit. */
async function prefilledWorkflow(service: ServiceCore, site: Site, now: () => number, req: IncomingMessage, id: string): Promise<Reply> {
  const form = await readForm(req);
  if (!form) return FORM_TOO_LARGE;
  const data = workflowData(service, now, id);
  if (!data) return notFound(site, req, `There is no workflow “${id}”.`);
  return page(site, 200, workflowPage(data, { argument: form.get('argument') ?? '' }));
}

/**
 * Sends a callback from the execution page (docs/web-ui.md#pages): the form's `body` goes to the callback as a request
 * with the callback's method, as JSON when it parses as JSON, else as text, exactly as a request to its URL.
 */
async function sendCallback(
  service: ServiceCore,
  site: Site,
  now: () => number,
  req: IncomingMessage,
  workflowId: string,
  executionId: string,
  callbackId: string,
): Promise<Reply> {
  const form = await readForm(req);
  if (!form) return FORM_TOO_LARGE;
  const callback = (attempt(() => service.listCallbacks(workflowId, executionId)) ?? []).find((c) => lastSegment(c.name) === callbackId);
  if (!callback) return notFound(site, req, `Execution “${executionId}” of workflow “${workflowId}” has no callback “${callbackId}”.`);
  const text = form.get('body') ?? '';
  let json = text.trim() !== '';
  try {
    if (json) parseJson(text);
  } catch {
    json = false;
  }
  const answer = service.deliverCallback(callbackId, {
    method: callback.method,
    headers: { 'content-type': json ? 'application/json' : 'text/plain; charset=utf-8' },
    query: {},
    body: Buffer.from(text, 'utf8'),
  });
  const notice = answer.status === 200 ? 'Callback sent.' : `Not sent (${answer.status}): ${JSON.stringify(answer.body)}`;
  if (!isHtmx(req)) return redirect(303, uiPath('executions', workflowId, executionId));
  const data = executionData(service, now, workflowId, executionId);
  if (!data) return notFound(site, req, `There is no execution “${executionId}” of workflow “${workflowId}”.`);
  return fragment(executionLive({ ...data, notice }));
}
