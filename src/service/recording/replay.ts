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
import { parseMocks, type MockSet } from '../../mocks/mock-file.ts';
import type { CallbackHub } from '../../stdlib/types.ts';
import { ApiError } from '../errors.ts';
import type { CallbackRequest, RecordedExecution } from '../model.ts';
import type { PlaybackValues, RecordedCallback } from './recording.ts';
import { mocksOf } from './test-case.ts';

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
