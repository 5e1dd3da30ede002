/**
 * What coverage counts in one compiled workflow definition (docs/coverage.md): every step that can start, in
 * every routine (`main` and each subworkflow); every branch a step can take; and every routine. It is read once
 * from the definition's AST (src/lang/definition/ast.ts) and shared by every execution counted against it.
 *
 * Branches, each a group of paths:
 * - `switch`: one path per condition, plus the fall-through (no condition true) unless the last condition is the
 *   constant `true` (https://cloud.google.com/workflows/docs/reference/syntax/conditions);
 * - `try`: the body ending without error, the `except` block, and the retried path of a `retry`
 *   (https://cloud.google.com/workflows/docs/reference/syntax/catching-errors, .../retrying);
 * - `for`: zero iterations, one or more (https://cloud.google.com/workflows/docs/reference/syntax/iteration);
 * - `parallel`: each branch; a parallel `for` as a `for` (https://cloud.google.com/workflows/docs/reference/syntax/parallel-steps);
 * - `next`: a step's jump, taken when the step ends without error (https://cloud.google.com/workflows/docs/reference/syntax/jumps).
 * Steps are found at run time by their source position (a step's line and column are unique in its source).
 */
import type { Definition, SourcePos, Step, StepList } from '../lang/definition/ast.ts';

/** One step that can start: its name, routine, kind and where its name is written (1-based line and column). */
export interface StepSite {
  readonly name: string;
  readonly routine: string;
  readonly kind: Step['kind'];
  readonly pos: SourcePos;
}

/** The kinds of branch groups (see the module header). */
export type BranchKind = 'switch' | 'try' | 'for' | 'parallel' | 'next';

/** One path of a branch group: a label for people (`condition 2`, `except`, `branch b1`) and where it starts. */
export interface BranchPath {
  readonly label: string;
  readonly pos: SourcePos;
}

/** A branch group of one step: its paths, counted in one flat array from index `first`. */
export interface BranchSite {
  readonly kind: BranchKind;
  readonly step: string;
  readonly routine: string;
  readonly pos: SourcePos;
  readonly paths: readonly BranchPath[];
  /** Index of the group's first path in the flat path counts. */
  readonly first: number;
}

/** A routine: `main` or a subworkflow; called once for each start of its first step. */
export interface RoutineSite {
  readonly name: string;
  readonly pos: SourcePos;
  /** Index in {@link CoverageModel.steps} of the routine's first step. */
  readonly firstStep: number;
}

/**
 * What the observer needs to count one step entry: the step's index, and the path indexes of its branches
 * (-1 where the step has none).
 * @internal
 */
export interface StepSlot {
  readonly step: number;
  /** `switch`: fall-through; `try`: success; `for` and parallel `for`: zero iterations. */
  readonly quiet: number;
  /** `for` and parallel `for`: one or more iterations. */
  readonly some: number;
  /** `try`: the except block. */
  readonly except: number;
  /** `try` with `retry`: the retried path. */
  readonly retried: number;
  /** `next`: the jump. */
  readonly next: number;
  /** A parallel step's branches: name to path index. */
  readonly branches: ReadonlyMap<string, number> | undefined;
}

/** The coverage model of one definition (see the module header). */
export interface CoverageModel {
  readonly steps: readonly StepSite[];
  readonly branches: readonly BranchSite[];
  readonly routines: readonly RoutineSite[];
  /** How many branch paths there are in all (the length of the flat path counts). */
  readonly pathCount: number;
  /** @internal Step slots by {@link posKey} of the step's position. */
  readonly stepAt: ReadonlyMap<number, StepSlot>;
  /** @internal Switch conditions' path indexes by {@link posKey} of the condition's position. */
  readonly conditionAt: ReadonlyMap<number, number>;
}

/** A number naming a source position (lines and columns below 2^20 of each other never collide). @internal */
export function posKey(pos: SourcePos): number {
  return pos.line * 1_048_576 + pos.col;
}

/** Reads the coverage model of `definition` (see the module header). Never throws. */
export function coverageModel(definition: Definition): CoverageModel {
  const b = new ModelBuilder();
  for (const wf of definition.workflows.values()) {
    const firstStep = b.steps.length;
    b.list(wf.steps, wf.name);
    if (b.steps.length > firstStep) b.routines.push({ name: wf.name, pos: wf.pos, firstStep });
  }
  return {
    steps: b.steps,
    branches: b.branches,
    routines: b.routines,
    pathCount: b.pathCount,
    stepAt: b.stepAt,
    conditionAt: b.conditionAt,
  };
}

/** Walks step lists in source order, numbering steps and branch paths. */
class ModelBuilder {
  readonly steps: StepSite[] = [];
  readonly branches: BranchSite[] = [];
  readonly routines: RoutineSite[] = [];
  readonly stepAt = new Map<number, StepSlot>();
  readonly conditionAt = new Map<number, number>();
  pathCount = 0;

