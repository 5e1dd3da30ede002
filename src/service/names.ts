/**
 * Identifiers and resource names of the management API (docs/api-resources.md#resources-and-their-fields,
 * docs/cli.md#directory-watching rule 4): which workflow IDs are valid, how resource names are formed, how revision and
 * callback identifiers are made, and the timestamps every resource carries.
 */
import { nodeCrypto } from '../platform/builtins.ts';
import { ApiError } from './errors.ts';

/**
 * Workflow IDs: lowercase letters, digits, hyphens and underscores; a letter first; at most 128 characters
 * (docs/cli.md#directory-watching rule 4; Google's `workflowId` rule is the same, with a letter-or-digit last
 * character which we do not require since the spec does not).
 */
const WORKFLOW_ID_PATTERN = /^[a-z][a-z0-9_-]{0,127}$/;

/** Maximum length of a workflow ID, in characters (docs/api-resources.md#limits). */
export const MAX_WORKFLOW_ID_CHARS = 128;

/**
 * Why `id` is not a valid workflow ID, as one sentence for an INVALID_ARGUMENT message or a watcher warning;
 * undefined when it is valid.
 */
export function workflowIdProblem(id: string): string | undefined {
  if (id === '') return 'the workflow ID is empty';
  if (id.length > MAX_WORKFLOW_ID_CHARS) return `the workflow ID is longer than ${MAX_WORKFLOW_ID_CHARS} characters`;
  if (!/^[a-z]/.test(id)) return `the workflow ID "${id}" must start with a lowercase letter`;
  if (!WORKFLOW_ID_PATTERN.test(id)) {
    return `the workflow ID "${id}" may only contain lowercase letters, digits, hyphens and underscores`;
  }
  return undefined;
}

/** `projects/{project}/locations/{location}`: the parent of every resource. */
export function parentName(project: string, location: string): string {
  return `projects/${project}/locations/${location}`;
}

/**
 * A revision ID like the real service's: a six-digit counter, a hyphen and the first three hex digits of
 * the source's SHA-256 (`000001-a4f`). The counter is per workflow ID and never goes back, so a revision ID
 * names one source for the life of the process.
 */
export function revisionId(counter: number, sourceContents: string): string {
  const hash = nodeCrypto().createHash('sha256').update(sourceContents).digest('hex').slice(0, 3);
  return `${String(counter).padStart(6, '0')}-${hash}`;
}

/**
 * A new execution ID: a random (version 4) UUID, lower-case as crypto.randomUUID gives it
 * (https://cloud.google.com/workflows/docs/reference/rest/v1/projects.locations.workflows.executions). The
 * platform builds that string from many pieces (under Node, a tree of about a dozen joined strings); the
 * copy returned is one flat string, so each of the many executions kept holds 56 bytes for its ID, not ~450.
 */
export function newExecutionId(): string {
  return crypto.randomUUID().toLowerCase();
}

/**
 * A callback identifier: 128 random bits from the platform CSPRNG, hex-encoded (32 characters), so callback
 * URLs cannot be guessed.
 */
export function newCallbackId(): string {
  return nodeCrypto().randomBytes(16).toString('hex');
}

/**
 * `ms` (default: now) as an RFC 3339 UTC timestamp with milliseconds (`2026-11-21T08:00:00.123Z`): exactly
 * `new Date(ms).toISOString()` (fractions of a millisecond dropped; RangeError for NaN). Every execution
 * takes two and every step entry read two (docs/architecture.md#step-history-and-call-logs-the-cost-per-step), so the text up to the second is kept from the last
 * call: within one second only the milliseconds are written (a twentieth of toISOString's cost).
 */
export function timestamp(ms: number = Date.now()): string {
  const t = Math.trunc(ms);
  // Years 1970 to 9999 (toISOString writes others with a sign and six digits).
  if (!(t >= 0 && t < 253_402_300_800_000)) return new Date(ms).toISOString();
  const second = Math.floor(t / 1000);
  if (second !== lastSecond) {
    lastSecondText = new Date(second * 1000).toISOString().slice(0, 19);
    lastSecond = second;
  }
  const millis = t - second * 1000;
  return `${lastSecondText}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}Z`;
}
let lastSecond = NaN;
let lastSecondText = '';

// ---------------------------------------------------------------------------------------------------------
// Resource names (https://cloud.google.com/apis/design/resource_names): the one parser of
// `projects/{project}/locations/{location}/<collection>/{id}/...` for every transport and connector.

/** The project and location a service serves. */
export interface ResourceScope {
  readonly project: string;
  readonly location: string;
}

/** The parts of a resource name: its project, its location and the IDs after the location, in order. */
export interface NameParts {
  readonly project: string;
  readonly location: string;
  readonly ids: string[];
}

/**
 * Splits `name` of the form `projects/{project}/locations/{location}/<kinds[0]>/{id}/<kinds[1]>/{id}...`
 * (`kinds` e.g. `['workflows', 'executions']`; `[]` for the location itself). Undefined when the name has
 * another shape or an empty segment. IDs are returned as written (no percent-decoding).
 */
export function splitName(name: string, kinds: readonly string[]): NameParts | undefined {
  const parts = name.split('/');
  if (parts.length !== 4 + 2 * kinds.length || parts[0] !== 'projects' || parts[2] !== 'locations') return undefined;
  for (let i = 0; i < kinds.length; i++) if (parts[4 + 2 * i] !== kinds[i]) return undefined;
  for (const p of parts) if (p === '') return undefined;
  return { project: parts[1]!, location: parts[3]!, ids: kinds.map((_, i) => parts[5 + 2 * i]!) };
}

/**
 * The IDs after the location in `name` (see {@link splitName}), checked against `scope`.
 * @throws ApiError INVALID_ARGUMENT naming `field` and the expected shape when the name has another shape;
 * NOT_FOUND when it names another project or location than `scope`'s (Google answers for resources it does
 * not hold the same way).
 */
export function parseName(scope: ResourceScope, name: string, kinds: readonly string[], field = 'name'): string[] {
  const parts = splitName(name, kinds);
  if (!parts) {
    const shape = ['projects/{project}/locations/{location}', ...kinds.map((k) => `${k}/{${k.replace(/s$/, '')}}`)].join('/');
    throw ApiError.invalidArgument(`${field} must be of the form ${shape}, got '${name}'`);
  }
  if (parts.project !== scope.project || parts.location !== scope.location) {
    throw ApiError.notFound(`Resource '${name}' was not found (the emulator serves ${parentName(scope.project, scope.location)})`);
  }
  return parts.ids;
}

/**
 * `name` (`projects/{p}/locations/{l}/...`) with its project and location replaced by `scope`'s; other
 * text is returned unchanged.
 */
export function inScope(scope: ResourceScope, name: string): string {
  const parts = name.split('/');
  if (parts.length < 5 || parts[0] !== 'projects' || parts[2] !== 'locations' || parts[1] === '' || parts[3] === '') return name;
  return `${parentName(scope.project, scope.location)}/${parts.slice(4).join('/')}`;
}
