/**
 * The state a data directory's snapshot and journals add up to (docs/persistence.md#records), before the
 * service core takes it in: workflows with their revisions, the revision counters of deleted ones, executions
 * in the order they were created, and what the ACTIVE ones need to run again (`--resume`): the URLs of the
 * callbacks they created and the callback requests acknowledged to them.
 *
 * Every record sets what it names to a whole value (a workflow, an execution), so a record applied to a state
 * that already holds it leaves the same state.
 */
import type { Workflow } from '../model.ts';
import { MAX_REVISIONS_PER_WORKFLOW } from '../store/workflow-store.ts';
import type { LazySavedExecution, SavedExecution, SavedWorkflow } from './records.ts';

/** A callback request acknowledged to an ACTIVE execution, as saved (the body base64). */
export interface SavedDelivery {
  readonly id: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly query: Record<string, string>;
  readonly body: string;
}

/** What an ACTIVE execution has taken in of callbacks: URLs created, in order, and requests acknowledged. */
export interface ActiveCallbacks {
  readonly urls: string[];
  readonly deliveries: SavedDelivery[];
}

/** The state read from a data directory or an export. */
export interface LoadedState {
  readonly workflows: Map<string, { res: Workflow; revs: Workflow[]; n: number }>;
  /** Revision counters of deleted workflows (a re-created ID goes on from them). */
  readonly deleted: Map<string, number>;
  /** Executions by ID, in creation order (finished ones from a snapshot left unread: records.ts `lazySaved`). */
  readonly executions: Map<string, SavedExecution | LazySavedExecution>;
  /** Callbacks of the ACTIVE executions, by execution ID. */
  readonly active: Map<string, ActiveCallbacks>;
  /** The file each workflow's current source was read from, by workflow ID (an export's `.yaml`; named in errors). */
  readonly sources: Map<string, string>;
}

/** A state with nothing in it. */
export function emptyState(): LoadedState {
  return { workflows: new Map(), deleted: new Map(), executions: new Map(), active: new Map(), sources: new Map() };
}

/**
 * Applies one saved record: `w` a workflow (created or changed), `d` a workflow deleted, `x` an execution
 * (created or changed), `c` a callback created, `cb` a callback request acknowledged, `r` a reset.
 * @throws Error naming what is wrong with a record of an unknown type or shape
 */
export function applyRecord(state: LoadedState, r: Record<string, unknown>): void {
  switch (r.t) {
    case 'w':
      return applyWorkflow(state, r as unknown as SavedWorkflow);
    case 'd':
      state.workflows.delete(text(r.id, 'id'));
      state.deleted.set(text(r.id, 'id'), count(r.n));
      return;
    case 'x': {
      const x = r as unknown as SavedExecution;
      if (typeof x.res?.name !== 'string' || typeof x.id !== 'string' || typeof x.w !== 'string') throw new Error('an execution record lacks its name or IDs');
      state.executions.set(x.id, x);
      if (x.res.state === 'ACTIVE') {
        if (!state.active.has(x.id)) state.active.set(x.id, { urls: [], deliveries: [] });
      } else state.active.delete(x.id);
      return;
    }
    case 'xd':
      state.executions.delete(text(r.id, 'id'));
      state.active.delete(text(r.id, 'id'));
      return;
    case 'c':
      state.active.get(text(r.x, 'x'))?.urls.push(text(r.u, 'u'));
      return;
    case 'cb':
      state.active.get(text(r.x, 'x'))?.deliveries.push(r.r as SavedDelivery);
      return;
    case 'r':
      state.workflows.clear();
      state.deleted.clear();
      state.executions.clear();
      state.active.clear();
      return;
    default:
      throw new Error(`unknown record type ${JSON.stringify(r.t)}`);
  }
}

/** A workflow record: its revisions replaced (a snapshot's) or its current revision added or updated (a journal's). */
function applyWorkflow(state: LoadedState, w: SavedWorkflow): void {
  const id = text(w.id, 'id');
  if (typeof w.res?.revisionId !== 'string' || typeof w.res.sourceContents !== 'string') throw new Error(`workflow ${id}: the record lacks its revision or source`);
  const n = count(w.n);
  state.deleted.delete(id);
  const kept = state.workflows.get(id);
  if (w.revs) {
    state.workflows.set(id, { res: w.res, revs: w.revs.slice(), n });
    return;
  }
  if (!kept) {
    state.workflows.set(id, { res: w.res, revs: [w.res], n });
    return;
  }
  const last = kept.revs[kept.revs.length - 1];
  if (last?.revisionId === w.res.revisionId) kept.revs[kept.revs.length - 1] = w.res;
  else {
    kept.revs.push(w.res);
    if (kept.revs.length > MAX_REVISIONS_PER_WORKFLOW) kept.revs.shift();
  }
  kept.res = w.res;
  kept.n = n;
}

function text(v: unknown, field: string): string {
  if (typeof v !== 'string') throw new Error(`the record's "${field}" is not a string`);
  return v;
}

function count(v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Error('the record\'s revision counter "n" is not a count');
  return v;
}
