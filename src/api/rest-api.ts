/**
 * The management API of the REST port: one route table (rest-routes.ts, the protos' `google.api.http` rules)
 * for both of its transports. A request with the system parameter `$alt=` (Google's client libraries' REST
 * transport) is answered by rest-google.ts in proto3 JSON; any other by plain REST's answer of the same
 * method (rest-plain.ts), or, for a method plain REST answers no differently (the operations), by
 * rest-google.ts too. rest-google.ts, with the protobuf descriptors (about 150 ms of CPU to load), is loaded
 * by the first request that needs it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody } from '../platform/request-body.ts';
import { ApiError } from '../service/errors.ts';
import type { ServiceCore } from '../service/model.ts';
import { PLAIN_ANSWERS } from './rest-plain.ts';
import { matchRoute, resourceIds, type RouteMatch } from './rest-routes.ts';
import type { ExecutionAnswers } from './execution-answers.ts';
import { loadModule } from '../platform/libraries.ts';

/**
 * Answers one management API request: `path` is the URL path (under `/v1/projects/{project}/locations/{location}/`,
 * which the caller checked), `query` the raw query string without `?`, `answers` the handler's kept answers
 * (execution-answers.ts). Returns a promise when the answer comes
 * later (it rejects with what the caller renders as an error answer).
 * @throws ApiError NOT_FOUND for a path no method serves, or a method the path is not served for.
 */
export function serveApi(
  service: ServiceCore,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: string,
  answers: ExecutionAnswers,
): Promise<void> | undefined {
  const method = req.method ?? 'GET';
  // `.../workflows/` is `.../workflows`, as plain REST always took it.
  const match = matchRoute(method, path.endsWith('/') ? path.slice(0, -1) : path);
  if (typeof match !== 'object') {
    const rest = path.slice(path.indexOf('/locations/') + '/locations/'.length).replace(/^[^/]*\//, '');
    throw ApiError.notFound(
      match === 'other-method'
        ? `method ${method} is not served on .../locations/{location}/${rest}`
        : `no such path: ${method} .../locations/{location}/${rest}`,
    );
  }
  const plain = PLAIN_ANSWERS[match.route.name];
  if (plain && !(match.route.rpc && query.includes('$alt='))) return plain(service, req, res, resourceIds(match), query, answers);
  return serveGoogleRest(service, req, res, match, query);
}

/** src/api/rest-google.ts once loaded. */
let googleRest: typeof import('./rest-google.ts') | undefined;
let googleRestLoading: Promise<typeof import('./rest-google.ts')> | undefined;

/** Answers with Google's REST transport (rest-google.ts), loading it on first use. */
function serveGoogleRest(service: ServiceCore, req: IncomingMessage, res: ServerResponse, match: RouteMatch, query: string): Promise<void> | undefined {
  const bodyText = () => readBody(req).then((bytes) => new TextDecoder().decode(bytes));
  if (googleRest) {
    googleRest.serveGoogleRest(service, match, res, query, bodyText);
    return undefined;
  }
  googleRestLoading ??= loadModule('grpc', 'src/api/rest-google.ts', () => import('./rest-google.ts')).then((m) => (googleRest = m));
  return googleRestLoading.then((m) => m.serveGoogleRest(service, match, res, query, bodyText));
}
