/**
 * The one route table of the REST port's management API: the `google.api.http` rules of the published protos
 * (https://cloud.google.com/endpoints/docs/grpc-service-config/reference/rpc/google.api#httprule): every RPC of grpc-services.ts at its HTTP method and path template, plus the REST-only methods of Google's
 * REST reference that the vendored protos lack (step entries, callbacks). Both transports of the REST port
 * match here: Google's REST transport (rest-google.ts) and plain REST (rest-plain.ts), so a URL cannot mean
 * one thing to one and another thing to the other.
 */

/** A compiled HTTP binding of one method. */
export interface Route {
  /** The method's name: the RPC's (`GetExecution`), or a REST-only method's (`ListStepEntries`). */
  readonly name: string;
  readonly httpMethod: string;
  /** The path's segments (split at `/`, the first empty): a literal, or `*` for any non-empty segment. */
  readonly segments: readonly string[];
  /** The custom verb the last segment ends with (`cancel` for `...}:cancel`); such a route owns its paths for every method. */
  readonly verb: string | undefined;
  /** The path variables: request field path (e.g. `workflow.name`) and the segments they span, [start, end). */
  readonly vars: readonly { readonly field: string; readonly start: number; readonly end: number }[];
  /** `*`, a request field name, or '' (no body). */
  readonly body: string;
  /** True for an RPC of the gRPC API (Google's REST transport serves it); false for the REST-only methods. */
  readonly rpc: boolean;
}

/** A route matched by a request: the route and the path's segments (the custom verb cut from the last). */
export interface RouteMatch {
  readonly route: Route;
  readonly segments: readonly string[];
}

/** The path variables' values of a match, in the route's order, as sent (not percent-decoded). */
export function pathValues(match: RouteMatch): string[] {
  return match.route.vars.map((v) => match.segments.slice(v.start, v.end).join('/'));
}

/**
 * The IDs after the location in the resource name of the first path variable, as sent (not
 * percent-decoded): `['w', 'e']` for `{name=projects/*\/locations/*\/workflows/w/executions/e}`, `[]` for a
 * location. The route's template fixes the name's shape, so there is nothing to check.
 */
export function resourceIds(match: RouteMatch): string[] {
  const v = match.route.vars[0];
  const ids: string[] = [];
  if (v) for (let i = v.start + 5; i < v.end; i += 2) ids.push(match.segments[i]!);
  return ids;
}

/** One HTTP rule: the method's name, HTTP method, path template and body field (`*`, a field, or '' for none). */
export interface HttpRuleRow {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  readonly template: string;
  readonly body: string;
}

/**
 * The `google.api.http` rules of the RPCs the gRPC API implements (grpc-services.ts), as the vendored protos
 * declare them (proto/google/cloud/workflows/.../*.proto; test/api/rest-routes.test.ts fails when this table
 * and the compiled descriptors disagree). Kept as a table so that plain REST routes without loading the
 * protobuf descriptors, which cost about 150 ms of start-up CPU. GetOperation: google.longrunning's own
 * annotation is `/v1/{name=operations/**}`; Workflows serves operations under locations
 * (https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.operations/get), as its client
 * libraries are configured to call. WaitOperation has no HTTP rule (gRPC only).
 */
export const RPC_HTTP_RULES: readonly HttpRuleRow[] = [
  { name: 'ListWorkflows', method: 'GET', template: '/v1/{parent=projects/*/locations/*}/workflows', body: '' },
  { name: 'GetWorkflow', method: 'GET', template: '/v1/{name=projects/*/locations/*/workflows/*}', body: '' },
  { name: 'CreateWorkflow', method: 'POST', template: '/v1/{parent=projects/*/locations/*}/workflows', body: 'workflow' },
  { name: 'DeleteWorkflow', method: 'DELETE', template: '/v1/{name=projects/*/locations/*/workflows/*}', body: '' },
  { name: 'UpdateWorkflow', method: 'PATCH', template: '/v1/{workflow.name=projects/*/locations/*/workflows/*}', body: 'workflow' },
  { name: 'ListWorkflowRevisions', method: 'GET', template: '/v1/{name=projects/*/locations/*/workflows/*}:listRevisions', body: '' },
  { name: 'ListExecutions', method: 'GET', template: '/v1/{parent=projects/*/locations/*/workflows/*}/executions', body: '' },
  { name: 'CreateExecution', method: 'POST', template: '/v1/{parent=projects/*/locations/*/workflows/*}/executions', body: 'execution' },
  { name: 'GetExecution', method: 'GET', template: '/v1/{name=projects/*/locations/*/workflows/*/executions/*}', body: '' },
  { name: 'CancelExecution', method: 'POST', template: '/v1/{name=projects/*/locations/*/workflows/*/executions/*}:cancel', body: '*' },
  { name: 'GetOperation', method: 'GET', template: '/v1/{name=projects/*/locations/*/operations/*}', body: '' },
];

/**
 * Methods of Google's REST reference that the vendored protos do not declare, by their documented path
 * (https://cloud.google.com/workflows/docs/reference/executions/rest/v1/projects.locations.workflows.executions.stepEntries,
 * https://cloud.google.com/workflows/docs/reference/executions/rest/v1/projects.locations.workflows.executions.callbacks/list).
 */
