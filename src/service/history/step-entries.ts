/**
 * Step entries as Google's API shows them (REST reference `projects.locations.workflows.executions.stepEntries`
 * list and get): the StepEntry resource built from a step history's records (src/service/history/step-history.ts while recording, settled-history.ts once ended), and the list method's
 * `pageSize`, `pageToken`, `skip`, `filter`, `orderBy` and `view`.
 *
 * - Default order is ascending entryId (Google's default). `pageSize` 1 to 1000 (Google's "default max"); 0 or
 *   absent means 1000 and larger values are coerced down to it.
 * - A page token is opaque: it holds the position after the page and a fingerprint of filter and orderBy; a
 *   token used with other parameters, or one that does not decode, is a 400. Entries are only appended, so
 *   paging in entryId order is stable while the execution runs.
 * - `view=EXECUTION_ENTRY_VIEW_BASIC` leaves out `variableData`; DETAILED and unspecified include it (it is
 *   recorded only at the detailed history level).
 * - `navigationInfo.children` lists the entries whose parent is this one (a subworkflow's steps under its
 *   call, iterations under a loop, a branch's steps under the branch), `next`/`previous` the siblings.
 */
import { ApiError } from '../errors.ts';
import { timestamp } from '../names.ts';
import { errorPayload } from '../executions/error-payload.ts';
import { listFingerprint, parseFilter, parseOrderBy, type ListFields } from '../lists/list-filter.ts';
import type { StepEntry, StepEntryList, StepEntryListRequest } from '../model.ts';
import type { HistoryEntry } from './step-ring.ts';
import type { StepHistoryReader } from './settled-history.ts';
import { STEP_TYPES } from '../../engine/hooks.ts';

/** Largest (and default) page of stepEntries.list (Google: "The default max is 1000"). */
const MAX_STEP_ENTRIES_PAGE_SIZE = 1000;

/** The filterable and orderable fields of stepEntries.list (Google's list reference). */
const STEP_ENTRY_FIELDS: ListFields<HistoryEntry> = {
  entryId: { kind: 'int', get: (e) => e.id },
  createTime: { kind: 'timestamp', get: (e) => timestamp(e.createMs) },
  updateTime: { kind: 'timestamp', get: (e) => timestamp(e.updateMs) },
  routine: { kind: 'string', get: (e) => e.routine },
  step: { kind: 'string', get: (e) => e.step },
  stepType: { kind: 'enum', get: (e) => e.stepType, values: STEP_TYPES, prefix: 'STEP_' },
  parent: { kind: 'int', get: (e) => (e.parentId === 0 ? undefined : e.parentId), orderable: false },
  state: {
    kind: 'enum',
    get: (e) => e.state,
    values: ['STATE_IN_PROGRESS', 'STATE_SUCCEEDED', 'STATE_FAILED', 'STATE_CANCELLED'],
    prefix: 'STATE_',
  },
};

const VIEWS = new Set(['', 'EXECUTION_ENTRY_VIEW_UNSPECIFIED', 'EXECUTION_ENTRY_VIEW_BASIC', 'EXECUTION_ENTRY_VIEW_DETAILED']);

function checkView(view: string | undefined): boolean {
  const v = view ?? '';
  if (!VIEWS.has(v)) {
    throw ApiError.invalidArgument(`invalid view "${v}": use EXECUTION_ENTRY_VIEW_BASIC or EXECUTION_ENTRY_VIEW_DETAILED`);
  }
  return v !== 'EXECUTION_ENTRY_VIEW_BASIC';
}

/** stepEntryMetadata for an entry (Google's StepEntryMetadata). */
function metadata(e: HistoryEntry): StepEntry['stepEntryMetadata'] {
  let progressType: string | undefined;
  switch (e.stepType) {
    case 'STEP_FOR':
    case 'STEP_FOR_ITERATION':
      progressType = 'PROGRESS_TYPE_FOR';
      break;
    case 'STEP_PARALLEL_FOR':
      progressType = 'PROGRESS_TYPE_PARALLEL_FOR';
      break;
    case 'STEP_PARALLEL_BRANCH':
      progressType = 'PROGRESS_TYPE_PARALLEL_BRANCH';
      break;
    case 'STEP_PARALLEL_BRANCH_ENTRY':
      progressType = e.branch === undefined ? 'PROGRESS_TYPE_PARALLEL_FOR' : 'PROGRESS_TYPE_PARALLEL_BRANCH';
      break;
    case 'STEP_SWITCH':
    case 'STEP_CONDITION':
      progressType = 'PROGRESS_TYPE_SWITCH';
      break;
    case 'STEP_RETRY':
    case 'STEP_TRY_RETRY_EXCEPT':
      progressType = 'PROGRESS_TYPE_RETRY';
      break;
  }
  return {
    ...(progressType !== undefined ? { progressType } : {}),
    ...(e.progress !== undefined ? { progressNumber: String(e.progress) } : {}),
    ...(e.threadId !== '' ? { threadId: e.threadId } : {}),
    ...(e.expectedIterations !== undefined ? { expectedIteration: String(e.expectedIterations) } : {}),
  };
}

/**
 * The StepEntry resource of one recorded entry. `children` are the IDs of the entries whose parent it is
 * (see {@link childrenOf}); `withVariables` false leaves out variableData (the BASIC view).
 */
