/**
 * The running emulator: one service core behind REST and the web UI (node:http on PORT), gRPC (GRPC_PORT)
 * and the directory watcher (WORKFLOWS_DIR). Used by the command line (src/main.ts), by black-box and
 * in-process tests, and by the JS API for test suites.
 */
import { createRestHandler, type RestHandler } from './api/rest.ts';
import { displayHost, listenHttp } from './api/http-server.ts';
import { startGrpcServer, type GrpcServer } from './api/grpc.ts';
import { DEFAULT_CONFIG, type ServerConfig } from './cli/config.ts';
import { createServiceCore } from './service/core.ts';
import type { ServiceCoreOptions } from './service/service-core-options.ts';
import type { OpenedPersistence } from './service/persist/open.ts';
import type { ServiceCore } from './service/model.ts';
import { splitName } from './service/names.ts';
import { watchDirectory, type DirectoryWatcher, type WatchOptions } from './service/watch/watch-directory.ts';
import { executionEndLine } from './service/executions/execution-end-line.ts';
import { serveControl } from './api/control.ts';
import { createVirtualTime } from './engine/virtual-time.ts';
import type { EmulatorControl } from './service/model.ts';
import type { Inspector } from './debug/inspect.ts';
import { DebugHub } from './debug/hub.ts';
import { loadModule } from './platform/libraries.ts';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UiService } from './ui/routes.ts';
import { writeError } from './platform/std-streams.ts';

/** What {@link startServer} accepts: any part of the config (defaults from the spec), plus hooks for tests. */
export interface StartOptions extends Partial<ServerConfig> {
  /** Extra service options (clock, fetch, env, sys.log sink) passed to createServiceCore. */
  readonly service?: Pick<ServiceCoreOptions, 'clock' | 'fetch' | 'env' | 'log'>;
  /** Directory watcher options (its log sink, debounce). */
  readonly watch?: WatchOptions;
  /** Where the line for an ended execution goes (FAILED ones; every one with `verbose`); default stderr. */
  readonly printExecutionEnd?: (line: string) => void;
}

/** A running emulator. */
export interface RunningServer {
  /** Base URL of REST and the web UI (`http://localhost:8787`; `localhost` when bound to all interfaces). */
  readonly url: string;
  /** The REST port actually bound. */
  readonly port: number;
  /** The gRPC port actually bound; undefined when gRPC is not available. */
  readonly grpcPort?: number;
  /** The `--inspect` port actually bound (docs/debugging.md); undefined without `--inspect`. */
  readonly inspectPort?: number;
  /** The service core every surface shares, with its control side (mocks, clock, reset). */
  readonly service: ServiceCore & EmulatorControl;
  /** Back to the start (`POST /emulator/v1/reset`): see EmulatorControl.reset; the watched directory is deployed again. */
  reset(): Promise<void>;
  /** Workflow IDs deployed from the workflows directory at start-up (empty without one). */
  readonly initialWorkflows: readonly string[];
  /** Stops the watcher and both listeners, and cancels running executions. */
  close(): Promise<void>;
}

/**
 * Starts REST + UI, gRPC and the directory watcher. Port 0 picks a free port. Resolves once everything
 * listens and the initial workflow files are deployed.
 *
 * @throws the listen error of either port (e.g. `EADDRINUSE`); nothing stays open then.
 */
