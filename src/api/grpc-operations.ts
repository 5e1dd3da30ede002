/**
 * The long-running operations that CreateWorkflow, UpdateWorkflow and DeleteWorkflow answer with on gRPC and
 * on Google's REST transport (docs/grpc.md#the-grpc-api and docs/api-resources.md#operation). The emulator does its work at once, so every
 * operation is born done, with the result packed in `response` and the Workflows OperationMetadata in
 * `metadata` (https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.operations). They
 * are kept by name so google.longrunning.Operations GetOperation can answer clients that poll. One store per
 * service core, shared by every transport serving that core.
 */
import { create, createRegistry, type DescMessage, type MessageShape, type Registry } from '@bufbuild/protobuf';
import { anyPack, EmptySchema } from '@bufbuild/protobuf/wkt';
import { nodeCrypto } from '../platform/builtins.ts';
import { OperationSchema, type Operation } from '../../gen/google/longrunning/operations_pb.ts';
import { OperationMetadataSchema, WorkflowSchema } from '../../gen/google/cloud/workflows/v1/workflows_pb.ts';
import type { ServiceCore, Workflow } from '../service/model.ts';
import { ApiError } from '../service/errors.ts';
import { parentName } from '../service/names.ts';
import { timestampFromDate, workflowToMessage } from './convert.ts';

/**
 * The types an operation's packed Any fields may hold (its metadata and results), for every JSON answer
 * that carries an operation: Google's REST transport and the Connect protocol's JSON.
 */
export const OPERATION_TYPES: Registry = createRegistry(WorkflowSchema, OperationMetadataSchema, EmptySchema);

/** How many operations are kept; older ones are forgotten (GetOperation then answers NOT_FOUND). */
const MAX_KEPT_OPERATIONS = 10_000;

/** The done operations one service core has returned, by name. */
class OperationStore {
  readonly #byName = new Map<string, Operation>();

  constructor(private readonly service: Pick<ServiceCore, 'project' | 'location'>) {}

  /**
   * Records a done operation for `verb` (`create`, `update`, `delete`) on `target` (the workflow's resource
   * name) whose result is `response` (of `schema`: Workflow, or google.protobuf.Empty for delete) and returns
   * it. Its name is `projects/{project}/locations/{location}/operations/operation-{epochMs}-{hex}`, like the
   * real service's.
   */
  record<Desc extends DescMessage>(verb: string, target: string, schema: Desc, response: MessageShape<Desc>): Operation {
    const now = new Date();
    const name = `${parentName(this.service.project, this.service.location)}/operations/operation-${now.getTime()}-${nodeCrypto().randomBytes(8).toString('hex')}`;
    const metadata = create(OperationMetadataSchema, {
      createTime: timestampFromDate(now),
      endTime: timestampFromDate(now),
      target,
      verb,
      apiVersion: 'v1',
    });
    const operation = create(OperationSchema, {
      name,
      done: true,
      metadata: anyPack(OperationMetadataSchema, metadata),
      result: { case: 'response', value: anyPack(schema, response) },
    });
    this.#byName.set(name, operation);
    if (this.#byName.size > MAX_KEPT_OPERATIONS) this.#byName.delete(this.#byName.keys().next().value!);
    return operation;
  }

  /** A done update operation of `workflow` (response: the workflow). */
  recordUpdate(workflow: Workflow): Operation {
    return this.record('update', workflow.name, WorkflowSchema, workflowToMessage(workflow));
  }

  /** A done delete operation (response: google.protobuf.Empty). */
  recordDelete(target: string): Operation {
    return this.record('delete', target, EmptySchema, create(EmptySchema));
  }

  /** The operation named `name`. Throws NOT_FOUND when it was never returned (or has been forgotten). */
  get(name: string): Operation {
    const operation = this.#byName.get(name);
    if (!operation) throw ApiError.notFound(`Operation '${name}' was not found`);
    return operation;
  }
}

const stores = new WeakMap<object, OperationStore>();

/** The one operation store of `service`, created on first use; gRPC and Google's REST transport share it. */
export function operationStoreFor(service: Pick<ServiceCore, 'project' | 'location'>): OperationStore {
  let store = stores.get(service);
  if (!store) stores.set(service, (store = new OperationStore(service)));
  return store;
}
