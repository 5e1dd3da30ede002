/**
 * Google's REST transport for the gRPC API's RPCs: what Google's client libraries send when told to use
 * HTTP/JSON instead of gRPC (Node `fallback: 'rest'`, Python `transport="rest"`, Go `NewRESTClient`). Those
 * clients use the same REST paths as plain REST but add the system parameter `$alt=json;enum-encoding=int`
 * and expect proto3 JSON back: create, update and delete answer with a done google.longrunning.Operation
 * (where plain REST's create answers with the workflow itself, SPEC.md "Endpoints"), enums as integers.
 * This module transcodes such requests per the methods' `google.api.http` annotations
 * (https://cloud.google.com/endpoints/docs/grpc-service-config/reference/rpc/google.api#httprule) onto the
 * very RPC functions the gRPC router serves (grpc-services.ts), so the two transports cannot drift. The REST
 * router (rest.ts) hands requests with `$alt=` and operation paths to {@link serveGoogleRest}.
 */
import {
  fromJson,
  getOption,
  createRegistry,
  toJson,
  type DescMessage,
  type DescMethod,
  type JsonObject,
  type JsonValue,
  type Registry,
} from '@bufbuild/protobuf';
import { EmptySchema } from '@bufbuild/protobuf/wkt';
import { http as httpOption } from '../../gen/google/api/annotations_pb.ts';
import { WorkflowSchema, OperationMetadataSchema } from '../../gen/google/cloud/workflows/v1/workflows_pb.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ServiceCore } from '../service/model.ts';
import { ApiError } from '../service/errors.ts';
import { allRpcs } from './grpc-services.ts';

/** A compiled HTTP binding of one RPC. */
interface Route {
  readonly httpMethod: string;
  readonly regex: RegExp;
  /** Request field paths bound to the regex's capture groups, in order (e.g. `workflow.name`). */
  readonly pathFields: readonly string[];
  /** `*`, a request field name, or '' (no body). */
  readonly body: string;
  readonly method: DescMethod;
  readonly call: (request: never) => Promise<unknown>;
}

/**
 * google.longrunning.Operations' own annotation is `/v1/{name=operations/**}`; Workflows serves operations
 * under locations, as its client libraries are configured to call.
 */
const OPERATION_PATHS: Readonly<Record<string, string>> = {
  GetOperation: '/v1/{name=projects/*/locations/*/operations/*}',
  WaitOperation: '/v1/{name=projects/*/locations/*/operations/*}:wait',
};

/** Types a packed Any may hold in a response: the operations' results and metadata. */
const registry: Registry = createRegistry(WorkflowSchema, OperationMetadataSchema, EmptySchema);

/**
 * A path template (`/v1/{parent=projects/*\/locations/*}/workflows`, with `*` one segment, `**` any, and
 * `{field}` alone one segment) as an anchored regex with one capture group per variable.
 */
function compileTemplate(template: string): { regex: RegExp; fields: string[] } {
  const fields: string[] = [];
  const escape = (s: string) => s.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  const glob = (s: string) => escape(s).replace(/\*\*|\*/g, (m) => (m === '**' ? '.+' : '[^/]+'));
  let source = '';
  let rest = template;
  for (let m = /\{([^}=]+)(?:=([^}]*))?\}/.exec(rest); m; m = /\{([^}=]+)(?:=([^}]*))?\}/.exec(rest)) {
    source += glob(rest.slice(0, m.index)) + `(${m[2] ? glob(m[2]) : '[^/]+'})`;
    fields.push(m[1]!);
    rest = rest.slice(m.index + m[0].length);
  }
  return { regex: new RegExp(`^${source}${glob(rest)}$`), fields };
}

function compileRoutes(core: ServiceCore): Route[] {
  const routes: Route[] = [];
  for (const { service, rpcs } of allRpcs(core)) {
    for (const method of service.methods) {
      const call = (rpcs as Record<string, ((request: never) => Promise<unknown>) | undefined>)[method.localName];
      if (!call) continue;
      const rule = getOption(method, httpOption);
      let template = OPERATION_PATHS[method.name] ?? (rule.pattern.case === 'custom' ? rule.pattern.value.path : rule.pattern.value);
      const httpMethod = rule.pattern.case === 'custom' ? rule.pattern.value.kind : rule.pattern.case;
      if (!template || !httpMethod) continue;
      const { regex, fields } = compileTemplate(template);
      routes.push({ httpMethod: httpMethod.toUpperCase(), regex, pathFields: fields, body: rule.body, method, call });
    }
  }
  // Custom verbs (`...}:listRevisions`) first, so a plain `{name=.../workflows/*}` does not swallow them.
  const hasVerb = (r: Route) => /:[A-Za-z]+\$$/.test(r.regex.source);
  return routes.sort((a, b) => Number(hasVerb(b)) - Number(hasVerb(a)));
}

