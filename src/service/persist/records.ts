/**
 * The saved form of the service core's state (docs/persistence.md#records): a workflow with its kept
 * revisions, and an execution with its step history, outbound calls, sys.log entries and recording, each as
 * one JSON object. The journal, the compacted snapshot and an export hold these objects. Workflow values
 * (call bodies, log payloads, recorded values) are kept as their JSON text (src/lang/json.ts), so ints stay
 * exact and `1.0` stays a double.
 */
import { jsonSafe, parseJson, toJson } from '../../lang/json.ts';
import type { Value } from '../../lang/value.ts';
import { WorkflowError } from '../../lang/errors.ts';
import type { LogEntry } from '../../stdlib/types.ts';
import { CallLog, type CallRecord } from '../../mocks/call-log.ts';
import type { StepType } from '../../engine/hooks.ts';
import type { Execution, Workflow } from '../model.ts';
import type { ExecutionRecord } from '../executions/execution-store.ts';
import type { HistoryLevel } from '../executions/prepare-execution.ts';
import type { CallLogLevel } from '../executions/call-log-observer.ts';
import { errorPayload } from '../executions/error-payload.ts';
import { settledHistory, type StepHistoryReader } from '../history/settled-history.ts';
import type { HistoryEntry, StepEntryState } from '../history/step-ring.ts';
import { Recording } from '../recording/recording.ts';
import { writeError } from '../../platform/std-streams.ts';
import type { Cancellation } from '../../platform/cancellation.ts';

/** A workflow as saved: its current resource, its kept revisions (oldest first) and its revision counter. */
export interface SavedWorkflow {
  readonly t: 'w';
  readonly id: string;
  readonly res: Workflow;
  /** Kept revisions, oldest first; in a journal record only the current one (`res`) is given. */
  readonly revs?: readonly Workflow[];
  /** Revisions made under this ID so far. */
  readonly n: number;
}

/** An execution as saved. */
export interface SavedExecution {
  readonly t: 'x';
  readonly w: string;
  readonly id: string;
  /** The state, and 1 when it has sys.log entries: first on the line, so start-up can leave the rest unread ({@link SNAPSHOT_PREFIX}). */
  readonly st?: Execution['state'];
  readonly lg?: 1;
  readonly res: Execution;
  /** startTime in milliseconds. */
  readonly s: number;
  readonly hl: HistoryLevel;
  readonly cl?: CallLogLevel;
  readonly p?: string;
  readonly d: number;
  /** Its step history: entries recorded, entries dropped, and the kept entries as arrays ({@link entryRow}). */
  readonly h?: { readonly n: number; readonly dr: number; readonly e: readonly unknown[][] };
  readonly calls?: readonly Record<string, unknown>[];
  readonly logs?: readonly { time: string; severity: string; payload: string; structured: boolean }[];
  readonly in?: SavedRecording;
}

/** A recording (src/service/recording/recording.ts) as saved. */
export interface SavedRecording {
  readonly times: readonly number[];
  readonly uuids: readonly string[];
  readonly env: readonly [string, string | null][];
  readonly created: readonly string[];
  readonly callbacks: readonly { method: string; headers: Record<string, string>; query: Record<string, string>; body: string | null }[];
  readonly truncated: boolean;
}

/** A value's JSON text; what JSON cannot hold (bytes, NaN) as {@link jsonSafe} shows it. */
export function valueText(v: Value): string {
  try {
    return toJson(v);
  } catch {
    return toJson(jsonSafe(v));
  }
}

/** An execution as saved, with its history, calls, logs and recording as they are now. */
export function saveExecution(ex: ExecutionRecord, logs: readonly LogEntry[]): SavedExecution {
  const out: { -readonly [K in keyof SavedExecution]?: SavedExecution[K] } = {
    t: 'x',
    w: ex.workflowId,
    id: ex.executionId,
    st: ex.resource.state,
    ...(logs.length ? { lg: 1 as const } : {}),
    res: ex.resource,
    s: ex.startMs,
    hl: ex.historyLevel,
    d: ex.depth,
  };
  if (ex.callLogLevel !== undefined) out.cl = ex.callLogLevel;
  if (ex.parent !== undefined) out.p = ex.parent;
  const history = ex.recording ?? ex.history;
  if (history && ex.resource.state !== 'ACTIVE') {
    out.h = { n: history.recorded, dr: history.droppedEntries, e: history.entries().map(entryRow) };
  }
  const calls = ex.calls?.records;
  if (calls?.length) out.calls = calls.map(saveCall);
  if (logs.length) out.logs = logs.map((l) => ({ time: l.time, severity: l.severity, payload: valueText(l.payload), structured: l.structured }));
  if (ex.inputs) out.in = saveRecording(ex.inputs);
  return out as SavedExecution;
}

