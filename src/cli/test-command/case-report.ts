/**
 * Reports of `workflows-emulator test` (docs/testing.md#the-test-command): the readable default (one line per
 * case, the difference for each failure, a closing `N passed, M failed` line), JUnit XML for CI systems
 * (GitHub Actions, GitLab, Jenkins read the common `testsuites/testsuite/testcase` shape with `failure`,
 * `error` and `skipped` children), and TAP version 13.
 */
import type { Mismatch } from './expectations.ts';
import type { Value } from '../../lang/value.ts';

/** How one case ended. `error`: the case could not be judged (invalid test file, workflow that does not deploy, timeout). */
export type CaseStatus = 'passed' | 'failed' | 'skipped' | 'error';

/** One case's result, as every reporter reads it. */
export interface CaseResult {
  /** The test file, as given on the command line or found under a directory. */
  readonly file: string;
  /** The case's name (for a file that could not be read at all: the file's name). */
  readonly name: string;
  readonly status: CaseStatus;
  /** Wall time of the case, milliseconds. */
  readonly durationMs: number;
  /** For `failed`: the expectations that did not hold. */
  readonly mismatches?: readonly Mismatch[];
  /** For `error`: what went wrong (with file:line:col where it is a test-file problem); for `skipped`: why. */
  readonly message?: string;
  /** For `failed`/`error`: the steps that ran up to the end, and the failing step's source line. */
  readonly steps?: readonly string[];
  readonly sourceLine?: string;
  /** For `failed` when the workflow ran: its actual outcome, which `--update` writes into `expect`. */
  readonly actual?: { readonly result?: Value; readonly error?: Value; readonly steps: readonly string[] };
}

/** Totals of a run. */
export interface Totals {
  readonly passed: number;
  readonly failed: number;
  readonly skipped: number;
  /** Cases that could not be judged (counted as failures in the closing line and the exit code). */
  readonly errors: number;
}

/** Counts results by status. */
export function totalsOf(results: readonly CaseResult[]): Totals {
  const t = { passed: 0, failed: 0, skipped: 0, errors: 0 };
  for (const r of results) {
    if (r.status === 'passed') t.passed++;
    else if (r.status === 'failed') t.failed++;
    else if (r.status === 'skipped') t.skipped++;
    else t.errors++;
  }
  return t;
}

/** The closing line: `N passed, M failed` with `, K skipped` when any were (errors count as failed). */
export function closingLine(t: Totals): string {
  return `${t.passed} passed, ${t.failed + t.errors} failed${t.skipped ? `, ${t.skipped} skipped` : ''}`;
}

/** The default report of one case: `✓ name (12 ms)`, and for a failure the indented details. */
export function formatCase(r: CaseResult, color = false): string {
  const paint = (code: string, s: string): string => (color ? `\u001b[${code}m${s}\u001b[0m` : s);
  const ms = `(${Math.round(r.durationMs)} ms)`;
  switch (r.status) {
    case 'passed':
      return `  ${paint('32', '✓')} ${r.name} ${paint('2', ms)}`;
    case 'skipped':
      return `  ${paint('33', '-')} ${r.name} ${paint('2', `(skipped${r.message && r.message !== 'skipped' ? `: ${r.message}` : ''})`)}`;
    default: {
      const lines = [`  ${paint('31', '✗')} ${r.name} ${paint('2', ms)}`];
      if (r.message) lines.push(...r.message.split('\n').map((l) => `      ${l}`));
      for (const m of r.mismatches ?? []) {
        lines.push(`      ${m.expectation}:`);
        for (const l of m.lines) lines.push(`        ${l}`);
      }
      if (r.steps?.length) {
        const s = r.steps.length > 40 ? ['...', ...r.steps.slice(-40)] : r.steps;
        lines.push(`      steps that ran: ${s.join(' → ')}`);
      }
      if (r.sourceLine) lines.push(`      at ${r.sourceLine}`);
      return lines.join('\n');
    }
  }
}

/** JUnit XML of a run: one `testsuite` per test file, one `testcase` per case. */
export function junitXml(results: readonly CaseResult[]): string {
  const byFile = new Map<string, CaseResult[]>();
  for (const r of results) {
    let list = byFile.get(r.file);
    if (!list) byFile.set(r.file, (list = []));
    list.push(r);
  }
  const all = totalsOf(results);
  const secs = (ms: number): string => (ms / 1000).toFixed(3);
  const totalMs = results.reduce((s, r) => s + r.durationMs, 0);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="workflows-emulator test" tests="${results.length}" failures="${all.failed}" errors="${all.errors}" skipped="${all.skipped}" time="${secs(totalMs)}">`,
  ];
  for (const [file, list] of byFile) {
    const t = totalsOf(list);
    const ms = list.reduce((s, r) => s + r.durationMs, 0);
    out.push(
      `  <testsuite name="${xml(file)}" tests="${list.length}" failures="${t.failed}" errors="${t.errors}" skipped="${t.skipped}" time="${secs(ms)}">`,
    );
    for (const r of list) {
      const open = `    <testcase classname="${xml(file)}" name="${xml(r.name)}" time="${secs(r.durationMs)}"`;
      if (r.status === 'passed') {
        out.push(`${open}/>`);
        continue;
      }
      out.push(`${open}>`);
      if (r.status === 'skipped') out.push(`      <skipped message="${xml(r.message ?? 'skipped')}"/>`);
      else {
        const tag = r.status === 'failed' ? 'failure' : 'error';
        const detail = formatCase(r).split('\n').slice(1).map((l) => l.trim()).join('\n');
        const summary = r.message ?? r.mismatches?.map((m) => `${m.expectation}: ${m.lines[0] ?? ''}`).join('; ') ?? '';
        out.push(`      <${tag} message="${xml(summary)}">${xml(detail)}</${tag}>`);
      }
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>', '');
  return out.join('\n');
}

/** TAP version 13 of a run: `ok`/`not ok` per case, failures as a YAML block, skips as `# SKIP`. */
export function tap(results: readonly CaseResult[]): string {
  const out = ['TAP version 13', `1..${results.length}`];
  results.forEach((r, i) => {
    const title = `${r.file} > ${r.name}`.replace(/#/g, '\\#');
    if (r.status === 'passed') out.push(`ok ${i + 1} - ${title}`);
    else if (r.status === 'skipped') out.push(`ok ${i + 1} - ${title} # SKIP ${r.message ?? ''}`.trimEnd());
    else {
      out.push(`not ok ${i + 1} - ${title}`);
      out.push('  ---');
      out.push(`  status: ${r.status}`);
      const detail = formatCase(r).split('\n').slice(1).map((l) => l.trim());
      out.push('  message: |');
      for (const l of detail) out.push(`    ${l}`);
      out.push(`  duration_ms: ${Math.round(r.durationMs)}`);
      out.push('  ...');
    }
  });
  const t = totalsOf(results);
  out.push(`# ${closingLine(t)}`, '');
  return out.join('\n');
}

/** Escapes text for an XML attribute or element; drops characters XML 1.0 cannot hold. */
function xml(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 && c !== 0x9 && c !== 0xa && c !== 0xd) continue;
    if (c === 0xfffe || c === 0xffff) continue;
    switch (ch) {
      case '&':
        out += '&amp;';
        break;
      case '<':
        out += '&lt;';
        break;
      case '>':
        out += '&gt;';
        break;
      case '"':
        out += '&quot;';
        break;
      case "'":
        out += '&apos;';
        break;
      case '\n':
        out += '&#10;';
        break;
      default:
        out += ch;
    }
  }
  return out;
}
