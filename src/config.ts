/**
 * Configuration of the server (spec "Configuration"): environment variables and their flags, a flag beating
 * its variable. Parsing returns a result instead of throwing, so the command line can print one line and
 * exit with code 2 on a bad value.
 *
 * | Variable      | Flag              | Default     |
 * |---------------|-------------------|-------------|
 * | PORT          | `--port`          | 8787        |
 * | HOST          | `--host`          | 0.0.0.0     |
 * | GRPC_PORT     | `--grpc-port`     | 8788        |
 * | PROJECT       | `--project`       | my-project  |
 * | LOCATION      | `--location`      | us-central1 |
 * | WORKFLOWS_DIR | `--workflows-dir` | (none)      |
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';

/** The server's settings, all resolved. */
export interface ServerConfig {
  /** REST and web UI port; 0 picks a free one. */
  readonly port: number;
  /** Bind address of both listeners. */
  readonly host: string;
  /** gRPC port; 0 picks a free one. */
  readonly grpcPort: number;
  readonly project: string;
  readonly location: string;
  /** Absolute path of the watched directory; undefined: API-only mode (zero workflows at start). */
  readonly workflowsDir?: string;
}

/** The defaults of the spec's Configuration table. */
export const DEFAULT_CONFIG: ServerConfig = {
  port: 8787,
  host: '0.0.0.0',
  grpcPort: 8788,
  project: 'my-project',
  location: 'us-central1',
};

/** What the command line asked for: run with a config, print help or the version, or fail with a message. */
export type ConfigResult =
  | { readonly kind: 'config'; readonly config: ServerConfig }
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'error'; readonly message: string };

/** The usage text `--help` prints. */
export const USAGE = `Usage: workflows-emulator [options]

Starts the emulator: the REST API and web UI on PORT, the gRPC API on GRPC_PORT, and (with a workflows
directory) every .yaml and .json file in it deployed as a workflow and kept in sync while running.

Options (each overrides its environment variable):
  --port <n>            REST API and web UI port (PORT, default 8787; 0: a free port)
  --grpc-port <n>       gRPC port (GRPC_PORT, default 8788; 0: a free port)
  --host <addr>         bind address (HOST, default 0.0.0.0)
  --project <id>        project in API paths (PROJECT, default my-project)
  --location <id>       location in API paths (LOCATION, default us-central1)
  --workflows-dir <dir> directory of workflow files to deploy and watch (WORKFLOWS_DIR)
  --help                print this help
  --version             print the version

Clients find the emulator through WORKFLOWS_EMULATOR_HOST (e.g. http://localhost:8787); the emulator itself
does not read it.
`;

const FLAGS = {
  '--port': 'PORT',
  '--host': 'HOST',
  '--grpc-port': 'GRPC_PORT',
  '--project': 'PROJECT',
  '--location': 'LOCATION',
  '--workflows-dir': 'WORKFLOWS_DIR',
} as const;
type Flag = keyof typeof FLAGS;

/**
 * Parses flags (`--port 9000` or `--port=9000`) and environment variables into a config. Unknown flags,
 * missing flag values, ports that are not integers in 0..65535, empty or malformed project, location or
 * host, and a workflows directory that does not exist or is not a directory are errors (one-line message).
 */
export function parseConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ConfigResult {
  const values = new Map<string, string>();
  for (const [flag, name] of Object.entries(FLAGS)) {
    const v = env[name];
    if (v !== undefined && v !== '') values.set(flag, v);
  }
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { kind: 'help' };
    if (arg === '--version' || arg === '-v') return { kind: 'version' };
    const eq = arg.indexOf('=');
    const flag = (eq > 0 ? arg.slice(0, eq) : arg) as Flag;
    if (!(flag in FLAGS)) return { kind: 'error', message: `unknown option "${arg}" (see --help)` };
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else {
      value = argv[++i];
      if (value === undefined || value.startsWith('--')) return { kind: 'error', message: `option ${flag} needs a value` };
    }
    values.set(flag, value);
  }

  const port = parsePort(values.get('--port'), DEFAULT_CONFIG.port, 'port (--port / PORT)');
  if (typeof port === 'string') return { kind: 'error', message: port };
  const grpcPort = parsePort(values.get('--grpc-port'), DEFAULT_CONFIG.grpcPort, 'gRPC port (--grpc-port / GRPC_PORT)');
  if (typeof grpcPort === 'string') return { kind: 'error', message: grpcPort };
  const host = values.get('--host') ?? DEFAULT_CONFIG.host;
  if (host.trim() === '' || /[\s/]/.test(host)) return { kind: 'error', message: `invalid host (--host / HOST): "${host}"` };
  const project = values.get('--project') ?? DEFAULT_CONFIG.project;
  if (!/^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(project)) {
    return { kind: 'error', message: `invalid project (--project / PROJECT): "${project}" (letters, digits, '-', '_', '.', ':')` };
  }
  const location = values.get('--location') ?? DEFAULT_CONFIG.location;
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(location)) {
    return { kind: 'error', message: `invalid location (--location / LOCATION): "${location}" (letters, digits, '-', '_')` };
  }
  let workflowsDir: string | undefined;
  const dir = values.get('--workflows-dir');
  if (dir !== undefined) {
    workflowsDir = resolve(dir);
    let isDir = false;
    try {
      isDir = statSync(workflowsDir).isDirectory();
    } catch {
      return { kind: 'error', message: `workflows directory (--workflows-dir / WORKFLOWS_DIR) does not exist: ${dir}` };
    }
    if (!isDir) return { kind: 'error', message: `workflows directory (--workflows-dir / WORKFLOWS_DIR) is not a directory: ${dir}` };
  }
  return {
    kind: 'config',
    config: { port, host, grpcPort, project, location, ...(workflowsDir !== undefined ? { workflowsDir } : {}) },
  };
}

/** A port number, or the error message when `text` is not an integer in 0..65535. */
function parsePort(text: string | undefined, fallback: number, what: string): number | string {
  if (text === undefined) return fallback;
  if (!/^\d{1,5}$/.test(text.trim())) return `invalid ${what}: "${text}" is not a number from 0 to 65535`;
  const n = Number(text.trim());
  if (n > 65535) return `invalid ${what}: ${n} is not a number from 0 to 65535`;
  return n;
}
