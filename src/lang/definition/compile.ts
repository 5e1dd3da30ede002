/**
 * The definition compiler (docs/language.md#definitions): workflow source in, a validated
 * {@link Definition} out, with every expression compiled and every jump resolved once, at deploy time.
 *
 * Both document forms of the real service are accepted: a map of workflows (`main` plus named
 * subworkflows, each with optional `params` and `steps`) and a bare list of steps (that list is `main`,
 * without params). Every step kind of the spec compiles to its node of `ast.ts`; anything the real service
 * refuses at deploy is a {@link DefinitionError} naming the step and the `line:col`: unknown or conflicting
 * fields, jumps to missing or unreachable steps, unknown functions and subworkflows, bad params, the limits of
 * docs/api-resources.md#limits that are visible in the source (50 assignments, 50 conditions, 10 branches, 400-character
 * expressions, parallel nesting 2, 128 KB).
 *
 * Jumps: `next` may name a step of the same list or of an enclosing list (Google's `error_catch` sample jumps
 * from `except` steps to the top list), or a step inside a plain nested `steps:` block of one of those lists
 * (real workflows that run on Google do), but never leave a `for` body or a parallel branch, whose iterations
 * and branches run on their own (`break` leaves a loop), nor enter a `for` body, a parallel branch, a `try`
 * body, an `except` body or a switch condition's `steps`; `break` and `continue` only inside a `for` (or
 * parallel `for`) body; `end` anywhere. Step names are unique per workflow, nested lists and parallel
 * branches included (Google's "Steps" reference: "unique at the subworkflow level").
 */
import type { Value } from '../value.ts';
import { compileAssignments } from './assign.ts';
import { isPlainName } from './assign-target.ts';
import type {
  Definition,
  JumpTarget,
  Param,
  SourcePos,
  Step,
  StepList,
  WorkflowDef,
} from './ast.ts';
import type { DefinitionErrorCode } from './errors.ts';
import { compileCall } from './call.ts';
import { compileFor } from './for.ts';
import type { DefinitionLibrary } from './library.ts';
import type { Compat } from '../compat.ts';
import { entryOf, loadSource, type LoadedSource, type SEntry, type SMap, type SNode, type SScalar } from './load.ts';
import { compileParallel } from './parallel.ts';
import { checkScopes } from './scope-check.ts';
import { compileSwitch } from './switch.ts';
import { compileTry } from './try.ts';
import type { RetryContext } from './retry.ts';
import type { Frame, StepCompiler } from './step-compiler.ts';
import { compileTemplate, expressionState, failAt } from './template.ts';
import { didYouMean } from './suggest.ts';

/** Options of {@link compileDefinition}. */
export interface CompileOptions {
  /**
   * The source's format. Default: detected (a source that starts with `{` or `[` and is valid JSON is JSON,
   * anything else YAML). JSON sources keep JSON semantics where YAML differs (a repeated key keeps the last
   * value).
   */
  readonly format?: 'yaml' | 'json';
  /**
   * `google`: read the definition as Google's service does where it and the specification differ (operator
   * precedence, `+` with a string, a parallel step's default exception policy, the non-idempotent retry
   * policy; docs/compat.md). Default: the specification's.
   */
  readonly compat?: Compat;
}

/**
 * Parses, validates and compiles a workflow definition (docs/language.md#definitions).
 *
 * @param source the YAML or JSON text, at most 128 KB of UTF-8.
 * @param library the functions, retry policies and backoffs calls and retries may name (the standard
 *   library's is `DEFINITION_LIBRARY` of src/stdlib/index.ts).
 * @returns the compiled definition: `main` and every subworkflow, steps as `kind`-tagged nodes, expressions
 *   compiled, jumps resolved to (depth, index) pairs.
 * @throws DefinitionError (the service answers 400) naming step, `line:col` and problem, e.g.
 *   `invalid workflow definition: step "check" (line 12, column 9): unknown field 'nxt'`.
 */
export function compileDefinition(source: string, library: DefinitionLibrary, options: CompileOptions = {}): Definition {
  const load = loadSource(source, options.format);
  return new Compiler(load, library, options.compat ?? 'spec').definition();
}

