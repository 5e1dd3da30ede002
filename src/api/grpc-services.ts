/**
 * The RPCs of google.cloud.workflows.v1.Workflows, google.cloud.workflows.executions.v1.Executions and
 * google.longrunning.Operations (GetOperation) over one service core (docs/grpc.md#the-grpc-api): plain functions
 * from request message to response message, with no transport in them. The Connect router (grpc.ts) and
 * Google's REST transport (rest-google.ts) both call these, so the two answer alike. Errors are thrown as
 * {@link ApiError} (same codes and messages as REST); each transport renders them its own way.
 */
import { create, type DescMessage, type DescMethod, type DescService, type MessageShape } from '@bufbuild/protobuf';
import {
  ExecutionHistoryLevel,
  Workflow_CallLogLevel,
  Workflows,
  WorkflowSchema,
  ListWorkflowsResponseSchema,
  ListWorkflowRevisionsResponseSchema,
} from '../../gen/google/cloud/workflows/v1/workflows_pb.ts';
import {
  Execution_CallLogLevel,
  Executions,
  ExecutionView,
  ListExecutionsResponseSchema,
  type Execution as ExecutionMessage,
} from '../../gen/google/cloud/workflows/executions/v1/executions_pb.ts';
import { Operations } from '../../gen/google/longrunning/operations_pb.ts';
import type { Execution, ServiceCore } from '../service/model.ts';
import { ApiError } from '../service/errors.ts';
import {
  EXECUTION_FIELDS,
  executionPageSizes,
  listPage,
  REVISION_PAGE_SIZES,
  WORKFLOW_FIELDS,
  WORKFLOW_PAGE_SIZES,
} from '../service/lists/list-page.ts';
import { parentName, parseName } from '../service/names.ts';
import { executionToMessage, workflowSettingsOf, workflowToMessage, workflowUpdateMask } from './convert.ts';
import { operationStoreFor } from './grpc-operations.ts';

type MethodFn<M> = M extends DescMethod & { input: infer I extends DescMessage; output: infer O extends DescMessage }
  ? (request: MessageShape<I>) => Promise<MessageShape<O>>
  : never;

/**
 * The implementation of some methods of a service, by local name (`listWorkflows`): each takes the request
 * message and resolves to the response message, or rejects with an ApiError. Assignable to Connect's
 * ServiceImpl.
 */
export type Rpcs<S extends DescService> = { [K in keyof S['method']]?: MethodFn<S['method'][K]> };

/** One implemented service: its descriptor and its methods. */
export interface ServiceRpcs<S extends DescService = DescService> {
  readonly service: S;
  readonly rpcs: Rpcs<S>;
}

/** google.cloud.workflows.v1.Workflows over `core` (every RPC; ListWorkflowRevisions is UNIMPLEMENTED). */
function workflowsRpcs(core: ServiceCore): ServiceRpcs<typeof Workflows> {
  const operations = operationStoreFor(core);
  const workflowId = (name: string, field?: string) => parseName(core, name, ['workflows'], field)[0]!;
  const checkParent = (parent: string) => parseName(core, parent, [], 'parent');
  return {
    service: Workflows,
    rpcs: {
      // Paging, filter and order_by as on REST (service/lists/list-page.ts).
      async listWorkflows(request) {
        checkParent(request.parent);
        const page = await listPage(core.listWorkflows(), request, WORKFLOW_FIELDS, WORKFLOW_PAGE_SIZES, (w) => w.name);
        return create(ListWorkflowsResponseSchema, {
          workflows: page.items.map(workflowToMessage),
          nextPageToken: page.nextPageToken,
        });
      },
      async getWorkflow(request) {
        const id = workflowId(request.name);
        return workflowToMessage(core.getWorkflow(id, request.revisionId));
      },
      async createWorkflow(request) {
        checkParent(request.parent);
        const input = request.workflow;
        const workflow = core.createWorkflow(request.workflowId, {
          sourceContents: input?.sourceCode.case === 'sourceContents' ? input.sourceCode.value : '',
          description: input?.description ?? '',
          executionHistoryLevel: ExecutionHistoryLevel[input?.executionHistoryLevel ?? 0],
          callLogLevel: Workflow_CallLogLevel[input?.callLogLevel ?? 0],
          ...(input ? workflowSettingsOf(input) : {}),
        });
        return operations.record('create', workflow.name, WorkflowSchema, workflowToMessage(workflow));
      },
      async updateWorkflow(request) {
        const input = request.workflow;
        if (!input) throw ApiError.invalidArgument('workflow is required');
        const id = workflowId(input.name, 'workflow.name');
        const fields: { sourceContents?: string; description?: string; executionHistoryLevel?: string; callLogLevel?: string; [setting: string]: unknown } = {
          description: input.description,
          executionHistoryLevel: ExecutionHistoryLevel[input.executionHistoryLevel],
          callLogLevel: Workflow_CallLogLevel[input.callLogLevel],
          ...workflowSettingsOf(input),
        };
        if (input.sourceCode.case === 'sourceContents') fields.sourceContents = input.sourceCode.value;
        // Without a mask every updatable field is replaced (Google's UpdateWorkflowRequest.update_mask).
        const mask = request.updateMask ? workflowUpdateMask(request.updateMask.paths) : undefined;
        const workflow = core.updateWorkflow(id, fields, mask);
        return operations.record('update', workflow.name, WorkflowSchema, workflowToMessage(workflow));
      },
      async deleteWorkflow(request) {
        const id = workflowId(request.name);
        core.deleteWorkflow(id);
        return operations.recordDelete(`${parentName(core.project, core.location)}/workflows/${id}`);
      },
      // Newest first, 20 a page (at most 100), as on REST's :listRevisions.
      async listWorkflowRevisions(request) {
        const id = workflowId(request.name);
        const page = await listPage(core.listWorkflowRevisions(id), request, {}, REVISION_PAGE_SIZES, (w) => w.revisionId);
        return create(ListWorkflowRevisionsResponseSchema, {
          workflows: page.items.map(workflowToMessage),
          nextPageToken: page.nextPageToken,
        });
      },
    },
  };
}

