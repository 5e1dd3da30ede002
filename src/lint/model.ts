/**
 * The shape of a workflow source as tools see it (docs/lint.md, docs/editor.md): its workflows, their steps
 * in nested lists, the jumps between them, the calls, and where each variable is assigned and read, every
 * name with its offsets in the text. It is built from the loaded source tree (src/lang/definition/load.ts)
 * without compiling, and it never throws: a part of the source that has no workflow shape is left out, so an
 * editor still gets an outline and names while the definition is broken elsewhere.
 */
import type { Expr } from '../lang/expr/ast.ts';
import { parseExpression } from '../lang/expr/parser.ts';
import { entryOf as entry, type LoadedSource, type SEntry, type SMap, type SNode, type SScalar } from '../lang/definition/load.ts';
import { expressionText, sourceOffset } from '../lang/definition/template.ts';

/** A name written in the source: its text and where (UTF-16 offsets; `end` is exclusive). */
export interface NameRef {
  readonly name: string;
  readonly offset: number;
  readonly end: number;
  /** False when the offsets could not be mapped exactly (an expression in a scalar written with escapes). */
  readonly exact: boolean;
}

/** The role of a step list: which part of its holder step it is. */
export type ListRole = 'workflow' | 'steps' | 'for' | 'branch' | 'try' | 'except' | 'condition';

/** A list of steps and the step holding it (none for a workflow's own list). */
export interface StepListInfo {
  readonly role: ListRole;
  readonly steps: StepInfo[];
  readonly holder: StepInfo | undefined;
}

/** One step: its name, kind field, `next`, and the lists nested in it. */
export interface StepInfo {
  readonly name: NameRef;
  readonly workflow: string;
  /** The field that makes the step's kind (`assign`, `call`, ...), or undefined for a pure `next` step. */
  readonly kind: string | undefined;
  /** The step's own `next` value. */
  readonly next: NameRef | undefined;
  /** The list the step is in, and its index there. */
  readonly list: StepListInfo;
  readonly index: number;
  /** Nested step lists, in source order. */
  readonly children: StepListInfo[];
  /** The step's body (its map of fields). */
  readonly body: SMap | undefined;
  /** Offset just past the step's last character. */
  readonly end: number;
}

/** A workflow (`main` or a subworkflow) of the source. */
export interface WorkflowInfo {
  readonly name: string;
  /** The workflow's key; undefined for a definition that is a bare list of steps. */
  readonly key: NameRef | undefined;
  readonly params: NameRef[];
  readonly steps: StepListInfo;
  /** Offsets spanning the workflow. */
  readonly offset: number;
  readonly end: number;
}

/** How a variable gets its value at a site. */
export type VariableDefKind = 'param' | 'assign' | 'result' | 'for' | 'except';

/** A site that assigns a variable (`root` only: `a.b: 1` assigns into `a` and is a {@link VariableUse} of it). */
export interface VariableDef extends NameRef {
  readonly workflow: string;
  readonly step: string | undefined;
  readonly how: VariableDefKind;
  /** The assigned value's node, for an `assign` entry. */
  readonly value?: SNode;
}

/** A read of a variable in an expression (or an assignment into one of its fields). */
export interface VariableUse extends NameRef {
  readonly workflow: string;
}

/** A call of a function or subworkflow: a `call:` value or a call in an expression. */
export interface CallRef extends NameRef {
  readonly workflow: string;
  readonly step: StepInfo | undefined;
  /** True for a `call:` field, false for a call inside an expression. */
  readonly callStep: boolean;
  /** The `args` map of a `call:` step. */
  readonly args?: SMap;
}

/** A jump: a `next` value (of a step or a switch condition). */
export interface JumpRef extends NameRef {
  readonly from: StepInfo;
}

/** The workflow shape of a loaded source. */
export interface DocumentModel {
  readonly load: LoadedSource;
  readonly workflows: WorkflowInfo[];
  readonly steps: StepInfo[];
  readonly jumps: JumpRef[];
  readonly calls: CallRef[];
  readonly defs: VariableDef[];
  readonly uses: VariableUse[];
}