/**
 * {@link compileDefinition} of a source already loaded with `loadSource` (tools that read the source tree
 * themselves, such as the lint of src/lint/, load it once); `compat` as {@link CompileOptions.compat}.
 * @throws DefinitionError as {@link compileDefinition} does.
 */
export function compileLoadedSource(load: LoadedSource, library: DefinitionLibrary, compat: Compat = 'spec'): Definition {
  return new Compiler(load, library, compat).definition();
}


/** The step kinds, by the field that makes a step that kind. */
const KIND_FIELDS = ['assign', 'call', 'switch', 'for', 'parallel', 'try', 'raise', 'return', 'steps'] as const;
type KindField = (typeof KIND_FIELDS)[number];

const KIND_FIELD_SET: ReadonlySet<string> = new Set(KIND_FIELDS);

/** Fields allowed besides the kind field, per kind (`next` is allowed on every step). */
const EXTRA_FIELDS: Readonly<Record<KindField, readonly string[]>> = {
  assign: [],
  call: ['args', 'result'],
  switch: [],
  for: [],
  parallel: [],
  try: ['retry', 'except'],
  raise: [],
  return: [],
  steps: [],
};

interface PendingJump {
  readonly name: string;
  readonly node: SNode;
  readonly step: string;
  /** The list the jump is in. */
  readonly frame: Frame;
  /** The target handed out, filled in once resolved. */
  readonly target: JumpTarget;
}

class Compiler implements StepCompiler {
  readonly cx: RetryContext;
  private workflowNames: Set<string> = new Set();
  private paramCounts = new Map<string, { min: number; max: number }>();
  parallelDepth = 0;
  private unresolved: PendingJump[] = [];
  /** Step names of the workflow being compiled (unique per workflow). */
  private stepNames = new Set<string>();
  /** The step lists of the workflow being compiled, in source order (for jumps into nested blocks). */
  private frames: Frame[] = [];
  /**
   * Where each step of the workflow being compiled is: its list's frame and its index there. Made from
   * `frames` when a jump needs it (most resolve as they are read).
   */
  private stepAt: Map<string, { frame: Frame; index: number }> | undefined;

  constructor(
    private readonly load: LoadedSource,
    library: DefinitionLibrary,
    compat: Compat,
  ) {
    const { compiled, expressionOptions } = expressionState({ workflows: this.workflowNames, library, compat });
    this.cx = { load, library, workflows: this.workflowNames, paramCounts: this.paramCounts, step: undefined, compiled, expressionOptions, compat };
  }

  pos(node: SNode | SScalar): SourcePos {
    return this.load.posAt(node.offset);
  }

  fail(node: SNode | SScalar, reason: string, code?: DefinitionErrorCode): never {
    return failAt(this.cx, node.offset, reason, code);
  }

  definition(): Definition {
    const root = this.load.root;
    const workflows = new Map<string, WorkflowDef>();
    if (root.kind === 'seq') {
      // A bare list of steps: that list is `main`, without params.
      this.workflowNames.add('main');
      this.paramCounts.set('main', { min: 0, max: 0 });
      workflows.set('main', this.workflow('main', root, [], root));
    } else if (root.kind === 'map') {
      for (const e of root.entries) {
        if (e.key === '') this.fail(e.keyNode, 'a workflow name must not be empty');
        this.workflowNames.add(e.key);
      }
      if (!this.workflowNames.has('main')) {
        this.fail(root, "missing 'main' workflow (a definition is a list of steps, or a map with 'main' and subworkflows)", 'MISSING_MAIN');
      }
      // Params first, so that calls and retry predicates can be checked against every subworkflow.
      const bodies = new Map<string, { body: SMap; params: Param[]; entry: SEntry }>();
      for (const e of root.entries) {
        const body = this.workflowBody(e);
        const params = this.params(e.key, body);
        this.paramCounts.set(e.key, { min: params.filter((p) => !p.hasDefault).length, max: params.length });
        bodies.set(e.key, { body, params, entry: e });
      }
      for (const [name, { body, params, entry }] of bodies) {
        const steps = body.entries.find((x) => x.key === 'steps')!.value;
        workflows.set(name, this.workflow(name, steps, params, entry.keyNode));
      }
    } else {
      this.fail(root, 'a workflow definition must be a map of workflows or a list of steps');
    }
    const def = { main: workflows.get('main')!, workflows };
    checkScopes(def);
    return def;
  }

