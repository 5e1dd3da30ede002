/** Placeholder until the gRPC API lands (issue 5); its owner replaces the whole file. */
import type { ServiceCore } from '../service/model.ts';

/** A running gRPC listener. */
export interface GrpcServer {
  /** The port it listens on (the real one when 0 was asked for). */
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serves the Workflows and Executions gRPC services for `service` over h2c on host:port (0: a free port).
 */
export async function startGrpcServer(_service: ServiceCore, _opts: { host: string; port: number }): Promise<GrpcServer | undefined> {
  return undefined;
}