/**
 * The FULL message of an execution, cached by resource identity: the core replaces an execution's resource
 * object whenever it changes, so a cached message is never stale, and polling GetExecution converts once.
 */
const fullMessages = new WeakMap<Execution, ExecutionMessage>();
function fullMessage(execution: Execution): ExecutionMessage {
  let message = fullMessages.get(execution);
  // Frozen, as the resource is: the gRPC fast path then encodes it once (grpc-stream.ts).
  if (!message) fullMessages.set(execution, (message = Object.freeze(executionToMessage(execution))));
  return message;
}

/** The message of `execution` in `view` (UNSPECIFIED and FULL: every field; BASIC: no payloads). */
function viewOf(execution: Execution, view: ExecutionView): ExecutionMessage {
  return view === ExecutionView.BASIC ? executionToMessage(execution, view) : fullMessage(execution);
}

/** google.cloud.workflows.executions.v1.Executions over `core` (every RPC). */
function executionsRpcs(core: ServiceCore): ServiceRpcs<typeof Executions> {
  const workflowId = (parent: string) => parseName(core, parent, ['workflows'], 'parent')[0]!;
  const executionIds = (name: string) => parseName(core, name, ['workflows', 'executions']) as [string, string];
  return {
    service: Executions,
    rpcs: {
      // Paging, filter and order_by as on REST (service/lists/list-page.ts); the default view is FULL, as on REST.
      async listExecutions(request) {
        const id = workflowId(request.parent);
        const sizes = executionPageSizes(request.view === ExecutionView.BASIC ? 'BASIC' : 'FULL');
        const page = await listPage(core.listExecutions(id), request, EXECUTION_FIELDS, sizes, (e) => e.name);
        const executions = page.items.map((e) => viewOf(e, request.view));
        return create(ListExecutionsResponseSchema, { executions, nextPageToken: page.nextPageToken });
      },
      async createExecution(request) {
        const id = workflowId(request.parent);
        const argument = request.execution?.argument;
        const callLogLevel = Execution_CallLogLevel[request.execution?.callLogLevel ?? 0];
        const labels = request.execution?.labels;
        return fullMessage(core.createExecution(id, { ...(argument ? { argument } : {}), callLogLevel, ...(labels ? { labels } : {}) }));
      },
      async getExecution(request) {
        const [id, executionId] = executionIds(request.name);
        return viewOf(core.getExecution(id, executionId), request.view);
      },
      async cancelExecution(request) {
        const [id, executionId] = executionIds(request.name);
        return fullMessage(core.cancelExecution(id, executionId));
      },
    },
  };
}

/**
 * google.longrunning.Operations over the operations the Workflows RPCs returned: GetOperation (and
 * WaitOperation, which answers at once since every operation is done). The others are UNIMPLEMENTED.
 */
function operationsRpcs(core: ServiceCore): ServiceRpcs<typeof Operations> {
  const operations = operationStoreFor(core);
  return {
    service: Operations,
    rpcs: {
      async getOperation(request) {
        parseName(core, request.name, ['operations']);
        return operations.get(request.name);
      },
      async waitOperation(request) {
        parseName(core, request.name, ['operations']);
        return operations.get(request.name);
      },
    },
  };
}

/** Every service the gRPC API serves over `core`, in the order they are routed. */
export function allRpcs(core: ServiceCore): ServiceRpcs[] {
  const all = [workflowsRpcs(core), executionsRpcs(core), operationsRpcs(core)] as ServiceRpcs[];
  return core.whenDurable ? all.map((s) => ({ service: s.service, rpcs: durableWrites(core, s.rpcs) })) : all;
}

/**
 * With a data directory (docs/persistence.md#the-journal): the RPCs that change state answer only once the
 * change is on disk (or fail UNAVAILABLE when the disk refuses it).
 */
function durableWrites(core: ServiceCore, rpcs: Rpcs<DescService>): Rpcs<DescService> {
  const out: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(rpcs) as [string, (r: unknown) => Promise<unknown>][]) {
    out[name] = /^(create|update|delete|cancel)/.test(name)
      ? async (request: unknown) => {
          const answer = await fn(request);
          await core.whenDurable?.();
          return answer;
        }
      : fn;
  }
  return out as Rpcs<DescService>;
}
