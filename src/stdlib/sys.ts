/**
 * The `sys` namespace (docs/standard-library.md#sys, the sys table; Google's `sys` reference): environment values of
 * the execution, the current time, logging, and sleeping. Time, the environment and the log sink come from the
 * execution's {@link CallContext}, so tests control them.
 */
import { keyError, typeError, valueError } from '../lang/errors.ts';
import { checkValue } from '../lang/size-checks.ts';
import { isList, isMap, typeName, type Value } from '../lang/value.ts';
import { num, str } from './check.ts';
import type { CallContext, StdlibFunction } from './types.ts';

/** The severities sys.log accepts (docs/standard-library.md#sys), in increasing order. */
const LOG_SEVERITIES = [
  'DEFAULT',
  'DEBUG',
  'INFO',
  'NOTICE',
  'WARNING',
  'ERROR',
  'CRITICAL',
  'ALERT',
  'EMERGENCY',
] as const;

/** The types sys.log writes as `data` or `text` (Google's sys.log: integer, float, bool, string, list, dict). */
const LOGGABLE: ReadonlySet<string> = new Set(['int', 'double', 'bool', 'string', 'list', 'map']);

/**
 * The longest sleep, in seconds: 31,536,000 (one year), as Google's sys.sleep reference says ("Maximum is
 * 31536000"); also the spec's longest execution (docs/api-resources.md#limits: execution duration 1 year).
 */
const MAX_SLEEP_SEC = 31_536_000;

/**
 * Seconds (int or double, from 0 to {@link MAX_SLEEP_SEC}) to milliseconds.
 * @throws TypeError for a non-number; ValueError for a negative, NaN or over-a-year value.
 */
function secondsToMs(fn: string, arg: string, v: Value | undefined): number {
  const sec = Number(num(fn, arg, v));
  if (!(sec >= 0) || !Number.isFinite(sec)) throw valueError(`${fn}: ${arg} must be a non-negative number of seconds`);
  if (sec > MAX_SLEEP_SEC) throw valueError(`${fn}: ${arg} must be at most ${MAX_SLEEP_SEC} (one year), got ${sec}`);
  return sec * 1000;
}

/** Sleeps `ms` on the execution's clock; resolves with null, the value sys.sleep returns. */
function sleepMs(ms: number, ctx: CallContext): Promise<Value> {
  return ctx.clock.sleep(ms, ctx.signal).then(toNull);
}

/** null: one function for every sleep (a suspended execution holds its sleep's reaction). */
function toNull(): null {
  return null;
}

/** What identifies one execution, for its built-in environment variables. */
export interface ExecutionIds {
  readonly project: string;
  readonly location: string;
  readonly workflowId: string;
  readonly revisionId: string;
  readonly executionId: string;
  /** GOOGLE_CLOUD_PROJECT_NUMBER: the project's number (`--project-number`); {@link DEFAULT_PROJECT_NUMBER}. */
  readonly projectNumber?: string | undefined;
  /**
   * GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME: the execution's service account e-mail ({@link serviceAccountName});
   * absent: the project's default compute account.
   */
  readonly serviceAccount?: string | undefined;
}

/**
 * The project number an emulated project has unless configured (`--project-number` / PROJECT_NUMBER): twelve
 * digits, as Google's project numbers are, and recognisably not a real one.
 */
export const DEFAULT_PROJECT_NUMBER = '123456789012';

/**
 * The e-mail GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME gives: the account of a workflow's `serviceAccount` (written
 * `projects/{project}/serviceAccounts/{account}` or as the account alone), else the project's Compute Engine
 * default service account, `{projectNumber}-compute@developer.gserviceaccount.com`, which Google's workflows
 * run as when none is given (https://cloud.google.com/workflows/docs/authentication).
 */
export function serviceAccountName(serviceAccount: string | undefined, projectNumber: string = DEFAULT_PROJECT_NUMBER): string {
  if (serviceAccount !== undefined && serviceAccount !== '') return serviceAccount.slice(serviceAccount.lastIndexOf('/') + 1);
  return `${projectNumber}-compute@developer.gserviceaccount.com`;
}

/**
 * The built-in names (docs/standard-library.md#sys), each also under the real service's GOOGLE_CLOUD_* name, and Google's
 * GOOGLE_CLOUD_PROJECT_NUMBER and GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME
 * (https://cloud.google.com/workflows/docs/reference/environment-variables), by what gives their value.
 */
