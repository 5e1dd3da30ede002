/**
 * The record of one execution's outbound calls (docs/mocks-and-clock.md#recorded-calls):
 * kind, the http method and URL or the connector's name, the args or request body, the response or error,
 * whether a mock answered, and the step that made the call. Read over the control API
 * (`GET /emulator/v1/{execution name}/calls`), the JS API and the web UI's execution page.
 */
import { sizeOf, type Value, type WMap } from '../lang/value.ts';
import { jsonSafe } from '../lang/json.ts';

/** Records kept per execution; older ones are dropped first (a loop of a million mocked calls stays small). */
const MAX_CALL_RECORDS = 10_000;
/** Largest request body, args, response or error kept whole in a record, bytes as `sizeOf` counts (64 KB). */
export const MAX_RECORDED_VALUE_BYTES = 64 * 1024;
/** Bytes of values one execution's records keep whole (4 MB); later values are truncated. */
export const MAX_RECORDED_BYTES_PER_EXECUTION = 4 * 1024 * 1024;
/** Bytes of values all executions' records keep whole (64 MB); later values are truncated. */
export const MAX_RECORDED_BYTES_TOTAL = 64 * 1024 * 1024;

/**
 * The bytes of call records kept across executions (docs/limits.md "Call records"): one per service, shared
 * by its executions' {@link CallLog}s; a log gives its bytes back when its execution is forgotten.
 */
export class RecordedBytes {
  /** Bytes kept now. */
  used = 0;
  constructor(readonly maxBytes: number = MAX_RECORDED_BYTES_TOTAL) {}
}

/** The text that stands for a value too large to keep in a record: its size and the limit's page. */
export function truncatedMarker(bytes: number): string {
  return `[truncated by the emulator: ${bytes} bytes; docs/limits.md "Call records"]`;
}

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
  /** Values replaced by a {@link truncatedMarker} in this record (absent when none). */
  truncated?: number;
  /** @internal Bytes this record keeps, once sealed ({@link CallLog.seal}). */
  keptBytes?: number;
}

/**
 * The calls of one execution, oldest first (at most {@link MAX_CALL_RECORDS}). `current` is the record of
 * the call whose implementation is running synchronously right now: the interceptor sets it around
 * `proceed()` so the fetch underneath adds method, URL and body to the same record.
 */
export class CallLog {
  private all: CallRecord[] = [];
  current: CallRecord | undefined;
  /** Bytes the sealed records keep (the records dropped for the count limit no longer count). */
  private bytes = 0;
  /** Values truncated in this execution's records, kept or dropped since. */
  truncatedValues = 0;

  constructor(private readonly budget: RecordedBytes = new RecordedBytes()) {}

  /** The records kept, oldest first (the last {@link MAX_CALL_RECORDS}). */
  get records(): readonly CallRecord[] {
    return this.all.length > MAX_CALL_RECORDS ? this.all.slice(-MAX_CALL_RECORDS) : this.all;
  }

  add(record: CallRecord): CallRecord {
    // Trimmed in chunks, so a long loop of calls costs O(1) per call.
    if (this.all.length >= 2 * MAX_CALL_RECORDS) {
      const gone = this.all.length - MAX_CALL_RECORDS;
      for (let i = 0; i < gone; i++) this.give(this.all[i]!.keptBytes ?? 0);
      this.all = this.all.slice(-MAX_CALL_RECORDS);
    }
    this.all.push(record);
    return record;
  }

  /**
   * Called once a call has ended: each of the record's values (request body, args, response body, error) is
   * kept whole when it is within {@link MAX_RECORDED_VALUE_BYTES} and the execution's and the service's byte
   * limits allow, else replaced by a {@link truncatedMarker} (a response keeps its code and headers).
   */
  seal(r: CallRecord): void {
    if (r.keptBytes !== undefined) return;
    let kept = (r.url?.length ?? 0) + 64;
    const keep = (v: Value): Value => {
      const bytes = sizeOf(v);
      const room = Math.min(MAX_RECORDED_BYTES_PER_EXECUTION - this.bytes, this.budget.maxBytes - this.budget.used) - kept;
      if (bytes <= MAX_RECORDED_VALUE_BYTES && bytes <= room) {
        kept += bytes;
        return v;
      }
      r.truncated = (r.truncated ?? 0) + 1;
      this.truncatedValues++;
      return truncatedMarker(bytes);
    };
    if (r.requestBody !== undefined) r.requestBody = keep(r.requestBody);
    if (r.args !== undefined) r.args = keep(r.args);
    // An http response or HttpError keeps its code, headers and message; only its body may be truncated.
    const keepBody = (v: Value): Value => {
      if (!(v instanceof Map) || !v.has('body')) return keep(v);
      const body = keep(v.get('body')!);
      return body === v.get('body') ? v : new Map(v).set('body', body);
    };
    if (r.error !== undefined) r.error = keepBody(r.error);
    if (r.response !== undefined) r.response = r.kind === 'http' ? keepBody(r.response) : keep(r.response);
    r.keptBytes = kept;
    this.bytes += kept;
    this.budget.used += kept;
  }

  /** Gives every byte back to the service's budget (the execution is forgotten). */
  release(): void {
    this.give(this.bytes);
  }

  private give(bytes: number): void {
    this.bytes -= bytes;
    this.budget.used -= bytes;
  }
}

/**
 * A record as a workflow map for JSON output (exact ints): `{kind, name, routine, step, threadId, method,
 * url, requestBody, args, response, error, mocked, mock, truncated, startTime, endTime}`, absent fields left out, bytes
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
  if (r.truncated !== undefined) m.set('truncated', BigInt(r.truncated));
  m.set('startTime', new Date(r.startMs).toISOString());
  if (r.endMs !== undefined) m.set('endTime', new Date(r.endMs).toISOString());
  return m;
}
