/**
 * The call interceptor of mocks (docs/mocks-and-clock.md#mocks; the seam is src/engine/hooks.ts): around every http.* and
 * connector call of one execution it records the call (the step that made it, args or request, response or
 * error, mocked or not) and answers connector calls from the mock set. http calls are answered underneath,
 * by the execution's fetch (mock-fetch.ts), so they go through http.*'s own request and response code.
 *
 * A connector call is answered, in order, by: the first matching connector mock; else a connector the
 * emulator implements itself (the Workflow Executions connector runs child workflows, passed in as
 * `connectors`); else `proceed()`, which raises the "not emulated" SystemError saying how to mock it.
 */
import type { CallInterceptor, OutboundCall } from '../engine/hooks.ts';
import { WorkflowError } from '../lang/errors.ts';
import type { Value } from '../lang/value.ts';
import type { Clock } from '../stdlib/types.ts';
import { CallLog, type CallRecord, type RecordedBytes } from './call-log.ts';
import type { MockSet } from './mock-file.ts';
import { encodedOutcome, mockedRequest, mockFetch } from './mock-fetch.ts';
import { prepareRequest, responseValue, timeoutError } from '../stdlib/http.ts';
import { MockSession } from './mock-session.ts';
import type { CancelSignal } from '../platform/cancellation.ts';

/** A connector the emulator runs itself: the call's args in, its result out (or a WorkflowError). */
export type ConnectorImpl = (call: OutboundCall) => Value | Promise<Value>;

/** What one execution gets from {@link mockExecution}. */
export interface MockedExecution {
  /** The execution's fetch (ExecutionDeps.fetch). */
  readonly fetch: typeof fetch;
  /** The execution's interceptor (ExecutionDeps.hooks.interceptor). */
  readonly interceptor: CallInterceptor;
  /** Its outbound calls, filled as they happen. */
  readonly calls: CallLog;
}

/** Options of {@link mockExecution}. */
export interface MockExecutionOptions {
  readonly realFetch: typeof fetch;
  readonly clock: Clock;
  /**
   * Connectors the emulator implements, by dotted name (mocks still win over them); asked for on the first
   * connector call, so an execution that makes none builds nothing.
   */
  readonly connectors?: () => ReadonlyMap<string, ConnectorImpl>;
  /** The service's budget of recorded bytes (docs/limits.md "Call records"); default one of its own. */
  readonly recordedBytes?: RecordedBytes;
}

/**
 * Sets up mocks and call recording for one execution: a fresh {@link MockSession} over `mocks` (sequences
 * start again for each execution), the fetch that serves its http mocks and the interceptor that records
 * calls and serves its connector mocks.
 */
export function mockExecution(mocks: MockSet, options: MockExecutionOptions): MockedExecution {
  const session = new MockSession(mocks);
  const calls = new CallLog(options.recordedBytes);
  const fetch = mockFetch(session, { realFetch: options.realFetch, clock: options.clock, log: calls });
  return { fetch, interceptor: new MockInterceptor(mocks, session, calls, options), calls };
}

/** The call interceptor of one execution: records every non-stdlib call and answers those a mock matches. */
class MockInterceptor implements CallInterceptor {
  readonly #clock: Clock;
  #connectors: ReadonlyMap<string, ConnectorImpl> | undefined;

  constructor(
    private readonly mocks: MockSet,
    private readonly session: MockSession,
    private readonly calls: CallLog,
    private readonly options: MockExecutionOptions,
  ) {
    this.#clock = options.clock;
  }

  intercept(call: OutboundCall, proceed: () => Value | Promise<Value>): Value | Promise<Value> {
    if (call.kind === 'stdlib') return proceed();
    const rec = this.calls.add({
      kind: call.kind,
      name: call.name,
      routine: call.routine,
      step: call.step,
      threadId: call.threadId,
      mocked: false,
      startMs: this.#clock.now(),
    });
    let r: Value | Promise<Value>;
    try {
      r = call.kind === 'http' ? this.#http(call, rec, proceed) : this.#connector(call, rec, proceed);
    } catch (e) {
      this.#failed(rec, e, call.signal);
      throw e;
    }
    return this.#settle(rec, r, call.signal);
  }