/** One step entry as an array: id, parent, routine, step, type, line, col, thread, depth, state, times, siblings, progress, error, variables. */
function entryRow(e: HistoryEntry): unknown[] {
  return [
    e.id, e.parentId, e.routine, e.step, e.stepType, e.pos.line, e.pos.col, e.threadId, e.callDepth, e.state,
    e.createMs, e.updateMs, e.previous, e.next, e.progress ?? null, e.expectedIterations ?? null, e.branch ?? null,
    e.state === 'STATE_FAILED' || e.error !== undefined ? errorPayload(e.error) : null, e.variables ?? null,
  ];
}

/** A WorkflowError of a saved payload, made without capturing a stack (restoring many must be quick). */
function savedError(payload: string): WorkflowError {
  const e = Object.create(WorkflowError.prototype) as { value: Value; name: string; message: string };
  e.value = parseJson(payload);
  e.name = 'WorkflowError';
  e.message = '';
  return e as unknown as WorkflowError;
}

/** The step entry of a row written by {@link entryRow}. */
function entryOf(r: unknown[]): HistoryEntry {
  return {
    id: r[0] as number,
    parentId: r[1] as number,
    routine: r[2] as string,
    step: r[3] as string,
    stepType: r[4] as StepType,
    pos: { line: r[5] as number, col: r[6] as number },
    threadId: r[7] as string,
    callDepth: r[8] as number,
    state: r[9] as StepEntryState,
    createMs: r[10] as number,
    updateMs: r[11] as number,
    previous: r[12] as number,
    next: r[13] as number,
    progress: (r[14] as number | null) ?? undefined,
    expectedIterations: (r[15] as number | null) ?? undefined,
    branch: (r[16] as string | null) ?? undefined,
    error: r[17] === null ? undefined : savedError(r[17] as string),
    variables: (r[18] as string | null) ?? undefined,
  };
}

const CALL_VALUES = ['requestBody', 'args', 'response', 'error'] as const;

/** A call record as saved: its fields, with its values as JSON text. */
function saveCall(c: CallRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(c) as (keyof CallRecord)[]) {
    const v = c[k];
    if (v === undefined) continue;
    out[k] = (CALL_VALUES as readonly string[]).includes(k) ? valueText(v as Value) : v;
  }
  return out;
}

/** The call record of a saved one. */
function callOf(saved: Record<string, unknown>): CallRecord {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(saved)) out[k] = (CALL_VALUES as readonly string[]).includes(k) ? parseJson(saved[k] as string) : saved[k];
  return out as unknown as CallRecord;
}

/** A recording as saved. */
function saveRecording(r: Recording): SavedRecording {
  return {
    times: r.times,
    uuids: r.uuids,
    env: [...r.env],
    created: r.callbacksCreated.map(valueText),
    callbacks: r.callbacks.map((c) => ({ method: c.method, headers: c.headers, query: c.query, body: c.body === undefined ? null : valueText(c.body) })),
    truncated: r.truncated,
  };
}

/** The recording of a saved one. */
function recordingOf(s: SavedRecording): Recording {
  const r = new Recording();
  r.times.push(...s.times);
  r.uuids.push(...s.uuids);
  for (const [k, v] of s.env) r.env.set(k, v);
  for (const c of s.created) r.callbacksCreated.push(parseJson(c));
  for (const c of s.callbacks) r.callbacks.push({ method: c.method, headers: c.headers, query: c.query, body: c.body === null ? undefined : parseJson(c.body) });
  r.truncated = s.truncated;
  return r;
}

/** What an execution restored from its saved form holds besides its record: its sys.log entries. */
export interface RestoredExecution {
  readonly record: ExecutionRecord;
  readonly logs: readonly LogEntry[];
}

/**
 * The execution record of a saved execution (not running: `abort` is unset). Its history is kept as its
 * entries (settled-history.ts), its calls as a call log.
 */
export function restoreExecution(s: SavedExecution): RestoredExecution {
  let history: StepHistoryReader | undefined;
  if (s.h) history = settledHistory(s.h.e.map(entryOf), s.h.n, s.h.dr);
  let calls: CallLog | undefined;
  if (s.calls?.length) {
    calls = new CallLog();
    for (const c of s.calls) calls.add(callOf(c));
  }
  const record: ExecutionRecord = {
    workflowId: s.w,
    executionId: s.id,
    name: s.res.name,
    resource: Object.freeze(s.res),
    startMs: s.s,
    abort: undefined,
    historyLevel: s.hl,
    recording: undefined,
    history,
    callLogLevel: s.cl,
    calls,
    inputs: s.in ? recordingOf(s.in) : undefined,
    parent: s.p,
    depth: s.d,
    onEnd: undefined,
  };
  const logs = (s.logs ?? []).map((l) => ({ time: l.time, severity: l.severity, payload: parseJson(l.payload), structured: l.structured }));
  return { record, logs };
}

