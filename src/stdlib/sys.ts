/**
 * The `sys` namespace (spec "Standard library", sys table; Google's `sys` reference): environment values of
 * the execution, the current time, logging, and sleeping. Time, the environment and the log sink come from the
 * execution's {@link CallContext}, so tests control them.
 */
import { keyError, typeError, valueError } from '../lang/errors.ts';
import { checkValue } from '../lang/size-limits.ts';
import { isList, isMap, typeName, type Value } from '../lang/value.ts';
import { num, str } from './check.ts';
import type { CallContext, StdlibFunction } from './types.ts';

/** The severities sys.log accepts (spec "sys"), in increasing order. */
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

/**
 * The longest sleep, in seconds: 31,536,000 (one year), as Google's sys.sleep reference says ("Maximum is
 * 31536000"); also the spec's longest execution (spec "Limits": execution duration 1 year).
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

function sleepMs(ms: number, ctx: CallContext): Promise<Value> {
  return ctx.clock.sleep(ms, ctx.signal).then(() => null);
}

/** What identifies one execution, for its built-in environment variables. */
export interface ExecutionIds {
  readonly project: string;
  readonly location: string;
  readonly workflowId: string;
  readonly revisionId: string;
  readonly executionId: string;
}

/** The built-in names (spec "sys"), each also under the real service's GOOGLE_CLOUD_* name, by the ID they give. */
const BUILT_IN = new Map<string, keyof ExecutionIds>();
for (const [name, id] of [
  ['PROJECT_ID', 'project'],
  ['LOCATION', 'location'],
  ['WORKFLOW_ID', 'workflowId'],
  ['WORKFLOW_REVISION_ID', 'revisionId'],
  ['WORKFLOW_EXECUTION_ID', 'executionId'],
] as const) {
  BUILT_IN.set(`CLOUD_${name}`, id).set(`GOOGLE_CLOUD_${name}`, id);
}

/** `record[key]` when it is the record's own property. */
function own(record: Readonly<Record<string, string>> | undefined, key: string): string | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * One execution's environment as a read-only map: a lookup reads the built-ins, then `extra`, then `base`
 * (nothing is copied: every execution makes one, issue 17); iterating builds the whole map once.
 */
class ExecutionEnv implements ReadonlyMap<string, string> {
  #all: Map<string, string> | undefined;

  constructor(
    private readonly ids: ExecutionIds,
    private readonly extra: Readonly<Record<string, string>> | undefined,
    private readonly base: Readonly<Record<string, string>> | undefined,
  ) {}

  get(key: string): string | undefined {
    const id = BUILT_IN.get(key);
    if (id !== undefined) return this.ids[id];
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
    for (const [name, id] of BUILT_IN) all.set(name, this.ids[id]);
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
 * The environment `sys.get_env` reads for one execution (spec "sys": built-in environment variables): the
 * spec's CLOUD_PROJECT_ID, CLOUD_LOCATION, CLOUD_WORKFLOW_ID, CLOUD_WORKFLOW_REVISION_ID and
 * CLOUD_WORKFLOW_EXECUTION_ID, each also under the real service's GOOGLE_CLOUD_* name, over `extra`
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
    // Spec: "Environment value as string; with a default, returns it when unset; otherwise raises KeyError".
    name: 'sys.get_env',
    params: [{ name: 'name' }, { name: 'default', optional: true }],
    impl: ([name, dflt], ctx) => {
      const key = str('sys.get_env', 'name', name);
      const v = ctx.env.get(key);
      if (v !== undefined) return v;
      if (dflt !== undefined) return dflt;
      throw keyError(`sys.get_env: environment variable '${key}' is not set`);
    },
  },
  {
    // Spec: "Current Unix time as double seconds" (sub-millisecond where the clock has it).
    name: 'sys.now',
    params: [],
    impl: (_args, ctx) => ctx.clock.now() / 1000,
  },
  {
    // Spec: "sys.log(data, severity)"; `text` is an alias of `data`; `json` gives structured logging (a map or list).
    // Google's reference also lists `timestamp`, accepted and ignored here (entries carry the call time).
    name: 'sys.log',
    params: [
      { name: 'data', aliases: ['text'], optional: true },
      { name: 'severity', optional: true, default: 'DEFAULT' },
      { name: 'json', optional: true },
      { name: 'timestamp', optional: true },
    ],
    impl: ([data, severity, json], ctx) => {
      const sev = str('sys.log', 'severity', severity).toUpperCase();
      if (!(LOG_SEVERITIES as readonly string[]).includes(sev)) {
        throw valueError(`sys.log: severity must be one of ${LOG_SEVERITIES.join(', ')}, got '${sev}'`);
      }
      if (data !== undefined && json !== undefined) throw typeError('sys.log: give either data (text) or json, not both');
      if (json !== undefined && !isMap(json) && !isList(json)) {
        throw typeError(`sys.log: json must be a map or a list, got ${typeName(json)}`);
      }
      if (data === undefined && json === undefined) throw typeError('sys.log: missing argument data (or text, or json)');
      // The entry is written out as JSON: held to the value limits (256 KB strings, 512 KB maps and lists).
      const payload = checkValue('sys.log', json ?? data!);
      // Google's sys.log: a map or list (given as `data` or `json`) is a jsonPayload, anything else a textPayload.
      ctx.log({
        time: new Date(ctx.clock.now()).toISOString(),
        severity: sev,
        payload,
        structured: isMap(payload) || isList(payload),
      });
      return null;
    },
  },
  {
    // Spec: "Pauses the execution"; ends at once, with the execution, when it is cancelled.
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