const routesByCore = new WeakMap<ServiceCore, Route[]>();

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

/** Largest request body accepted, in bytes (a 128 KB source, JSON-escaped, fits many times over). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

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

/** The route for `httpMethod` and `path`, with the path variables' values; undefined when none matches. */
function match(core: ServiceCore, httpMethod: string, path: string): { route: Route; values: string[] } | undefined {
  let routes = routesByCore.get(core);
  if (!routes) routesByCore.set(core, (routes = compileRoutes(core)));
  for (const route of routes) {
    if (route.httpMethod !== httpMethod) continue;
    const m = route.regex.exec(path);
    if (m) return { route, values: m.slice(1).map(decodePathValue) };
  }
  return undefined;
}

/** Calls the matched RPC with the request built from path values, query and body; ApiErrors become answers. */
async function answer(route: Route, values: string[], params: URLSearchParams, bodyText: () => Promise<string>): Promise<RestAnswer> {
  const input = route.method.input;
  try {
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
    route.pathFields.forEach((field, i) => setPath(json, field, values[i]!));
    if (route.body !== '*') {
      const bound = new Set([...route.pathFields, route.body]);
      for (const key of new Set(params.keys())) {
        if (key.startsWith('$') || bound.has(key)) continue;
        const value = queryValue(input, key, params.getAll(key));
        if (value !== undefined) setPath(json, key, value);
      }
    }
    let request;
    try {
      request = fromJson(input, json, { ignoreUnknownFields: true, registry });
    } catch (error) {
      throw ApiError.invalidArgument(`Invalid JSON payload received: ${(error as Error).message}`);
    }
    const response = await route.call(request as never);
    const enumAsInteger = (params.get('$alt') ?? '').includes('enum-encoding=int');
    return { status: 200, body: toJson(route.method.output, response as never, { registry, enumAsInteger }) };
  } catch (error) {
    const apiError = error instanceof ApiError ? error : new ApiError('INTERNAL', `internal error: ${(error as Error)?.message ?? String(error)}`);
    return { status: apiError.httpStatus, body: apiError.toJSON() };
  }
}

function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.destroy();
        reject(ApiError.invalidArgument(`the request body is larger than ${MAX_BODY_BYTES} bytes`));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Serves one request of Google's REST transport for the gRPC API's RPCs over `core`, on node:http: Workflows
 * (list, get, create, update, delete, listRevisions), Executions (list, create, get, cancel) and Operations
 * (get, wait) by their `google.api.http` paths. `path` is the URL path, `query` the raw query string (without
 * `?`). Returns false, answering nothing, when no RPC has this method and path (plain REST serves it then);
 * otherwise true, and answers (later) with the RPC's response message as proto3 JSON (enums as integers when
 * `$alt` has `enum-encoding=int`) or Google's error JSON `{"error": {"code", "message", "status"}}` with the
 * ApiError's HTTP status (400 INVALID_ARGUMENT for an unreadable body). Called by the REST router (rest.ts)
 * for requests with `$alt=` and for operation paths.
 */
export function serveGoogleRest(core: ServiceCore, req: IncomingMessage, res: ServerResponse, path: string, query: string): boolean {
  const found = match(core, req.method ?? 'GET', path);
  if (!found) return false;
  void answer(found.route, found.values, new URLSearchParams(query), () => readText(req)).then(({ status, body }) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  });
  return true;
}

/**
 * The same as {@link serveGoogleRest} for a fetch-style Request (in-process use and tests): resolves to the
 * Response, or undefined when no RPC has this method and path.
 */
export async function handleGoogleRest(core: ServiceCore, request: Request): Promise<Response | undefined> {
  const url = new URL(request.url);
  const found = match(core, request.method, url.pathname);
  if (!found) return undefined;
  const { status, body } = await answer(found.route, found.values, url.searchParams, () => request.text());
  return Response.json(body, { status });
}
