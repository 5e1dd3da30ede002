/**
 * The graph of a workflow definition (docs/graph.md): one graph per workflow of the definition (`main` and each
 * subworkflow), built from the compiled definition of src/lang/definition/ast.ts. Nodes are steps, labelled
 * with their name and kind; edges are the ways control can go from one step to another: the sequence, `next`,
 * each switch condition (labelled with the condition, shortened), the fall-through when no condition matches,
 * try → except, a retry's loop back to its try, a for body's loop back to its for step, parallel branches, and
 * `return`/`raise`/`end` to the workflow's end and error terminals. A for loop, a parallel step (one lane per
 * branch), a try (with its except) and a nested `steps` block are clusters holding their steps.
 *
 * Google's "Control the order of execution" and "Steps" pages define the moves drawn here:
 * https://cloud.google.com/workflows/docs/reference/syntax/jumps and
 * https://cloud.google.com/workflows/docs/reference/syntax/steps.
 */
import { toJson } from '../lang/json.ts';
import type { Value } from '../lang/value.ts';
import type { Definition, JumpTarget, SourcePos, Step, StepList, Template, WorkflowDef } from '../lang/definition/ast.ts';

/** What a node stands for: a step kind, or one of the workflow's terminals (`start`, `end`, `error`). */
export type NodeKind = Step['kind'] | 'start' | 'end' | 'error';

/** One node of a workflow graph. */
export interface GraphNode {
  /**
   * Unique within the definition: `<routine>/<step>` for a step (step names are unique per workflow, and
   * routine names hold no `/` or `:`), `<routine>:start`, `<routine>:end`, `<routine>:error` for the
   * terminals, `<routine>:case:<i>:<switch step>` for a step written inline in a switch condition and
   * `<routine>:try:<try step>` for the single step written inline in a try.
   */
  readonly id: string;
  /** The workflow (routine) the node belongs to, as step entries name it (`main` or a subworkflow). */
  readonly routine: string;
  /** The step name as step entries name it (for an inline switch step, the switch's name); '' for terminals. */
  readonly step: string;
  readonly kind: NodeKind;
  /** The kind's detail: the called function, `x in ${list}`, `3 conditions`, ... ('' when none). */
  readonly detail: string;
  /** Where the step starts in the source (1-based), or the workflow's position for terminals. */
  readonly pos: SourcePos;
  /** The cluster holding the node, if any (a cluster ID of {@link WorkflowGraph.clusters}). */
  readonly cluster?: string;
  /** For a call to a subworkflow of the same definition: its name (its graph is another of the definition). */
  readonly calls?: string;
  /** True for a step written inline in a switch condition or a try (step entries carry that step's name). */
  readonly inline?: boolean;
}

/** What a cluster groups: a for body, a parallel step, one parallel branch (a lane), a try, an except, a steps block. */
export type ClusterKind = 'for' | 'parallel' | 'branch' | 'try' | 'except' | 'steps';

/** A box around the nodes of one compound step (or of one parallel branch, or an except). */
export interface GraphCluster {
  /** `<routine>#<n>`, unique within the definition. */
  readonly id: string;
  readonly kind: ClusterKind;
  /** What the box says: the step's name and kind, the branch's name, `except`. */
  readonly label: string;
  /** The enclosing cluster, if any. */
  readonly parent?: string;
}

/**
 * How control moves along an edge: `seq` the next step of the list, `next` a jump, `cond` a switch condition,
 * `else` no condition matched, `branch` into a parallel branch or a loop body, `loop` a for body's end back to
 * its for step, `except` an error into the except steps, `retry` a retry back to the try, `return`, `raise`
 * and `end` into a terminal, `break` and `continue` out of or back to a loop.
 */
export type EdgeKind = 'seq' | 'next' | 'cond' | 'else' | 'branch' | 'loop' | 'except' | 'retry' | 'return' | 'raise' | 'end' | 'break' | 'continue';

/** One edge: from and to are node IDs of the same workflow graph. */
export interface GraphEdge {
  readonly from: string;
  readonly to: string;
  readonly kind: EdgeKind;
  /** A short label (a switch condition, a branch name, `retry`, ...), or absent. */
  readonly label?: string;
}