export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const config: ServerConfig = { ...DEFAULT_CONFIG, ...stripUndefined(options) };
  const stored = await openStoredState(config);
  let handler: RestHandler | undefined;
  // The port must be known before the core exists (callback URLs carry it), so listen first and answer
  // 503 for the instant before the core is ready.
  const http = await listenHttp(
    (req, res) => {
      if (handler) return handler(req, res);
      res.writeHead(503, { 'content-type': 'application/json; charset=utf-8' });
      res.end(JSON.stringify({ error: { code: 503, message: 'the emulator is starting', status: 'UNAVAILABLE' } }));
    },
    { host: config.host, port: config.port },
  );
  const url = `http://${displayHost(config.host)}:${http.port}`;
  let watcher: DirectoryWatcher | undefined;
  // Executions created with "debug": true run under the debugger, driven from the web UI or over --inspect
  // (docs/debugging.md); the protocol's library is loaded only with --inspect.
  const hub = new DebugHub();
  // A data directory or an export that does not load (docs/persistence.md#recovery) leaves nothing open.
  const service = await closingOnThrow([http, { close: async () => stored?.persistence?.close() }], () => createServiceCore(
    serviceOptions(config, options, { url, hub, stored, fileOf: (workflowId) => watcher?.fileOf(workflowId) }),
  ));
  const reset = async (): Promise<void> => {
    service.reset();
    if (config.workflowsDir !== undefined) {
      watcher?.close();
      watcher = await watchDirectory(service, config.workflowsDir, options.watch);
    }
  };
  handler = createRestHandler(service, {
    ui: lazyUi(service, hub),
    control: (req, res, path) => serveControl({ service, reset }, req, res, path),
    allowOrigins: config.allowOrigins ?? [],
    allowedHosts: config.allowedHosts ?? [],
    boundHost: config.host,
  });

  let grpc: GrpcServer | undefined;
  let inspector: Inspector | undefined;
  try {
    await stored?.afterStart();
    grpc = await startGrpcServer(service, { host: config.host, port: config.grpcPort });
    if (config.inspect !== undefined) inspector = await (await loadModule('debug', 'src/debug/inspect.ts', () => import('./debug/inspect.ts'))).startInspector(hub, config.host, config.inspect);
    if (config.workflowsDir !== undefined) watcher = await watchDirectory(service, config.workflowsDir, options.watch);
  } catch (e) {
    await grpc?.close();
    await inspector?.close();
    await http.close();
    await stored?.persistence?.close();
    service.close();
    throw e;
  }

  let closing: Promise<void> | undefined;
  return {
    url,
    port: http.port,
    ...(grpc ? { grpcPort: grpc.port } : {}),
    ...(inspector ? { inspectPort: inspector.port } : {}),
    service,
    reset,
    initialWorkflows: watcher?.initial ?? [],
    close() {
      // The watcher of the moment: a reset replaces it.
      closing ??= closeEmulator(config, { watcher, stored, service, listeners: [grpc, inspector, http] });
      return closing;
    },
  };
}

/**
 * The data directory and the import, opened before anything listens (undefined with neither), and the
 * --export-on-exit directory checked: one that cannot be read or written stops start-up (docs/persistence.md).
 */
async function openStoredState(config: ServerConfig): Promise<OpenedPersistence | undefined> {
  const stored = config.dataDir !== undefined || config.importDir !== undefined
    ? (await loadModule('persist', 'src/service/persist/open.ts', () => import('./service/persist/open.ts'))).openPersistence({ dataDir: config.dataDir, importDir: config.importDir, resume: config.resume })
    : undefined;
  // An --export-on-exit directory that cannot take the export is found now, not when the state would be lost.
  if (config.exportOnExit !== undefined) (await loadModule('persist', 'src/service/persist/open.ts', () => import('./service/persist/open.ts'))).checkExportTarget(config.exportOnExit);
  return stored;
}

/** What {@link serviceOptions} wires into the service core besides the config. */
interface CoreWiring {
  /** The REST base URL, known once the port is bound: callback URLs carry it. */
  readonly url: string;
  readonly hub: DebugHub;
  readonly stored: OpenedPersistence | undefined;
  /** The workflow file a workflow ID was deployed from by the watcher, if any (for the ended execution's line). */
  readonly fileOf: (workflowId: string) => string | undefined;
}

