/**
 * Paging, filtering and ordering of the API's lists of workflows and executions, as Google's list methods do
 * them (Workflows REST reference: `projects.locations.workflows.list`, `...workflows.executions.list`;
 * AIP-158 "Pagination", AIP-160 "Filtering", AIP-132 "orderBy"). The filter and orderBy grammar is the one of
 * filter.ts; this module holds the field tables and the page tokens.
 *
 * - Executions: default order newest first (descending createTime); `pageSize` default 100, at most 1000 in the
 *   BASIC view and 100 in the FULL view (larger values are coerced down, as Google does); filter fields
 *   executionId, state, createTime, startTime, endTime, duration, workflowRevisionId, stepName, labels (also
 *   written `label`); orderBy fields executionId, state, createTime, startTime, endTime, duration,
 *   workflowRevisionId.
 * - Workflows: default order newest first; `pageSize` default 500, at most 1000; filter and orderBy fields
 *   name (the workflow ID), state, revisionId, createTime, updateTime, revisionCreateTime, description,
 *   labels (filter only).
 * - A page token is opaque: it names the last item of its page (and where that page ended) and carries a
 *   fingerprint of filter and orderBy. The next page starts after that item wherever it now is, so items
 *   created between two calls (new executions come first in the default order) never shift or repeat a page.
 *   A token used with another filter or orderBy, or one that does not decode, is a 400.
 */
import { ApiError } from '../errors.ts';
import { listFingerprint, parseFilter, parseOrderBy, type ListFields } from './list-filter.ts';
import { filterInSlices, sortInSlices } from './in-slices.ts';
import type { Execution, Workflow } from '../model.ts';

/** The paging parameters of a list call; an empty string is the same as absent. */
export interface ListRequest {
  /** Items per page; 0 or absent: the method's default. */
  readonly pageSize?: number;
  readonly pageToken?: string;
  readonly filter?: string;
  readonly orderBy?: string;
}

/** One page of a list, and the token of the next page ('' after the last). */
export interface ListPage<T> {
  readonly items: T[];
  readonly nextPageToken: string;
}

/** Default and largest page sizes of one list method. */
export interface PageSizes {
  readonly defaultSize: number;
  readonly maxSize: number;
}

const idOf = (name: string): string => name.slice(name.lastIndexOf('/') + 1);
const durationSeconds = (d: string | undefined): number | undefined => (d === undefined ? undefined : Number.parseFloat(d));

/** The filterable and orderable fields of an execution (Google's ListExecutions `filter` and `orderBy`). */
export const EXECUTION_FIELDS: ListFields<Execution> = {
  executionId: { kind: 'string', get: (e) => idOf(e.name) },
  state: { kind: 'enum', get: (e) => e.state, values: ['ACTIVE', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'UNAVAILABLE', 'QUEUED'] },
  // Executions start when they are created here (no queueing), so createTime is startTime.
  createTime: { kind: 'timestamp', get: (e) => e.startTime },
  startTime: { kind: 'timestamp', get: (e) => e.startTime },
  endTime: { kind: 'timestamp', get: (e) => e.endTime },
  duration: { kind: 'duration', get: (e) => durationSeconds(e.duration) },
  workflowRevisionId: { kind: 'string', get: (e) => e.workflowRevisionId },
  stepName: { kind: 'string', get: (e) => e.status?.currentSteps.map((s) => s.step).join(' '), orderable: false },
  labels: { kind: 'map', get: (e) => (e as { labels?: Record<string, string> }).labels ?? {}, orderable: false },
  label: { kind: 'map', get: (e) => (e as { labels?: Record<string, string> }).labels ?? {}, orderable: false },
};

/** The filterable and orderable fields of a workflow (Google's ListWorkflows `filter` and `orderBy`). */
export const WORKFLOW_FIELDS: ListFields<Workflow> = {
  name: { kind: 'string', get: (w) => idOf(w.name) },
  state: { kind: 'enum', get: (w) => w.state, values: ['ACTIVE', 'UNAVAILABLE'] },
  revisionId: { kind: 'string', get: (w) => w.revisionId },
  createTime: { kind: 'timestamp', get: (w) => w.createTime },
  updateTime: { kind: 'timestamp', get: (w) => w.updateTime },
  revisionCreateTime: { kind: 'timestamp', get: (w) => (w as { revisionCreateTime?: string }).revisionCreateTime ?? w.updateTime },
  description: { kind: 'string', get: (w) => w.description },
  labels: { kind: 'map', get: (w) => (w as { labels?: Record<string, string> }).labels ?? {}, orderable: false },
};

