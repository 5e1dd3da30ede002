/**
 * Configuration of the server (docs/cli.md#configuration): environment variables and their flags, a flag beating
 * its variable. Parsing returns a result instead of throwing, so the command line can print one line and
 * exit with code 2 on a bad value.
 *
 * | Variable      | Flag              | Default     |
 * |---------------|-------------------|-------------|
 * | PORT          | `--port`          | 8787        |
 * | HOST          | `--host`          | 0.0.0.0     |
 * | GRPC_PORT     | `--grpc-port`     | 8788        |
 * | PROJECT       | `--project`       | my-project  |
 * | PROJECT_NUMBER| `--project-number`| 123456789012|
 * | LOCATION      | `--location`      | us-central1 |
 * | WORKFLOWS_DIR | `--workflows-dir` | (none)      |
 * | ALLOW_ORIGIN  | `--allow-origin`  | (none)      |
 * | ALLOWED_HOSTS | `--allowed-host`  | (none)      |
 * | MOCKS         | `--mocks`         | (none)      |
 * | CLOCK         | `--clock`         | real        |
 * | HISTORY       | `--history`       | basic       |
 * | VERBOSE       | `--verbose`       | (off)       |
 * | COMPAT        | `--compat`        | (spec)      |
 * | DATA_DIR      | `--data-dir`      | (none)      |
 * | RESUME        | `--resume`        | (off)       |
 * | MAX_EXECUTIONS| `--max-executions`| 100000      |
 * | IMPORT        | `--import`        | (none)      |
 * | EXPORT_ON_EXIT| `--export-on-exit`| (none)      |
 *
 * ALLOW_ORIGIN and ALLOWED_HOSTS are lists: the flag may be repeated, the variable holds comma-separated values.
 */
import { readFileSync, statSync } from 'node:fs';
import { MockFileError, parseMocks, type MockSet } from '../mocks/mock-file.ts';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parseCompat, type Compat } from '../lang/compat.ts';

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
  /** The project's number, GOOGLE_CLOUD_PROJECT_NUMBER (digits); default DEFAULT_PROJECT_NUMBER. */
  readonly projectNumber?: string;
  /** `google`: Google's behaviour where it and the specification differ (docs/compat.md); default the spec's. */
  readonly compat?: Compat;
  /** Absolute path of the watched directory; undefined: API-only mode (zero workflows at start). */
  readonly workflowsDir?: string;
  /** Browser origins allowed to change state (`--allow-origin`, src/api/browser-guard.ts); default none. */
  readonly allowOrigins?: readonly string[];
  /** Extra host names the REST port answers browsers on (`--allowed-host`); default none. */
  readonly allowedHosts?: readonly string[];
  /**
   * Step history of executions that do not set executionHistoryLevel (docs/rest-api.md#step-history): `basic` (default),
   * `detailed` (variables too) or `none`.
   */
  readonly history?: 'none' | 'basic' | 'detailed';
  /** Print a line for every execution that ends, not only for failed ones. */
  readonly verbose?: boolean;
  /** The mocks every execution starts with (docs/mocks-and-clock.md#mocks), read from `--mocks FILE`; none by default. */
  readonly mocks?: MockSet;
  /** `real` (the default) or `virtual`: time jumps whenever every execution waits (src/engine/virtual-time.ts). */
  readonly clock?: 'real' | 'virtual';
  /**
   * `--inspect[=PORT]`: the port where Debug Adapter Protocol clients attach to executions (docs/debugging.md);
   * undefined: no debugger. 0 picks a free port.
   */
  readonly inspect?: number;
  /** Absolute path of the data directory state is kept in across restarts (docs/persistence.md); undefined: memory only. */
  readonly dataDir?: string;
  /** Run executions that were ACTIVE when the emulator stopped again, instead of failing them (docs/persistence.md). */
  readonly resume?: boolean;
  /** Finished executions kept, oldest dropped first (docs/limits.md "Executions"); default 100,000. */
  readonly maxExecutions?: number;
  /** Absolute path of an export to load at start-up (docs/persistence.md#import-and-export). */
  readonly importDir?: string;
  /** Absolute path to write an export to on SIGINT/SIGTERM (docs/persistence.md#import-and-export). */
  readonly exportOnExit?: string;
}

/** The port of `--inspect` given without one (docs/debugging.md). */
export const DEFAULT_INSPECT_PORT = 8789;

/** The defaults of the configuration table (docs/cli.md#configuration). */
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

