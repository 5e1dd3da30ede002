/**
 * Plain REST's answers to GET of an execution, kept by request URL (docs/architecture.md#serving-reads-over-rest).
 * A client polling an execution sends the same URL again and again, and while the service core gives the same
 * resource object for it (resources are frozen and replaced whenever they change), the answer is the same text.
 * A kept answer skips the route match, the decoding of the path's IDs and the lookup of the JSON text; the
 * execution itself is still looked up, so one that changed or is gone is answered by the general path
 * (rest-plain.ts `GetExecution`), which keeps its new answer. Each REST handler keeps its own (rest.ts), for its
 * one service core, and they go with it.
 */
import type { Execution, ServiceCore } from '../service/model.ts';

/** How many URLs are kept: once this many are, the next one to keep empties them all first. */
export const KEPT_ANSWERS = 512;

/** One kept answer: the text made from `resource`, the execution's resource when it was made. */
interface KeptAnswer {
  readonly workflowId: string;
  readonly executionId: string;
  readonly resource: Execution;
  readonly text: string;
}

/** The answers of one REST handler, kept by request URL (path and query, as sent). */
export class ExecutionAnswers {
  readonly #byUrl = new Map<string, KeptAnswer>();
  /**
   * The URL last answered from `#byUrl` and its entry there: a poller's next request, compared as text rather
   * than hashed (each request's URL is a new string, whose hash V8 computes on a Map lookup: about 1,300
   * instructions for a 110-character URL, measured with callgrind). Always an entry of `#byUrl`, or undefined.
   */
  #lastUrl = '';
  #last: KeptAnswer | undefined;

  /**
   * The answer kept for `url` when `service` (the handler's) still gives the same resource for its execution;
   * otherwise undefined, and the answer is forgotten. Never throws (an execution that is gone is a miss).
   */
  answer(service: ServiceCore, url: string): string | undefined {
    let kept = this.#last;
    if (kept === undefined || url !== this.#lastUrl) {
      kept = this.#byUrl.get(url);
      if (kept === undefined) return undefined;
      this.#lastUrl = url;
      this.#last = kept;
    }
    if (current(service, kept) === kept.resource) return kept.text;
    this.#byUrl.delete(url);
    this.#last = undefined;
    return undefined;
  }

  /**
   * Keeps `text`, the answer to `url` made from `resource`, the resource the service gave for the execution
   * `workflowId`/`executionId` (percent-decoded IDs). Only a frozen resource is kept: an ACTIVE execution's
   * view with its current steps is made anew for each answer.
   */
  keep(url: string, workflowId: string, executionId: string, resource: Execution, text: string): void {
    if (!Object.isFrozen(resource)) return;
    if (this.#byUrl.size >= KEPT_ANSWERS) this.#byUrl.clear();
    this.#byUrl.set(url, { workflowId, executionId, resource, text });
    this.#last = undefined; // it may have been replaced or cleared: the next answer looks it up
  }
}

/** The resource `service` gives now for a kept answer's execution, undefined when the execution is gone. */
function current(service: ServiceCore, kept: KeptAnswer): Execution | undefined {
  try {
    return service.getExecution(kept.workflowId, kept.executionId);
  } catch {
    return undefined;
  }
}