const BUILT_IN = new Map<string, (ids: ExecutionIds) => string>();
for (const [name, id] of [
  ['PROJECT_ID', 'project'],
  ['LOCATION', 'location'],
  ['WORKFLOW_ID', 'workflowId'],
  ['WORKFLOW_REVISION_ID', 'revisionId'],
  ['WORKFLOW_EXECUTION_ID', 'executionId'],
] as const) {
  const read = (ids: ExecutionIds): string => ids[id];
  BUILT_IN.set(`CLOUD_${name}`, read).set(`GOOGLE_CLOUD_${name}`, read);
}
BUILT_IN.set('GOOGLE_CLOUD_PROJECT_NUMBER', (ids) => ids.projectNumber ?? DEFAULT_PROJECT_NUMBER);
BUILT_IN.set('GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME', (ids) => serviceAccountName(ids.serviceAccount, ids.projectNumber));

/** `record[key]` when it is the record's own property. */
function own(record: Readonly<Record<string, string>> | undefined, key: string): string | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * One execution's environment as a read-only map: a lookup reads the built-ins, then `extra`, then `base`
 * (nothing is copied: every execution makes one, docs/architecture.md); iterating builds the whole map once.
 */
class ExecutionEnv implements ReadonlyMap<string, string> {
  #all: Map<string, string> | undefined;

  constructor(
    private readonly ids: ExecutionIds,
    private readonly extra: Readonly<Record<string, string>> | undefined,
    private readonly base: Readonly<Record<string, string>> | undefined,
  ) {}