const FLAGS = {
  '--port': 'PORT',
  '--host': 'HOST',
  '--grpc-port': 'GRPC_PORT',
  '--project': 'PROJECT',
  '--location': 'LOCATION',
  '--project-number': 'PROJECT_NUMBER',
  '--compat': 'COMPAT',
  '--workflows-dir': 'WORKFLOWS_DIR',
  '--history': 'HISTORY',
  '--verbose': 'VERBOSE',
  '--mocks': 'MOCKS',
  '--clock': 'CLOCK',
  '--inspect': 'INSPECT',
  '--data-dir': 'DATA_DIR',
  '--resume': 'RESUME',
  '--max-executions': 'MAX_EXECUTIONS',
  '--import': 'IMPORT',
  '--export-on-exit': 'EXPORT_ON_EXIT',
} as const;
type Flag = keyof typeof FLAGS;
/** Flags that may be repeated, with their variable (comma-separated values). */
const LIST_FLAGS = { '--allow-origin': 'ALLOW_ORIGIN', '--allowed-host': 'ALLOWED_HOSTS' } as const;
type ListFlag = keyof typeof LIST_FLAGS;

/**
 * The words of a command line as node:util `parseArgs` tokens: `--name value` and `--name=value` for every
 * flag of {@link FLAGS} and {@link LIST_FLAGS}, `-h`/`--help`, `-v`/`--version`, `--verbose` with or without a
 * value. Not strict: unknown flags and positionals come back as tokens, so callers word their own errors.
 */
export function argvTokens(argv: readonly string[], extra: Readonly<Record<string, { type: 'string' | 'boolean' }>> = {}) {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
    verbose: { type: 'boolean' },
    resume: { type: 'boolean' },
    ...extra,
  };
  for (const flag of [...Object.keys(FLAGS), ...Object.keys(LIST_FLAGS)]) {
    if (flag !== '--verbose' && flag !== '--inspect' && flag !== '--resume') options[flag.slice(2)] = { type: 'string' };
  }
  return parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true }).tokens;
}

/**
 * Parses flags (`--port 9000` or `--port=9000`) and environment variables into a config. Unknown flags,
 * missing flag values, ports that are not integers in 0..65535, empty or malformed project, location or
 * host, and a workflows directory that does not exist or is not a directory are errors (one-line message).
 */
export function parseConfig(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): ConfigResult {
  try {
    const read = readSettings(argv, env);
    if ('kind' in read) return read;
    checkLists(read.lists);
    return { kind: 'config', config: { ...placeOf(read.values), ...behaviourOf(read.values), ...listsOf(read.lists), ...storageOf(read.values) } };
  } catch (e) {
    if (e instanceof ConfigProblem) return { kind: 'error', message: e.message };
    throw e;
  }
}

/** A problem with a flag or variable; its message is the one line the command prints. */
class ConfigProblem extends Error {}

function problem(message: string): never {
  throw new ConfigProblem(message);
}

/** The settings given: environment variables, then flags over them; or help or version when asked. */
function readSettings(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): { values: Map<string, string>; lists: Record<ListFlag, string[]> } | { kind: 'help' } | { kind: 'version' } {
  const values = new Map<string, string>();
  for (const [flag, name] of Object.entries(FLAGS)) {
    const v = env[name];
    if (v !== undefined && v !== '') values.set(flag, v);
  }
  const lists: Record<ListFlag, string[]> = { '--allow-origin': [], '--allowed-host': [] };
  const fromFlags = new Set<ListFlag>();
  for (const [flag, name] of Object.entries(LIST_FLAGS) as [ListFlag, string][]) {
    for (const v of (env[name] ?? '').split(',')) if (v.trim() !== '') lists[flag].push(v.trim());
  }
  for (const token of argvTokens(argv)) {
    if (token.kind === 'option-terminator') problem('unknown option "--" (see --help)');
    if (token.kind === 'positional') problem(`unknown option "${token.value}" (see --help)`);
    if (token.name === 'help') return { kind: 'help' };
    if (token.name === 'version') return { kind: 'version' };
    const flag = token.rawName as Flag;
    if (!(flag in FLAGS) && !(flag in LIST_FLAGS)) {
      problem(`unknown option "${token.rawName}${token.inlineValue ? `=${token.value}` : ''}" (see --help)`);
    }
    let value = token.value;
    if (value === undefined && (flag === '--verbose' || flag === '--resume')) value = '1';
    if (value === undefined && flag === '--inspect') value = String(DEFAULT_INSPECT_PORT);
    // `--port --host x`: a flag never takes the next flag as its value.
    if (value === undefined || (!token.inlineValue && value.startsWith('--'))) problem(`option ${flag} needs a value`);
    if (flag in LIST_FLAGS) {
      // A flag replaces its variable's list; repeated flags add to each other.
      const list = flag as unknown as ListFlag;
      if (!fromFlags.has(list)) lists[list] = [];
      fromFlags.add(list);
      lists[list].push(value);
    } else values.set(flag, value);
  }
  return { values, lists };
}

