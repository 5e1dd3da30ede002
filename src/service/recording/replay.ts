/**
 * Replay and redrive (docs/recording.md "Replay and redrive"): a new execution run from an ended one's
 * recording. It gets the same argument, its calls are answered from the recorded calls (the mocks a test case
 * would get, src/service/recording/test-case.ts), and it sees the same times, UUIDs and callback URLs. The recorded
 * callback requests are delivered to it in order as it awaits callbacks.
 *
 * - A replay runs the source's revision with no outbound network: a call the recording does not hold fails,
 *   naming the nearest recorded call.
 * - A redrive (`revision: latest`) runs the current revision: calls the recording holds are answered from it,
 *   and any other call goes out for real. With `strict`, such a call fails instead.
 */
import { toJson } from '../../lang/json.ts';
import type { Value } from '../../lang/value.ts';
import { NO_MOCKS, overlayMocks, parseMocks, type MockSet } from '../../mocks/mock-file.ts';
import { unmatchedFails } from '../../mocks/mock-set.ts';
import type { CallbackHub } from '../../stdlib/types.ts';
import { ApiError } from '../errors.ts';
import type { CallbackRequest, RecordedExecution } from '../model.ts';
import type { PlaybackValues, RecordedCallback } from './recording.ts';
import { mocksOf } from './test-case.ts';
import { parseTestFile, TestFileError, type TestCase, type TestFile } from './test-file.ts';

/** How to replay: the source's revision (default), or the current one (a redrive), strictly or not. */
export interface ReplayOptions {
  /** True: run the workflow's current revision (`{"revision": "latest"}`). */
  readonly latest: boolean;
  /** True: a call the recording does not hold fails instead of going out (`{"strict": true}`). */
  readonly strict: boolean;
}

/** What a replayed execution starts with instead of the server's mocks, clock readings and random values. */
export interface ReplayPlan {
  /** The source execution's resource name. */
  readonly source: string;
  readonly mocks: MockSet;
  readonly playback: PlaybackValues;
  readonly callbacks: readonly RecordedCallback[];
}

/**
 * The plan of a replay of `rec` (an ended execution's recording), the workflow being at `currentRevision`.
 * @throws ApiError NOT_FOUND when the recording is gone or incomplete, FAILED_PRECONDITION for an execution
 *   still ACTIVE or, without `latest`, when the workflow is now at another revision.
 */
export function replayPlan(rec: RecordedExecution, o: ReplayOptions, currentRevision: string): ReplayPlan {
  const { name, workflowRevisionId } = rec.execution;
  if (rec.execution.state === 'ACTIVE') throw new ApiError('FAILED_PRECONDITION', `execution "${name}" is still ACTIVE: only an ended execution can be replayed`);
  if (!o.latest && currentRevision !== workflowRevisionId) {
    throw new ApiError('FAILED_PRECONDITION', `execution "${name}" ran revision ${workflowRevisionId}; the workflow is now at ${currentRevision}: replay with {"revision": "latest"} (a redrive)`);
  }
  const inputs = rec.inputs;
  if (!inputs) throw ApiError.notFound(`the recording of execution "${name}" is gone: it never started`);
  if (inputs.truncated) throw ApiError.notFound(`the recording of execution "${name}" is incomplete: it read more values than a recording keeps (10,000 of each kind)`);
  const mocks = mocksOf(rec.calls);
  if (o.latest && !o.strict) mocks.set('unmatched', new Map([['http', 'passthrough']]));
  const urls = inputs.callbacksCreated.flatMap((c) => {
    const url = c instanceof Map ? c.get('url') : undefined;
    return typeof url === 'string' ? [url] : [];
  });
  return {
    source: name,
    mocks: parseMocks(toJson(mocks), `recording of ${name}`),
    playback: { times: inputs.times.slice(), uuids: inputs.uuids.slice(), callbacks: urls },
    callbacks: inputs.callbacks.slice(),
  };
}

/** What the request body is called in the messages of a saved case's replay (`test file:4:7: ...`). */
const SENT_FILE = 'test file';

