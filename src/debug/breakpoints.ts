/**
 * Where a debugger can stop in a definition (docs/debugging.md#breakpoints): every step's name and source
 * position, a line breakpoint moved to the step that line belongs to, and hit-count conditions.
 */
import type { Definition, SourcePos } from '../lang/definition/ast.ts';

/** A step of the definition: its workflow (routine), name and where its name is written. */
export interface StepSite {
  readonly routine: string;
  readonly step: string;
  readonly pos: SourcePos;
}

const STEP_KINDS = new Set(['assign', 'call', 'switch', 'for', 'parallel', 'try', 'raise', 'return', 'steps', 'jump']);

/** Every step of `definition` (nested ones included), by workflow and source line. */
export function stepSites(definition: Definition): StepSite[] {
  const out: StepSite[] = [];
  const seen = new Set<object>();
  for (const [routine, wf] of definition.workflows) {
    const visit = (x: unknown): void => {
      if (x === null || typeof x !== 'object' || seen.has(x) || x instanceof Map) return;
      seen.add(x);
      const o = x as Record<string, unknown>;
      if (typeof o.kind === 'string' && STEP_KINDS.has(o.kind) && typeof o.name === 'string' && isPos(o.pos)) {
        out.push({ routine, step: o.name, pos: o.pos });
      }
      for (const k in o) if (k !== 'pos' && k !== 'expr' && k !== 'value') visit(o[k]);
    };
    visit(wf.steps);
  }
  return out.sort((a, b) => a.pos.line - b.pos.line || a.pos.col - b.pos.col);
}

function isPos(x: unknown): x is SourcePos {
  return typeof x === 'object' && x !== null && typeof (x as SourcePos).line === 'number';
}

/** Where a line breakpoint lands: the line of its step, or why it has none. */
export type LinePlacement = { readonly line: number } | { readonly reason: string };

/**
 * The step a breakpoint on `line` (1-based) stops at: the step whose name is on that line; else the step whose
 * body holds it (the last step starting above it in the same workflow); else the first step below it (a line
 * of a workflow's header, a comment between workflows). None past the last line or when no step follows.
 */
export function placeLine(sites: readonly StepSite[], workflowLines: ReadonlyMap<string, number>, line: number, lineCount: number): LinePlacement {
  if (line < 1 || line > lineCount) return { reason: `line ${line} is outside the file (1-${lineCount})` };
  let before: StepSite | undefined;
  for (const s of sites) {
    if (s.pos.line === line) return { line };
    if (s.pos.line < line) before = s;
    else {
      // A workflow header between `before` and `line` means the line is not in `before`'s body.
      const header = workflowLines.get(s.routine) ?? 0;
      if (before === undefined || (header > before.pos.line && header <= line)) return { line: s.pos.line };
      break;
    }
  }
  if (before !== undefined) return { line: before.pos.line };
  return { reason: `no step is written at or after line ${line}` };
}

/**
 * Whether the `hits`-th hit (1-based) of a breakpoint with hit condition `cond` stops: `N` or `>= N` from
 * the Nth on, `== N` (or `= N`) only the Nth, `% N` every Nth. Undefined when `cond` says none of these.
 */
export function hitStops(cond: string, hits: number): boolean | undefined {
  const m = /^\s*(>=|==|=|%|>)?\s*(\d+)\s*$/.exec(cond);
  if (!m) return undefined;
  const n = Number(m[2]);
  switch (m[1]) {
    case '==':
    case '=':
      return hits === n;
    case '%':
      return n > 0 && hits % n === 0;
    case '>':
      return hits > n;
    default:
      return hits >= n;
  }
}
