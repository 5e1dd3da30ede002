/**
 * An execution's run drawn on its workflow's graph (docs/graph.md "The run on the graph"): from the step
 * entries (Google's "View history of execution steps":
 * https://cloud.google.com/workflows/docs/debug-steps), each node's state, entry count, loop iterations and
 * retry attempts; the edges the run took; the failing step.
 *
 * The path taken: entries are read in order; within one parent entry (one scope: the workflow's top list, a
 * loop iteration, a branch, a subworkflow call) each entry follows the one before it, and the first one
 * follows its parent's step (or the workflow's start). An edge of the graph joining two such steps was taken;
 * so was the way out of a compound step (from a step that ran inside it to the step after it), the loop back
 * from the last step of an iteration and the edge into `end` from the last step of a top list that succeeded.
 */
import { stepNodeId, type WorkflowGraph } from './model.ts';

/** What the overlay reads of a step entry (the shape of the stepEntries resource). */
export interface EntryLike {
  readonly entryId: string;
  readonly routine: string;
  readonly step: string;
  readonly state: 'STATE_IN_PROGRESS' | 'STATE_SUCCEEDED' | 'STATE_FAILED' | 'STATE_CANCELLED';
  readonly navigationInfo: { readonly parent?: string };
  readonly stepEntryMetadata: { readonly progressType?: string; readonly progressNumber?: string };
}

/** A node's run: the state of its latest entry and what its entries count. */
export interface NodeRun {
  readonly state: 'succeeded' | 'failed' | 'running' | 'cancelled';
  /** Step entries of the node. */
  readonly entries: number;
  /** The loop's iterations (the highest iteration number of a for or parallel for), 0 for other steps. */
  readonly iterations: number;
  /** Retries made (the highest retry number of its entries), 0 when none. */
  readonly retries: number;
  /** True for the step the execution failed at (its error's stack trace names it first). */
  readonly failing: boolean;
}

/** The run on one workflow graph: node runs by node ID, and the indexes (in `graph.edges`) of the edges taken. */
export interface RunOverlay {
  readonly nodes: ReadonlyMap<string, NodeRun>;
  readonly taken: ReadonlySet<number>;
}

const STATE: Readonly<Record<EntryLike['state'], NodeRun['state']>> = {
  STATE_IN_PROGRESS: 'running',
  STATE_SUCCEEDED: 'succeeded',
  STATE_FAILED: 'failed',
  STATE_CANCELLED: 'cancelled',
};

interface Counts {
  state: NodeRun['state'];
  entries: number;
  iterations: number;
  retries: number;
}

/**
 * The overlay of `entries` (all of an execution's kept entries, in entryId order) on `graph`; entries of other
 * workflows of the definition are skipped. `failing` is the failing step (the first element of the error's
 * stack trace), when the execution failed. Linear in the entries.
 */
export function runOverlay(graph: WorkflowGraph, entries: Iterable<EntryLike>, failing?: { readonly routine: string; readonly step: string }): RunOverlay {
  const ids = new Set(graph.nodes.map((n) => n.id));
  const edgeIndex = new Map<string, number[]>();
  graph.edges.forEach((e, i) => {
    const k = `${e.from}\n${e.to}`;
    const list = edgeIndex.get(k);
    if (list) list.push(i);
    else edgeIndex.set(k, [i]);
  });
  const taken = new Set<number>();
  const take = (from: string, to: string, only?: (i: number) => boolean): boolean => {
    const list = edgeIndex.get(`${from}\n${to}`);
    if (!list) return false;
    for (const i of list) if (!only || only(i)) taken.add(i);
    return true;
  };
  const counts = new Map<string, Counts>();
  const nodeOfEntry = new Map<string, string>();
  const last = new Map<string, string>();
  /** The last entry of each scope, and the nodes that ran below each entry (for the way out of a compound step). */
  const lastEntry = new Map<string, string>();
  const parentOf = new Map<string, string>();
  const below = new Map<string, string[]>();
  const start = `${graph.name}:start`;
  for (const e of entries) {
    const node = stepNodeId(e.routine, e.step);
    if (e.routine !== graph.name || !ids.has(node)) continue;
    nodeOfEntry.set(e.entryId, node);
    let c = counts.get(node);
    if (!c) counts.set(node, (c = { state: STATE[e.state], entries: 0, iterations: 0, retries: 0 }));
    c.entries++;
    c.state = STATE[e.state];
    const m = e.stepEntryMetadata;
    const n = m.progressNumber !== undefined ? Number(m.progressNumber) : 0;
    if (m.progressType === 'PROGRESS_TYPE_RETRY') c.retries = Math.max(c.retries, n);
    else if (m.progressType === 'PROGRESS_TYPE_FOR' || m.progressType === 'PROGRESS_TYPE_PARALLEL_FOR') c.iterations = Math.max(c.iterations, n);
    const parent = e.navigationInfo.parent;
    const scope = parent ?? '';
    const before = last.get(scope) ?? (parent !== undefined ? nodeOfEntry.get(parent) : undefined) ?? start;
    // No edge from the step before: it is a compound step (branches, a body, a try) left from the steps that
    // ended inside it.
    if (before !== node && !take(before, node)) {
      const previous = lastEntry.get(scope);
      const inside = previous !== undefined ? below.get(previous) : undefined;
      if (inside) for (const inner of inside) if (inner !== node) take(inner, node, (i) => graph.edges[i]!.kind === 'seq');
    }
    last.set(scope, node);
    lastEntry.set(scope, e.entryId);
    if (parent !== undefined) parentOf.set(e.entryId, parent);
    // (Few distinct steps run below one entry: a short array beats a Set here.)
    for (let p = parent, depth = 0; p !== undefined && depth < 64; p = parentOf.get(p), depth++) {
      const list = below.get(p);
      if (!list) below.set(p, [node]);
      else if (!list.includes(node)) list.push(node);
    }
  }
  // The loop back from the last step of each iteration (a scope whose parent is a loop's step), and the way
  // into `end` from the last step of the top list when it succeeded.
  for (const [scope, node] of last) {
    const parentNode = scope === '' ? undefined : nodeOfEntry.get(scope);
    if (parentNode !== undefined) take(node, parentNode, (i) => graph.edges[i]!.kind === 'loop');
    else if (counts.get(node)?.state === 'succeeded') take(node, `${graph.name}:end`);
  }
  const failingId = failing && failing.routine === graph.name ? stepNodeId(failing.routine, failing.step) : undefined;
  const nodes = new Map<string, NodeRun>();
  for (const [id, c] of counts) {
    nodes.set(id, { state: c.state, entries: c.entries, iterations: c.iterations, retries: c.retries, failing: id === failingId });
  }
  return { nodes, taken };
}
