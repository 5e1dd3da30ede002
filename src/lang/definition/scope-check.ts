/**
 * The deploy-time scope checks Google's service makes, run on a compiled definition (each workflow on its
 * own). Google refuses at deploy:
 *
 * - a variable created inside an `except` block and read after the block: "A variable created inside a for
 *   loop belongs to the local scope of that loop ... accessing it outside of the loop will raise an error
 *   when deploying the workflow. This local scoping also applies to any variable created inside an except
 *   block" (https://cloud.google.com/workflows/docs/reference/syntax/variables#variable-scope);
 *   code `EXCEPT_VARIABLE_OUT_OF_SCOPE`;
 * - in a parallel step, a branch or iteration assigning a variable of the parent scope that is not in
 *   `shared` ("deployment error, defined in the parent scope but not marked shared"), code
 *   `UNSHARED_PARENT_ASSIGNMENT`, and a branch reading a variable that only a sibling branch assigns, code
 *   `SIBLING_BRANCH_VARIABLE` (Google's sample "Demonstrate variable scope in a parallel step",
 *   https://cloud.google.com/workflows/docs/samples/workflows-parallel-shared-variables, and
 *   https://cloud.google.com/workflows/docs/reference/syntax/parallel-steps#shared-variables).
 *
 * The analysis is exactly as wide as those rules, and errs towards deploying: a name counts as created in an
 * `except` block only when it is no parameter and no step outside every `except` block assigns it;
 * a parent variable is one a parameter, an enclosing loop or `except`, or a step before the parallel step in
 * an enclosing list assigns; a sibling's variable is one nothing outside the parallel step assigns. Every
 * published sample and real workflow that deploys on Google's service deploys here too (test/api/rest-corpus).
 *
 * The walk turns a workflow into events in source order (a read, an assignment, a local binding) tagged with
 * the scopes that enclose them; each rule is a pass over the events.
 */
import type { Expr } from '../expr/ast.ts';
import type { CompiledExpression } from '../expr/ast.ts';
import type { Definition, SourcePos, Step, StepList, Template, WorkflowDef } from './ast.ts';
import { DefinitionError, type DefinitionErrorCode } from './errors.ts';

/** A scope that keeps what is created in it: an `except` block, a `for` body, a parallel branch or iteration. */
interface Frame {
  readonly kind: 'except' | 'for' | 'branch';
  readonly id: number;
  /** For a branch: the parallel step it belongs to. */
  readonly parallel?: ParallelInfo;
}

/** A parallel step: its shared names, where it starts and ends in the event list, and its frames' path. */
interface ParallelInfo {
  readonly step: Step & { kind: 'parallel' };
  readonly shared: ReadonlySet<string>;
  readonly path: readonly Frame[];
  start: number;
  end: number;
  readonly branches: Frame[];
}

/** One use of a name: read (`read`), assigned (`write`, `partial` for `x.y: v`), or bound locally (`bind`). */
interface NameEvent {
  readonly kind: 'read' | 'write' | 'bind';
  readonly name: string;
  readonly partial: boolean;
  readonly pos: SourcePos;
  readonly step: string;
  readonly path: readonly Frame[];
}

/**
 * Checks every workflow of `def`.
 * @throws DefinitionError with code EXCEPT_VARIABLE_OUT_OF_SCOPE, UNSHARED_PARENT_ASSIGNMENT or
 *   SIBLING_BRANCH_VARIABLE, naming the step and the `line:col` of the offending read or assignment.
 */
export function checkScopes(def: Definition): void {
  for (const wf of def.workflows.values()) new ScopeWalk(wf, def.workflows).check();
}

class ScopeWalk {
  readonly events: NameEvent[] = [];
  readonly excepts: { frame: Frame; start: number; end: number }[] = [];
  readonly parallels: ParallelInfo[] = [];
  private nextId = 0;
  private path: Frame[] = [];
  private step = '';

  constructor(
    private readonly wf: WorkflowDef,
    private readonly workflows: ReadonlyMap<string, WorkflowDef>,
  ) {}