/** ListExecutions: default 100; at most 1000 in the BASIC view, 100 in the FULL view (Google's reference). */
export function executionPageSizes(view: 'BASIC' | 'FULL'): PageSizes {
  return { defaultSize: 100, maxSize: view === 'BASIC' ? 1000 : 100 };
}

/** ListWorkflowRevisions: default 20, at most 100 (Google's reference). */
export const REVISION_PAGE_SIZES: PageSizes = { defaultSize: 20, maxSize: 100 };

/** ListWorkflows: default 500, at most 1000 (Google's reference). */
export const WORKFLOW_PAGE_SIZES: PageSizes = { defaultSize: 500, maxSize: 1000 };

/**
 * One page of `items` (given in the method's default order) after `filter`, `orderBy` and the page token.
 * `keyOf` names an item uniquely (its resource name). A filter or an orderBy over more than 1,000 items is
 * applied a slice at a time, giving the event loop a turn between slices (in-slices.ts): then the page comes
 * as a promise.
 * @throws ApiError INVALID_ARGUMENT for a bad filter, orderBy, page size or page token, naming the problem
 *   (thrown, never as a rejected promise: everything is checked before any item is tested).
 */
export function listPage<T>(
  items: readonly T[],
  request: ListRequest,
  fields: ListFields<T>,
  sizes: PageSizes,
  keyOf: (item: T) => string,
): ListPage<T> | Promise<ListPage<T>> {
  const filter = request.filter ?? '';
  const orderBy = request.orderBy ?? '';
  const pageSize = request.pageSize ?? 0;
  if (!Number.isInteger(pageSize) || pageSize < 0) {
    throw ApiError.invalidArgument(`pageSize must be a non-negative integer, not ${pageSize}`);
  }
  const size = pageSize === 0 ? sizes.defaultSize : Math.min(pageSize, sizes.maxSize);
  const predicate = filter.trim() === '' ? undefined : parseFilter(filter, fields);
  const compare = parseOrderBy(orderBy, fields);
  const fingerprint = listFingerprint(filter, orderBy);
  const token = request.pageToken ? decodeToken(request.pageToken, fingerprint) : undefined;
  const page = (ordered: readonly T[]): ListPage<T> => pageOf(ordered, size, token, fingerprint, keyOf);
  const order = (matching: readonly T[]): ListPage<T> | Promise<ListPage<T>> =>
    compare === undefined ? page(matching) : then(sortInSlices(matching, compare), page);
  return predicate === undefined ? order(items) : then(filterInSlices(items, predicate), order);
}

/** `f(v)` now for a value, when it comes for a promise. */
function then<V, R>(v: V | Promise<V>, f: (v: V) => R | Promise<R>): R | Promise<R> {
  return v instanceof Promise ? v.then(f) : f(v);
}

/** Calls `f` with a {@link listPage} answer now, or when it comes; returns what `f` returns (or its promise). */
export function withPage<T, R>(page: ListPage<T> | Promise<ListPage<T>>, f: (page: ListPage<T>) => R): R | Promise<R> {
  return then(page, f);
}

/** The page of `matching` (filtered and ordered) that starts after the token's item. */
function pageOf<T>(
  matching: readonly T[],
  size: number,
  token: { after: string; end: number } | undefined,
  fingerprint: string,
  keyOf: (item: T) => string,
): ListPage<T> {
  let start = 0;
  if (token !== undefined) {
    // After the token's last item wherever it is now; if it is gone (or no longer matches), where it was.
    let at = -1;
    for (let i = 0; i < matching.length; i++) {
      if (keyOf(matching[i]!) === token.after) {
        at = i;
        break;
      }
    }
    start = at >= 0 ? at + 1 : Math.min(token.end, matching.length);
  }
  const page = matching.slice(start, start + size);
  const end = start + page.length;
  const last = page[page.length - 1];
  return {
    items: page,
    nextPageToken: end < matching.length && last !== undefined ? encodeToken(keyOf(last), end, fingerprint) : '',
  };
}

function encodeToken(after: string, end: number, fingerprint: string): string {
  return Buffer.from(JSON.stringify([fingerprint, end, after])).toString('base64url');
}

function decodeToken(token: string, fingerprint: string): { after: string; end: number } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || typeof parsed[0] !== 'string' || !Number.isInteger(parsed[1]) || typeof parsed[2] !== 'string') {
    throw ApiError.invalidArgument(`invalid pageToken "${token}": pass the nextPageToken of the previous page`);
  }
  if (parsed[0] !== fingerprint) {
    throw ApiError.invalidArgument('the pageToken was issued for another filter or orderBy: when paging, every other parameter must match the call that returned the token');
  }
  return { end: Math.max(0, parsed[1] as number), after: parsed[2] as string };
}
