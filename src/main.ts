/**
 * The one file's entry point (docs/cli.md): run directly (`node dist/emulator.js`, `npx workflows-emulator`,
 * `deno run -A`, `bun`), it is the command line; imported (`import { startEmulator } from
 * 'workflows-emulator'`), it is the JS API of src/index.ts and starts nothing. This file only dispatches; the
 * server lives in src/server.ts and the options in src/cli/config.ts.
 *
 * Exit codes: 0 after SIGINT/SIGTERM or for --help/--version; 2 for a bad option or value, or a data directory
 * or export that cannot be read (one-line message on stderr); 1 when the server cannot start (e.g. the port
 * is in use).
 */
import { parseConfig } from './cli/config.ts';
import { isWildcard } from './api/http-server.ts';
import { startServer } from './server.ts';
import { VERSION } from './service/version.ts';
import { runCommand } from './cli/run.ts';
import { runtimeWarnings } from './cli/runtime.ts';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadModule } from './platform/libraries.ts';
import { ignoreStreamErrors, printLine, writeError } from './platform/std-streams.ts';

export * from './index.ts';
// Last: in the bundle, the modules that the packed module groups share with it (src/platform/packed-hosts.ts).
import './platform/packed-hosts.ts';

/** Runs the server command: parse options, start, print the listening line, stop on SIGINT/SIGTERM. */
async function serve(args: readonly string[]): Promise<void> {
  const parsed = parseConfig(args, process.env);
  switch (parsed.kind) {
    case 'help':
      printLine((await loadModule('help', 'src/cli/help.ts', () => import('./cli/help.ts'))).serverHelp(VERSION));
      return;
    case 'version':
      printLine(VERSION);
      return;
    case 'error':
      writeError(`workflows-emulator: ${parsed.message}\n`);
      process.exit(2);
  }
  const { config } = parsed;
  // Signal handlers go in before the listening line: a client may signal as soon as it reads that line.
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    if (!server) process.exit(0);
    // Exit even if a listener is slow to close (an export on exit gets longer).
    setTimeout(() => process.exit(0), config.exportOnExit !== undefined ? 60_000 : 2000).unref();
    server.close().then(
      () => process.exit(0),
      () => process.exit(0),
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // A closed or failing stdout or stderr (EPIPE behind `| head -n 1`) ends the printing, never the emulator
  // (docs/limits.md "Logs"): each is made when first written to, with a listener that ignores its errors
  // (src/platform/std-streams.ts; sys.log lines go through src/service/executions/log-sink.ts).
  ignoreStreamErrors();
  // A bug in one request or execution must not take the emulator (and every other execution) down.
  process.on('unhandledRejection', (e) => {
    writeError(`workflows-emulator: internal error (unhandled rejection): ${(e as Error)?.stack ?? String(e)}\n`);
  });

  try {
    server = await startServer(config);
  } catch (e) {
    // A data directory or export that cannot be read is bad input, like a bad option (docs/persistence.md#recovery).
    const bad = (e as Error)?.name === 'DataDirError';
    writeError(`workflows-emulator: ${bad ? 'cannot use the data: ' : 'cannot start: '}${(e as Error).message}\n`);
    process.exit(bad ? 2 : 1);
  }
  if (stopping) {
    await server.close();
    process.exit(0);
  }
  const grpc = server.grpcPort !== undefined ? `; gRPC on ${server.url.replace(/^http:\/\//, '').replace(/:\d+$/, '')}:${server.grpcPort}` : '';
  const inspect = server.inspectPort !== undefined ? `; debuggers attach on port ${server.inspectPort}` : '';
  const dir = config.workflowsDir !== undefined ? `; ${server.initialWorkflows.length} workflow(s) from ${config.workflowsDir}` : '';
  const exposed = isWildcard(config.host)
    ? `; bound to all interfaces (${config.host}): other machines can reach it, --host 127.0.0.1 for this machine only`
    : '';
  printLine(`workflows-emulator listening on ${server.url} (REST API; web UI at ${server.url}/ui${grpc}${inspect}${dir}${exposed})`);
}

/**
 * Whether this module is the program being run rather than a module imported by another. Deno and Bun (and Node
 * 22.18+) say so as `import.meta.main`; elsewhere on Node the entry script is `process.argv[1]`, compared by its
 * real path so that a symlink (npm's `node_modules/.bin/workflows-emulator`) still counts.
 */
function isMainModule(): boolean {
  const main = (import.meta as { main?: boolean }).main;
  if (typeof main === 'boolean') return main;
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false; // the entry script is not a file (node -e, a REPL): this module was imported
  }
}

/** Runs the command line: one-shot `run`, the `test` command, `debug`, `lint`, the language server, `graph`, or the server. */
async function main(args: readonly string[]): Promise<void> {
  // Runtime set-up problems (Deno permissions, an old Node) are said first, clearly: src/cli/runtime.ts.
  for (const warning of runtimeWarnings()) writeError(warning + '\n');
  // The one-shot command (docs/cli.md#one-shot-runs): src/cli/run.ts.
  if (args[0] === 'run') process.exit(await runCommand(args.slice(1)));
  // The test command (docs/testing.md): src/cli/test-command/test-command.ts.
  if (args[0] === 'test') process.exit(await (await loadModule('test', 'src/cli/test-command/test-command.ts', () => import('./cli/test-command/test-command.ts'))).testCommand(args.slice(1)));
  // A mock file to start from (docs/mocks-and-clock.md): src/cli/mocks-skeleton.ts.
  if (args[0] === 'mocks') process.exit(await (await loadModule('test', 'src/cli/mocks-skeleton.ts', () => import('./cli/mocks-skeleton.ts'))).mocksCommand(args.slice(1)));
  // The debugger over the Debug Adapter Protocol (docs/debugging.md): src/cli/debug.ts, loaded only here.
  if (args[0] === 'debug') process.exit(await (await loadModule('debug', 'src/cli/debug.ts', () => import('./cli/debug.ts'))).debugCommand(args.slice(1)));
  // The lint for CI (docs/lint.md): src/cli/lint.ts.
  if (args[0] === 'lint') process.exit((await loadModule('lint', 'src/cli/lint.ts', () => import('./cli/lint.ts'))).lintCommand(args.slice(1)));
  // The language server (docs/editor.md), loaded only for this command: src/lsp/server.ts.
  if (args[0] === 'lsp') {
    await (await loadModule('lsp', 'src/lsp/server.ts', () => import('./lsp/server.ts'))).startLanguageServer(process.stdin, process.stdout);
    return;
  }
  // The graph command (docs/graph.md): src/cli/graph.ts.
  if (args[0] === 'graph') process.exit((await loadModule('ui', 'src/cli/graph.ts', () => import('./cli/graph.ts'))).graphCommand(args.slice(1)));
  await serve(args);
}

if (isMainModule()) await main(process.argv.slice(2));
