/**
 * Google's REST transport for the gRPC API's RPCs: what Google's client libraries send when told to use
 * HTTP/JSON instead of gRPC (Node `fallback: 'rest'`, Python `transport="rest"`, Go `NewRESTClient`). Those
 * clients use the same REST paths as plain REST but add the system parameter `$alt=json;enum-encoding=int`
 * and expect proto3 JSON back: create, update and delete answer with a done google.longrunning.Operation
 * (where plain REST's create answers with the workflow itself: docs/rest-routes.md), enums as integers.
 * This module transcodes such requests per the methods' `google.api.http` annotations
 * (https://cloud.google.com/endpoints/docs/grpc-service-config/reference/rpc/google.api#httprule) onto the
 * very RPC functions the gRPC router serves (grpc-services.ts), so the two transports cannot drift. The
 * routes are the REST port's one table (rest-routes.ts); its front end (rest.ts) hands this module requests
 * with `$alt=` and every request for a method plain REST answers no differently (the operations).
 */
import { fromJson, toJson, type DescMessage, type DescMethod, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import type { ServerResponse } from 'node:http';
import type { ServiceCore } from '../service/model.ts';
import { ApiError } from '../service/errors.ts';
import { OPERATION_TYPES } from './grpc-operations.ts';
import { allRpcs } from './grpc-services.ts';
import { matchRoute, pathValues, type Route, type RouteMatch } from './rest-routes.ts';

/** Types a packed Any may hold in a request or response. */
const registry = OPERATION_TYPES;

/** An RPC of grpc-services.ts: its descriptor and implementation. */
interface Rpc {
  readonly method: DescMethod;
  readonly call: (request: never) => Promise<unknown>;
}

const rpcsByCore = new WeakMap<ServiceCore, ReadonlyMap<string, Rpc>>();

/** The RPCs over `core` by name (`GetExecution`), built once per core. */
function rpcsOf(core: ServiceCore): ReadonlyMap<string, Rpc> {
  let rpcs = rpcsByCore.get(core);
  if (!rpcs) {
    const byName = new Map<string, Rpc>();
    for (const { service, rpcs: impl } of allRpcs(core)) {
      for (const method of service.methods) {
        const call = (impl as Record<string, Rpc['call'] | undefined>)[method.localName];
        if (call) byName.set(method.name, { method, call });
      }
    }
    rpcsByCore.set(core, (rpcs = byName));
  }
  return rpcs;
}

/** Sets `json[a][b]... = value` for the dotted request field path `a.b...` (camelCase or proto names). */
function setPath(json: JsonObject, path: string, value: JsonValue): void {
  const parts = path.split('.');
  let target = json;
  for (const part of parts.slice(0, -1)) {
    const next = target[part];
    target = (next !== null && typeof next === 'object' && !Array.isArray(next) ? next : (target[part] = {})) as JsonObject;
  }
  target[parts.at(-1)!] = value;
}

/**
 * The JSON value for query parameter `values` of request field `path`: repeated fields become arrays, numeric
 * enum values numbers (the proto3 JSON parser takes names or numbers), a FieldMask's paths in lowerCamelCase,
 * everything else the string as is (proto3 JSON accepts strings for numbers, bools and FieldMask).
 */
function queryValue(schema: DescMessage, path: string, values: string[]): JsonValue | undefined {
  let message: DescMessage | undefined = schema;
  let field;
  for (const part of path.split('.')) {
    field = message?.fields.find((f) => f.jsonName === part || f.name === part);
    message = field?.fieldKind === 'message' ? field.message : undefined;
  }
  if (!field) return undefined; // unknown parameters are ignored, as Google's frontends do for system ones
  const one = (v: string): JsonValue => (field.fieldKind === 'enum' || (field.fieldKind === 'list' && field.listKind === 'enum')) && /^-?\d+$/.test(v) ? Number(v) : v;
  // A FieldMask in a query holds the paths as Google's clients send them, snake_case (`source_contents`);
  // its proto3 JSON form is lowerCamelCase.
  if (field.fieldKind === 'message' && field.message.typeName === 'google.protobuf.FieldMask') {
    return values.at(-1)!.split(',').map((p) => p.trim().replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase())).join(',');
  }
  return field.fieldKind === 'list' ? values.map(one) : one(values.at(-1)!);
}

