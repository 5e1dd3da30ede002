/**
 * The executions the service core keeps (https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.workflows.executions):
 * each with everything it owns, found by ID or by full resource name, listed per workflow, and pruned to a
 * retention limit oldest first (ACTIVE executions are never dropped).
 */
import type { CallLog } from '../../mocks/call-log.ts';
import type { CallLogLevel } from './call-log-observer.ts';
import type { HistoryLevel } from './prepare-execution.ts';
import type { StepHistory } from '../history/step-history.ts';
import type { StepHistoryReader } from '../history/settled-history.ts';
import type { Definition } from '../../lang/definition/ast.ts';
import type { Execution } from '../model.ts';
import type { DebuggedExecution } from '../service-core-options.ts';
import type { Recording } from '../recording/recording.ts';
import { splitName } from '../names.ts';
import { ApiError } from '../errors.ts';
import type { Cancellation } from '../../platform/cancellation.ts';

/** An execution and everything it owns. */
export interface ExecutionRecord {
  readonly workflowId: string;
  readonly executionId: string;
  readonly name: string;
  resource: Execution;
  /** `startTime` in milliseconds (the clock's reading, whole milliseconds as the timestamp shows). */
  readonly startMs: number;
  /** Stops the engine's run: set when it starts, dropped once the run has ended. */
  abort: Cancellation | undefined;
  /** The step history it records (https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.workflows.executions.stepEntries). */
  readonly historyLevel: HistoryLevel;
  /** The step history being recorded, until the run has ended (then {@link history} holds what was recorded). */
  recording: StepHistory | undefined;
  /** The step history to read, unless history is off for this execution (settled-history.ts once it ended). */
  history: StepHistoryReader | undefined;
  /** Its call logging: its own level, else its workflow's when it was created. */
  readonly callLogLevel: CallLogLevel | undefined;
  /** Its outbound calls (set when it starts; dropped at the end when it made none). */
  calls?: CallLog | undefined;
  /** What it took in besides its calls (set when it starts; src/service/recording/recording.ts). */
  inputs?: Recording | undefined;
  /** The execution that started it through the Workflow Executions connector. */
  readonly parent: string | undefined;
  /** 0 for an execution started through the API, its parent's depth + 1 for a child. */
  readonly depth: number;
  /** Called once when it ends (created by the first waiter). */
  onEnd: (() => void)[] | undefined;
}

/**
 * An execution as a debugger is offered it (src/debug/hub.ts): `ended` is made when first read, so the many
 * executions no debugger takes hold no promise while they run.
 */
export class OfferedExecution implements DebuggedExecution {
  readonly workflowId: string;
  readonly executionId: string;
  readonly name: string;
  #ended: Promise<Execution> | undefined;

  constructor(
    private readonly ex: ExecutionRecord,
    readonly definition: Definition,
    readonly sourceContents: string,
  ) {
    this.workflowId = ex.workflowId;
    this.executionId = ex.executionId;
    this.name = ex.name;
  }

  /** Settles when the execution ends, with its resource in its terminal state. */
  get ended(): Promise<Execution> {
    const ex = this.ex;
    return (this.#ended ??= new Promise((resolve) => (ex.onEnd ??= []).push(() => resolve(ex.resource))));
  }
}

/** The executions of one service core, by ID and per workflow. */
export class ExecutionStore {
  /** Every execution by ID; insertion order is creation order. */
  readonly #byId = new Map<string, ExecutionRecord>();
  /** Executions per workflow ID, oldest first. */
  readonly #byWorkflow = new Map<string, ExecutionRecord[]>();

  /**
   * @param parent `projects/{project}/locations/{location}`, the prefix of every execution's name
   * @param maxRetained executions kept; past this plus a tenth (so pruning is amortized) the oldest terminal
   *   ones are forgotten, and `onForget` is told of each
   */
  constructor(
    private readonly parent: string,
    private readonly maxRetained: number,
    private readonly onForget: (ex: ExecutionRecord) => void,
  ) {}

  /** Adds a new execution, then prunes when the store is over its limit. */
  add(ex: ExecutionRecord): void {
    this.#byId.set(ex.executionId, ex);
    let list = this.#byWorkflow.get(ex.workflowId);
    if (!list) this.#byWorkflow.set(ex.workflowId, (list = []));
    list.push(ex);
    if (this.#byId.size > this.maxRetained * 1.1) this.prune();
  }

  /** The execution of a workflow by ID. @throws ApiError NOT_FOUND */
  find(workflowId: string, executionId: string): ExecutionRecord {
    const ex = this.#byId.get(executionId);
    if (!ex || ex.workflowId !== workflowId) {
      throw ApiError.notFound(`execution "${this.parent}/workflows/${workflowId}/executions/${executionId}" not found`);
    }
    return ex;
  }

  /** The execution of a full resource name. @throws ApiError NOT_FOUND */
  byName(name: string): ExecutionRecord {
    const parts = splitName(name, ['workflows', 'executions']);
    if (!parts || !name.startsWith(this.parent + '/')) throw ApiError.notFound(`execution "${name}" not found`);
    return this.find(parts.ids[0]!, parts.ids[1]!);
  }

  /** Every execution (of one workflow, when given), oldest first. */
  list(workflowId?: string): Iterable<ExecutionRecord> {
    return workflowId === undefined ? this.#byId.values() : (this.#byWorkflow.get(workflowId) ?? []);
  }

  /** Forgets every execution (without telling `onForget`). */
  clear(): void {
    this.#byId.clear();
    this.#byWorkflow.clear();
  }

  /**
   * Forgets the oldest terminal executions down to the retention limit. Proportional to what it forgets
   * (docs/limits.md "Executions"): it walks from the oldest and stops once enough are dropped (at most the
   * ACTIVE cap of executions is passed over), and filters only the lists of the workflows that lost some.
   */
  prune(): void {
    let excess = this.#byId.size - this.maxRetained;
    const dropped = new Set<ExecutionRecord>();
    const touched = new Set<string>();
    for (const ex of this.#byId.values()) {
      if (excess <= 0) break;
      if (ex.resource.state === 'ACTIVE') continue;
      dropped.add(ex);
      touched.add(ex.workflowId);
      excess--;
    }
    for (const ex of dropped) {
      this.#byId.delete(ex.executionId);
      this.onForget(ex);
    }
    for (const id of touched) this.#keepUndropped(id, dropped);
  }

  /** Filters the dropped executions out of one workflow's list (they are its oldest but for ACTIVE ones). */
  #keepUndropped(workflowId: string, dropped: ReadonlySet<ExecutionRecord>): void {
    const list = this.#byWorkflow.get(workflowId);
    if (!list) return;
    let cut = 0;
    while (cut < list.length && dropped.has(list[cut]!)) cut++;
    const kept = cut === list.length ? [] : list.slice(cut).filter((ex) => !dropped.has(ex));
    if (kept.length) this.#byWorkflow.set(workflowId, kept);
    else this.#byWorkflow.delete(workflowId);
  }
}