/**
 * The shape of a workflow as nested blocks, for the layout: a node, a column (a step list: one below the
 * other), a row (switch conditions, parallel branches, a try body beside its except: side by side) or a box
 * (a cluster around its content).
 */
export type Block =
  | { readonly kind: 'node'; readonly id: string }
  | { readonly kind: 'column'; readonly items: readonly Block[] }
  | { readonly kind: 'row'; readonly items: readonly Block[] }
  | { readonly kind: 'box'; readonly cluster: string; readonly content: Block };

/** The graph of one workflow (`main` or a subworkflow). */
export interface WorkflowGraph {
  readonly name: string;
  readonly params: readonly string[];
  readonly pos: SourcePos;
  readonly nodes: readonly GraphNode[];
  readonly clusters: readonly GraphCluster[];
  readonly edges: readonly GraphEdge[];
  /** The nodes as nested blocks (every node exactly once), a column from `start` to `end`. */
  readonly shape: Block;
}

/** The graphs of a definition: `main` first, then the subworkflows in source order. */
export interface DefinitionGraph {
  readonly workflows: readonly WorkflowGraph[];
}

/** Longest edge label drawn; longer conditions end with `…`. */
export const MAX_LABEL_CHARS = 32;

/** Shortens `text` to {@link MAX_LABEL_CHARS} characters, whitespace runs made one space. */
export function shorten(text: string, max = MAX_LABEL_CHARS): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return one.length <= max ? one : one.slice(0, max - 1) + '…';
}

/**
 * Builds the graphs of a compiled definition. Pure and deterministic (the same definition gives the same
 * graph, IDs included); linear in the number of steps and conditions.
 */
export function definitionGraph(definition: Definition): DefinitionGraph {
  const ordered = [...definition.workflows.values()].sort((a, b) => (a.name === 'main' ? -1 : b.name === 'main' ? 1 : a.pos.line - b.pos.line || a.pos.col - b.pos.col));
  return { workflows: ordered.map((w) => new Builder(w).build()) };
}

/** A dangling edge: control leaves `from` and goes wherever the builder connects it next. */
interface Exit {
  readonly from: string;
  readonly kind: EdgeKind;
  readonly label?: string;
}

/** Where the builder is: the enclosing cluster, loop and except. */
interface Cx {
  readonly cluster?: string;
  readonly loop?: { readonly header: string; readonly breaks: Exit[] };
  /** The node a `raise` goes to (the first except step of the innermost try), else the error terminal. */
  readonly except?: string;
}

/** The step ID of `name` in `routine`. */
export function stepNodeId(routine: string, name: string): string {
  return `${routine}/${name}`;
}

class Builder {
  private readonly nodes: GraphNode[] = [];
  private readonly clusters: GraphCluster[] = [];
  private readonly edges: GraphEdge[] = [];
  private readonly jumps: { readonly exit: Exit; readonly name: string }[] = [];
  private readonly names = new Map<string, string>();
  private readonly start: string;
  private readonly end: string;
  private readonly error: string;
  private raises = false;

  constructor(private readonly w: WorkflowDef) {
    this.start = `${w.name}:start`;
    this.end = `${w.name}:end`;
    this.error = `${w.name}:error`;
  }

  build(): WorkflowGraph {
    const w = this.w;
    this.nodes.push({ id: this.start, routine: w.name, step: '', kind: 'start', detail: w.params.map((p) => p.name).join(', '), pos: w.pos });
    const column: Block[] = [{ kind: 'node', id: this.start }];
    const out = this.list(w.steps, {}, [{ from: this.start, kind: 'seq' }], column);
    this.nodes.push({ id: this.end, routine: w.name, step: '', kind: 'end', detail: '', pos: w.pos });
    this.link(out, this.end, 'end');
    if (this.raises) {
      this.nodes.push({ id: this.error, routine: w.name, step: '', kind: 'error', detail: '', pos: w.pos });
      column.push({ kind: 'row', items: [{ kind: 'node', id: this.end }, { kind: 'node', id: this.error }] });
    } else {
      column.push({ kind: 'node', id: this.end });
    }
    for (const j of this.jumps) {
      const to = this.names.get(j.name);
      if (to !== undefined) this.edges.push(edge(j.exit.from, to, j.exit.kind, j.exit.label));
    }
    return {
      name: w.name,
      params: w.params.map((p) => p.name),
      pos: w.pos,
      nodes: this.nodes,
      clusters: this.clusters,
      edges: this.edges,
      shape: { kind: 'column', items: column },
    };
  }

