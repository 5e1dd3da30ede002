/**
 * Coverage on a workflow page's source (docs/coverage.md#in-the-web-ui): a line where a step never ran is marked
 * as missed, a line where a branch path was never taken as partly covered, each with a tooltip saying what; a
 * summary of steps, branches and routines covered stands above the source. Everything user-written (step names)
 * goes through the escaping `html` template.
 */
import type { SourceCoverage } from '../coverage/summary.ts';
import { html, type SafeHtml } from './html.ts';

/** What a source line missed: the steps that never ran on it and the branch paths never taken there. */
interface LineMiss {
  readonly steps: string[];
  readonly branches: string[];
}

/** The misses of `c` by 1-based line. */
function missesByLine(c: SourceCoverage): Map<number, LineMiss> {
  const out = new Map<number, LineMiss>();
  const at = (line: number): LineMiss => {
    let m = out.get(line);
    if (!m) out.set(line, (m = { steps: [], branches: [] }));
    return m;
  };
  for (const s of c.uncoveredSteps) at(s.line).steps.push(`step ${s.step} never ran`);
  for (const b of c.uncoveredBranches) at(b.line).branches.push(`${b.kind} ${b.step}: ${b.path} never taken`);
  return out;
}

/** The summary line above the source: executions counted and the three figures. */
export function coverageSummary(c: SourceCoverage): SafeHtml {
  const fig = (label: string, f: SourceCoverage['steps']): SafeHtml =>
    html`<span class="cov-figure"><b>${label}</b> ${f.percent}% <span class="muted">(${f.covered}/${f.total})</span></span>`;
  return html`<p class="cov-summary" id="coverage-summary">Coverage of this revision over ${c.executions} ${c.executions === 1 ? 'execution' : 'executions'} since start or the last reset: ${fig('steps', c.steps)} ${fig('branches', c.branches)} ${fig('routines', c.routines)} <span class="cov-key"><span class="line cov-miss">step never ran</span> <span class="line cov-partial">branch never taken</span></span></p>`;
}

/** The source's lines, each a `span.line` (`id="L<n>"`), marked where `c` says something never ran. */
export function coveredLines(lines: readonly string[], c: SourceCoverage | undefined): SafeHtml[] {
  const misses = c ? missesByLine(c) : new Map<number, LineMiss>();
  return lines.map((line, i) => {
    const m = misses.get(i + 1);
    if (!m) return html`<span class="line" id="L${i + 1}">${line}</span>\n`;
    const cls = m.steps.length ? 'line cov-miss' : 'line cov-partial';
    return html`<span class="${cls}" id="L${i + 1}" title="${[...m.steps, ...m.branches].join('; ')}">${line}</span>\n`;
  });
}
