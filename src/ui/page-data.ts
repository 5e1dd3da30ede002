/**
 * The web UI's view data read from the service core: the workflow list's rows, the workflow page's and the
 * execution page's data, state counts and filters, in the order the pages show them (newest first). A
 * resource that is gone (NOT_FOUND) reads as undefined; any other error propagates.
 */
import { ApiError } from '../service/errors.ts';
import type { Execution, ExecutionState, ServiceCore } from '../service/model.ts';
import { drawnDefinition, type RunView } from './graph-view.ts';
import { uiPath } from './html.ts';
import { executionIds, lastSegment } from './format.ts';
import type { ExecutionData } from './execution-page.ts';
import { TIMELINE_PAGE_SIZE } from './step-timeline.ts';
import { STATES, type StateCounts, type WorkflowRow } from './layout.ts';
import type { WorkflowData } from './views.ts';

/** Executions shown on a workflow page (the full list is one click away). */
const WORKFLOW_PAGE_EXECUTIONS = 25;


/** The rows of the workflow list: each deployed workflow (sorted by ID), its execution counts and latest execution. */
export function workflowRows(service: ServiceCore, all: readonly Execution[]): WorkflowRow[] {
  const byWorkflow = new Map<string, Execution[]>();
  for (const e of newestFirst(all)) {
    const id = executionIds(e).workflowId;
    const list = byWorkflow.get(id);
    if (list) list.push(e);
    else byWorkflow.set(id, [e]);
  }
  return service
    .listWorkflows()
    .map((workflow) => {
      const list = byWorkflow.get(lastSegment(workflow.name)) ?? [];
      return {
        workflow,
        total: list.length,
        active: list.filter((e) => e.state === 'ACTIVE').length,
        ...(list[0] ? { latest: list[0] } : {}),
      };
    })
    .sort((x, y) => compareText(lastSegment(x.workflow.name), lastSegment(y.workflow.name)));
}

/** What the workflow page shows, or undefined when there is no such workflow. */
export function workflowData(service: ServiceCore, now: () => number, id: string): WorkflowData | undefined {
  const workflow = attempt(() => service.getWorkflow(id));
  if (!workflow) return undefined;
  const all = newestFirst(service.listExecutions(id));
  return {
    workflow,
    revisions: service.listWorkflowRevisions(id),
    executions: all.slice(0, WORKFLOW_PAGE_EXECUTIONS),
    totalExecutions: all.length,
    activeExecutions: all.filter((e) => e.state === 'ACTIVE').length,
    nowMs: now(),
    ...(service.sourceProblems.get(id) ? { problem: service.sourceProblems.get(id)! } : {}),
  };
}

/**
 * What the execution page shows (`from`: the first step entry of the timeline page; `node`: a graph node
 * picked, narrowing the timeline to its entries), or undefined when there is no such execution.
 */
export function executionData(service: ServiceCore, now: () => number, workflowId: string, executionId: string, from = 0, node?: string): ExecutionData | undefined {
  const execution = attempt(() => service.getExecution(workflowId, executionId));
  if (!execution) return undefined;
  const run = runView(service, execution, node);
  const only = run?.selected;
  // A node picked: its entries only (AIP-160 string literals, backslash and quote escaped).
  const quoted = (t: string): string => `"${t.replace(/[\\"]/g, (c) => '\\' + c)}"`;
  const filter = only ? `routine=${quoted(only.routine)} AND step=${quoted(only.step)}` : undefined;
  const page = attempt(() => service.listStepEntries(workflowId, executionId, { pageSize: TIMELINE_PAGE_SIZE, skip: from, ...(filter ? { filter } : {}) }));
  return {
    ...(run ? { run } : {}),
    execution,
    callbacks: attempt(() => service.listCallbacks(workflowId, executionId)) ?? [],
    logs: attempt(() => service.executionLogs(workflowId, executionId)) ?? [],
    calls: attempt(() => service.executionCalls(workflowId, executionId)) ?? [],
    ...withParent(attempt(() => service.executionParent(workflowId, executionId))),
    nowMs: now(),
    revisionKept: exists(() => service.getWorkflow(workflowId, execution.workflowRevisionId)),
    // An execution without history lists nothing and has no status; one with history has its first step.
    steps: {
      page: page && (page.totalSize > 0 || execution.status !== undefined || execution.state === 'ACTIVE') ? page : undefined,
      from,
      ...(run ? { lineOf: (routine: string, step: string) => run.drawn.steps.get(`${routine}/${step}`)?.pos.line } : {}),
      ...(only ? { only: { routine: only.routine, step: only.step } } : {}),
    },
  };
}