/** Offset just past the last character of a node (the end of its last scalar). */
export function endOf(node: SNode): number {
  let n: SNode = node;
  for (;;) {
    if (n.kind === 'scalar') return n.end;
    if (n.kind === 'seq') {
      const last = n.items[n.items.length - 1];
      if (last === undefined) return n.offset + 2;
      n = last;
    } else {
      const last = n.entries[n.entries.length - 1];
      if (last === undefined) return n.offset + 2;
      n = last.value.kind === 'scalar' && last.value.value === null && last.value.end <= last.keyNode.end ? last.keyNode : last.value;
    }
  }
}

/** The step fields that make a step's kind. */
export const KIND_FIELDS: readonly string[] = ['assign', 'call', 'switch', 'for', 'parallel', 'try', 'raise', 'return', 'steps'];
const KIND_SET: ReadonlySet<string> = new Set(KIND_FIELDS);

/** Builds the {@link DocumentModel} of a loaded source; parts without a workflow's shape are skipped. */
export function buildModel(load: LoadedSource): DocumentModel {
  return new ModelBuilder(load).build();
}

class ModelBuilder {
  private readonly m: DocumentModel;
  private workflow = 'main';
  private step: StepInfo | undefined;
  /** Expressions parsed so far, by text (a definition repeats many). */
  private readonly parsed = new Map<string, Expr>();

  constructor(private readonly load: LoadedSource) {
    this.m = { load, workflows: [], steps: [], jumps: [], calls: [], defs: [], uses: [] };
  }

  build(): DocumentModel {
    const root = this.load.root;
    if (root.kind === 'seq') {
      this.workflow = 'main';
      const steps = this.list(root, 'workflow', undefined);
      this.m.workflows.push({ name: 'main', key: undefined, params: [], steps, offset: root.offset, end: endOf(root) });
    } else if (root.kind === 'map') {
      for (const e of root.entries) {
        if (e.value.kind !== 'map') continue;
        this.workflow = e.key;
        this.step = undefined;
        const params: NameRef[] = [];
        const p = entry(e.value, 'params')?.value;
        if (p?.kind === 'seq') {
          for (const item of p.items) {
            const nameNode = item.kind === 'scalar' ? item : item.kind === 'map' && item.entries.length === 1 ? item.entries[0]!.keyNode : undefined;
            if (nameNode && typeof nameNode.value === 'string') params.push(this.nameOf(nameNode));
          }
        }
        for (const param of params) this.m.defs.push(variableDef(param, e.key, undefined, 'param', undefined));
        const s = entry(e.value, 'steps')?.value;
        const steps = s ? this.list(s, 'workflow', undefined) : { role: 'workflow' as const, steps: [], holder: undefined };
        this.m.workflows.push({ name: e.key, key: this.nameOf(e.keyNode), params, steps, offset: e.keyNode.offset, end: endOf(e.value) });
      }
    }
    return this.m;
  }

  /** A scalar as a name reference (its text between quotes, if quoted). */
  private nameOf(n: SScalar): NameRef {
    const name = String(n.value);
    const quoted = n.style === 'single' || n.style === 'double' ? 1 : 0;
    const exact = this.load.source.startsWith(name, n.offset + quoted);
    return { name, offset: n.offset + quoted, end: n.offset + quoted + name.length, exact };
  }

  private list(node: SNode, role: ListRole, holder: StepInfo | undefined): StepListInfo {
    const list: StepListInfo = { role, steps: [], holder };
    holder?.children.push(list);
    if (node.kind !== 'seq') return list;
    for (const item of node.items) {
      if (item.kind !== 'map' || item.entries.length === 0) continue;
      const e = item.entries[0]!;
      const body = e.value.kind === 'map' ? e.value : undefined;
      let kind: string | undefined;
      let nextNode: SNode | undefined;
      if (body) {
        for (const f of body.entries) {
          if (f.key === 'next') nextNode = f.value;
          else if (kind === undefined && KIND_SET.has(f.key)) kind = f.key;
        }
      }
      const info: StepInfo = {
        name: this.nameOf(e.keyNode),
        workflow: this.workflow,
        kind,
        next: nextNode?.kind === 'scalar' && typeof nextNode.value === 'string' ? this.nameOf(nextNode) : undefined,
        list,
        index: list.steps.length,
        children: [],
        body,
        end: endOf(item),
      };
      list.steps.push(info);
      this.m.steps.push(info);
      if (info.next) this.m.jumps.push(jumpRef(info.next, info));
      const saved = this.step;
      this.step = info;
      if (body) this.fields(body, info);
      this.step = saved;
    }
    return list;
  }

