/**
 * The REST port's front end on node:http: the management API under `/v1/projects/{project}/locations/{location}`
 * (rest-api.ts: one route table for plain REST and Google's REST transport), the callback endpoint
 * `/callbacks/{callbackId}` (callback-handler.ts), the control API, and the web UI's paths (`/`, `/ui`,
 * `/ui/*`) handed to the UI handler; answering in JSON is http-json.ts.
 *
 * Every error, including a malformed JSON body, a field of the wrong type and an unknown path, is answered in
 * Google's JSON error shape `{"error": {"code": <http status>, "message": "...", "status": "<CODE>"}}`
 * (https://cloud.google.com/apis/design/errors); nothing a client sends can crash the server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../service/errors.ts';
import type { ServiceCore } from '../service/model.ts';
import { createBrowserGuard, type BrowserGuardOptions } from './browser-guard.ts';
import { deliverCallback } from './callback-handler.ts';
import { NOSNIFF, sendError, sendJsonText } from './http-json.ts';
import { serveApi } from './rest-api.ts';
import { ExecutionAnswers } from './execution-answers.ts';
import { loadModule } from '../platform/libraries.ts';

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
  /** Where the handler keeps its answers to GET of an execution (a new ExecutionAnswers by default). */
  readonly executionAnswers?: ExecutionAnswers;
}

/**
 * Creates the handler for the REST port: the management API, `/callbacks/{id}`, the web UI (`options.ui`,
 * which src/server.ts sets to `createUi(service)` of src/ui/routes.ts) for `/`, `/ui` and `/ui/*`, and, when
 * given, the control API for `/emulator/*` (`options.control`, src/api/control.ts). Every request first passes
 * the browser guard (src/api/browser-guard.ts: cross-origin and DNS-rebinding requests that would change state
 * get 403 PERMISSION_DENIED), and every response carries `X-Content-Type-Options: nosniff`.
 */
export function createRestHandler(service: ServiceCore, options: RestOptions = {}): RestHandler {
  const { ui, control, executionAnswers = new ExecutionAnswers(), ...guardOptions } = options;
  const guard = createBrowserGuard(guardOptions);
  const connect = connectServer(service);
  const prefix = `/v1/projects/${service.project}/locations/${service.location}/`;
  const durable = service.whenDurable !== undefined;

  return (req, res) => {
    try {
      // A client polling an execution: the answer given to this URL, while it still holds (kept URLs are the
      // API's, never a callback's). The browser guard decides first, as for every request.
      if (req.method === 'GET') {
        const kept = executionAnswers.answer(service, req.url ?? '');
        if (kept !== undefined) {
          const refused = guard(req, res, prefix);
          if (refused) throw refused;
          sendJsonText(res, 200, kept);
          return;
        }
      }
      // The Connect protocol's RPCs wait for the disk themselves (src/api/grpc-services.ts).
      const changes = (req.method !== 'GET' && req.method !== 'HEAD' && !req.url?.startsWith('/google.')) || req.url?.startsWith('/callbacks/');
      if (durable && changes) answerWhenDurable(service, res);
      const rawUrl = req.url ?? '/';
      const q = rawUrl.indexOf('?');
      const path = q < 0 ? rawUrl : rawUrl.slice(0, q);
      const query = q < 0 ? '' : rawUrl.slice(q + 1);
      const isApi = path.startsWith(prefix);
      // Every answer carries nosniff: the API's own (sendJson, sendError) write it with their other headers.
      if (!isApi) res.setHeader(NOSNIFF, 'nosniff');
      const refused = guard(req, res, path);
      if (refused === 'preflight') return;
      if (refused) throw refused;

      if (isApi) {
        const result = serveApi(service, req, res, path, query, executionAnswers);
        if (result) result.catch((e: unknown) => sendError(res, e));
        return;
      }
      if (control && path.startsWith('/emulator/')) {
        // The control API (src/api/control.ts).
        const result = control(req, res, path);
        if (result) result.catch((e: unknown) => sendError(res, e));
        return;
      }
      if (path.startsWith('/google.')) {
        // The Connect protocol (and gRPC-Web) on the REST port: `POST /google.cloud.workflows.v1.Workflows/ListWorkflows`.
        connect(req, res, path).catch((e: unknown) => sendError(res, e));
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
 * Holds the answer `res` is given until every change made so far is on disk (docs/persistence.md#the-journal):
 * an acknowledged write is never lost. When the disk refuses the write, the answer is a 503 UNAVAILABLE instead
 * (or, for an answer already streaming, the connection is closed without its end).
 */
function answerWhenDurable(service: ServiceCore, res: ServerResponse): void {
  const { writeHead, write, end } = res;
  let head: unknown[] | undefined;
  const flushHead = (): void => {
    res.writeHead = writeHead;
    res.write = write;
    if (head) (writeHead as (...a: unknown[]) => unknown).apply(res, head);
    head = undefined;
  };
  res.writeHead = ((...args: unknown[]) => {
    head = args;
    return res;
  }) as typeof res.writeHead;
  // A body written in parts goes out as it comes; only its end waits.
  res.write = ((...args: unknown[]) => {
    flushHead();
    return (write as (...a: unknown[]) => boolean).apply(res, args);
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    res.end = end;
    const send = (): void => {
      flushHead();
      (end as (...a: unknown[]) => unknown).apply(res, args);
    };
    const wait = service.whenDurable?.();
    if (wait === undefined) send();
    else
      wait.then(send, (e: unknown) => {
        res.writeHead = writeHead;
        res.write = write;
        if (res.headersSent) res.destroy();
        else sendError(res, e);
      });
    return res;
  }) as typeof res.end;
}

/**
 * The server of Connect protocol and gRPC-Web requests (`POST /{package}.{Service}/{Method}`) over `service`:
 * the gRPC API's own router (src/api/grpc-routes.ts, loaded on the first such request), so the RPCs answer on
 * the REST port as on the gRPC port. Its promise rejects with ApiError NOT_FOUND when the path names no RPC.
 */
function connectServer(service: ServiceCore): (req: IncomingMessage, res: ServerResponse, path: string) => Promise<void> {
  let loading: Promise<(req: IncomingMessage, res: ServerResponse, path: string) => boolean> | undefined;
  return async (req, res, path) => {
    loading ??= loadModule('grpc', 'src/api/grpc-routes.ts', () => import('./grpc-routes.ts')).then((m) => m.connectHttpHandler(service));
    const handler = await loading;
    if (!handler(req, res, path)) throw ApiError.notFound(`no such RPC: ${req.method} ${path}`);
  };
}
