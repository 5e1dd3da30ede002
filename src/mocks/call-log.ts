/**
 * The record of one execution's outbound calls (docs/mocks-and-clock.md#recorded-calls):
 * kind, the http method and URL or the connector's name, the args or request body, the response or error,
 * whether a mock answered, and the step that made the call. Read over the control API
 * (`GET /emulator/v1/{execution name}/calls`), the JS API and the web UI's execution page.
 */
import type { Value, WMap } from '../lang/value.ts';
import { jsonSafe } from '../lang/json.ts';

/** Records kept per execution; older ones are dropped first (a loop of a million mocked calls stays small). */
const MAX_CALL_RECORDS = 10_000;

/** One outbound call. Filled in as the call goes: the request first, then the outcome. */
export interface CallRecord {
  readonly kind: 'http' | 'connector';
  /** The function called: `http.get`, `googleapis.bigquery.v2.jobs.query`. */
  name: string;
  /** Where the call was made (absent when the engine did not say). */
  routine?: string;
  step?: string;
  /** The parallel thread ('' for the main thread). */
  threadId?: string;
  /** http: upper-case method and the full URL sent. */
  method?: string;
  url?: string;
  /** http: the request body as the service received it (decoded like a response body). */
  requestBody?: Value;
  /** connector: the call's args by name. */
  args?: Value;
  /** http: the response map `{code, headers, body}`; connector: the result. */
  response?: Value;
  /** The error map the workflow saw. */
  error?: Value;
  /** True when a mock answered; false when the call went out for real (or, for a connector, was not mocked). */
  mocked: boolean;
  /** Where the mock that answered is written (`mocks.yaml:3:5`). */
  mock?: string;
  /** Start and end, ms since the epoch on the execution's clock (virtual time under `--clock virtual`). */
  startMs: number;
  endMs?: number;
}

/**
 * The calls of one execution, oldest first (at most {@link MAX_CALL_RECORDS}). `current` is the record of
 * the call whose implementation is running synchronously right now: the interceptor sets it around
 * `proceed()` so the fetch underneath adds method, URL and body to the same record.
 */
export class CallLog {
  private all: CallRecord[] = [];
  current: CallRecord | undefined;

  /** The records kept, oldest first (the last {@link MAX_CALL_RECORDS}). */
  get records(): readonly CallRecord[] {
    return this.all.length > MAX_CALL_RECORDS ? this.all.slice(-MAX_CALL_RECORDS) : this.all;
  }

  add(record: CallRecord): CallRecord {
    // Trimmed in chunks, so a long loop of calls costs O(1) per call.
    if (this.all.length >= 2 * MAX_CALL_RECORDS) this.all = this.all.slice(-MAX_CALL_RECORDS);
    this.all.push(record);
    return record;
  }
}

/**
 * A record as a workflow map for JSON output (exact ints): `{kind, name, routine, step, threadId, method,
 * url, requestBody, args, response, error, mocked, mock, startTime, endTime}`, absent fields left out, bytes
 * as base64 text, times RFC 3339.
 */
export function callRecordValue(r: CallRecord): WMap {
  const m: WMap = new Map();
  m.set('kind', r.kind);
  m.set('name', r.name);
  const opt = (k: string, v: Value | undefined): void => {
    if (v !== undefined) m.set(k, jsonSafe(v));
  };
  opt('routine', r.routine);
  opt('step', r.step);
  opt('threadId', r.threadId);
  opt('method', r.method);
  opt('url', r.url);
  opt('requestBody', r.requestBody);
  opt('args', r.args);
  opt('response', r.response);
  opt('error', r.error);
  m.set('mocked', r.mocked);
  opt('mock', r.mock);
  m.set('startTime', new Date(r.startMs).toISOString());
  if (r.endMs !== undefined) m.set('endTime', new Date(r.endMs).toISOString());
  return m;
}
