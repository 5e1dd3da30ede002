/**
 * The settings of a workflow beyond its source (Google's Workflows v1 `Workflow` resource): `labels`,
 * `userEnvVars`, `serviceAccount`, `cryptoKeyName`, and an execution's `labels` (`callLogLevel` is
 * call-logging.ts's). Each is checked as Google documents it, stored and returned; `userEnvVars` are what
 * `sys.get_env` reads besides the built-in values; an execution's labels are its workflow's, overridden by
 * its own (Google's Execution.labels). Nothing here enforces a service account or a key: they are recorded.
 *
 * Rules (Google's Workflow and Execution references):
 * - labels: at most 64; keys 1-63 and values 0-63 characters of lowercase letters, digits, `_` and `-`
 *   (international lowercase letters too); a key starts with a lowercase letter.
 * - userEnvVars: at most 20; a key is not empty and does not start with `GOOGLE` or `WORKFLOWS`; each key and
 *   value at most 4 KiB (UTF-8).
 * - serviceAccount: `projects/{project}/serviceAccounts/{account}` or an account e-mail or ID.
 * - cryptoKeyName: `projects/{project}/locations/{location}/keyRings/{keyRing}/cryptoKeys/{cryptoKey}`.
 * Every violation is an ApiError INVALID_ARGUMENT naming the field and the rule.
 */
import { ApiError } from '../errors.ts';
import { splitName } from '../names.ts';

/** The settings of a workflow as stored and returned; absent fields are unset. */
export interface WorkflowSettings {
  readonly labels?: Readonly<Record<string, string>>;
  readonly userEnvVars?: Readonly<Record<string, string>>;
  readonly serviceAccount?: string;
  readonly cryptoKeyName?: string;
}

/** The names of the settings, as in the REST JSON and update masks. */
export const SETTING_NAMES = ['labels', 'userEnvVars', 'serviceAccount', 'cryptoKeyName'] as const;

/** The settings whose change makes a new revision (they belong to a revision, like the source). */
const REVISION_SETTINGS = ['userEnvVars', 'serviceAccount', 'cryptoKeyName'] as const;

const MAX_LABELS = 64;
const MAX_LABEL_CHARS = 63;
const MAX_USER_ENV_VARS = 20;
const MAX_USER_ENV_BYTES = 4096;

/**
 * Checks the settings given in a request; `input` holds the raw values (from JSON or a message).
 * @throws ApiError INVALID_ARGUMENT naming the field and the rule it breaks.
 */
export function checkSettings(input: Readonly<Record<string, unknown>>): WorkflowSettings {
  const out: { -readonly [K in keyof WorkflowSettings]: WorkflowSettings[K] } = {};
  const labels = checkLabels(input['labels'], 'labels');
  if (labels) out.labels = labels;
  const env = checkUserEnvVars(input['userEnvVars']);
  if (env) out.userEnvVars = env;
  const sa = optionalString(input['serviceAccount'], 'serviceAccount');
  if (sa) {
    if (!/^(projects\/[^/]+\/serviceAccounts\/[^/]+|[^/\s]+)$/.test(sa)) {
      throw ApiError.invalidArgument(`serviceAccount must be projects/{project}/serviceAccounts/{account} or an account, got "${sa}"`);
    }
    out.serviceAccount = sa;
  }
  const key = optionalString(input['cryptoKeyName'], 'cryptoKeyName');
  if (key) {
    if (!splitName(key, ['keyRings', 'cryptoKeys'])) {
      throw ApiError.invalidArgument(`cryptoKeyName must be projects/{project}/locations/{location}/keyRings/{keyRing}/cryptoKeys/{cryptoKey}, got "${key}"`);
    }
    out.cryptoKeyName = key;
  }
  return out;
}

/** Whether two settings differ in a field that belongs to a revision (so a new revision is made). */
export function revisionSettingsDiffer(a: WorkflowSettings, b: WorkflowSettings): boolean {
  return REVISION_SETTINGS.some((k) => JSON.stringify(a[k] ?? null) !== JSON.stringify(b[k] ?? null));
}