const REST_ONLY: readonly { name: string; get: string }[] = [
  { name: 'ListStepEntries', get: '/v1/{parent=projects/*/locations/*/workflows/*/executions/*}/stepEntries' },
  { name: 'GetStepEntry', get: '/v1/{name=projects/*/locations/*/workflows/*/executions/*/stepEntries/*}' },
  { name: 'ListCallbacks', get: '/v1/{parent=projects/*/locations/*/workflows/*/executions/*}/callbacks' },
];

/**
 * Compiles one rule's template (`/v1/{name=projects/*\/locations/*\/workflows/*}:listRevisions`: `*` one
 * segment, `{field}` alone one segment, an optional custom verb at the end) into segments and variables.
 */
function compile(rule: HttpRuleRow, rpc: boolean): Route {
  const verbAt = /:([A-Za-z]+)$/.exec(rule.template);
  let rest = verbAt ? rule.template.slice(0, verbAt.index) : rule.template;
  if (rest.includes('**')) throw new Error(`${rule.name}: '**' is not supported in ${rule.template}`);
  let flat = '';
  const vars: { field: string; start: number; end: number }[] = [];
  for (let m = /\{([^}=]+)(?:=([^}]*))?\}/.exec(rest); m; m = /\{([^}=]+)(?:=([^}]*))?\}/.exec(rest)) {
    flat += rest.slice(0, m.index);
    const start = flat.split('/').length - 1;
    flat += m[2] ?? '*';
    vars.push({ field: m[1]!, start, end: flat.split('/').length });
    rest = rest.slice(m.index + m[0].length);
  }
  flat += rest;
  return { name: rule.name, httpMethod: rule.method, segments: flat.split('/'), verb: verbAt?.[1], vars, body: rule.body, rpc };
}

/** `segs` (a path split at `/`) against `route`: the segments with the verb cut, or undefined when it does not match. */
function matchSegments(route: Route, segs: readonly string[]): readonly string[] | undefined {
  const pattern = route.segments;
  const n = pattern.length;
  if (segs.length !== n) return undefined;
  let last = segs[n - 1]!;
  if (route.verb !== undefined) {
    if (!last.endsWith(route.verb) || last.charCodeAt(last.length - route.verb.length - 1) !== 58 /* : */) return undefined;
    last = last.slice(0, last.length - route.verb.length - 1);
  }
  for (let i = 0; i < n; i++) {
    const seg = i === n - 1 ? last : segs[i]!;
    const p = pattern[i]!;
    if (p === '*' ? seg === '' : p !== seg) return undefined;
  }
  if (route.verb === undefined) return segs;
  const out = segs.slice();
  out[n - 1] = last;
  return out;
}

/** Every route, custom verbs first (so `{name=.../workflows/*}` does not swallow `...:listRevisions`). */
const ALL: readonly Route[] = [
  ...RPC_HTTP_RULES.map((r) => compile(r, true)),
  ...REST_ONLY.map((r) => compile({ name: r.name, method: 'GET', template: r.get, body: '' }, false)),
].sort((a, b) => Number(b.verb !== undefined) - Number(a.verb !== undefined));

const BY_METHOD = new Map<string, Route[]>();
for (const r of ALL) BY_METHOD.set(r.httpMethod, [...(BY_METHOD.get(r.httpMethod) ?? []), r]);

/** Most paths {@link matchRoute} remembers per method; past it, it starts over (any path may be asked for). */
const MATCH_CACHE_SIZE = 512;

/** The answers of {@link matchRoute} so far, by method and path (null: no route serves the path). */
const matched = new Map<string, Map<string, RouteMatch | 'other-method' | null>>();

/**
 * The route of `httpMethod` (upper case) and URL `path` (no query), with its segments; `'other-method'`
 * when the path is served for other methods only, undefined when no route serves the path. The answer is a
 * function of the two (the table is fixed), so the last {@link MATCH_CACHE_SIZE} paths of each method are
 * remembered: a client polling an execution has its path matched once. A match is shared: read it, never
 * change it.
 */
export function matchRoute(httpMethod: string, path: string): RouteMatch | 'other-method' | undefined {
  let cache = matched.get(httpMethod);
  if (cache === undefined) {
    if (!BY_METHOD.has(httpMethod)) return matchPath(httpMethod, path);
    matched.set(httpMethod, (cache = new Map()));
  }
  let match = cache.get(path);
  if (match === undefined) {
    match = matchPath(httpMethod, path) ?? null;
    if (cache.size >= MATCH_CACHE_SIZE) cache.clear();
    cache.set(path, match);
  }
  return match ?? undefined;
}

/** {@link matchRoute} without the cache: the route table read in order. */
export function matchPath(httpMethod: string, path: string): RouteMatch | 'other-method' | undefined {
  const segs = path.split('/');
  for (const r of BY_METHOD.get(httpMethod) ?? []) {
    const segments = matchSegments(r, segs);
    if (segments) {
      // A custom verb of another method owns the path (`GET .../executions/e:cancel` is not GetExecution).
      if (r.verb === undefined && path.includes(':') && ALL.some((v) => v.verb !== undefined && matchSegments(v, segs))) return 'other-method';
      return { route: r, segments };
    }
  }
  return ALL.some((r) => matchSegments(r, segs)) ? 'other-method' : undefined;
}
