/**
 * The help texts of the server command and of `run` (`--help`), with the lines the server's help ends with on the
 * other commands. Printed only on `--help`, so the bundle carries them in the `help` module group
 * (src/platform/libraries.ts, build.mjs; docs/architecture.md#packed-libraries-and-module-groups), loaded on first
 * use; the other commands' help texts live in their own groups (lint, graph, debug, test).
 */
import { DEFAULT_PROJECT_NUMBER } from '../stdlib/sys.ts';

/** The server command's usage text. */
const USAGE = `Usage: workflows-emulator [options]

Starts the emulator: the REST API and web UI on PORT, the gRPC API on GRPC_PORT, and (with a workflows
directory) every .yaml and .json file in it deployed as a workflow and kept in sync while running.

Options (each overrides its environment variable):
  --port <n>            REST API and web UI port (PORT, default 8787; 0: a free port)
  --grpc-port <n>       gRPC port (GRPC_PORT, default 8788; 0: a free port)
  --host <addr>         bind address (HOST, default 0.0.0.0)
  --project <id>        project in API paths (PROJECT, default my-project)
  --location <id>       location in API paths (LOCATION, default us-central1)
  --project-number <n>  GOOGLE_CLOUD_PROJECT_NUMBER of executions (PROJECT_NUMBER, default ${DEFAULT_PROJECT_NUMBER})
  --compat <mode>       spec (default) or google: Google's behaviour where it and the specification differ
                        (COMPAT; docs/compat.md lists each point)
  --workflows-dir <dir> directory of workflow files to deploy and watch (WORKFLOWS_DIR)
  --allow-origin <url>  a web origin whose pages may change state through the API, e.g.
                        http://localhost:3000 (repeatable; ALLOW_ORIGIN, comma-separated). Without it,
                        browsers on other origins are refused (403); curl and SDKs are never affected.
  --allowed-host <name> a host name browsers may reach the emulator by, besides localhost, IP addresses and
                        this machine's name (repeatable; ALLOWED_HOSTS, comma-separated; .name: subdomains)
  --history <level>     step history of each execution: basic, detailed (with variables) or none
                        (HISTORY, default basic; a workflow's or execution's executionHistoryLevel wins)
  --verbose             print a line when any execution ends, not only when one fails (VERBOSE=1)
  --mocks <file>        mock file (YAML or JSON) for http.* and connector calls (MOCKS)
  --clock <mode>        real (default) or virtual: sleeps, backoffs and delays take no time (CLOCK)
  --data-dir <dir>      keep workflows, executions, calls, logs and callbacks in this directory across
                        restarts (DATA_DIR; docs/persistence.md); default: in memory only
  --resume              with --data-dir or --import: run executions that were ACTIVE when the emulator
                        stopped again, instead of ending them FAILED (RESUME=1)
  --max-executions <n>  finished executions kept, oldest dropped first (MAX_EXECUTIONS, default 100000)
  --import <dir>        load an export (workflows, executions) at start-up (IMPORT)
  --export-on-exit <dir> write an export of the state on SIGINT/SIGTERM (EXPORT_ON_EXIT)
  --inspect[=<port>]    accept debuggers (Debug Adapter Protocol over TCP, default port 8789) that attach
                        to executions by workflow or by execution (INSPECT; docs/debugging.md)
  --help                print this help
  --version             print the version

Clients find the emulator through WORKFLOWS_EMULATOR_HOST (e.g. http://localhost:8787); the emulator itself
does not read it.
`;

/** The usage text of `workflows-emulator run --help`. */
export const RUN_USAGE = `Usage: workflows-emulator run <file.yaml|file.json> [--data '<json>' | --data @args.json] [options]

Runs one execution of the workflow in the file, without the management API, and exits.
  stdout  the result as JSON (nothing else)
  stderr  sys.log lines (JSON), callback URLs being waited on, and on failure the error payload's JSON
          as the last line
  exit    0 SUCCEEDED, 1 FAILED, 2 invalid definition (file:line:col) or bad arguments,
          130/143 interrupted (SIGINT/SIGTERM; the execution is cancelled)

Options:
  --data <json>         the execution argument as JSON text (default: none, i.e. null)
  --data @<file>        the argument read from a JSON file; --data @- reads standard input
  --port <n>            port of the callback endpoint, opened only when the workflow creates a callback
                        (PORT; default: a free port)
  --host <addr>         bind address of the callback endpoint (HOST, default 0.0.0.0)
  --project <id>        CLOUD_PROJECT_ID (PROJECT, default my-project)
  --location <id>       CLOUD_LOCATION (LOCATION, default us-central1)
  --project-number <n>  GOOGLE_CLOUD_PROJECT_NUMBER (PROJECT_NUMBER, default 123456789012)
  --env NAME=VALUE      a user environment variable sys.get_env reads (repeatable; a workflow's userEnvVars)
  --env-file <file>     user environment variables, one NAME=VALUE per line (# comments); --env wins
  --mocks <file>        mock file for http.* and connector calls (MOCKS); an invalid one exits 2
  --clock <mode>        real (default) or virtual: sleeps, backoffs and mock delays take no time (CLOCK)
  --history <level>     record the step history (basic, or detailed with variables) and print its step
                        entries on stderr after the run, one JSON line each: {"stepEntry": {...}}
  --call-log <level>    call logging: LOG_ALL_CALLS, LOG_ERRORS_ONLY or LOG_NONE (default); the
                        call log lines go to stderr beside the sys.log lines
  --workflows-dir <dir> where child workflows (the Workflow Executions connector) are found: a file
                        whose name gives the workflow ID (default: the workflow file's directory)
  --compat <mode>       spec (default) or google: Google's behaviour where it and the specification differ
                        (COMPAT; docs/compat.md)
  --record <file>       write the run as a test case to FILE (a *.test.yaml; an existing file gets the
                        case appended), for \`workflows-emulator test\` (docs/recording.md)
  --help                print this help
`;

/** The lines the server's `--help` ends with, pointing at the run command. */
const RUN_HINT = `
One-shot runs (no management API; result on stdout, exit 0 SUCCEEDED, 1 FAILED, 2 invalid):
  workflows-emulator run <file.yaml|file.json> [--data '<json>' | --data @args.json]   (see run --help)
`;

/** The help's lines on the commands for CI and editors (their modules load only when they run). */
const TOOLS_HINT = `
Checks for CI and editors:
  workflows-emulator lint [PATH...] [--format text|json|sarif] [--max-warnings N]   (see lint --help; docs/lint.md)
  workflows-emulator lsp    the language server, over stdio (docs/editor.md)
`;

/** The lines the server's `--help` ends with, pointing at the graph command (src/cli/graph.ts). */
const GRAPH_HINT = `
Graphs (docs/graph.md):
  workflows-emulator graph <file.yaml|file.json> [--format svg|mermaid|dot] [--output <file>]   (see graph --help)
`;

/** The server's `--help`: a line naming the emulator and `version`, its usage, then the other commands' lines. */
export function serverHelp(version: string): string {
  return `workflows-emulator ${version}: a local emulator of Google Cloud Workflows\n\n${USAGE}${RUN_HINT}${TOOLS_HINT}${GRAPH_HINT}`.replace(/\n$/, '');
}