  /** Adds the steps of `l` one below the other into `into`; returns the edges leaving the list. */
  private list(l: StepList, cx: Cx, incoming: Exit[], into: Block[]): Exit[] {
    let pending = incoming;
    for (const s of l.steps) pending = this.step(s, cx, pending, into);
    return pending;
  }

  /** A column of the steps of `l` (see {@link list}). */
  private column(l: StepList, cx: Cx, incoming: Exit[]): { readonly block: Block; readonly out: Exit[] } {
    const items: Block[] = [];
    const out = this.list(l, cx, incoming, items);
    return { block: { kind: 'column', items }, out };
  }

  /**
   * Adds `s` (and what it holds) into `into`, links `incoming` to it, and returns the edges leaving it.
   * `inlineId`: the node's ID for a step written inline in a try (`try: {call: ...}`), which carries the try's name.
   */
  private step(s: Step, cx: Cx, incoming: Exit[], into: Block[], inlineId?: string): Exit[] {
    const compound = s.kind === 'for' || s.kind === 'parallel' || s.kind === 'try' || s.kind === 'steps';
    const cluster = compound ? this.cluster(s.kind === 'for' || s.kind === 'parallel' || s.kind === 'steps' ? s.kind : 'try', `${s.name} (${s.kind})`, cx.cluster) : cx.cluster;
    const id = inlineId ?? stepNodeId(this.w.name, s.name);
    if (inlineId === undefined) this.names.set(s.name, id);
    this.nodes.push({
      ...(inlineId !== undefined ? { inline: true } : {}),
      id,
      routine: this.w.name,
      step: s.name,
      kind: s.kind,
      detail: detailOf(s),
      pos: s.pos,
      ...(cluster !== undefined ? { cluster } : {}),
      ...(s.kind === 'call' && s.target.kind === 'subworkflow' ? { calls: s.target.name } : {}),
    });
    this.link(incoming, id);
    const inner: Cx = { ...cx, ...(cluster !== undefined ? { cluster } : {}) };
    const self: Block = { kind: 'node', id };
    /** The step's node above `below`, boxed when the step is a cluster. */
    const put = (below?: Block): void => {
      const content: Block = below ? { kind: 'column', items: [self, below] } : self;
      into.push(compound && cluster !== undefined ? { kind: 'box', cluster, content } : content);
    };
    let out: Exit[];
    switch (s.kind) {
      case 'assign':
      case 'call':
      case 'jump':
        put();
        out = [{ from: id, kind: 'seq' }];
        break;
      case 'return':
        put();
        this.edges.push(edge(id, this.end, 'return'));
        return [];
      case 'raise':
        put();
        this.raiseFrom(id, cx);
        return [];
      case 'switch': {
        const columns: Block[] = [];
        out = this.switchCases(s, id, cx, columns);
        put(columns.length ? { kind: 'row', items: columns } : undefined);
        break;
      }
      case 'for': {
        const body = this.loop(id, inner, s.loop.steps, `each ${s.loop.value}`);
        put(body.block);
        out = body.out;
        break;
      }
      case 'parallel': {
        const p = this.parallel(s, id, inner);
        put(p.block);
        out = p.out;
        break;
      }
      case 'try': {
        const t = this.tryStep(s, id, inner);
        put(t.block);
        out = t.out;
        break;
      }
      case 'steps': {
        const c = this.column(s.steps, inner, [{ from: id, kind: 'seq' }]);
        put(c.block);
        out = c.out;
        break;
      }
    }
    if (s.next) {
      this.jump(out, s.next, cx);
      return [];
    }
    return out;
  }