function checkLists(lists: Record<ListFlag, string[]>): void {
  for (const o of lists['--allow-origin']) {
    if (!isOrigin(o)) problem(`invalid origin (--allow-origin / ALLOW_ORIGIN): "${o}" (e.g. http://localhost:3000)`);
  }
  for (const h of lists['--allowed-host']) {
    if (!/^\.?[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?$/.test(h)) problem(`invalid host name (--allowed-host / ALLOWED_HOSTS): "${h}"`);
  }
}

function listsOf(lists: Record<ListFlag, string[]>): Pick<ServerConfig, 'allowOrigins' | 'allowedHosts'> {
  return {
    ...(lists['--allow-origin'].length ? { allowOrigins: lists['--allow-origin'] } : {}),
    ...(lists['--allowed-host'].length ? { allowedHosts: lists['--allowed-host'] } : {}),
  };
}

/** Where the emulator listens and the resources it names: ports, host, project, location, project number. */
function placeOf(values: Map<string, string>): Pick<ServerConfig, 'port' | 'host' | 'grpcPort' | 'project' | 'location' | 'projectNumber'> {
  const port = parsePort(values.get('--port'), DEFAULT_CONFIG.port, 'port (--port / PORT)');
  if (typeof port === 'string') problem(port);
  const grpcPort = parsePort(values.get('--grpc-port'), DEFAULT_CONFIG.grpcPort, 'gRPC port (--grpc-port / GRPC_PORT)');
  if (typeof grpcPort === 'string') problem(grpcPort);
  const host = values.get('--host') ?? DEFAULT_CONFIG.host;
  if (host.trim() === '' || /[\s/]/.test(host)) problem(`invalid host (--host / HOST): "${host}"`);
  const project = values.get('--project') ?? DEFAULT_CONFIG.project;
  if (!/^[A-Za-z0-9][A-Za-z0-9._:-]*$/.test(project)) {
    problem(`invalid project (--project / PROJECT): "${project}" (letters, digits, '-', '_', '.', ':')`);
  }
  const location = values.get('--location') ?? DEFAULT_CONFIG.location;
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(location)) {
    problem(`invalid location (--location / LOCATION): "${location}" (letters, digits, '-', '_')`);
  }
  const projectNumber = values.get('--project-number');
  if (projectNumber !== undefined && !/^[0-9]{1,19}$/.test(projectNumber)) {
    problem(`invalid project number (--project-number / PROJECT_NUMBER): "${projectNumber}" (digits)`);
  }
  return { port, host, grpcPort, project, location, ...(projectNumber !== undefined ? { projectNumber } : {}) };
}

/** How the emulator behaves: compat, the workflows directory, history, verbosity, clock, mocks and the debugger's port. */
function behaviourOf(values: Map<string, string>): Pick<ServerConfig, 'compat' | 'clock' | 'workflowsDir' | 'history' | 'verbose' | 'mocks' | 'inspect'> {
  const compat = parseCompat(values.get('--compat'));
  if (compat === undefined) problem(`invalid compat (--compat / COMPAT): "${values.get('--compat')}" (spec or google)`);
  const workflowsDir = workflowsDirOf(values.get('--workflows-dir'));
  const historyText = (values.get('--history') ?? 'basic').toLowerCase();
  const history = historyText === 'off' ? 'none' : historyText;
  if (history !== 'none' && history !== 'basic' && history !== 'detailed') {
    problem(`invalid history level (--history / HISTORY): "${historyText}" (basic, detailed or none)`);
  }
  const verboseText = (values.get('--verbose') ?? '0').toLowerCase();
  if (!['0', '1', 'true', 'false', ''].includes(verboseText)) problem(`invalid --verbose / VERBOSE: "${verboseText}" (1 or 0)`);
  const verbose = verboseText === '1' || verboseText === 'true';
  const clock = values.get('--clock') ?? 'real';
  if (clock !== 'real' && clock !== 'virtual') problem(`invalid clock (--clock / CLOCK): "${clock}" (real or virtual)`);
  const inspectText = values.get('--inspect');
  const inspect = inspectText === undefined ? undefined : parsePort(inspectText, DEFAULT_INSPECT_PORT, 'inspect port (--inspect / INSPECT)');
  if (typeof inspect === 'string') problem(inspect);
  const mocksFile = values.get('--mocks');
  const mocks = mocksFile === undefined ? undefined : readMockFile(mocksFile);
  if (typeof mocks === 'string') problem(mocks);
  return {
    ...(compat !== 'spec' ? { compat } : {}),
    ...(clock === 'virtual' ? { clock } : {}),
    ...(workflowsDir !== undefined ? { workflowsDir } : {}),
    ...(history !== 'basic' ? { history } : {}),
    ...(verbose ? { verbose } : {}),
    ...(mocks !== undefined ? { mocks } : {}),
    ...(inspect !== undefined ? { inspect } : {}),
  };
}