  list(list: StepList, routine: string): void {
    for (const step of list.steps) this.step(step, routine);
  }

  private group(kind: BranchKind, step: Step, routine: string, paths: BranchPath[]): number {
    const first = this.pathCount;
    this.branches.push({ kind, step: step.name, routine, pos: step.pos, paths, first });
    this.pathCount += paths.length;
    return first;
  }

  private step(step: Step, routine: string): void {
    const key = posKey(step.pos);
    // A try's single step (`try: {call: ...}`), and a switch condition's inline content with a `next`, run as a
    // step at the try's or switch's own position: it is that step's, counted once; what nests in it is walked.
    if (this.stepAt.has(key)) return this.nested(step, routine);
    const index = this.steps.length;
    this.steps.push({ name: step.name, routine, kind: step.kind, pos: step.pos });
    const slot = { step: index, quiet: -1, some: -1, except: -1, retried: -1, next: -1, branches: undefined as Map<string, number> | undefined };
    this.stepAt.set(key, slot);
    switch (step.kind) {
      case 'switch': {
        const last = step.cases[step.cases.length - 1]!.condition;
        const alwaysLast = last.kind === 'const' && last.value === true;
        const paths = step.cases.map((c, i) => ({ label: `condition ${i + 1}`, pos: c.pos }));
        if (!alwaysLast) paths.push({ label: 'no condition true', pos: step.pos });
        const first = this.group('switch', step, routine, paths);
        step.cases.forEach((c, i) => this.conditionAt.set(posKey(c.pos), first + i));
        if (!alwaysLast) slot.quiet = first + step.cases.length;
        for (const c of step.cases) {
          if (c.steps) this.list(c.steps, routine);
          if (c.step) this.nested(c.step, routine);
        }
        break;
      }
      case 'try': {
        const paths: BranchPath[] = [{ label: 'no error', pos: step.pos }];
        if (step.except) paths.push({ label: 'except', pos: step.except.steps.steps[0]?.pos ?? step.pos });
        if (step.retry) paths.push({ label: 'retried', pos: step.retry.pos });
        const first = this.group('try', step, routine, paths);
        slot.quiet = first;
        if (step.except) slot.except = first + 1;
        if (step.retry) slot.retried = first + paths.length - 1;
        this.list(step.body, routine);
        if (step.except) this.list(step.except.steps, routine);
        break;
      }
      case 'for':
        this.loop(step, routine, slot, step.loop.steps);
        break;
      case 'parallel':
        if (step.for) this.loop(step, routine, slot, step.for.steps);
        else {
          const branches = step.branches ?? [];
          const first = this.group('parallel', step, routine, branches.map((br) => ({ label: `branch ${br.name}`, pos: br.pos })));
          slot.branches = new Map(branches.map((br, i) => [br.name, first + i]));
          for (const br of branches) this.list(br.steps, routine);
        }
        break;
      case 'steps':
        this.list(step.steps, routine);
        break;
      default:
        break;
    }
    if (step.next !== undefined) slot.next = this.group('next', step, routine, [{ label: `next ${jumpName(step)}`, pos: step.pos }]);
  }

  private loop(step: Step, routine: string, slot: { quiet: number; some: number }, body: StepList): void {
    const first = this.group('for', step, routine, [
      { label: 'zero iterations', pos: step.pos },
      { label: 'one or more iterations', pos: body.steps[0]?.pos ?? step.pos },
    ]);
    slot.quiet = first;
    slot.some = first + 1;
    this.list(body, routine);
  }

  /**
   * A step that runs without an entry of its own (a switch condition's inline step, a try's single step): only
   * what nests inside it, and a switch's conditions as paths of a branch group of their own.
   */
  private nested(step: Step, routine: string): void {
    if (step.kind === 'steps') this.list(step.steps, routine);
    else if (step.kind === 'switch') {
      const first = this.group('switch', step, routine, step.cases.map((c, i) => ({ label: `condition ${i + 1}`, pos: c.pos })));
      step.cases.forEach((c, i) => {
        this.conditionAt.set(posKey(c.pos), first + i);
        if (c.steps) this.list(c.steps, routine);
        if (c.step) this.nested(c.step, routine);
      });
    }
    else if (step.kind === 'for') this.list(step.loop.steps, routine);
    else if (step.kind === 'try') {
      this.list(step.body, routine);
      if (step.except) this.list(step.except.steps, routine);
    } else if (step.kind === 'parallel') {
      for (const br of step.branches ?? []) this.list(br.steps, routine);
      if (step.for) this.list(step.for.steps, routine);
    }
  }
}

function jumpName(step: Step): string {
  const n = step.next!;
  return n.kind === 'step' ? n.name : n.kind;
}