  /** The conditions of a switch: their steps go into `columns`, one column per condition with steps. */
  private switchCases(s: Extract<Step, { kind: 'switch' }>, id: string, cx: Cx, columns: Block[]): Exit[] {
    const out: Exit[] = [];
    let always = false;
    s.cases.forEach((c, i) => {
      const label = conditionText(c.condition);
      if (c.condition.kind === 'const' && c.condition.value === true) always = true;
      const enter: Exit = { from: id, kind: 'cond', label };
      if (c.next) this.jump([enter], c.next, cx);
      else if (c.steps) {
        const col = this.column(c.steps, cx, [enter]);
        columns.push(col.block);
        out.push(...col.out);
      } else if (c.step) {
        columns.push({ kind: 'node', id: `${this.w.name}:case:${i}:${s.name}` });
        out.push(...this.inlineStep(c.step, i, s.name, cx, enter));
      } else out.push(enter);
    });
    if (!always) out.push({ from: id, kind: 'else', label: 'no match' });
    return out;
  }
  /** A step written inline in a switch condition (an assign, call, return or raise). */
  private inlineStep(step: Step, i: number, switchName: string, cx: Cx, enter: Exit): Exit[] {
    const id = `${this.w.name}:case:${i}:${switchName}`;
    this.nodes.push({
      id,
      routine: this.w.name,
      step: switchName,
      kind: step.kind,
      detail: detailOf(step),
      pos: step.pos,
      inline: true,
      ...(cx.cluster !== undefined ? { cluster: cx.cluster } : {}),
      ...(step.kind === 'call' && step.target.kind === 'subworkflow' ? { calls: step.target.name } : {}),
    });
    this.link([enter], id);
    if (step.kind === 'return') {
      this.edges.push(edge(id, this.end, 'return'));
      return [];
    }
    if (step.kind === 'raise') {
      this.raiseFrom(id, cx);
      return [];
    }
    const out: Exit[] = [{ from: id, kind: 'seq' }];
    if (step.next) {
      this.jump(out, step.next, cx);
      return [];
    }
    return out;
  }

  /** A for loop's body (or a parallel for's): header → body, body's end → header, `done` and breaks leave. */
  private loop(header: string, cx: Cx, body: StepList, label: string): { readonly block: Block; readonly out: Exit[] } {
    const loop = { header, breaks: [] as Exit[] };
    const col = this.column(body, { ...cx, loop }, [{ from: header, kind: 'branch', label }]);
    this.link(col.out, header, 'loop');
    return { block: col.block, out: [{ from: header, kind: 'seq', label: 'done' }, ...loop.breaks] };
  }

  /** A parallel step: its branches side by side, each in a lane, or its for body. */
  private parallel(s: Extract<Step, { kind: 'parallel' }>, id: string, cx: Cx): { readonly block: Block; readonly out: Exit[] } {
    if (s.for) return this.loop(id, cx, s.for.steps, `each ${s.for.value}`);
    const out: Exit[] = [];
    const lanes: Block[] = [];
    for (const b of s.branches ?? []) {
      const lane = this.cluster('branch', b.name, cx.cluster);
      const col = this.column(b.steps, { ...cx, cluster: lane }, [{ from: id, kind: 'branch', label: b.name }]);
      lanes.push({ kind: 'box', cluster: lane, content: col.block });
      out.push(...col.out);
    }
    return { block: { kind: 'row', items: lanes }, out };
  }

  /** A try: its body, and beside it its except steps in their own box; a retry loops back to the try. */
  private tryStep(s: Extract<Step, { kind: 'try' }>, id: string, cx: Cx): { readonly block: Block; readonly out: Exit[] } {
    const first = s.except?.steps.steps[0];
    const exceptEntry = first ? stepNodeId(this.w.name, first.name) : undefined;
    const bodyCx: Cx = { ...cx, ...(exceptEntry !== undefined ? { except: exceptEntry } : {}) };
    // `try: {call: ...}`: the single step written inline carries the try's own name.
    const only = s.body.steps.length === 1 && s.body.steps[0]!.name === s.name ? s.body.steps[0]! : undefined;
    const inlineId = `${this.w.name}:try:${s.name}`;
    let body: { readonly block: Block; readonly out: Exit[] };
    if (only) {
      const items: Block[] = [];
      body = { out: this.step(only, bodyCx, [{ from: id, kind: 'seq' }], items, inlineId), block: { kind: 'column', items } };
    } else {
      body = this.column(s.body, bodyCx, [{ from: id, kind: 'seq' }]);
    }
    const last = s.body.steps[s.body.steps.length - 1];
    if (s.retry && last) {
      const label = s.retry.kind === 'policy' ? `retry ${s.retry.name}` : 'retry';
      this.edges.push(edge(only ? inlineId : stepNodeId(this.w.name, last.name), id, 'retry', shorten(label)));
    }
    if (!s.except) return body;
    const box = this.cluster('except', `except${s.except.as ? ` as ${s.except.as}` : ''}`, cx.cluster);
    const handled = this.column(s.except.steps, { ...cx, cluster: box }, [{ from: id, kind: 'except', label: 'error' }]);
    return { block: { kind: 'row', items: [body.block, { kind: 'box', cluster: box, content: handled.block }] }, out: [...body.out, ...handled.out] };
  }

