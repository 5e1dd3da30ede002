/**
 * How the service core (core.ts) and a data directory (docs/persistence.md) meet: the core tells a
 * {@link StateSink} of every change, and hands a {@link PersistenceAttach} what it needs to read the core's state
 * and to put back what the directory holds. The core imports only these types; the implementation
 * (persistence.ts) is loaded only when a data directory is given.
 */
import type { LogEntry, CallbackHub } from '../../stdlib/types.ts';
import type { CallbackRequest, Execution } from '../model.ts';
import type { ExecutionRecord, ExecutionStore } from '../executions/execution-store.ts';
import type { WorkflowStore } from '../store/workflow-store.ts';
import type { ReplayPlan } from '../recording/replay.ts';
import type { ActiveCallbacks } from './state.ts';

/** What the core gives a data directory when it attaches. */
export interface CoreInternals {
  /** `projects/{project}/locations/{location}`: the parent of every resource name. */
  readonly parent: string;
  readonly store: WorkflowStore;
  readonly executions: ExecutionStore;
  /** The sys.log entries kept for an execution. */
  logsOf(ex: ExecutionRecord): readonly LogEntry[];
  /**
   * Takes in a restored execution with its sys.log entries; `active`: it is ACTIVE (and counts as running).
   * The record may be lazy (records.ts `lazyExecution`): the core reads its fields only when asked for them.
   */
  adopt(ex: ExecutionRecord, logs: readonly LogEntry[], active: boolean): void;
  /** Ends an adopted ACTIVE execution FAILED with `error`. */
  fail(ex: ExecutionRecord, error: NonNullable<Execution['error']>): void;
  /**
   * Runs an adopted ACTIVE execution again from its start (`--resume`) with `plan`'s callback URLs and
   * requests; ends it FAILED when its revision is not the workflow's current one any more.
   */
  rerun(ex: ExecutionRecord, plan: Pick<ReplayPlan, 'playback' | 'callbacks'>): void;
}

/** What the core tells a data directory, and asks of it. */
export interface StateSink {
  /** @throws ApiError UNAVAILABLE while the directory cannot be written (a full disk) */
  checkWritable(): void;
  /** A workflow was created, changed or deleted. */
  workflowChanged(workflowId: string): void;
  /** An execution was created or ended. */
  executionChanged(ex: ExecutionRecord): void;
  /** An execution was dropped by `--max-executions` (docs/persistence.md#limits): a restart must not bring it back. */
  executionForgotten(ex: ExecutionRecord): void;
  /** The callback hub of a starting execution, telling the sink of each callback it creates. */
  hubOf(hub: CallbackHub, ex: ExecutionRecord): CallbackHub;
  /** A callback request was acknowledged (200) to the execution named `executionName`. */
  callbackDelivered(executionName: string | undefined, callbackId: string, request: CallbackRequest): void;
  /** Everything was forgotten (the control API's reset). */
  reset(): void;
  /**
   * Puts the directory's state into the core (called once, right after attach): executions that were ACTIVE
   * end FAILED, or run again with `--resume`; those changes are told to this sink like any other.
   */
  restore(): void;
  /** The callback URLs created by and requests acknowledged to each ACTIVE execution, by execution ID (for an export). */
  activeCallbacks(): ReadonlyMap<string, ActiveCallbacks>;
  /** The data directory and the bytes of its files; undefined without one. */
  storage(): { readonly dataDir: string; readonly bytes: number } | undefined;
  /** Resolves once every change told so far is on disk (undefined: it already is); rejects with ApiError UNAVAILABLE. */
  whenDurable(): Promise<void> | undefined;
}

/** A data directory the core attaches to at its creation (ServiceCoreOptions.persistence). */
export interface PersistenceAttach {
  /** Returns the sink of the core's changes; its {@link StateSink.restore} then puts the directory's state back. */
  attach(core: CoreInternals): StateSink;
}