  /** The fields of a step body (also of a switch condition's or a one-step `try`'s inline content). */
  private fields(body: SMap, step: StepInfo): void {
    for (const f of body.entries) {
      const v = f.value;
      switch (f.key) {
        case 'assign':
          if (v.kind === 'seq') for (const item of v.items) if (item.kind === 'map' && item.entries.length === 1) this.assignment(item.entries[0]!);
          break;
        case 'call':
          if (v.kind === 'scalar' && typeof v.value === 'string') {
            const args = entry(body, 'args')?.value;
            const r = this.nameOf(v);
            const ref: CallRef = { name: r.name, offset: r.offset, end: r.end, exact: r.exact, workflow: this.workflow, step, callStep: true };
            if (args?.kind === 'map') (ref as { args?: SMap }).args = args;
            this.m.calls.push(ref);
          }
          break;
        case 'result':
          this.def(v, 'result');
          break;
        case 'switch':
          if (v.kind === 'seq') for (const c of v.items) if (c.kind === 'map') this.condition(c, step);
          break;
        case 'for':
          if (v.kind === 'map') this.loop(v, step);
          break;
        case 'parallel':
          if (v.kind === 'map') this.parallel(v, step);
          break;
        case 'try':
          if (v.kind === 'map') {
            const steps = entry(v, 'steps')?.value;
            if (steps && v.entries.length === 1) this.list(steps, 'try', step);
            else this.fields(v, step);
          }
          break;
        case 'except':
          if (v.kind === 'map') {
            const as = entry(v, 'as')?.value;
            if (as) this.def(as, 'except');
            const steps = entry(v, 'steps')?.value;
            if (steps) this.list(steps, 'except', step);
          }
          break;
        case 'steps':
          this.list(v, 'steps', step);
          break;
        case 'next':
          break;
        case 'retry':
          this.retry(v, step);
          break;
        default:
          this.values(v);
      }
    }
  }

  private assignment(e: SEntry): void {
    const key = e.keyNode;
    const plain = /^[A-Za-z_][A-Za-z0-9_]*$/.test(e.key);
    if (plain) {
      this.m.defs.push(variableDef(this.nameOf(key), this.workflow, this.step?.name.name, 'assign', e.value));
    } else {
      // `a.b[i]: v` writes into `a` (a use of `a`: it must exist) and reads what the brackets hold.
      this.expression(key, e.key, -2);
    }
    this.values(e.value);
  }

  private condition(c: SMap, step: StepInfo): void {
    for (const f of c.entries) {
      if (f.key === 'condition') this.values(f.value);
      else if (f.key === 'next') {
        if (f.value.kind === 'scalar' && typeof f.value.value === 'string') this.m.jumps.push(jumpRef(this.nameOf(f.value), step));
      } else if (f.key === 'steps') this.list(f.value, 'condition', step);
    }
    // Inline step content (`assign`, `call`, `return`, `raise` written in the condition).
    const inline: SMap = { kind: 'map', offset: c.offset, entries: c.entries.filter((f) => f.key !== 'condition' && f.key !== 'next' && f.key !== 'steps') };
    if (inline.entries.length > 0) this.fields(inline, step);
  }

  private loop(v: SMap, step: StepInfo): void {
    for (const f of v.entries) {
      if (f.key === 'value' || f.key === 'index') this.def(f.value, 'for');
      else if (f.key === 'steps') this.list(f.value, 'for', step);
      else this.values(f.value);
    }
  }

  private parallel(v: SMap, step: StepInfo): void {
    for (const f of v.entries) {
      if (f.key === 'branches' && f.value.kind === 'seq') {
        for (const b of f.value.items) {
          if (b.kind !== 'map' || b.entries.length !== 1) continue;
          const branch = b.entries[0]!.value;
          const steps = branch.kind === 'map' ? entry(branch, 'steps')?.value : undefined;
          if (steps) this.list(steps, 'branch', step);
        }
      } else if (f.key === 'for' && f.value.kind === 'map') this.loop(f.value, step);
      else if (f.key !== 'shared') this.values(f.value);
    }
  }