/** The service core's options: the config's, the server's wiring, then the test hooks of `options.service`. */
function serviceOptions(config: ServerConfig, options: StartOptions, wiring: CoreWiring): ServiceCoreOptions {
  const printEnd = options.printExecutionEnd ?? ((line: string) => void writeError(line + '\n'));
  return {
    project: config.project,
    location: config.location,
    ...(config.projectNumber !== undefined ? { projectNumber: config.projectNumber } : {}),
    ...(config.compat === 'google' ? { compat: config.compat } : {}),
    callbackBaseUrl: wiring.url,
    ...(config.history !== undefined ? { defaultHistory: config.history } : {}),
    onExecutionEnd: (execution) => {
      if (execution.state !== 'FAILED' && !config.verbose) return;
      const workflowId = splitName(execution.name, ['workflows', 'executions'])?.ids[0] ?? execution.name;
      printEnd(executionEndLine(workflowId, execution, wiring.fileOf(workflowId)));
    },
    ...(config.clock === 'virtual' ? { clock: createVirtualTime() } : {}),
    ...(config.mocks !== undefined ? { mocks: config.mocks } : {}),
    debuggerFor: (execution, requested) => wiring.hub.debuggerFor(execution, requested),
    ...(config.maxExecutions !== undefined ? { maxRetainedExecutions: config.maxExecutions } : {}),
    ...(wiring.stored ? { persistence: wiring.stored.attach } : {}),
    ...options.service,
  };
}

/** What a running emulator's close stops. */
interface OpenParts {
  readonly watcher: DirectoryWatcher | undefined;
  readonly stored: OpenedPersistence | undefined;
  readonly service: ServiceCore & EmulatorControl & { close(): void };
  /** gRPC, --inspect and REST, those that were started. */
  readonly listeners: readonly ({ close(): Promise<void> } | undefined)[];
}

/** Stops the watcher, writes the export of `--export-on-exit`, closes the data directory, then the service and the listeners. */
async function closeEmulator(config: ServerConfig, open: OpenParts): Promise<void> {
  open.watcher?.close();
  if (config.exportOnExit !== undefined) await exportOnExit(open.service, config.exportOnExit);
  // Written before the running executions are cancelled: on disk they stay ACTIVE (docs/persistence.md).
  await open.stored?.persistence?.close().catch((e: unknown) => void writeError(`workflows-emulator: ${(e as Error).message}\n`));
  open.service.close();
  await Promise.all(open.listeners.map((l) => l?.close()));
}

/** `make()`, or, when it throws, its error once each of `open` is closed. */
async function closingOnThrow<T>(open: readonly { close(): Promise<unknown> }[], make: () => T): Promise<T> {
  try {
    return make();
  } catch (e) {
    for (const o of open) await o.close();
    throw e;
  }
}

/** Writes the export of `--export-on-exit`, saying where on stderr (or why it could not). */
async function exportOnExit(service: EmulatorControl, directory: string): Promise<void> {
  try {
    const r = await service.exportTo(directory);
    writeError(`workflows-emulator: exported ${r.workflows} workflow(s) and ${r.executions} execution(s) to ${r.directory}\n`);
  } catch (e) {
    writeError(`workflows-emulator: could not export to ${directory}: ${(e as Error).message}\n`);
  }
}

/**
 * The web UI's handler (src/ui/routes.ts `createUi`), loaded on the first request for the UI: in the bundle the
 * UI's code is a module group loaded on first use (src/platform/libraries.ts), which start-up does not parse.
 */
function lazyUi(service: UiService, hub: DebugHub): (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void> {
  let ui: Promise<(req: IncomingMessage, res: ServerResponse, url: URL) => void | Promise<void>> | undefined;
  return async (req, res, url) => {
    ui ??= loadModule('ui', 'src/ui/routes.ts', () => import('./ui/routes.ts')).then((m) => m.createUi(service, { debug: hub }));
    return (await ui)(req, res, url);
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] !== undefined) out[k] = o[k];
  return out;
}
