/**
 * The coverage side of `workflows-emulator test --coverage` (docs/coverage.md): the summary table printed after
 * the results, the report files written by istanbul's reporters (lcov, Cobertura, JSON, HTML) into the coverage
 * directory, and the `--coverage-threshold` check.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// istanbul's packages are CommonJS: their functions are read off the default export.
import libCoverage from 'istanbul-lib-coverage';
import libReport from 'istanbul-lib-report';
import CoberturaReport from 'istanbul-reports/lib/cobertura/index.js';
import HtmlReport from 'istanbul-reports/lib/html/index.js';
import JsonReport from 'istanbul-reports/lib/json/index.js';
import LcovReport from 'istanbul-reports/lib/lcovonly/index.js';
import { coverageHtmlAssets } from './coverage-assets.ts';
import type { CoverageCounts } from '../../coverage/counts.ts';
import { istanbulFileCoverage } from '../../coverage/istanbul.ts';
import { figure, formatRanges, summarize, type Figure } from '../../coverage/summary.ts';

/**
 * istanbul's HTML report, writing its assets from {@link coverageHtmlAssets} (its own copies them from beside its
 * module, which the bundle has not).
 */
class HtmlReportWithAssets extends HtmlReport {
  constructor(
    options: Record<string, unknown>,
    private readonly dir: string,
  ) {
    super(options);
  }

  override onStart(): void {
    mkdirSync(this.dir, { recursive: true });
    for (const [name, body] of coverageHtmlAssets()) writeFileSync(join(this.dir, name), body);
  }
}

/** The report formats of `--coverage-reporter`: each one's istanbul report, given its options and directory. */
export const COVERAGE_REPORTERS = {
  lcov: (o: Record<string, unknown>) => new LcovReport(o),
  cobertura: (o: Record<string, unknown>) => new CoberturaReport(o),
  json: (o: Record<string, unknown>) => new JsonReport(o),
  html: (o: Record<string, unknown>, dir: string) => new HtmlReportWithAssets(o, dir),
} as const;

/** One of {@link COVERAGE_REPORTERS}' keys. */
export type CoverageReporter = keyof typeof COVERAGE_REPORTERS;

/** `--coverage-threshold`: the least percent of steps and of branches (each optional), 0 to 100. */
export interface CoverageThreshold {
  readonly steps?: number;
  readonly branches?: number;
}

/**
 * Reads `steps=90,branches=80` (either part may be left out).
 * @throws Error naming the bad part, for an unknown name or a number outside 0 to 100.
 */
export function parseThreshold(text: string): CoverageThreshold {
  const out: { steps?: number; branches?: number } = {};
  for (const part of text.split(',')) {
    const m = /^\s*(steps|branches)\s*=\s*(\d+(?:\.\d+)?)\s*$/.exec(part);
    if (!m || Number(m[2]) > 100) {
      throw new Error(`--coverage-threshold takes steps=N,branches=N with N from 0 to 100 (got "${part}")`);
    }
    out[m[1] as 'steps' | 'branches'] = Number(m[2]);
  }
  return out;
}

/** One cell: `87.5% (7/8)`. */
function cell(f: Figure): string {
  return `${f.percent}% (${f.covered}/${f.total})`;
}

/** The summary table: per workflow file, steps and branches covered and the uncovered line ranges. */
export function coverageTable(sources: readonly CoverageCounts[]): string {
  const rows = [['Workflow file', 'Steps', 'Branches', 'Routines', 'Uncovered lines']];
  for (const c of sources) {
    const s = summarize(c);
    rows.push([s.name, cell(s.steps), cell(s.branches), cell(s.routines), formatRanges(s.uncoveredLines)]);
  }
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const line = (r: string[]): string => r.map((v, i) => v.padEnd(widths[i]!)).join(' | ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('-|-');
  return ['Coverage', line(rows[0]!), rule, ...rows.slice(1).map(line)].join('\n') + '\n';
}

/** Steps and branches over all sources, as one figure each. */
function totals(sources: readonly CoverageCounts[]): { steps: Figure; branches: Figure } {
  const sum = (k: 'steps' | 'branches'): Figure => {
    let covered = 0;
    let total = 0;
    for (const c of sources) {
      const f = summarize(c)[k];
      covered += f.covered;
      total += f.total;
    }
    return figure(covered, total);
  };
  return { steps: sum('steps'), branches: sum('branches') };
}

/** The one line saying which figures are under `threshold` over all sources, or undefined when none is. */
export function thresholdFailure(sources: readonly CoverageCounts[], threshold: CoverageThreshold): string | undefined {
  const t = totals(sources);
  const under: string[] = [];
  for (const k of ['steps', 'branches'] as const) {
    const least = threshold[k];
    if (least !== undefined && t[k].percent < least) under.push(`${k} ${t[k].percent}% (${t[k].covered}/${t[k].total}) is below ${least}%`);
  }
  return under.length ? `coverage threshold not met: ${under.join('; ')}` : undefined;
}

/**
 * Writes one report per format in `reporters` into `dir` with istanbul's reporters: lcov as `lcov.info`,
 * Cobertura as `cobertura-coverage.xml`, JSON as `coverage-final.json`, HTML as `index.html` and a page per file.
 * `path(c)` is the file path a source is reported under; `root` the directory paths are shown relative to.
 * @throws Error from the file system (the caller reports it).
 */
export function writeCoverageReports(
  sources: readonly CoverageCounts[],
  path: (c: CoverageCounts) => string,
  reporters: readonly CoverageReporter[],
  dir: string,
  root: string,
): void {
  const map = libCoverage.createCoverageMap({});
  const sourceByPath = new Map<string, string>();
  for (const c of sources) {
    const p = path(c);
    sourceByPath.set(p, c.label.sourceContents);
    map.addFileCoverage(istanbulFileCoverage(c, p));
  }
  const context = libReport.createContext({
    dir,
    coverageMap: map,
    defaultSummarizer: 'nested',
    sourceFinder: (p: string) => sourceByPath.get(p) ?? '',
  });
  for (const r of new Set(reporters)) {
    COVERAGE_REPORTERS[r]({ projectRoot: root }, dir).execute(context);
  }
}
