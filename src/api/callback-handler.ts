/**
 * The callback endpoint `/callbacks/{callbackId}` (docs/rest-api.md#callbacks and docs/api-resources.md#events): any method hands the request
 * (method, headers, query, body) to the execution waiting on that callback. Served by the REST port
 * (rest.ts) and, alone, by the one-shot run (src/cli/run.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../service/errors.ts';
import type { CallbackRequest, ServiceCore } from '../service/model.ts';
import { readBody } from '../platform/request-body.ts';
import { decodeSegment, JSON_TYPE, sendError, sendJson } from './http-json.ts';
import type { RestHandler } from './rest.ts';

/** Largest callback request body accepted, in bytes (the variable memory limit is 512 KB). */
const MAX_CALLBACK_BODY_BYTES = 1024 * 1024;

/**
 * A handler serving only `/callbacks/{id}` (any method), answering exactly as the REST port does (200 when
 * delivered, 404 unknown, 405 wrong method, 400 ended, 429 over the limits; docs/rest-api.md#callbacks); any other path
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

/** `POST /callbacks/{id}` (any method): hands the request to the waiting execution (docs/api-resources.md#events). */
export async function deliverCallback(
  deliver: ServiceCore['deliverCallback'],
  req: IncomingMessage,
  res: ServerResponse,
  rawId: string,
  query: string,
): Promise<void> {
  const id = decodeSegment(rawId);
  const body = await readBody(req, MAX_CALLBACK_BODY_BYTES);
  // Object.create(null): a header or query parameter named __proto__ is an ordinary key (never dropped).
  const headers = Object.create(null) as Record<string, string>;
  const h = req.headers;
  for (const k of Object.keys(h)) {
    const v = h[k];
    if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(', ') : v;
  }
  const q = Object.create(null) as Record<string, string>;
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
