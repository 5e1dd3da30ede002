/**
 * The product's callback hub (src/service/callbacks/callback-registry.ts, CallbackRegistry) for tests that run the engine in
 * process: one execution's hub, and the two things the REST endpoint `/callbacks/{id}` does with it — list the
 * callbacks and deliver a request — without a port.
 */
import { toJson } from '../../src/lang/json.ts';
import type { Value } from '../../src/lang/value.ts';
import { CallbackRegistry, type DeliveryResult } from '../../src/service/callbacks/callback-registry.ts';
import type { CallbackHub, Clock } from '../../src/stdlib/types.ts';

/** A request as a test writes it: a body that is a string is sent as text, any other value as JSON. */
export interface TestCallbackRequest {
  readonly method: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: Value;
}

/** One execution's callbacks in a real registry. */
export interface TestCallbacks {
  readonly registry: CallbackRegistry;
  /** The hub handed to the engine (`ExecutionDeps.callbacks`). */
  readonly hub: CallbackHub;
  /** The callbacks created so far, oldest first, with the ID their URL ends in. */
  list(): { id: string; method: string; url: string }[];
  /** Delivers a request to callback `id` as the REST endpoint does; the registry's answer (200, 404, 405, ...). */
  deliver(id: string, request: TestCallbackRequest): DeliveryResult;
}

/** The execution every test hub belongs to. */
const EXECUTION = 'projects/my-project/locations/us-central1/workflows/wf/executions/exec-1';

/** A registry on `clock` with callback URLs under `baseUrl`, and the hub of one always-active execution. */
export function testCallbacks(clock: Clock, baseUrl = 'http://localhost:8787'): TestCallbacks {
  const registry = new CallbackRegistry(baseUrl, clock);
  const hub = registry.hubFor({ executionName: EXECUTION, isActive: () => true });
  return {
    registry,
    hub,
    list: () => registry.list(EXECUTION).map((c) => ({ id: c.url.slice(c.url.lastIndexOf('/') + 1), method: c.method, url: c.url })),
    deliver(id, request) {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(request.headers ?? {})) headers[k.toLowerCase()] = v;
      let body = new Uint8Array();
      if (request.body !== undefined && request.body !== null) {
        const json = typeof request.body !== 'string';
        headers['content-type'] ??= json ? 'application/json' : 'text/plain';
        body = new TextEncoder().encode(json ? toJson(request.body) : (request.body as string));
      }
      return registry.deliver(id, { method: request.method.toUpperCase(), headers, query: request.query ?? {}, body });
    },
  };
}