  /** An http.* call: a mock's answer, else the fetch underneath (which fills in the record). */
  #http(call: OutboundCall, rec: CallRecord, proceed: () => Value | Promise<Value>): Value | Promise<Value> {
    const answered = this.mocks.http.length > 0 ? this.#answerHttp(call, rec) : undefined;
    if (answered !== undefined) return answered;
    // The fetch underneath runs synchronously inside proceed() and fills in this record.
    this.calls.current = rec;
    try {
      return proceed();
    } finally {
      this.calls.current = undefined;
    }
  }

  /** A connector call: a mock's answer, else the execution's own connector (child workflows), else the call itself. */
  #connector(call: OutboundCall, rec: CallRecord, proceed: () => Value | Promise<Value>): Value | Promise<Value> {
    rec.args = call.args;
    const hit = this.session.connector(call.name, call.args, call);
    this.#connectors ??= this.options.connectors?.();
    const own = this.#connectors?.get(call.name);
    if (!hit) return own ? own(call) : proceed();
    rec.mocked = true;
    rec.mock = hit.mock.where;
    const outcome = hit.outcome;
    const answer = (): Value => {
      if (outcome.kind === 'raise') throw new WorkflowError(clone(outcome.error));
      return clone(outcome.value);
    };
    return hit.mock.delayMs > 0 ? this.#clock.sleep(hit.mock.delayMs, call.signal).then(answer) : answer();
  }

  #settle(rec: CallRecord, r: Value | Promise<Value>, signal: CancelSignal): Value | Promise<Value> {
    if (r instanceof Promise) {
      return r.then(
        (v) => {
          rec.response = v;
          rec.endMs = this.#clock.now();
          this.calls.seal(rec);
          return v;
        },
        (e: unknown) => {
          this.#failed(rec, e, signal);
          throw e;
        },
      );
    }
    rec.response = r;
    rec.endMs = this.#clock.now();
    this.calls.seal(rec);
    return r;
  }

  #failed(rec: CallRecord, e: unknown, signal: CancelSignal): void {
    rec.error = signal.aborted ? 'cancelled' : WorkflowError.from(e).value;
    rec.endMs = this.#clock.now();
    this.calls.seal(rec);
  }

  /**
   * Answers an http.* call from the mocks without a fetch: the request encoded and the response decoded by
   * http.*'s own code (prepareRequest, responseValue), so the workflow sees exactly what a real call gives.
   * Undefined when no mock matches (the call then goes through the fetch: passthrough or the unmatched error).
   */
  #answerHttp(call: OutboundCall, rec: CallRecord): Value | Promise<Value> | undefined {
    const clock = this.#clock;
    const a = call.args;
    const fnName = call.name;
    const method = fnName === 'http.request' ? a.get('method') : fnName.slice('http.'.length).toUpperCase();
    const p = prepareRequest(fnName, {
      url: a.get('url'),
      method,
      headers: a.get('headers'),
      body: a.get('body'),
      query: a.get('query'),
      timeout: a.get('timeout'),
    });
    const req = { ...mockedRequest(p.method, p.url, p.headers, p.body), step: call.step, routine: call.routine };
    const hit = this.session.http(req);
    if (!hit) return undefined;
    rec.method = req.method;
    rec.url = req.url;
    if (req.body !== undefined) rec.requestBody = req.body;
    rec.mocked = true;
    rec.mock = hit.mock.where;
    const outcome = hit.outcome;
    const answer = (): Value => {
      if (outcome.kind === 'raise') throw new WorkflowError(clone(outcome.error));
      const enc = encodedOutcome(outcome, req);
      return responseValue(outcome.status, enc.headers, enc.bytes ?? EMPTY);
    };
    const delayMs = hit.mock.delayMs;
    if (delayMs <= 0) return answer();
    // A delay past the request's timeout ends as a real request would: TimeoutError at the timeout.
    if (delayMs >= p.timeoutMs) {
      return clock.sleep(p.timeoutMs, call.signal).then(() => {
        throw timeoutError(fnName, p.method, p.url, p.timeoutMs);
      });
    }
    return clock.sleep(delayMs, call.signal).then(answer);
  }
}

const EMPTY = new Uint8Array(0);

/** A deep copy, so a workflow changing a mocked value never changes the mock. */
function clone(v: Value): Value {
  if (Array.isArray(v)) return v.map(clone);
  if (v instanceof Map) {
    const m = new Map<string, Value>();
    for (const [k, e] of v) m.set(k, clone(e));
    return m;
  }
  return v;
}
