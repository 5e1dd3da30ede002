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
  readonly regex: RegExp;
  /** True when the template ends in a custom verb (`:cancel`): such a route owns its paths for every method. */
  readonly verb: boolean;
  /** Request field paths bound to the regex's capture groups, in order (e.g. `workflow.name`). */
  readonly pathFields: readonly string[];
  /** `*`, a request field name, or '' (no body). */
  readonly body: string;
  /** True for an RPC of the gRPC API (Google's REST transport serves it); false for the REST-only methods. */
  readonly rpc: boolean;
}

/** A route matched by a request: the route and its path variables' values as sent (not percent-decoded). */
export interface RouteMatch {
  readonly route: Route;
  readonly values: readonly string[];
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

function compile(rule: HttpRuleRow, rpc: boolean): Route {
  const { regex, fields } = compileTemplate(rule.template);
  const verb = /:[A-Za-z]+$/.test(rule.template);
  return { name: rule.name, httpMethod: rule.method, regex, verb, pathFields: fields, body: rule.body, rpc };
}

/** Every route, custom verbs first (so `{name=.../workflows/*}` does not swallow `...:listRevisions`). */
const ALL: readonly Route[] = [
  ...RPC_HTTP_RULES.map((r) => compile(r, true)),
  ...REST_ONLY.map((r) => compile({ name: r.name, method: 'GET', template: r.get, body: '' }, false)),
].sort((a, b) => Number(b.verb) - Number(a.verb));

const BY_METHOD = new Map<string, Route[]>();
for (const r of ALL) BY_METHOD.set(r.httpMethod, [...(BY_METHOD.get(r.httpMethod) ?? []), r]);

/**
 * The route of `httpMethod` (upper case) and URL `path` (no query), with its path variables; `'other-method'`
 * when the path is served for other methods only, undefined when no route serves the path.
 */
export function matchRoute(httpMethod: string, path: string): RouteMatch | 'other-method' | undefined {
  for (const r of BY_METHOD.get(httpMethod) ?? []) {
    const m = r.regex.exec(path);
    if (m) {
      // A custom verb of another method owns the path (`GET .../executions/e:cancel` is not GetExecution).
      if (!r.verb && ownedByVerb(path)) return 'other-method';
      return { route: r, values: m.slice(1) };
    }
  }
  return ALL.some((r) => r.regex.test(path)) ? 'other-method' : undefined;
}

/** True when a route with a custom verb matches `path` (for any method). */
function ownedByVerb(path: string): boolean {
  if (!path.includes(':')) return false;
  for (const r of ALL) {
    if (!r.verb) break;
    if (r.regex.test(path)) return true;
  }
  return false;
}
