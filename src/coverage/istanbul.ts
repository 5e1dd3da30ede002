/**
 * A source's counts as istanbul's file coverage data (the JSON `istanbul-lib-coverage` reads, and what every
 * istanbul reporter writes from: lcov, Cobertura, JSON, HTML): steps as statements, each branch group as a
 * branch with one location per path, routines as functions (docs/coverage.md#reports). Positions become
 * istanbul's 1-based lines and 0-based columns; each item spans from its position to the end of its line.
 */
import type { FileCoverageData, Range } from 'istanbul-lib-coverage';
import type { CoverageCounts } from './counts.ts';
import type { SourcePos } from '../lang/definition/ast.ts';

/** The istanbul file coverage of `c`, under the file path `path`. */
export function istanbulFileCoverage(c: CoverageCounts, path: string): FileCoverageData {
  const lines = c.label.sourceContents.split('\n');
  const range = (pos: SourcePos): Range => ({
    start: { line: pos.line, column: pos.col - 1 },
    end: { line: pos.line, column: Math.max(pos.col - 1, (lines[pos.line - 1] ?? '').replace(/\r$/, '').length) },
  });
  const data: FileCoverageData = { path, statementMap: {}, s: {}, fnMap: {}, f: {}, branchMap: {}, b: {} };
  c.model.steps.forEach((step, i) => {
    data.statementMap[i] = range(step.pos);
    data.s[i] = c.steps[i]!;
  });
  c.model.routines.forEach((r, i) => {
    data.fnMap[i] = { name: r.name, decl: range(r.pos), loc: range(r.pos), line: r.pos.line };
    data.f[i] = c.steps[r.firstStep]!;
  });
  c.model.branches.forEach((b, i) => {
    data.branchMap[i] = { loc: range(b.pos), type: b.kind, locations: b.paths.map((p) => range(p.pos)), line: b.pos.line };
    data.b[i] = b.paths.map((_, j) => c.paths[b.first + j]!);
  });
  return data;
}