  private workflowBody(e: SEntry): SMap {
    const body = e.value;
    if (body.kind !== 'map') {
      return this.fail(body, `workflow '${e.key}' must be a map with 'params' and 'steps'`);
    }
    for (const f of body.entries) {
      if (f.key !== 'params' && f.key !== 'steps') {
        this.fail(f.keyNode, `unknown field '${f.key}' in workflow '${e.key}' (expected 'params' and 'steps')`, 'UNKNOWN_FIELD');
      }
    }
    if (!body.entries.some((f) => f.key === 'steps')) this.fail(e.keyNode, `workflow '${e.key}' has no 'steps'`);
    return body;
  }

  private params(workflow: string, body: SMap): Param[] {
    const node = body.entries.find((x) => x.key === 'params')?.value;
    if (node === undefined || (node.kind === 'scalar' && node.value === null)) return [];
    if (node.kind !== 'seq') return this.fail(node, `params of workflow '${workflow}' must be a list`);
    const params: Param[] = [];
    const seen = new Set<string>();
    for (const item of node.items) {
      let p: Param;
      let nameNode: SScalar;
      if (item.kind === 'scalar' && typeof item.value === 'string') {
        nameNode = item;
        p = { name: item.value, hasDefault: false };
      } else if (item.kind === 'map' && item.entries.length === 1) {
        const e = item.entries[0]!;
        nameNode = e.keyNode;
        p = { name: e.key, hasDefault: true, default: this.constValue(e.value) };
      } else {
        return this.fail(item, `bad parameter in workflow '${workflow}': expected a name or 'name: default'`);
      }
      if (!isPlainName(p.name)) this.fail(nameNode, `bad parameter name '${p.name}' in workflow '${workflow}'`);
      if (seen.has(p.name)) this.fail(nameNode, `duplicate parameter '${p.name}' in workflow '${workflow}'`);
      seen.add(p.name);
      params.push(p);
    }
    if (workflow === 'main' && params.length > 1) {
      this.fail(node, `'main' takes at most one parameter (the execution argument), got ${params.length}`);
    }
    return params;
  }

  // A parameter default: a constant value; an expression is not evaluated (there is nothing to evaluate it in).
  private constValue(node: SNode): Value {
    switch (node.kind) {
      case 'scalar':
        return node.value;
      case 'seq':
        return node.items.map((i) => this.constValue(i));
      case 'map': {
        const m = new Map<string, Value>();
        for (const e of node.entries) m.set(e.key, this.constValue(e.value));
        return m;
      }
    }
  }

  private workflow(name: string, steps: SNode, params: Param[], at: SNode | SScalar): WorkflowDef {
    this.parallelDepth = 0;
    this.unresolved = [];
    this.stepNames = new Set();
    this.frames = [];
    this.stepAt = undefined;
    this.cx.step = undefined;
    const list = this.stepList(steps, undefined, 'workflow', `workflow '${name}'`);
    for (const j of this.unresolved) {
      const into = this.jumpInto(j.name, j.frame);
      if (into !== undefined) {
        Object.assign(j.target, into);
        continue;
      }
      this.cx.step = j.step;
      const elsewhere = this.stepNames.has(j.name)
        ? ' (next may only target a step of the same list, of an enclosing list or of a plain nested steps block of those; it may not leave a for loop or a parallel branch, nor enter one, a try body or an except body)'
        : '';
      this.fail(j.node, `next: step '${j.name}' not found${elsewhere || didYouMean(j.name, this.stepNames)}`, 'BAD_JUMP');
    }
    return { name, params, steps: list, pos: this.pos(at) };
  }

  // -------------------------------------------------------------------------------------------------------
  // Step lists and steps