/**
 * The start of a saved execution's line: its workflow ID (as a JSON string), ID, state, and whether it has
 * sys.log entries. A finished execution without logs is restored from these alone ({@link lazyExecution}).
 */
export const SNAPSHOT_PREFIX = /^\{"t":"x","w":("(?:[^"\\]|\\.)*"),"id":"([^"\\]*)","st":"([A-Z]+)"(,"lg":1)?,/;

/** A saved execution left unread until it is asked for: its IDs, state and line. */
export interface LazySavedExecution {
  readonly t: 'x';
  readonly lazy: string;
  readonly w: string;
  readonly id: string;
  readonly st: Execution['state'];
}

/** A line of a snapshot as a {@link LazySavedExecution}, when it is a finished execution without logs. */
export function lazySaved(line: string): LazySavedExecution | undefined {
  const m = SNAPSHOT_PREFIX.exec(line);
  if (!m || m[4] !== undefined || m[3] === 'ACTIVE') return undefined;
  return { t: 'x', lazy: line, w: JSON.parse(m[1]!) as string, id: m[2]!, st: m[3] as Execution['state'] };
}

/**
 * An execution record that reads its saved line only when a field other than its IDs is first used (a
 * restart with 100,000 finished executions must not parse them all: docs/persistence.md#limits).
 */
class LazyExecution implements ExecutionRecord {
  readonly workflowId: string;
  readonly executionId: string;
  readonly name: string;
  abort: Cancellation | undefined = undefined;
  onEnd: (() => void)[] | undefined = undefined;
  #line: string | undefined;
  #full: ExecutionRecord | undefined;

  constructor(saved: LazySavedExecution, parent: string) {
    this.workflowId = saved.w;
    this.executionId = saved.id;
    this.name = `${parent}/workflows/${saved.w}/executions/${saved.id}`;
    this.#line = saved.lazy;
    this.#state = saved.st;
  }

  readonly #state: Execution['state'];

  get #record(): ExecutionRecord {
    if (this.#full === undefined) {
      try {
        this.#full = restoreExecution(JSON.parse(this.#line!) as SavedExecution).record;
      } catch (e) {
        this.#full = unreadable(this.name, this.workflowId, this.executionId, this.#state, e);
      }
      this.#line = undefined;
    }
    return this.#full;
  }

  get resource(): Execution { return this.#record.resource; }
  set resource(v: Execution) { this.#record.resource = v; }
  get startMs(): number { return this.#record.startMs; }
  get historyLevel(): HistoryLevel { return this.#record.historyLevel; }
  get recording(): ExecutionRecord['recording'] { return this.#record.recording; }
  set recording(v: ExecutionRecord['recording']) { this.#record.recording = v; }
  get history(): StepHistoryReader | undefined { return this.#record.history; }
  set history(v: StepHistoryReader | undefined) { this.#record.history = v; }
  get callLogLevel(): CallLogLevel | undefined { return this.#record.callLogLevel; }
  get calls(): CallLog | undefined { return this.#record.calls; }
  set calls(v: CallLog | undefined) { this.#record.calls = v; }
  get inputs(): Recording | undefined { return this.#record.inputs; }
  set inputs(v: Recording | undefined) { this.#record.inputs = v; }
  get parent(): string | undefined { return this.#record.parent; }
  get depth(): number { return this.#record.depth; }
}

/** The record of a lazily saved execution (see {@link LazyExecution}); `parent` is the prefix of its name. */
export function lazyExecution(saved: LazySavedExecution, parent: string): ExecutionRecord {
  return new LazyExecution(saved, parent);
}

/**
 * What stands for an execution whose saved line turns out damaged when it is first read: its name and state,
 * and an error saying so (reported once on stderr), so that listing executions goes on.
 */
function unreadable(name: string, workflowId: string, executionId: string, state: Execution['state'], e: unknown): ExecutionRecord {
  const why = `its saved record in the data directory cannot be read (${(e as Error).message}; docs/persistence.md#limits)`;
  writeError(`workflows-emulator: execution ${name}: ${why}\n`);
  const error = { payload: JSON.stringify({ message: why, code: 0, tags: ['SystemError'] }), context: '' };
  const resource = Object.freeze({ name, state, error, startTime: '1970-01-01T00:00:00Z', createTime: '1970-01-01T00:00:00Z', workflowRevisionId: '' }) as Execution;
  return { workflowId, executionId, name, resource, startMs: 0, abort: undefined, historyLevel: 'none', recording: undefined, history: undefined, callLogLevel: undefined, parent: undefined, depth: 0, onEnd: undefined };
}