function renderStepEntry(executionName: string, e: HistoryEntry, children: readonly number[] | undefined, withVariables: boolean): StepEntry {
  const nav: { children?: string[]; parent?: string; next?: string; previous?: string } = {};
  if (children && children.length) nav.children = children.map(String);
  if (e.parentId !== 0) nav.parent = String(e.parentId);
  if (e.next) nav.next = String(e.next);
  if (e.previous) nav.previous = String(e.previous);
  return {
    name: `${executionName}/stepEntries/${e.id}`,
    createTime: timestamp(e.createMs),
    updateTime: timestamp(e.updateMs),
    routine: e.routine,
    step: e.step,
    stepType: e.stepType,
    state: e.state,
    ...(e.state === 'STATE_FAILED' ? { exception: { payload: errorPayload(e.error) } } : {}),
    entryId: String(e.id),
    navigationInfo: nav,
    stepEntryMetadata: metadata(e),
    ...(withVariables && e.variables !== undefined ? { variableData: { variables: JSON.parse(e.variables) as Record<string, unknown> } } : {}),
  };
}

/** Child entry IDs by parent entry ID, over `entries` (one pass). */
function childrenOf(entries: readonly HistoryEntry[]): Map<number, number[]> {
  const out = new Map<number, number[]>();
  for (const e of entries) {
    if (e.parentId === 0) continue;
    const list = out.get(e.parentId);
    if (list) list.push(e.id);
    else out.set(e.parentId, [e.id]);
  }
  return out;
}

/**
 * stepEntries.get: one entry by its ID (the last segment of its name, a positive integer).
 * @throws ApiError NOT_FOUND for an entry never recorded or dropped by the cap; INVALID_ARGUMENT for an ID
 * that is not a number or a bad view.
 */
export function getStepEntry(history: StepHistoryReader, executionName: string, entryId: string, view?: string): StepEntry {
  const withVariables = checkView(view);
  if (!/^\d{1,15}$/.test(entryId)) throw ApiError.invalidArgument(`step entry ID "${entryId}" is not a positive integer`);
  const e = history.find(Number(entryId));
  if (!e) {
    const why = Number(entryId) >= 1 && Number(entryId) <= history.recorded ? ' (dropped by the cap on entries per execution)' : '';
    throw ApiError.notFound(`step entry "${executionName}/stepEntries/${entryId}" not found${why}`);
  }
  return renderStepEntry(executionName, e, childrenOf(history.entries()).get(e.id), withVariables);
}

/**
 * stepEntries.list: one page of the entries matching `filter`, in `orderBy` order (default ascending
 * entryId).
 * @throws ApiError INVALID_ARGUMENT for a bad filter, orderBy, view, page size, skip or page token.
 */
/**
 * What a step entry is without its times, error and variables: enough to draw a run on the workflow's graph
 * (src/graph/overlay.ts). Every kept entry in entryId order, read at once: the execution page reads 10,000 of
 * them in one call instead of ten pages of full entries.
 */
export interface StepEntryOutline {
  readonly entryId: string;
  readonly routine: string;
  readonly step: string;
  readonly state: StepEntry['state'];
  readonly navigationInfo: { readonly parent?: string };
  readonly stepEntryMetadata: StepEntry['stepEntryMetadata'];
}

/** The outlines of every kept entry of `history`, in entryId order. */
export function stepEntryOutlines(history: StepHistoryReader): StepEntryOutline[] {
  return history.entries().map((e) => ({
    entryId: String(e.id),
    routine: e.routine,
    step: e.step,
    state: e.state,
    navigationInfo: e.parentId !== 0 ? { parent: String(e.parentId) } : {},
    stepEntryMetadata: metadata(e),
  }));
}

export function listStepEntries(history: StepHistoryReader, executionName: string, request: StepEntryListRequest): StepEntryList {
  const withVariables = checkView(request.view);
  const filter = request.filter ?? '';
  const orderBy = request.orderBy ?? '';
  const predicate = parseFilter(filter, STEP_ENTRY_FIELDS);
  const compare = parseOrderBy(orderBy, STEP_ENTRY_FIELDS);
  const pageSize = request.pageSize ?? 0;
  if (!Number.isInteger(pageSize) || pageSize < 0) throw ApiError.invalidArgument(`pageSize must be a non-negative integer, not ${pageSize}`);
  const size = pageSize === 0 ? MAX_STEP_ENTRIES_PAGE_SIZE : Math.min(pageSize, MAX_STEP_ENTRIES_PAGE_SIZE);
  const skip = request.skip ?? 0;
  if (!Number.isInteger(skip) || skip < 0) throw ApiError.invalidArgument(`skip must be a non-negative integer, not ${skip}`);
  const fingerprint = listFingerprint(filter, orderBy);
  let start = 0;
  if (request.pageToken) start = decodeToken(request.pageToken, fingerprint);
  start += skip;

  const all = history.entries();
  let matching = all.filter(predicate);
  if (compare) matching = matching.slice().sort(compare);
  const page = matching.slice(start, start + size);
  const children = page.length > 0 ? childrenOf(all) : new Map<number, number[]>();
  const end = start + page.length;
  return {
    stepEntries: page.map((e) => renderStepEntry(executionName, e, children.get(e.id), withVariables)),
    ...(end < matching.length ? { nextPageToken: encodeToken(end, fingerprint) } : {}),
    totalSize: matching.length,
    ...(history.droppedEntries > 0 ? { droppedEntries: history.droppedEntries } : {}),
  };
}

function encodeToken(offset: number, fingerprint: string): string {
  return Buffer.from(`${offset}.${fingerprint}`).toString('base64url');
}

function decodeToken(token: string, fingerprint: string): number {
  const text = Buffer.from(token, 'base64url').toString('utf8');
  const dot = text.indexOf('.');
  const offset = Number(text.slice(0, dot));
  if (dot < 1 || !Number.isInteger(offset) || offset < 0) throw ApiError.invalidArgument(`invalid pageToken "${token}"`);
  if (text.slice(dot + 1) !== fingerprint) {
    throw ApiError.invalidArgument('the pageToken was issued for another filter or orderBy: when paging, every other parameter must match the call that returned the token');
  }
  return offset;
}