  /**
   * A `retry`: a policy (`${http.default_retry}`) or a map whose `predicate` (a function or subworkflow) and
   * `backoff` may be names in `${...}`. Those names are references (a rename of the subworkflow follows them),
   * not variable reads.
   */
  private retry(v: SNode, step: StepInfo): void {
    const named = (n: SNode | undefined): boolean => {
      if (n?.kind !== 'scalar' || typeof n.value !== 'string') return false;
      const m = /^\$\{(\s*)([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)\s*\}$/.exec(n.value);
      if (!m) return false;
      const r = this.refAt(n, 0, m[1]!.length, m[2]!);
      this.m.calls.push({ name: r.name, offset: r.offset, end: r.end, exact: r.exact, workflow: this.workflow, step, callStep: false });
      return true;
    };
    if (named(v)) return;
    if (v.kind !== 'map') return this.values(v);
    for (const f of v.entries) {
      if ((f.key === 'predicate' || f.key === 'backoff') && named(f.value)) continue;
      this.values(f.value);
    }
  }

  private def(node: SNode, how: VariableDefKind): void {
    if (node.kind === 'scalar' && typeof node.value === 'string' && node.value !== '') {
      this.m.defs.push(variableDef(this.nameOf(node), this.workflow, this.step?.name.name, how, undefined));
    }
  }

  /** Every expression in a value (scalars and computed map keys). */
  private values(node: SNode): void {
    switch (node.kind) {
      case 'scalar':
        if (typeof node.value === 'string' && node.value.startsWith('${')) this.expression(node, node.value, 0);
        return;
      case 'seq':
        for (const i of node.items) this.values(i);
        return;
      case 'map':
        for (const e of node.entries) {
          if (e.key.startsWith('${')) this.expression(e.keyNode, e.key, 0);
          this.values(e.value);
        }
    }
  }

  /**
   * Records the variables and calls of the expression `text` written in scalar `node`: `${...}` (shift 0), or
   * an assignment target written bare (shift -2: `text` is the target, parsed as the expression it reads as).
   */
  private expression(node: SScalar, text: string, shift: number): void {
    const inner = shift === 0 ? expressionText(text) : text;
    if (inner === undefined) return;
    let ast = this.parsed.get(inner);
    if (ast === undefined) {
      try {
        ast = parseExpression(inner);
      } catch {
        return;
      }
      this.parsed.set(inner, ast);
    }
    this.collect(ast, node, shift);
  }

  /** The variable reads and calls of an expression, with their source offsets. */
  private collect(e: Expr, node: SScalar, shift: number): void {
    switch (e.kind) {
      case 'var': {
        const r = this.refAt(node, shift, e.pos, e.name);
        this.m.uses.push({ name: r.name, offset: r.offset, end: r.end, exact: r.exact, workflow: this.workflow });
        return;
      }
      case 'call': {
        const r = this.refAt(node, shift, e.pos, e.callee);
        this.m.calls.push({ name: r.name, offset: r.offset, end: r.end, exact: r.exact, workflow: this.workflow, step: this.step, callStep: false });
        for (const a of e.args) this.collect(a, node, shift);
        return;
      }
      case 'member':
        return this.collect(e.object, node, shift);
      case 'index':
        this.collect(e.object, node, shift);
        return this.collect(e.index, node, shift);
      case 'unary':
        return this.collect(e.operand, node, shift);
      case 'binary':
        this.collect(e.left, node, shift);
        return this.collect(e.right, node, shift);
      case 'list':
        for (const i of e.items) this.collect(i, node, shift);
        return;
      case 'map':
        for (const [k, v] of e.entries) {
          this.collect(k, node, shift);
          this.collect(v, node, shift);
        }
        return;
      case 'literal':
        return;
    }
  }

  /** The source span of a name at `pos` of an expression in `node` (see {@link expression} for `shift`). */
  private refAt(node: SScalar, shift: number, pos: number, name: string): NameRef {
    const offset = shift === 0 ? sourceOffset(this.load, node, 2 + pos) : node.offset + pos + (node.style === 'plain' ? 0 : 1);
    return { name, offset, end: offset + name.length, exact: this.load.source.startsWith(name, offset) };
  }
}

function variableDef(r: NameRef, workflow: string, step: string | undefined, how: VariableDefKind, value: SNode | undefined): VariableDef {
  const d: VariableDef = { name: r.name, offset: r.offset, end: r.end, exact: r.exact, workflow, step, how };
  if (value !== undefined) (d as { value?: SNode }).value = value;
  return d;
}

function jumpRef(r: NameRef, from: StepInfo): JumpRef {
  return { name: r.name, offset: r.offset, end: r.end, exact: r.exact, from };
}