  stepList(node: SNode, parent: Frame | undefined, kind: Frame['kind'], what: string, holder?: number): StepList {
    if (node.kind !== 'seq') return this.fail(node, `${what}: 'steps' must be a list of steps`);
    if (node.items.length === 0) return this.fail(node, `${what}: 'steps' must not be empty`);
    const names = new Map<string, number>();
    const entries: SEntry[] = [];
    for (const item of node.items) {
      const e = this.stepEntry(item);
      // Google's "Steps" reference: "Step names must be unique at the subworkflow level".
      if (this.stepNames.has(e.key)) {
        this.cx.step = e.key;
        this.fail(e.keyNode, `duplicate step name '${e.key}' (step names must be unique within a workflow)`, 'DUPLICATE_STEP');
      }
      names.set(e.key, entries.length);
      this.stepNames.add(e.key);
      entries.push(e);
    }
    const frame: Frame = holder === undefined ? { names, parent, kind } : { names, parent, kind, holder };
    this.frames.push(frame);
    const steps = entries.map((e) => this.step(e.key, e.keyNode, e.value, frame));
    return { steps, index: names };
  }

  private stepEntry(item: SNode): SEntry {
    if (item.kind !== 'map' || item.entries.length === 0) {
      return this.fail(item, 'a step must be a map with one key, the step name');
    }
    const first = item.entries[0]!;
    if (item.entries.length > 1) {
      this.cx.step = first.key;
      const hint =
        first.value.kind === 'scalar' && first.value.value === null
          ? ` (are the fields of step '${first.key}' indented too little?)`
          : '';
      this.fail(item.entries[1]!.keyNode, `a step must be a map with one key, the step name; found '${item.entries[1]!.key}' too${hint}`);
    }
    if (first.key === '') this.fail(first.keyNode, 'a step name must not be empty');
    return first;
  }

  private step(name: string, at: SScalar, body: SNode, frame: Frame): Step {
    const saved = this.cx.step;
    this.cx.step = name;
    try {
      if (body.kind !== 'map' || body.entries.length === 0) {
        return this.fail(body.kind === 'scalar' && body.value === null ? at : body, 'a step must be a map of fields (assign, call, switch, ...)');
      }
      return this.stepBody(name, at, body, frame);
    } finally {
      this.cx.step = saved;
    }
  }

  /** Compiles the fields of a step (also used for the content of a one-step `try`). */
  stepBody(name: string, at: SScalar, body: SMap, frame: Frame): Step {
    let kindEntry: SEntry | undefined;
    let nextEntry: SEntry | undefined;
    for (const e of body.entries) {
      if (KIND_FIELD_SET.has(e.key)) {
        if (kindEntry) this.fail(e.keyNode, `conflicting fields '${kindEntry.key}' and '${e.key}' in one step`, 'CONFLICTING_FIELDS');
        kindEntry = e;
      } else if (e.key === 'next') nextEntry = e;
    }
    const kind = kindEntry?.key as KindField | undefined;
    const allowed = kind ? EXTRA_FIELDS[kind] : [];
    for (const e of body.entries) {
      if (e === kindEntry || e === nextEntry || allowed.includes(e.key)) continue;
      const owner = (Object.keys(EXTRA_FIELDS) as KindField[]).find((k) => EXTRA_FIELDS[k].includes(e.key));
      if (owner && kind !== owner) {
        this.fail(e.keyNode, `field '${e.key}' is only allowed with '${owner}'${kind ? `, not with '${kind}'` : ''}`);
      }
      this.fail(e.keyNode, `unknown field '${e.key}'`, 'UNKNOWN_FIELD');
    }
    const pos = this.pos(at);
    const next = nextEntry ? this.jump(nextEntry.value, frame) : undefined;
    if (!kindEntry) {
      if (!nextEntry) return this.fail(at, 'empty step');
      return makeStep(name, pos, next, 'jump', undefined);
    }
    const v = kindEntry.value;
    switch (kindEntry.key as KindField) {
      case 'assign':
        return makeStep(name, pos, next, 'assign', { assignments: compileAssignments(this, v, kindEntry) });
      case 'call':
        return makeStep(name, pos, next, 'call', compileCall(this, kindEntry, entryOf(body, 'args'), entryOf(body, 'result')));
      case 'switch':
        return makeStep(name, pos, next, 'switch', { cases: compileSwitch(this, name, at, v, frame) });
      case 'for':
        return makeStep(name, pos, next, 'for', { loop: compileFor(this, v, frame, 'for') });
      case 'parallel':
        return makeStep(name, pos, next, 'parallel', compileParallel(this, v, frame, kindEntry.keyNode));
      case 'try':
        return makeStep(name, pos, next, 'try', compileTry(this, name, at, kindEntry, entryOf(body, 'retry'), entryOf(body, 'except'), frame));
      case 'raise':
        return makeStep(name, pos, next, 'raise', { value: compileTemplate(v, this.cx) });
      case 'return':
        return makeStep(name, pos, next, 'return', { value: compileTemplate(v, this.cx) });
      case 'steps':
        return makeStep(name, pos, next, 'steps', { steps: this.stepList(v, frame, 'block', `step '${name}'`, frame.names.get(name)) });
    }
  }