/** Where state is kept and read (docs/persistence.md): the data directory, --resume, the bound on executions, import and export. */
function storageOf(values: Map<string, string>): Pick<ServerConfig, 'dataDir' | 'resume' | 'maxExecutions' | 'importDir' | 'exportOnExit'> {
  const out: { -readonly [K in 'dataDir' | 'resume' | 'maxExecutions' | 'importDir' | 'exportOnExit']?: ServerConfig[K] } = {};
  const dataDir = values.get('--data-dir');
  if (dataDir !== undefined) out.dataDir = resolve(dataDir);
  const resumeText = (values.get('--resume') ?? '0').toLowerCase();
  if (!['0', '1', 'true', 'false', ''].includes(resumeText)) problem(`invalid --resume / RESUME: "${resumeText}" (1 or 0)`);
  if (resumeText === '1' || resumeText === 'true') out.resume = true;
  const max = values.get('--max-executions');
  if (max !== undefined) {
    if (!/^\d{1,9}$/.test(max.trim()) || Number(max) < 1) problem(`invalid --max-executions / MAX_EXECUTIONS: "${max}" (a whole number of 1 or more)`);
    out.maxExecutions = Number(max);
  }
  const importDir = values.get('--import');
  if (importDir !== undefined) {
    out.importDir = resolve(importDir);
    if (!existsDir(out.importDir)) problem(`import directory (--import / IMPORT) is not a directory: ${importDir}`);
  }
  const exportDir = values.get('--export-on-exit');
  if (exportDir !== undefined) out.exportOnExit = resolve(exportDir);
  if (out.resume && out.dataDir === undefined && out.importDir === undefined) {
    problem('--resume / RESUME needs --data-dir or --import: without either there is no execution to resume');
  }
  return out;
}

function existsDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The workflows directory, resolved; undefined when not given. */
function workflowsDirOf(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  const workflowsDir = resolve(dir);
  let isDir = false;
  try {
    isDir = statSync(workflowsDir).isDirectory();
  } catch {
    problem(`workflows directory (--workflows-dir / WORKFLOWS_DIR) does not exist: ${dir}`);
  }
  if (!isDir) problem(`workflows directory (--workflows-dir / WORKFLOWS_DIR) is not a directory: ${dir}`);
  return workflowsDir;
}

/**
 * Reads and checks a mock file (src/mocks/mock-file.ts); returns the problem as one line
 * (`mocks.yaml:4:7: unknown key 'mathc' ...`) when it cannot be read or is invalid.
 */
function readMockFile(path: string): MockSet | string {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    return `cannot read the mock file (--mocks / MOCKS) ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
  }
  try {
    return parseMocks(text, path);
  } catch (e) {
    if (e instanceof MockFileError) return `invalid mock file: ${e.message}`;
    throw e;
  }
}

/** True for an origin: `scheme://host[:port]`, with no path, query or fragment. */
function isOrigin(text: string): boolean {
  try {
    const u = new URL(text);
    return u.origin !== 'null' && (u.pathname === '/' || u.pathname === '') && u.search === '' && u.hash === '' && !/^[a-z]+:\/\/[^/]*\/./i.test(text);
  } catch {
    return false;
  }
}

/** A port number, or the error message when `text` is not an integer in 0..65535. */
function parsePort(text: string | undefined, fallback: number, what: string): number | string {
  if (text === undefined) return fallback;
  if (!/^\d{1,5}$/.test(text.trim())) return `invalid ${what}: "${text}" is not a number from 0 to 65535`;
  const n = Number(text.trim());
  if (n > 65535) return `invalid ${what}: ${n} is not a number from 0 to 65535`;
  return n;
}