  check(): void {
    this.list(this.wf.steps);
    this.index();
    const params = new Set(this.wf.params.map((p) => p.name));
    this.exceptRule(params);
    for (const p of this.parallels) {
      this.sharedRule(p, params);
      this.siblingRule(p, params);
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // The walk

  private emit(kind: NameEvent['kind'], name: string, pos: SourcePos, partial = false): void {
    this.events.push({ kind, name, partial, pos, step: this.step, path: this.path });
  }

  private within<T>(frame: Frame, f: () => T): T {
    const saved = this.path;
    this.path = [...saved, frame];
    try {
      return f();
    } finally {
      this.path = saved;
    }
  }

  private frame(kind: Frame['kind'], parallel?: ParallelInfo): Frame {
    return parallel ? { kind, id: this.nextId++, parallel } : { kind, id: this.nextId++ };
  }

  private list(l: StepList): void {
    for (const s of l.steps) this.stepOf(s);
  }

  private stepOf(s: Step): void {
    this.step = s.name;
    switch (s.kind) {
      case 'assign':
        for (const a of s.assignments) {
          this.template(a.value);
          for (const seg of a.target.path) if (seg.kind === 'index') this.expr(seg.expr, s.pos);
          const partial = a.target.path.length > 0;
          if (partial) this.emit('read', a.target.root, s.pos);
          this.emit('write', a.target.root, s.pos, partial);
        }
        return;
      case 'call':
        for (const [, t] of s.args ?? []) this.template(t);
        if (s.result !== undefined) this.emit('write', s.result, s.pos);
        return;
      case 'switch':
        for (const c of s.cases) {
          this.template(c.condition);
          if (c.steps) this.list(c.steps);
          if (c.step) this.stepOf(c.step);
          this.step = s.name;
        }
        return;
      case 'for':
        this.loop(s.loop, s.pos, this.frame('for'));
        return;
      case 'parallel':
        this.parallel(s);
        return;
      case 'try':
        this.tryStep(s);
        return;
      case 'raise':
        this.template(s.value);
        return;
      case 'return':
        if (s.value) this.template(s.value);
        return;
      case 'steps':
        this.list(s.steps);
        return;
      case 'jump':
        return;
    }
  }

  private loop(loop: { value: string; index?: string; in?: Template; range?: Template; steps: StepList }, pos: SourcePos, frame: Frame): void {
    if (loop.in) this.template(loop.in);
    if (loop.range) this.template(loop.range);
    this.within(frame, () => {
      this.emit('bind', loop.value, pos);
      if (loop.index !== undefined) this.emit('bind', loop.index, pos);
      this.list(loop.steps);
    });
  }

  private parallel(s: Step & { kind: 'parallel' }): void {
    if (s.concurrencyLimit) this.template(s.concurrencyLimit);
    for (const name of s.shared) this.emit('read', name, s.pos);
    const info: ParallelInfo = { step: s, shared: new Set(s.shared), path: this.path, start: this.events.length, end: 0, branches: [] };
    this.parallels.push(info);
    if (s.branches) {
      for (const b of s.branches) {
        const frame = this.frame('branch', info);
        info.branches.push(frame);
        this.within(frame, () => this.list(b.steps));
      }
    } else if (s.for) {
      const frame = this.frame('branch', info);
      this.loop(s.for, s.pos, frame);
    }
    info.end = this.events.length;
  }

  private tryStep(s: Step & { kind: 'try' }): void {
    this.list(s.body);
    const r = s.retry;
    this.step = s.name;
    if (r && r.kind === 'custom') for (const t of [r.maxRetries, r.initialDelaySec, r.maxDelaySec, r.multiplier]) this.template(t);
    const ex = s.except;
    if (!ex) return;
    const frame = this.frame('except');
    const start = this.events.length;
    this.within(frame, () => {
      if (ex.as !== undefined) this.emit('bind', ex.as, s.pos);
      this.list(ex.steps);
    });
    this.excepts.push({ frame, start, end: this.events.length });
  }

  private template(t: Template): void {
    switch (t.kind) {
      case 'const':
        return;
      case 'expr':
        this.expr(t.expr, t.pos);
        return;
      case 'list':
        for (const i of t.items) this.template(i);
        return;
      case 'map':
        for (const k of t.keyExprs ?? []) if (k) this.expr(k, undefined);
        for (const [, v] of t.entries) this.template(v);
        return;
    }
  }

  private expr(e: CompiledExpression, pos: SourcePos | undefined): void {
    this.walkExpr(e.ast, pos ?? this.wf.pos);
  }

  private walkExpr(x: Expr, at: SourcePos): void {
    switch (x.kind) {
      case 'literal':
        return;
      case 'var':
        if (!this.workflows.has(x.name)) this.emit('read', x.name, at);
        return;
      case 'member':
        return this.walkExpr(x.object, at);
      case 'index':
        this.walkExpr(x.object, at);
        return this.walkExpr(x.index, at);
      case 'call':
        for (const a of x.args) this.walkExpr(a, at);
        return;
      case 'unary':
        return this.walkExpr(x.operand, at);
      case 'binary':
        this.walkExpr(x.left, at);
        return this.walkExpr(x.right, at);
      case 'list':
        for (const i of x.items) this.walkExpr(i, at);
        return;
      case 'map':
        for (const [k, v] of x.entries) {
          this.walkExpr(k, at);
          this.walkExpr(v, at);
        }
    }
  }

  // ---------------------------------------------------------------------------------------------------
  // The rules (each looks names up in the indexes below, so a check costs about one pass over the events)

  /** Indexes of the events that assign or bind each name, and of those that read it, in order. */
  private writes = new Map<string, number[]>();
  private reads = new Map<string, number[]>();

  private index(): void {
    for (let i = 0; i < this.events.length; i++) {
      const ev = this.events[i]!;
      const by = ev.kind === 'read' ? this.reads : this.writes;
      const list = by.get(ev.name);
      if (list) list.push(i);
      else by.set(ev.name, [i]);
    }
  }

  private fail(ev: NameEvent, reason: string, code: DefinitionErrorCode): never {
    throw new DefinitionError(reason, { pos: ev.pos, step: ev.step, code });
  }

  /** Whether a step inside `frame` assigns or binds `name` (`own`: `frame` itself binds it, as a loop variable). */
  private assignsIn(frame: Frame, name: string, own = false): boolean {
    return (this.writes.get(name) ?? []).some((i) => {
      const ev = this.events[i]!;
      return own ? ev.kind === 'bind' && ev.path[ev.path.length - 1] === frame : ev.path.includes(frame);
    });
  }

  /** A variable created in an `except` block and read after it (Google's Variables page). */
  private exceptRule(params: ReadonlySet<string>): void {
    for (const ex of this.excepts) {
      for (let i = ex.start; i < ex.end; i++) {
        const ev = this.events[i]!;
        if (ev.kind !== 'write' || ev.partial || params.has(ev.name)) continue;
        const name = ev.name;
        // Created here only when no step outside every except block assigns it.
        if (this.writes.get(name)!.some((w) => !this.events[w]!.path.some((f) => f.kind === 'except'))) continue;
        for (const r of this.reads.get(name) ?? []) {
          const read = this.events[r]!;
          if (r < ex.end || read.path.includes(ex.frame)) continue;
          // A loop, branch or other except block around the read that assigns the name makes its own.
          if (read.path.some((f) => this.assignsIn(f, name))) continue;
          this.fail(read, `'${name}' is created inside an except block and is not defined after it; assign it before the try step to use it there`, 'EXCEPT_VARIABLE_OUT_OF_SCOPE');
        }
      }
    }
  }

  /** A branch or iteration assigning a parent variable that is not in `shared`. */
  private sharedRule(p: ParallelInfo, params: ReadonlySet<string>): void {
    for (let i = p.start; i < p.end; i++) {
      const ev = this.events[i]!;
      if (ev.kind !== 'write' || p.shared.has(ev.name)) continue;
      const name = ev.name;
      const parent = params.has(name) || this.writes.get(name)!.some((w) => w < p.start && this.events[w]!.path.every((f) => p.path.includes(f)));
      if (!parent) continue;
      // A loop variable or except `as` of the same name inside the branch is a new, local one.
      if (ev.path.slice(p.path.length).some((f) => this.assignsIn(f, name, true))) continue;
      this.fail(ev, `'${name}' is a variable of the parent scope and parallel step '${p.step.name}' does not list it in 'shared'; add it to 'shared' to assign it in a branch`, 'UNSHARED_PARENT_ASSIGNMENT');
    }
  }

  /** A branch reading a variable that only a sibling branch assigns. */
  private siblingRule(p: ParallelInfo, params: ReadonlySet<string>): void {
    if (p.branches.length < 2) return;
    const depth = p.path.length;
    for (let i = p.start; i < p.end; i++) {
      const ev = this.events[i]!;
      const branch = ev.path[depth];
      if (ev.kind !== 'read' || !branch || params.has(ev.name) || p.shared.has(ev.name)) continue;
      const writes = (this.writes.get(ev.name) ?? []).map((w) => this.events[w]!);
      // Assigned outside the parallel step, or in the reading branch itself: not a sibling's variable.
      if (writes.some((w) => w.path[depth] === undefined || !p.branches.includes(w.path[depth]!) || w.path[depth] === branch)) continue;
      const sibling = writes.find((w) => w.path[depth] !== branch)?.path[depth];
      if (!sibling) continue;
      const branchName = (f: Frame): string => p.step.branches?.[p.branches.indexOf(f)]?.name ?? '?';
      this.fail(ev, `'${ev.name}' is assigned only in branch '${branchName(sibling)}' of parallel step '${p.step.name}'; branch '${branchName(branch)}' cannot read it (assign it before the parallel step and list it in 'shared')`, 'SIBLING_BRANCH_VARIABLE');
    }
  }
}