  // -------------------------------------------------------------------------------------------------------
  // Jumps

  jump(node: SNode, frame: Frame): JumpTarget {
    if (node.kind !== 'scalar' || typeof node.value !== 'string' || node.value === '') {
      return this.fail(node, "next must be a step name, 'end', 'break' or 'continue'");
    }
    const name = node.value;
    if (name === 'end') return { kind: 'end' };
    if (name === 'break' || name === 'continue') {
      for (let f: Frame | undefined = frame; f; f = f.parent) {
        if (f.kind === 'for') return { kind: name };
        if (f.kind !== 'plain' && f.kind !== 'block') break;
      }
      return this.fail(node, `next: ${name} is only allowed inside a for loop`, 'BAD_JUMP');
    }
    let depth = 0;
    for (let f: Frame | undefined = frame; f; f = f.parent, depth++) {
      const index = f.names.get(name);
      if (index !== undefined) return { kind: 'step', name, depth, index };
      if (f.kind !== 'plain' && f.kind !== 'block') break;
    }
    // Maybe the name is defined later in the workflow, or inside a nested block: resolved (in place) or
    // reported once the whole workflow is known.
    const target = { kind: 'end' } as JumpTarget;
    this.unresolved.push({ name, node, step: this.cx.step ?? '', frame, target });
    return target;
  }

  /**
   * A jump from `from` to a step inside plain nested `steps:` blocks: the target's chain of blocks must reach
   * a list the jump could go to directly (the jumping list or an enclosing one, not past a loop or branch).
   */
  private jumpInto(name: string, from: Frame): JumpTarget | undefined {
    if (this.stepAt === undefined) {
      this.stepAt = new Map();
      for (const frame of this.frames) for (const [n, index] of frame.names) this.stepAt.set(n, { frame, index });
    }
    const at = this.stepAt.get(name);
    if (at === undefined) return undefined;
    const into: number[] = [at.index];
    let f = at.frame;
    while (f.kind === 'block' && f.parent !== undefined && f.holder !== undefined) {
      into.unshift(f.holder);
      f = f.parent;
      let depth = 0;
      for (let g: Frame | undefined = from; g; g = g.parent, depth++) {
        if (g === f) return { kind: 'step', name, depth, index: into[0]!, into: into.slice(1) };
        if (g.kind !== 'plain' && g.kind !== 'block') break;
      }
    }
    return undefined;
  }

  ident(node: SNode, what: string): string {
    if (node.kind !== 'scalar' || typeof node.value !== 'string' || !isPlainName(node.value)) {
      return this.fail(node, `${what} must be a variable name (letters, digits and underscores, not starting with a digit)`);
    }
    return node.value;
  }


}

/**
 * A step node: the fields every step has, then the kind's own. Built without object spread: spreading these
 * varied shapes made a quarter of the compile stage (docs/architecture.md#compile-time).
 */
function makeStep(name: string, pos: SourcePos, next: JumpTarget | undefined, kind: Step['kind'], fields: object | undefined): Step {
  const out: Record<string, unknown> = next ? { name, pos, next, kind } : { name, pos, kind };
  return (fields ? Object.assign(out, fields) : out) as unknown as Step;
}