  private raiseFrom(id: string, cx: Cx): void {
    if (cx.except !== undefined) {
      this.edges.push(edge(id, cx.except, 'raise'));
    } else {
      this.raises = true;
      this.edges.push(edge(id, this.error, 'raise'));
    }
  }

  /** Sends `exits` where `target` says. */
  private jump(exits: Exit[], target: JumpTarget, cx: Cx): void {
    // A condition's jump keeps its kind (and label) when it goes to a step; break and continue say so.
    const as = (e: Exit, kind: EdgeKind): Exit => ({ from: e.from, kind: kind === 'next' && (e.kind === 'cond' || e.kind === 'else') ? e.kind : kind, ...(e.label !== undefined ? { label: e.label } : {}) });
    switch (target.kind) {
      case 'end':
        for (const e of exits) this.edges.push(edge(e.from, this.end, 'end', e.label));
        return;
      case 'break':
        cx.loop?.breaks.push(...exits.map((e) => as(e, 'break')));
        return;
      case 'continue':
        if (cx.loop) this.link(exits.map((e) => as(e, 'continue')), cx.loop.header);
        return;
      case 'step':
        for (const e of exits) this.jumps.push({ exit: as(e, 'next'), name: target.name });
    }
  }

  private link(exits: readonly Exit[], to: string, kind?: EdgeKind): void {
    for (const e of exits) this.edges.push(edge(e.from, to, kind && e.kind === 'seq' ? kind : e.kind, e.label));
  }

  private cluster(kind: ClusterKind, label: string, parent: string | undefined): string {
    const id = `${this.w.name}#${this.clusters.length}`;
    this.clusters.push({ id, kind, label, ...(parent !== undefined ? { parent } : {}) });
    return id;
  }
}

function edge(from: string, to: string, kind: EdgeKind, label?: string): GraphEdge {
  return label !== undefined ? { from, to, kind, label } : { from, to, kind };
}

/** A switch condition as written, shortened: the expression's text, or the constant's JSON. */
function conditionText(t: Template): string {
  if (t.kind === 'expr') return shorten(t.expr.source);
  if (t.kind === 'const') return shorten(constText(t.value));
  return 'condition';
}

/** The detail shown under a step's name. */
function detailOf(s: Step): string {
  switch (s.kind) {
    case 'assign':
      return shorten(s.assignments.map((a) => a.target.text).join(', '));
    case 'call':
      return s.target.name;
    case 'switch':
      return `${s.cases.length} ${s.cases.length === 1 ? 'condition' : 'conditions'}`;
    case 'for':
      return shorten(`${s.loop.value} in ${s.loop.in ? templateText(s.loop.in) : 'range'}`);
    case 'parallel':
      return s.for ? shorten(`for ${s.for.value}`) : `${s.branches?.length ?? 0} branches`;
    case 'try':
      return [s.retry ? 'retry' : '', s.except ? 'except' : ''].filter(Boolean).join(', ');
    case 'jump':
      return s.next?.kind === 'step' ? `next ${s.next.name}` : s.next ? `next ${s.next.kind}` : '';
    default:
      return '';
  }
}

function templateText(t: Template): string {
  return t.kind === 'expr' ? '${' + t.expr.source + '}' : t.kind === 'const' ? constText(t.value) : 'list';
}

/** A constant as JSON (ints exact); a value JSON cannot hold (a function) as its kind. */
function constText(v: Value): string {
  try {
    return toJson(v);
  } catch {
    return typeof v;
  }
}
