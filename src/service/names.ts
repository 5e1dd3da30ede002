/**
 * Identifiers and resource names of the management API (spec "Resources and their fields", "Directory
 * watching" rule 4): which workflow IDs are valid, how resource names are formed, how revision and
 * callback identifiers are made, and the timestamps every resource carries.
 */
import { nodeCrypto } from '../platform/builtins.ts';

/**
 * Workflow IDs: lowercase letters, digits, hyphens and underscores; a letter first; at most 128 characters
 * (spec "Directory watching" rule 4; Google's `workflowId` rule is the same, with a letter-or-digit last
 * character which we do not require since the spec does not).
 */
const WORKFLOW_ID_PATTERN = /^[a-z][a-z0-9_-]{0,127}$/;

/** Maximum length of a workflow ID, in characters (spec "Limits"). */
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
 * A callback identifier: 128 random bits from the platform CSPRNG, hex-encoded (32 characters), so callback
 * URLs cannot be guessed.
 */
export function newCallbackId(): string {
  return nodeCrypto().randomBytes(16).toString('hex');
}

/**
 * `ms` (default: now) as an RFC 3339 UTC timestamp with milliseconds (`2026-11-21T08:00:00.123Z`): exactly
 * `new Date(ms).toISOString()` (fractions of a millisecond dropped; RangeError for NaN). Every execution
 * takes two and every step entry read two (issue 17), so the text up to the second is kept from the last
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
