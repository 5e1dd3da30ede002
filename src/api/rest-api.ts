/**
 * The management API of the REST port: one route table (rest-routes.ts, from the protos' `google.api.http`
 * rules) for both of its transports. A request with the system parameter `$alt=` (Google's client libraries'
 * REST transport) is answered by rest-google.ts in proto3 JSON; any other by plain REST's answer of the same
 * method (rest-plain.ts), or, for a method plain REST answers no differently (the operations), by
 * rest-google.ts too. Loaded by rest.ts on the first API request: start-up does not need the protobuf
 * descriptors.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../platform/request-body.ts';
import { ApiError } from '../service/errors.ts';
import type { ServiceCore } from '../service/model.ts';
import { serveGoogleRest } from './rest-google.ts';
import { PLAIN_ANSWERS } from './rest-plain.ts';
import { matchRoute } from './rest-routes.ts';

/**
 * Answers one management API request: `path` is the URL path (under `/v1/projects/{project}/locations/{location}/`,
 * which the caller checked), `query` the raw query string without `?`. Returns a promise when the answer comes
 * later (it rejects with what the caller renders as an error answer).
 * @throws ApiError NOT_FOUND for a path no method serves, or a method the path is not served for.
 */
export function serveApi(service: ServiceCore, req: IncomingMessage, res: ServerResponse, path: string, query: string): Promise<void> | undefined {
  const method = req.method ?? 'GET';
  // `.../workflows/` is `.../workflows`, as plain REST always took it.
  const match = matchRoute(service, method, path.endsWith('/') ? path.slice(0, -1) : path);
  if (typeof match !== 'object') {
    const rest = path.slice(path.indexOf('/locations/') + '/locations/'.length).replace(/^[^/]*\//, '');
    throw ApiError.notFound(
      match === 'other-method'
        ? `method ${method} is not served on .../locations/{location}/${rest}`
        : `no such path: ${method} .../locations/{location}/${rest}`,
    );
  }
  const googleRest = match.route.rpc !== undefined && (query.includes('$alt=') || PLAIN_ANSWERS[match.route.name] === undefined);
  if (!googleRest) return PLAIN_ANSWERS[match.route.name]!(service, req, res, match.values, query);
  serveGoogleRest(match, res, query, () => readBody(req).then((bytes) => new TextDecoder().decode(bytes)));
  return undefined;
}
