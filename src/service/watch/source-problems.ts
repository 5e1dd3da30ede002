/**
 * Workflow files of the watched directory that failed to deploy (docs/web-ui.md#pages: the web UI shows them instead of
 * silently showing the revision deployed before). The directory watcher records a problem when a file does not
 * compile and clears it when the file deploys, is fixed or is removed; the UI reads them. One per workflow ID.
 */

/** A file that failed to deploy. Positions are 1-based; `line` and `column` are absent when unknown. */
export interface SourceProblem {
  readonly workflowId: string;
  /** Path of the file, as the watcher reads it. */
  readonly file: string;
  /** The deploy error, e.g. `invalid workflow definition: step "x" (line 3, column 5): ...`. */
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
  readonly step?: string;
  /** The revision still deployed from an earlier version of the file; absent when none is. */
  readonly keptRevisionId?: string;
  /** When it was seen, RFC 3339 UTC. */
  readonly time: string;
}

/** The current problems, by workflow ID. */
export class SourceProblems {
  readonly #byId = new Map<string, SourceProblem>();
  #watchers = 0;

  /**
   * Whether a directory watcher is running: a watched file may break or be fixed at any moment, so the
   * dashboard keeps refreshing itself (docs/web-ui.md).
   */
  get watching(): boolean {
    return this.#watchers > 0;
  }

  /** A directory watcher started (`true`) or closed (`false`). */
  watched(started: boolean): void {
    this.#watchers = Math.max(0, this.#watchers + (started ? 1 : -1));
  }

  /** Records (or replaces) the problem of `problem.workflowId`. */
  set(problem: SourceProblem): void {
    this.#byId.set(problem.workflowId, problem);
  }

  /** Forgets the problem of a workflow (deployed, fixed or removed). */
  clear(workflowId: string): void {
    this.#byId.delete(workflowId);
  }

  /** The problem of one workflow, if any. */
  get(workflowId: string): SourceProblem | undefined {
    return this.#byId.get(workflowId);
  }

  /** Every problem, by workflow ID. */
  list(): SourceProblem[] {
    return [...this.#byId.values()].sort((a, b) => (a.workflowId < b.workflowId ? -1 : a.workflowId > b.workflowId ? 1 : 0));
  }
}
