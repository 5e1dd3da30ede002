/**
 * Coverage figures of a source's counts (docs/coverage.md): steps, branches and routines covered out of how many,
 * the uncovered line ranges, and the steps and branch paths never taken. The same shape is what
 * `GET /emulator/v1/coverage` answers and what the `test` command's table prints.
 */
import type { CoverageCounts } from './counts.ts';

/** Covered out of total, and the percentage (100 when there is nothing to cover). */
export interface Figure {
  readonly covered: number;
  readonly total: number;
  /** 0 to 100, two decimals at most. */
  readonly percent: number;
}

/** A step never started. */
export interface UncoveredStep {
  readonly routine: string;
  readonly step: string;
  /** 1-based line and column of the step's name. */
  readonly line: number;
  readonly col: number;
}

/** A branch path never taken: the step it belongs to, the kind of branch and the path's label. */
export interface UncoveredBranch {
  readonly routine: string;
  readonly step: string;
  readonly kind: string;
  readonly path: string;
  /** 1-based line and column where the path starts. */
  readonly line: number;
  readonly col: number;
}

/** The coverage of one source (a file, or a workflow revision). */
export interface SourceCoverage {
  /** File path or workflow ID. */
  readonly name: string;
  readonly revisionId?: string;
  readonly executions: number;
  readonly steps: Figure;
  readonly branches: Figure;
  readonly routines: Figure;
  /** Uncovered lines as ranges, first and last 1-based line inclusive, in source order. */
  readonly uncoveredLines: readonly (readonly [number, number])[];
  readonly uncoveredSteps: readonly UncoveredStep[];
  readonly uncoveredBranches: readonly UncoveredBranch[];
}

/** Covered out of total as a {@link Figure}. */
export function figure(covered: number, total: number): Figure {
  return { covered, total, percent: total === 0 ? 100 : Math.floor((covered / total) * 10_000) / 100 };
}

/** The coverage of one source's counts (see the module header). Costs the size of the source. */
export function summarize(c: CoverageCounts): SourceCoverage {
  const { model } = c;
  const uncoveredSteps: UncoveredStep[] = [];
  model.steps.forEach((s, i) => {
    if (c.steps[i] === 0) uncoveredSteps.push({ routine: s.routine, step: s.name, line: s.pos.line, col: s.pos.col });
  });
  const uncoveredBranches: UncoveredBranch[] = [];
  for (const b of model.branches) {
    b.paths.forEach((p, i) => {
      if (c.paths[b.first + i] === 0) {
        uncoveredBranches.push({ routine: b.routine, step: b.step, kind: b.kind, path: p.label, line: p.pos.line, col: p.pos.col });
      }
    });
  }
  const routinesCovered = model.routines.filter((r) => c.steps[r.firstStep]! > 0).length;
  return {
    name: c.label.name,
    ...(c.label.revisionId !== undefined ? { revisionId: c.label.revisionId } : {}),
    executions: c.executions,
    steps: figure(model.steps.length - uncoveredSteps.length, model.steps.length),
    branches: figure(model.pathCount - uncoveredBranches.length, model.pathCount),
    routines: figure(routinesCovered, model.routines.length),
    uncoveredLines: uncoveredRanges(c),
    uncoveredSteps,
    uncoveredBranches,
  };
}

/**
 * The lines of steps never started, as ranges: steps in line order, each run of uncovered steps with no covered
 * step between them one range from its first step's line to its last's.
 */
function uncoveredRanges(c: CoverageCounts): [number, number][] {
  const order = c.model.steps.map((s, i) => [s.pos.line, c.steps[i]! > 0] as const).sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  let open: [number, number] | undefined;
  for (const [line, covered] of order) {
    if (covered) {
      if (open && open[1] < line) open = undefined;
      continue;
    }
    if (open) open[1] = line;
    else {
      open = [line, line];
      out.push(open);
    }
  }
  return out;
}

/** Ranges as people write them: `4-9, 12`. */
export function formatRanges(ranges: readonly (readonly [number, number])[]): string {
  return ranges.map(([a, b]) => (a === b ? `${a}` : `${a}-${b}`)).join(', ');
}