  get(key: string): string | undefined {
    const read = BUILT_IN.get(key);
    if (read !== undefined) return read(this.ids);
    return own(this.extra, key) ?? own(this.base, key);
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  /** Every name and value: `base`, then `extra` over it, then the built-ins over both. */
  private all(): Map<string, string> {
    if (this.#all) return this.#all;
    const all = new Map<string, string>();
    for (const layer of [this.base, this.extra]) if (layer) for (const k of Object.keys(layer)) all.set(k, layer[k]!);
    for (const [name, read] of BUILT_IN) all.set(name, read(this.ids));
    return (this.#all = all);
  }

  get size(): number {
    return this.all().size;
  }
  forEach(callback: (value: string, key: string, map: ReadonlyMap<string, string>) => void, thisArg?: unknown): void {
    this.all().forEach((value, key) => callback.call(thisArg, value, key, this));
  }
  entries(): MapIterator<[string, string]> {
    return this.all().entries();
  }
  keys(): MapIterator<string> {
    return this.all().keys();
  }
  values(): MapIterator<string> {
    return this.all().values();
  }
  [Symbol.iterator](): MapIterator<[string, string]> {
    return this.all()[Symbol.iterator]();
  }
}

/**
 * The environment `sys.get_env` reads for one execution (docs/standard-library.md#sys: built-in environment variables): the
 * spec's CLOUD_PROJECT_ID, CLOUD_LOCATION, CLOUD_WORKFLOW_ID, CLOUD_WORKFLOW_REVISION_ID and
 * CLOUD_WORKFLOW_EXECUTION_ID, each also under the real service's GOOGLE_CLOUD_* name, and Google's
 * GOOGLE_CLOUD_PROJECT_NUMBER and GOOGLE_CLOUD_SERVICE_ACCOUNT_NAME, over `extra`
 * (user-supplied values, which the built-ins win over), itself over `base` (values `extra` may override).
 */
export function executionEnv(
  ids: ExecutionIds,
  extra?: Readonly<Record<string, string>>,
  base?: Readonly<Record<string, string>>,
): ReadonlyMap<string, string> {
  return new ExecutionEnv(ids, extra, base);
}

/** The `sys` rows of the standard-library table (gathered by src/stdlib/index.ts). */
export const functions: StdlibFunction[] = [
  {
    // docs/standard-library.md#sys: Environment value as string; with a default, returns it when unset; otherwise raises KeyError.
    // Google: "TypeError: If either name or default is not a string"
    // (https://cloud.google.com/workflows/docs/reference/stdlib/sys/get_env).
    name: 'sys.get_env',
    params: [{ name: 'name' }, { name: 'default', optional: true }],
    impl: ([name, dflt], ctx) => {
      const key = str('sys.get_env', 'name', name);
      const fallback = dflt === undefined ? undefined : str('sys.get_env', 'default', dflt);
      const v = ctx.env.get(key);
      if (v !== undefined) return v;
      if (fallback !== undefined) return fallback;
      throw keyError(`sys.get_env: environment variable '${key}' is not set`);
    },
  },
  {
    // docs/standard-library.md#sys: Current Unix time as double seconds (sub-millisecond where the clock has it).
    name: 'sys.now',
    params: [],
    impl: (_args, ctx) => ctx.clock.now() / 1000,
  },
  {
    // docs/standard-library.md#sys: sys.log(data, severity); `json` gives structured logging. Google's reference
    // (https://cloud.google.com/workflows/docs/reference/stdlib/sys/log): parameters data, severity, text, json,
    // timeout in that order (a `call` step may give them as a list); data or text of a type other than
    // integer, float, bool, string, list or dict, json other than a dict, more than one of them or none is a
    // TypeError; `text` is always a textPayload. A null argument counts as not given (the page's list form
    // writes `[${null}, "ERROR", ${myVar}]` to log text). `timestamp`, which older pages list, is accepted too;
    // `timestamp` and `timeout` are ignored (an entry carries the call's time; writing it never waits).
    name: 'sys.log',
    params: [
      { name: 'data', optional: true },
      { name: 'severity', optional: true, default: 'DEFAULT' },
      { name: 'text', optional: true },
      { name: 'json', optional: true },
      { name: 'timeout', optional: true },
      { name: 'timestamp', optional: true },
    ],
    impl: ([data, severity, text, json], ctx) => {
      const sev = str('sys.log', 'severity', severity ?? 'DEFAULT').toUpperCase();
      if (!(LOG_SEVERITIES as readonly string[]).includes(sev)) {
        throw valueError(`sys.log: severity must be one of ${LOG_SEVERITIES.join(', ')}, got '${sev}'`);
      }
      const given = [['data', data], ['text', text], ['json', json]].filter(([, v]) => v !== undefined && v !== null);
      if (given.length > 1) throw typeError(`sys.log: give one of data, text or json, not ${given.map(([n]) => n).join(' and ')}`);
      const [which, payload] = (given[0] ?? []) as [string | undefined, Value];
      if (which === undefined) throw typeError('sys.log: missing argument data (or text, or json)');
      if (which === 'json' && !isMap(payload)) throw typeError(`sys.log: json must be a map, got ${typeName(payload)}`);
      if (which !== 'json' && !LOGGABLE.has(typeName(payload))) {
        throw typeError(`sys.log: ${which} must be an int, double, bool, string, list or map, got ${typeName(payload)}`);
      }
      // The entry is written out as JSON: held to the value limits (256 KB strings, 512 KB maps and lists).
      checkValue('sys.log', payload);
      // Google's sys.log: a map or list given as `data`, or a `json` map, is a jsonPayload; `text` and
      // anything else a textPayload.
      ctx.log({
        time: new Date(ctx.clock.now()).toISOString(),
        severity: sev,
        payload,
        structured: which !== 'text' && (isMap(payload) || isList(payload)),
      });
      return null;
    },
  },
  {
    // docs/standard-library.md#sys: Pauses the execution; ends at once, with the execution, when it is cancelled.
    name: 'sys.sleep',
    params: [{ name: 'seconds' }],
    blocking: true,
    impl: ([seconds], ctx) => sleepMs(secondsToMs('sys.sleep', 'seconds', seconds), ctx),
  },
  {
    // Google's reference: sleeps until an RFC 3339 timestamp; a time in the past returns at once, one more than
    // a year away is a ValueError like sys.sleep's maximum.
    name: 'sys.sleep_until',
    params: [{ name: 'time' }],
    blocking: true,
    impl: ([time], ctx) => {
      const t = str('sys.sleep_until', 'time', time);
      const atMs = Date.parse(t);
      if (Number.isNaN(atMs)) throw valueError(`sys.sleep_until: '${t}' is not an RFC 3339 timestamp`);
      const ms = atMs - ctx.clock.now();
      if (ms > MAX_SLEEP_SEC * 1000) throw valueError(`sys.sleep_until: '${t}' is more than ${MAX_SLEEP_SEC} seconds (one year) away`);
      return ms > 0 ? sleepMs(ms, ctx) : null;
    },
  },
];
