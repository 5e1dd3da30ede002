/**
 * The resources of the management API and the one service core that REST, gRPC and the web UI share (spec
 * "Resources and their fields", "Endpoints"). Transport code converts these to its own shapes; nothing here
 * knows about HTTP or protobuf.
 */
import type { LogEntry } from '../stdlib/types.ts';

/** Execution states (spec "States and transitions"). */
export type ExecutionState = 'ACTIVE' | 'SUCCEEDED' | 'FAILED' | 'CANCELLED';

/** A workflow resource, exactly the spec's fields. Timestamps are RFC 3339 UTC with fractional seconds. */
export interface Workflow {
  /** `projects/{project}/locations/{location}/workflows/{workflowId}` */
  readonly name: string;
  readonly state: 'ACTIVE';
  /** Like the real service's: `000001-a4f` (a counter and a short hash of the source). */
  readonly revisionId: string;
  readonly sourceContents: string;
  /** Empty string when none was given. */
  readonly description: string;
  readonly createTime: string;
  readonly updateTime: string;
}

/** An execution resource, exactly the spec's fields. */
export interface Execution {
  /** `projects/{project}/locations/{location}/workflows/{workflowId}/executions/{executionId}` */
  readonly name: string;
  readonly state: ExecutionState;
  /** JSON-encoded input; absent when none was given. */
  readonly argument?: string;
  /** JSON-encoded result; present on SUCCEEDED. */
  readonly result?: string;
  /** Present on FAILED: `payload` is the JSON-encoded error map, `context` is `step: <step_name>`. */
  readonly error?: { readonly payload: string; readonly context: string };
  readonly startTime: string;
  /** Set once the state is terminal. */
  readonly endTime?: string;
  readonly workflowRevisionId: string;
}

/** A callback resource (spec "Callback"). */
export interface Callback {
  readonly name: string;
  /** HTTP method the callback accepts, POST by default. */
  readonly method: string;
  /** `http://<host>:<port>/callbacks/<callback_id>` */
  readonly url: string;
  readonly createTime: string;
}

/** An incoming request to `/callbacks/{callbackId}`, as any transport received it. */
export interface CallbackRequest {
  readonly method: string;
  /** Header names lowercased. */
  readonly headers: Readonly<Record<string, string>>;
  readonly query: Readonly<Record<string, string>>;
  /** The raw body (empty when none). */
  readonly body: Uint8Array;
}

/** What the service tells a change listener (used by the UI to refresh, and by tests). */
export type ServiceEvent =
  | { readonly type: 'workflow'; readonly workflowId: string }
  | { readonly type: 'execution'; readonly workflowId: string; readonly executionId: string };

/**
 * The service core: workflows, executions, callbacks. Every method is synchronous except where waiting is
 * real; executions run in the background.
 *
 * Every method throws {@link ApiError} (src/service/errors.ts): NOT_FOUND for unknown workflows or
 * executions, INVALID_ARGUMENT for bad input (with a message naming the problem; for an invalid definition,
 * the step and line:column), ALREADY_EXISTS for a duplicate workflow ID, FAILED_PRECONDITION for cancel on a
 * non-ACTIVE execution.
 */
export interface ServiceCore {
  readonly project: string;
  readonly location: string;

  createWorkflow(workflowId: string, input: { sourceContents: string; description?: string }): Workflow;
  getWorkflow(workflowId: string): Workflow;
  /** Newest first. */
  listWorkflows(): Workflow[];
  /**
   * Replaces the given fields. `updateMask` (field names as in the resource: `sourceContents`, `description`)
   * limits which of the given fields are applied; absent: all given fields. A new revision only when the
   * source changes.
   */
  updateWorkflow(
    workflowId: string,
    input: { sourceContents?: string; description?: string },
    updateMask?: readonly string[],
  ): Workflow;
  deleteWorkflow(workflowId: string): void;

  /** Starts an execution pinned to the current revision; returns it ACTIVE. `argument` is JSON text, max 32 KB. */
  createExecution(workflowId: string, input: { argument?: string }): Execution;
  getExecution(workflowId: string, executionId: string): Execution;
  /** Executions of one workflow, or of all workflows when `workflowId` is undefined; newest first. */
  listExecutions(workflowId?: string): Execution[];
  /** Moves an ACTIVE execution to CANCELLED at once and interrupts what it waits on. */
  cancelExecution(workflowId: string, executionId: string): Execution;
  listCallbacks(workflowId: string, executionId: string): Callback[];
  /** sys.log entries of an execution, oldest first. */
  executionLogs(workflowId: string, executionId: string): LogEntry[];

  /**
   * Delivers a request to a callback endpoint. Returns the HTTP status and JSON body to answer with: 200 when
   * delivered (or kept for a later await), 404 for an unknown callback, 405 for a wrong method, an error for a
   * callback of an ended execution.
   */
  deliverCallback(callbackId: string, request: CallbackRequest): { status: number; body: unknown };

  /** Subscribes to changes; returns the unsubscribe function. */
  subscribe(listener: (event: ServiceEvent) => void): () => void;
}
