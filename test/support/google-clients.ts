/**
 * Helpers for tests that drive the emulator with Google's own client library (@google-cloud/workflows 4.x),
 * over gRPC or its REST transport: the credential stand-in docs/grpc.md shows users, and the few calls every such
 * suite makes.
 */
import type { ExecutionsClient, WorkflowsClient } from '@google-cloud/workflows';
import { rejection } from './rejection.ts';
import { until } from './emulator.ts';

/** The parent of every resource under the emulator's default PROJECT and LOCATION. */
export const PARENT = 'projects/my-project/locations/us-central1';

/** A workflow returning `args.x + 1`. */
export const ADD_ONE_SOURCE = 'main:\n  params: [args]\n  steps:\n    - add:\n        return: ${args.x + 1}\n';

/**
 * The clients need no credentials against the emulator: a stand-in for google-auth-library with the calls
 * the clients make (`fetch` is used by the REST transport only).
 */
export const noAuth = {
  getClient: async () => ({ getRequestHeaders: async () => new Headers() }),
  getUniverseDomain: async () => 'googleapis.com',
  getProjectId: async () => 'my-project',
  fetch: (url: string, init: RequestInit) => fetch(url, init),
};

/** An error as Google's client raises it: a gRPC status `code` and its `details`. */
export type GoogleError = Error & { code: number; details: string };

/** Resolves to the error `promise` rejects with; throws when it resolves. */
export function rejects(promise: Promise<unknown>): Promise<GoogleError> {
  return rejection<GoogleError>(promise);
}

/** Creates a workflow through CreateWorkflow and resolves to it once the (already done) operation is. */
export async function createWorkflow(
  ctx: { workflows: WorkflowsClient },
  workflowId: string,
  sourceContents = ADD_ONE_SOURCE,
  description = '',
) {
  const [operation] = await ctx.workflows.createWorkflow({ parent: PARENT, workflowId, workflow: { sourceContents, description } });
  const [workflow] = await operation.promise();
  return workflow;
}

/** Polls GetExecution until the execution is no longer ACTIVE (at most 10 s, then throws). */
export async function untilDone(ctx: { executions: ExecutionsClient }, name: string) {
  return until(async () => {
    const [execution] = await ctx.executions.getExecution({ name });
    return execution.state !== 'ACTIVE' ? execution : undefined;
  }, `${name} to finish`, 10_000, 10);
}