/**
 * The plan of a replay of a saved case (docs/recording.md#replaying-a-saved-case): `text` is a test file as
 * "Save as test…", `:testCase` or `run --record` write it, read as the `test` command reads it, and
 * `caseName` picks its case (needed when it has more than one). The execution gets the case's argument, its
 * mocks (the file's inline ones with the case's laid over them; an unmatched http.* call fails unless they say
 * `unmatched: {http: passthrough}`), its playback values and its callback requests, delivered in order.
 * @throws ApiError INVALID_ARGUMENT with `test file:line:col: problem` for a malformed file, or naming the
 *   problem for a case that is not there, a case that calls a routine, or mocks in a file the server cannot read.
 */
export function savedCasePlan(text: string, caseName: string | undefined): { plan: ReplayPlan; argument: Value | undefined } {
  let file: TestFile;
  try {
    file = parseTestFile(SENT_FILE, text);
  } catch (e) {
    if (e instanceof TestFileError) throw ApiError.invalidArgument(`invalid test file: ${e.message}`);
    throw e;
  }
  const c = pickCase(file.cases, caseName);
  if (c.routine) throw ApiError.invalidArgument(`case ${JSON.stringify(c.name)} calls routine '${c.routine.value}': only a case through main replays as an execution (run it with workflows-emulator test)`);
  if (file.mocks && 'value' in file.mocks) {
    throw ApiError.invalidArgument(`${SENT_FILE}:${file.mocks.pos.line}:${file.mocks.pos.col}: the file names a mock file (${file.mocks.value}) the server does not read: put the mocks inline`);
  }
  const base = file.mocks ?? NO_MOCKS;
  const callbacks: RecordedCallback[] = c.callbacks.map((d) => ({ method: d.method ?? 'POST', headers: { ...d.headers }, query: { ...d.query }, body: d.body }));
  return {
    plan: {
      source: `${SENT_FILE} case ${JSON.stringify(c.name)}`,
      mocks: unmatchedFails(c.mocks ? overlayMocks(base, c.mocks) : base),
      playback: c.playback ?? { times: [], uuids: [], callbacks: [] },
      callbacks,
    },
    argument: c.argument,
  };
}

/** The case named `name`, or the only one. @throws ApiError INVALID_ARGUMENT naming the cases there are. */
function pickCase(cases: readonly TestCase[], name: string | undefined): TestCase {
  const names = cases.map((c) => JSON.stringify(c.name)).join(', ');
  if (name === undefined) {
    if (cases.length === 1) return cases[0]!;
    throw ApiError.invalidArgument(`the test file has ${cases.length} cases: name one with ?case=NAME (${names})`);
  }
  const c = cases.find((x) => x.name === name);
  if (!c) throw ApiError.invalidArgument(`the test file has no case ${JSON.stringify(name)} (its cases: ${names})`);
  return c;
}

/**
 * The callback hub of a replayed execution: each time it awaits a callback, the next recorded request is
 * delivered to that callback first (through `deliver`, as if a client had sent it).
 */
export function replayingHub(hub: CallbackHub, recorded: readonly RecordedCallback[], deliver: (callbackId: string, request: CallbackRequest) => unknown): CallbackHub {
  let next = 0;
  return {
    create: (method) => hub.create(method),
    await: (callback, timeoutMs, signal) => {
      const url = callback instanceof Map ? callback.get('url') : undefined;
      const r = recorded[next];
      if (r && typeof url === 'string') {
        next++;
        const json = r.body !== undefined && r.body !== null && typeof r.body !== 'string';
        const body = r.body === undefined || r.body === null ? '' : typeof r.body === 'string' ? r.body : toJson(r.body);
        const headers = { ...r.headers, ...(json ? { 'content-type': r.headers['content-type'] ?? 'application/json' } : {}) };
        deliver(url.slice(url.lastIndexOf('/') + 1), { method: r.method, headers, query: r.query, body: new TextEncoder().encode(body) });
      }
      return hub.await(callback, timeoutMs, signal);
    },
  };
}