/**
 * The run on the graph of the revision `e` ran, with that revision's source; undefined when the revision is
 * no longer kept, its graph cannot be drawn, or the execution keeps no history.
 */
function runView(service: ServiceCore, e: Execution, node: string | undefined): RunView | undefined {
  const { workflowId, executionId } = executionIds(e);
  const revision = attempt(() => service.getWorkflow(workflowId, e.workflowRevisionId));
  if (!revision) return undefined;
  const drawn = drawnDefinition(revision.sourceContents);
  if (!drawn) return undefined;
  const entries = attempt(() => service.stepEntryOutlines(workflowId, executionId)) ?? [];
  if (entries.length === 0 && e.status === undefined && e.state !== 'ACTIVE') return undefined;
  const top = e.error?.stackTrace?.elements?.[0];
  const selected = node !== undefined ? drawn.nodes.get(node) : undefined;
  return {
    drawn,
    source: revision.sourceContents,
    entries,
    pagePath: uiPath('executions', workflowId, executionId),
    ...(top ? { failing: { routine: top.routine, step: top.step, line: Number(top.position.line) } } : {}),
    ...(selected && selected.step !== '' ? { selected } : {}),
  };
}

function withParent(parent: string | undefined): { parent?: string } {
  return parent === undefined ? {} : { parent };
}

/** Executions per state. */
export function countStates(all: readonly Execution[]): StateCounts {
  const counts: Record<ExecutionState, number> = { ACTIVE: 0, SUCCEEDED: 0, FAILED: 0, CANCELLED: 0 };
  for (const e of all) counts[e.state]++;
  return counts;
}

/**
 * Sorted by start time, newest first; ties keep the service's order. The service writes every start time as
 * `YYYY-MM-DDTHH:MM:SS.sssZ`, and those compare as text: no date is parsed per comparison, and a list already
 * in order (the service's) is only checked, in one pass, instead of sorted with two dates parsed per
 * comparison (100,000 executions: a quarter of a second on every dashboard refresh).
 */
export function newestFirst(list: readonly Execution[]): Execution[] {
  const out = [...list];
  // The service lists executions newest created first, which is almost always this order already.
  for (let i = 1; i < out.length; i++) if (newerFirst(out[i - 1]!, out[i]!) > 0) return out.sort(newerFirst);
  return out;
}

function newerFirst(x: Execution, y: Execution): number {
  const a = y.startTime;
  const b = x.startTime;
  if (a.length === 24 && b.length === 24 && a.endsWith('Z') && b.endsWith('Z')) return compareText(a, b);
  return Date.parse(a) - Date.parse(b) || compareText(a, b);
}

function compareText(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

/** The state a `state` query parameter names (any case), or undefined. */
export function parseState(text: string | null): ExecutionState | undefined {
  const upper = (text ?? '').toUpperCase();
  return STATES.find((s) => s === upper);
}

/** The value `f` returns, or undefined when it throws NOT_FOUND. Other errors propagate. */
export function attempt<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch (err) {
    if (err instanceof ApiError && err.code === 'NOT_FOUND') return undefined;
    throw err;
  }
}

/** Whether `f` returns without NOT_FOUND. Other errors propagate. */
export function exists(f: () => unknown): boolean {
  return attempt(f) !== undefined;
}
