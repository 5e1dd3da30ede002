/**
 * Plain REST's answers to GET of an execution, kept by request URL (docs/architecture.md#serving-reads-over-rest).
 * A client polling an execution sends the same URL again and again, and while the service core gives the same
 * resource object for it (resources are frozen and replaced whenever they change), the answer is the same text.
 * A kept answer skips the route match, the decoding of the path's IDs and the lookup of the JSON text; the
 * execution itself is still looked up, so one that changed or is gone is answered by the general path
 * (rest-plain.ts `GetExecution`), which keeps its new answer.
 */
import type { Execution, ServiceCore } from '../service/model.ts';

/** How many URLs are kept: past this many the cache starts again empty (as rest-routes.ts's matches do). */
export const KEPT_ANSWERS = 512;

/** One kept answer: the text made from `resource`, the execution's resource when it was made. */
interface KeptAnswer {
  readonly service: ServiceCore;
  readonly workflowId: string;
  readonly executionId: string;
  readonly resource: Execution;
  readonly text: string;
}

/** Answers kept by request URL (path and query, as sent). */
export class ExecutionAnswers {
  readonly #byUrl = new Map<string, KeptAnswer>();

  /**
   * The answer kept for `url` when `service` kept it and still gives the same resource for its execution;
   * otherwise undefined, and the answer is forgotten. Never throws (an execution that is gone is a miss).
   */
  answer(service: ServiceCore, url: string): string | undefined {
    const kept = this.#byUrl.get(url);
    if (kept === undefined) return undefined;
    if (kept.service === service && this.#current(kept) === kept.resource) return kept.text;
    this.#byUrl.delete(url);
    return undefined;
  }

  /**
   * Keeps `text`, the answer to `url` made from `resource`, the resource `service` gave for the execution
   * `workflowId`/`executionId` (percent-decoded IDs). Only a frozen resource is kept: an ACTIVE execution's
   * view with its current steps is made anew for each answer.
   */
  keep(service: ServiceCore, url: string, workflowId: string, executionId: string, resource: Execution, text: string): void {
    if (!Object.isFrozen(resource)) return;
    if (this.#byUrl.size >= KEPT_ANSWERS) this.#byUrl.clear();
    this.#byUrl.set(url, { service, workflowId, executionId, resource, text });
  }

  /** The resource the kept answer's service gives now, undefined when the execution is gone. */
  #current(kept: KeptAnswer): Execution | undefined {
    try {
      return kept.service.getExecution(kept.workflowId, kept.executionId);
    } catch {
      return undefined;
    }
  }
}

/** The answers of every REST port in this process (each answer is checked against its own service). */
export const executionAnswers = new ExecutionAnswers();