/** Whether two settings differ at all. */
export function settingsDiffer(a: WorkflowSettings, b: WorkflowSettings): boolean {
  return SETTING_NAMES.some((k) => JSON.stringify(a[k] ?? null) !== JSON.stringify(b[k] ?? null));
}

/** The settings part of a stored workflow (or anything holding them). */
export function settingsOf(w: WorkflowSettings): WorkflowSettings {
  const out: Record<string, unknown> = {};
  for (const k of SETTING_NAMES) if (w[k] !== undefined) out[k] = w[k];
  return out as WorkflowSettings;
}

/**
 * Labels of a workflow or an execution (Google: at most 64; lowercase letters, digits, `_`, `-`).
 * @returns undefined for an absent or empty map.
 * @throws ApiError INVALID_ARGUMENT
 */
export function checkLabels(v: unknown, field: string): Readonly<Record<string, string>> | undefined {
  const map = stringMap(v, field);
  if (!map) return undefined;
  const keys = Object.keys(map);
  if (keys.length > MAX_LABELS) throw ApiError.invalidArgument(`${field}: at most ${MAX_LABELS} labels, got ${keys.length}`);
  for (const k of keys) {
    if (!/^\p{Ll}[\p{Ll}\p{Lo}\p{N}_-]{0,62}$/u.test(k)) {
      throw ApiError.invalidArgument(`${field}: key "${k}" must start with a lowercase letter and hold at most ${MAX_LABEL_CHARS} lowercase letters, digits, '_' or '-'`);
    }
    const value = map[k]!;
    if (!/^[\p{Ll}\p{Lo}\p{N}_-]{0,63}$/u.test(value)) {
      throw ApiError.invalidArgument(`${field}: the value of "${k}" must hold at most ${MAX_LABEL_CHARS} lowercase letters, digits, '_' or '-', got "${value}"`);
    }
  }
  return keys.length === 0 ? undefined : map;
}

/**
 * User environment variables (Google's "Use environment variables": at most 20; a name is not empty and does
 * not start with GOOGLE or WORKFLOWS; 4 KiB per name or value).
 * @returns undefined for an absent or empty map.
 * @throws ApiError INVALID_ARGUMENT naming the rule broken.
 */
export function checkUserEnvVars(v: unknown): Readonly<Record<string, string>> | undefined {
  const map = stringMap(v, 'userEnvVars');
  if (!map) return undefined;
  const keys = Object.keys(map);
  if (keys.length > MAX_USER_ENV_VARS) {
    throw ApiError.invalidArgument(`userEnvVars: at most ${MAX_USER_ENV_VARS} variables, got ${keys.length}`);
  }
  for (const k of keys) {
    if (k === '') throw ApiError.invalidArgument('userEnvVars: a name must not be empty');
    if (k.startsWith('GOOGLE') || k.startsWith('WORKFLOWS')) {
      throw ApiError.invalidArgument(`userEnvVars: "${k}" is reserved (names must not start with GOOGLE or WORKFLOWS)`);
    }
    for (const [what, s] of [['name', k], ['value', map[k]!]] as const) {
      const bytes = Buffer.byteLength(s, 'utf8');
      if (bytes > MAX_USER_ENV_BYTES) {
        throw ApiError.invalidArgument(`userEnvVars: the ${what} of "${k.slice(0, 40)}" is ${bytes} bytes; the limit is ${MAX_USER_ENV_BYTES} (4 KiB)`);
      }
    }
  }
  return keys.length === 0 ? undefined : map;
}

function stringMap(v: unknown, field: string): Record<string, string> | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'object' || Array.isArray(v)) throw ApiError.invalidArgument(`${field} must be a map of strings`);
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, value] of Object.entries(v as Record<string, unknown>)) {
    if (typeof value !== 'string') throw ApiError.invalidArgument(`${field}: the value of "${k}" must be a string`);
    out[k] = value;
  }
  // A plain object again, so JSON and comparisons see ordinary keys in a stable order.
  return Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]!]));
}

function optionalString(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw ApiError.invalidArgument(`${field} must be a string`);
  return v;
}
