/**
 * Helpers for in-process tests of the gRPC port with Connect's clients: a service core with its gRPC server
 * on a free loopback port, and the three protocols the port speaks (docs/grpc.md#the-grpc-api).
 */
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from '@connectrpc/connect-node';
import { startGrpcServer, type GrpcServer } from '../../src/api/grpc.ts';
import { createServiceCore } from '../../src/service/core.ts';
import type { ServiceCore } from '../../src/service/model.ts';

/** Connect's client transport for each protocol of the gRPC port. */
export const connectTransports = {
  gRPC: createGrpcTransport,
  'gRPC-Web': createGrpcWebTransport,
  Connect: createConnectTransport,
} as const;

/** A service core (my-project, us-central1) and its gRPC server on 127.0.0.1, port 0. */
export interface InProcessGrpc {
  readonly core: ServiceCore & { close(): void };
  readonly server: GrpcServer;
  /** Closes the server, then the core. */
  close(): Promise<void>;
}

/** Starts an {@link InProcessGrpc}. */
export async function startInProcessGrpc(): Promise<InProcessGrpc> {
  const core = createServiceCore({ project: 'my-project', location: 'us-central1', callbackBaseUrl: 'http://localhost:1', log: () => {} });
  const server = (await startGrpcServer(core, { host: '127.0.0.1', port: 0 }))!;
  return {
    core,
    server,
    close: async () => {
      await server.close();
      core.close();
    },
  };
}
