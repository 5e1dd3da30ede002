/**
 * What the service core (core.ts) is created with: its options, the execution a debugger is offered, and the
 * limits on executions kept and running (docs/limits.md "Executions").
 */
import type { Definition } from '../lang/definition/ast.ts';
import type { Compat } from '../lang/compat.ts';
import type { Clock, FunctionLibrary } from '../stdlib/types.ts';
import type { DebuggerHooks } from './executions/prepare-execution.ts';
import type { CallbackWait } from './callbacks/callback-registry.ts';
import type { MockSet } from '../mocks/mock-set.ts';
import type { Execution, ServiceCore } from './model.ts';
import type { PersistenceAttach } from './persist/hooks.ts';

/**
 * Executions kept in memory. Beyond this (plus a tenth, so pruning is amortized), the oldest terminal ones
 * are forgotten, with their callbacks and logs; ACTIVE executions are never dropped. Google keeps execution
 * history for 90 days; a long load test against the emulator must not exhaust its memory.
 */
export const MAX_RETAINED_EXECUTIONS = 100_000;
/**
 * ACTIVE executions at once (docs/limits.md "Executions"): Google's "Concurrent executions" quota, 10,000
 * per project and region (https://cloud.google.com/workflows/quotas). Over it, a new execution is refused
 * with RESOURCE_EXHAUSTED (Google queues it in a backlog instead; the emulator refuses, so a runaway
 * workflow cannot pile up work).
 */
export const MAX_ACTIVE_EXECUTIONS = 10_000;
/**
 * Child executions nested below a top-level one through the Workflow Executions connector (docs/limits.md
 * "Executions"): the emulator's own bound (Google documents none), so a workflow that starts itself stops
 * with an HttpError 429 instead of running away.
 */
export const MAX_CHILD_DEPTH = 10;

/** Options of createServiceCore (core.ts). */
export interface ServiceCoreOptions {
  /** PROJECT: used in resource names and CLOUD_PROJECT_ID. */
  readonly project: string;
  /** LOCATION: used in resource names and CLOUD_LOCATION. */
  readonly location: string;
  /** PROJECT_NUMBER: GOOGLE_CLOUD_PROJECT_NUMBER; default DEFAULT_PROJECT_NUMBER (src/stdlib/sys.ts). */
  readonly projectNumber?: string;
  /**
   * `google` (`--compat google`): definitions and executions follow Google's behaviour where it and the
   * specification differ (docs/compat.md). Default: the specification's.
   */
  readonly compat?: Compat;
  /**
   * Scheme, host and port that callback URLs start with (`http://localhost:8787`); a trailing slash is
   * dropped. Callback URLs are `<callbackBaseUrl>/callbacks/<id>`.
   */
  readonly callbackBaseUrl: string;
  /**
   * Extra environment values every execution can read with sys.get_env; the built-in CLOUD_* and
   * GOOGLE_CLOUD_* values of the execution win over these.
   */
  readonly env?: Readonly<Record<string, string>>;
  /** Time for executions (sleeps, timeouts, backoff, callback waits); the system clock by default. */
  readonly clock?: Clock;
  /** Outbound HTTP for http.*; the platform fetch by default. */
  readonly fetch?: typeof fetch;
  /** The mocks every execution starts with (docs/mocks-and-clock.md#mocks); none by default. `setMocks` replaces them. */
  readonly mocks?: MockSet;
  /**
   * Where sys.log lines go: one JSON object per call, without the trailing newline. Default: stdout, one line
   * each.
   */
  readonly log?: (line: string) => void;
  /** Executions kept in memory; default {@link MAX_RETAINED_EXECUTIONS}. */
  readonly maxRetainedExecutions?: number;
  /** Bytes of variables kept by finished executions' detailed histories; default 64 MB (detail-budget.ts). */
  readonly maxDetailedHistoryBytes?: number;
  /** ACTIVE executions at once; default {@link MAX_ACTIVE_EXECUTIONS}. */
  readonly maxActiveExecutions?: number;
  /**
   * The functions, retry policies and backoffs definitions may name and executions call; the standard
   * library's by default.
   */
  readonly library?: FunctionLibrary;
  /**
   * The step history recorded for an execution whose workflow and execution do not set
   * `executionHistoryLevel`: `basic` (the default), `detailed` (variables too), or `none` (docs/rest-api.md#step-history; README
   * "Step history").
   */
  readonly defaultHistory?: 'none' | 'basic' | 'detailed';
  /** Cap on step entries kept per execution; default MAX_STEP_ENTRIES_PER_EXECUTION (step-ring.ts). */
  readonly maxStepEntries?: number;
  /** Called once when an execution ends (after its resource has its terminal state). */
  readonly onExecutionEnd?: (execution: Execution) => void;
  /**
   * Called when a child workflow is asked of a workflow ID that is not deployed, before the answer is NOT_FOUND:
   * it may deploy it (the one-shot run deploys child workflows from the files beside the workflow it runs).
   */
  readonly deployOnDemand?: (workflowId: string, core: ServiceCore) => void;
  /** Called as an execution starts waiting on a callback (the one-shot run prints the URL it waits on). */
  readonly onCallbackWait?: (wait: CallbackWait) => void;
  /**
   * Asked as each execution starts: the debugger to run it under (docs/debugging.md), or undefined for none
   * (then the execution runs exactly as without this option). `requested`: the execution was created with
   * `debug: true`.
   */
  readonly debuggerFor?: (execution: DebuggedExecution, requested: boolean) => DebuggerHooks | undefined;
  /**
   * The data directory (docs/persistence.md) whose state the core starts from and to which it tells every
   * change; undefined: state is kept in memory only (the default).
   */
  readonly persistence?: PersistenceAttach;
}

/** An execution as a debugger is offered it: its names, its definition and the source it was compiled from. */
export interface DebuggedExecution {
  readonly workflowId: string;
  readonly executionId: string;
  /** The execution's resource name. */
  readonly name: string;
  readonly definition: Definition;
  readonly sourceContents: string;
  /** Settles when the execution ends, with its resource in its terminal state. */
  readonly ended: Promise<Execution>;
}