/** An answer: HTTP status and JSON body. */
export interface RestAnswer {
  readonly status: number;
  readonly body: JsonValue;
}

/** A path variable's value, percent-decoded; kept as sent when it is not valid percent-encoding. */
function decodePathValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * The request message's proto3 JSON for a matched route: the body (all of it for `*`, else under the field
 * named by the rule), then the path variables, then the query parameters for fields neither binds.
 * @throws ApiError INVALID_ARGUMENT for a body that is not JSON (or not an object for `*`).
 */
async function requestJson(route: Route, input: DescMessage, values: readonly string[], params: URLSearchParams, bodyText: () => Promise<string>): Promise<JsonObject> {
  let json: JsonObject = {};
  if (route.body !== '') {
    const text = await bodyText();
    let body: JsonValue;
    try {
      body = text.trim() === '' ? {} : (JSON.parse(text) as JsonValue);
    } catch {
      throw ApiError.invalidArgument('Invalid JSON payload received: the request body is not JSON');
    }
    if (route.body === '*') {
      if (body === null || typeof body !== 'object' || Array.isArray(body)) {
        throw ApiError.invalidArgument('Invalid JSON payload received: expected an object');
      }
      json = body;
    } else {
      json[route.body] = body;
    }
  }
  route.vars.forEach((v, i) => setPath(json, v.field, decodePathValue(values[i]!)));
  if (route.body !== '*') {
    const bound = new Set([...route.vars.map((v) => v.field), route.body]);
    for (const key of new Set(params.keys())) {
      if (key.startsWith('$') || bound.has(key)) continue;
      const value = queryValue(input, key, params.getAll(key));
      if (value !== undefined) setPath(json, key, value);
    }
  }
  return json;
}

/**
 * Calls the RPC of a matched route (which must have one) with the request built from path values, query
 * and body (read by `bodyText` when the rule has one), and answers with its response message in proto3 JSON,
 * enums as integers when `$alt` has `enum-encoding=int`. Errors become answers ({@link ApiError.from}).
 */
export async function answerGoogleRest(core: ServiceCore, match: RouteMatch, params: URLSearchParams, bodyText: () => Promise<string>): Promise<RestAnswer> {
  const { route } = match;
  const values = pathValues(match);
  try {
    const rpc = rpcsOf(core).get(route.name);
    if (!rpc) throw ApiError.notFound(`${route.name} is served over plain REST only (without $alt)`);
    const { method, call } = rpc;
    const json = await requestJson(route, method.input, values, params, bodyText);
    let request;
    try {
      request = fromJson(method.input, json, { ignoreUnknownFields: true, registry });
    } catch (error) {
      throw ApiError.invalidArgument(`Invalid JSON payload received: ${(error as Error).message}`);
    }
    const response = await call(request as never);
    const enumAsInteger = (params.get('$alt') ?? '').includes('enum-encoding=int');
    return { status: 200, body: toJson(method.output, response as never, { registry, enumAsInteger }) };
  } catch (error) {
    const apiError = ApiError.from(error);
    return { status: apiError.httpStatus, body: apiError.toJSON() };
  }
}

/**
 * Answers one request of Google's REST transport over `core` on node:http (see {@link answerGoogleRest}); `bodyText` reads
 * its body. The answer is written later; this never rejects.
 */
export function serveGoogleRest(core: ServiceCore, match: RouteMatch, res: ServerResponse, query: string, bodyText: () => Promise<string>): void {
  void answerGoogleRest(core, match, new URLSearchParams(query), bodyText).then(({ status, body }) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'x-content-type-options': 'nosniff' });
    res.end(text);
  });
}

/**
 * Google's REST transport for a fetch-style Request (in-process use and tests): resolves to the Response, or
 * undefined when no RPC has this method and path.
 */
export async function handleGoogleRest(core: ServiceCore, request: Request): Promise<Response | undefined> {
  const url = new URL(request.url);
  const match = matchRoute(request.method, url.pathname);
  if (typeof match !== 'object' || !match.route.rpc) return undefined;
  const { status, body } = await answerGoogleRest(core, match, url.searchParams, () => request.text());
  return Response.json(body, { status });
}
