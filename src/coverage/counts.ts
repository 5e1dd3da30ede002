/**
 * Coverage counts of one workflow source (a file of the `test` command, or a workflow revision of the emulator)
 * and the step observer that keeps them (src/engine/hooks.ts): each execution counted against the source
 * attaches an observer that adds to the same counts as its steps run, so a summary costs the size of the
 * source, never the number of executions (docs/coverage.md).
 */
import type { Definition } from '../lang/definition/ast.ts';
import type { StepEnd, StepEvent, StepObserver } from '../engine/hooks.ts';
import { coverageModel, posKey, type CoverageModel, type StepSlot } from './model.ts';

/** Who a source is, for reports: a file path (the `test` command) or a workflow and revision (the emulator). */
export interface SourceLabel {
  /** A file path, or the workflow's ID. */
  readonly name: string;
  /** The revision's ID, for a deployed workflow. */
  readonly revisionId?: string | undefined;
  /** The source text (YAML or JSON), for line ranges and annotated views. */
  readonly sourceContents: string;
}

/**
 * The counts of one source: how many times each step started (`steps[i]` for {@link CoverageModel.steps}[i]) and
 * each branch path was taken (`paths[j]`, see {@link BranchSite.first}).
 */
export class CoverageCounts {
  readonly model: CoverageModel;
  readonly steps: Float64Array;
  readonly paths: Float64Array;
  /** Executions counted. */
  executions = 0;

  constructor(
    readonly label: SourceLabel,
    definition: Definition,
  ) {
    this.model = coverageModel(definition);
    this.steps = new Float64Array(this.model.steps.length);
    this.paths = new Float64Array(this.model.pathCount);
  }

  /** A step observer for one more execution of this source (counted as it starts). */
  observer(): StepObserver {
    this.executions++;
    return new CoverageObserver(this);
  }

  /** Sets every count back to zero. */
  reset(): void {
    this.steps.fill(0);
    this.paths.fill(0);
    this.executions = 0;
  }
}

/**
 * What the observer remembers of an entry still open: the step's slot, and whether an inner path was taken. An
 * inner entry of the step (a condition, a retry attempt) is given one that is not `own`: the steps under it see
 * the step as their parent, and leaving it counts nothing.
 */
class OpenStep {
  inner = false;
  constructor(
    readonly slot: StepSlot,
    readonly own = true,
  ) {}
}

/** Counts one execution's step entries into a {@link CoverageCounts} (see the module header). @internal */
class CoverageObserver implements StepObserver<OpenStep | undefined> {
  constructor(private readonly c: CoverageCounts) {}

  enter(event: StepEvent, parent: OpenStep | undefined): OpenStep | undefined {
    const { model, paths } = this.c;
    switch (event.stepType) {
      case 'STEP_CONDITION': {
        const path = model.conditionAt.get(posKey(event.pos));
        if (path !== undefined) paths[path]!++;
        if (parent) parent.inner = true;
        // A condition's inline step with a `next` runs at the switch's position: it must see the switch as parent.
        return parent && new OpenStep(parent.slot, false);
      }
      case 'STEP_FOR_ITERATION':
        if (parent && parent.slot.some >= 0) {
          paths[parent.slot.some]!++;
          parent.inner = true;
        }
        return undefined;
      case 'STEP_PARALLEL_BRANCH_ENTRY':
        if (parent) {
          const path = event.branch !== undefined ? parent.slot.branches?.get(event.branch) : parent.slot.some;
          if (path !== undefined && path >= 0) paths[path]!++;
          parent.inner = true;
        }
        return undefined;
      case 'STEP_RETRY':
        if (parent && parent.slot.retried >= 0) paths[parent.slot.retried]!++;
        // The attempt's steps are the try's body, as in its first attempt (see the default case).
        return parent && new OpenStep(parent.slot, false);
      case 'STEP_EXCEPT':
        if (parent && parent.slot.except >= 0) {
          paths[parent.slot.except]!++;
          parent.inner = true;
        }
        return undefined;
      default: {
        const slot = model.stepAt.get(posKey(event.pos));
        // A try's single step has the try's position: the try is counted, not its body again.
        if (slot === undefined || parent?.slot === slot) return undefined;
        this.c.steps[slot.step]!++;
        return slot.quiet >= 0 || slot.next >= 0 || slot.branches !== undefined ? new OpenStep(slot) : undefined;
      }
    }
  }

  leave(open: OpenStep | undefined, end: StepEnd): void {
    if (open === undefined || !open.own || end.state !== 'succeeded') return;
    const slot = open.slot;
    if (slot.quiet >= 0 && !open.inner) this.c.paths[slot.quiet]!++;
    if (slot.next >= 0) this.c.paths[slot.next]!++;
  }
}

/**
 * Many sources' counts by key (a file path, or `workflowId@revisionId`): where the `test` command and the
 * emulator keep theirs. Each source's model is read once, when it is first counted.
 */
export class CoverageStore {
  private readonly byKey = new Map<string, CoverageCounts>();

  /** The counts of the source under `key`, made from `definition` and `label` the first time. */
  countsFor(key: string, definition: Definition, label: SourceLabel): CoverageCounts {
    let c = this.byKey.get(key);
    if (c === undefined) {
      c = new CoverageCounts(label, definition);
      this.byKey.set(key, c);
    }
    return c;
  }

  /** Every source counted, in the order first counted. */
  all(): CoverageCounts[] {
    return [...this.byKey.values()];
  }

  /** Sets every count back to zero, in place (observers of executions still running go on adding to them). */
  reset(): void {
    for (const c of this.byKey.values()) c.reset();
  }

  /** Forgets every source. */
  clear(): void {
    this.byKey.clear();
  }
}
