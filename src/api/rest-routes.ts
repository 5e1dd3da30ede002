/**
 * The one route table of the REST port's management API, built from the `google.api.http` rules of the
 * published protos (https://cloud.google.com/endpoints/docs/grpc-service-config/reference/rpc/google.api#httprule):
 * every RPC of grpc-services.ts at its HTTP method and path template, plus the REST-only methods of Google's
 * REST reference that the vendored protos lack (step entries, callbacks). Both transports of the REST port
 * match here: Google's REST transport (rest-google.ts) and plain REST (rest-plain.ts), so a URL cannot mean
 * one thing to one and another thing to the other.
 */
import { getOption, type DescMethod } from '@bufbuild/protobuf';
import { http as httpOption } from '../../gen/google/api/annotations_pb.ts';
import type { ServiceCore } from '../service/model.ts';
import { allRpcs } from './grpc-services.ts';

/** A compiled HTTP binding of one method. */
export interface Route {
  /** The method's name: the RPC's (`GetExecution`), or a REST-only method's (`ListStepEntries`). */
  readonly name: string;
  readonly httpMethod: string;
  readonly regex: RegExp;
  /** True when the template ends in a custom verb (`:cancel`): such a route owns its paths for every method. */
  readonly verb: boolean;
  /** Request field paths bound to the regex's capture groups, in order (e.g. `workflow.name`). */
  readonly pathFields: readonly string[];
  /** `*`, a request field name, or '' (no body). */
  readonly body: string;
  /** The RPC, for Google's REST transport; absent for the REST-only methods. */
  readonly rpc?: { readonly method: DescMethod; readonly call: (request: never) => Promise<unknown> };
}

/** A route matched by a request: the route and its path variables' values as sent (not percent-decoded). */
export interface RouteMatch {
  readonly route: Route;
  readonly values: readonly string[];
}

/**
 * google.longrunning.Operations' own annotation is `/v1/{name=operations/**}`; Workflows serves operations
 * under locations (https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.operations/get),
 * as its client libraries are configured to call. (WaitOperation has no HTTP rule: gRPC only.)
 */
const OPERATION_PATHS: Readonly<Record<string, string>> = {
  GetOperation: '/v1/{name=projects/*/locations/*/operations/*}',
};

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
 * A path template (`/v1/{parent=projects/*\/locations/*}/workflows`, with `*` one segment, `**` any, and
 * `{field}` alone one segment) as an anchored regex with one capture group per variable.
 */
export function compileTemplate(template: string): { regex: RegExp; fields: string[] } {
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

function route(name: string, httpMethod: string, template: string, body: string, rpc?: Route['rpc']): Route {
  const { regex, fields } = compileTemplate(template);
  const verb = /:[A-Za-z]+$/.test(template);
  return { name, httpMethod: httpMethod.toUpperCase(), regex, verb, pathFields: fields, body, ...(rpc ? { rpc } : {}) };
}

/** Every route over `core`, custom verbs first (so `{name=.../workflows/*}` does not swallow `...:listRevisions`). */
function compileRoutes(core: ServiceCore): Route[] {
  const routes: Route[] = [];
  for (const { service, rpcs } of allRpcs(core)) {
    for (const method of service.methods) {
      const call = (rpcs as Record<string, ((request: never) => Promise<unknown>) | undefined>)[method.localName];
      if (!call) continue;
      const rule = getOption(method, httpOption);
      const template = OPERATION_PATHS[method.name] ?? (rule.pattern.case === 'custom' ? rule.pattern.value.path : rule.pattern.value);
      const httpMethod = rule.pattern.case === 'custom' ? rule.pattern.value.kind : rule.pattern.case;
      if (!template || !httpMethod) continue;
      routes.push(route(method.name, httpMethod, template, rule.body, { method, call }));
    }
  }
  for (const r of REST_ONLY) routes.push(route(r.name, 'GET', r.get, ''));
  return routes.sort((a, b) => Number(b.verb) - Number(a.verb));
}

/** The routes of one service core: all of them, and by HTTP method. */
interface RouteTable {
  readonly all: readonly Route[];
  readonly byMethod: ReadonlyMap<string, readonly Route[]>;
}

const tables = new WeakMap<ServiceCore, RouteTable>();

function tableOf(core: ServiceCore): RouteTable {
  let table = tables.get(core);
  if (!table) {
    const all = compileRoutes(core);
    const byMethod = new Map<string, Route[]>();
    for (const r of all) byMethod.set(r.httpMethod, [...(byMethod.get(r.httpMethod) ?? []), r]);
    tables.set(core, (table = { all, byMethod }));
  }
  return table;
}

/**
 * The route of `httpMethod` (upper case) and URL `path` (no query) over `core`, with its path variables;
 * `'other-method'` when the path is served for other methods only, undefined when no route serves the path.
 */
export function matchRoute(core: ServiceCore, httpMethod: string, path: string): RouteMatch | 'other-method' | undefined {
  const table = tableOf(core);
  for (const r of table.byMethod.get(httpMethod) ?? []) {
    const m = r.regex.exec(path);
    if (m) {
      // A custom verb of another method owns the path (`GET .../executions/e:cancel` is not GetExecution).
      if (!r.verb && ownedByVerb(table, path)) return 'other-method';
      return { route: r, values: m.slice(1) };
    }
  }
  return table.all.some((r) => r.regex.test(path)) ? 'other-method' : undefined;
}

/** True when a route with a custom verb matches `path` (for any method). */
function ownedByVerb(table: RouteTable, path: string): boolean {
  if (!path.includes(':')) return false;
  for (const r of table.all) {
    if (!r.verb) break;
    if (r.regex.test(path)) return true;
  }
  return false;
}
