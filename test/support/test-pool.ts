/**
 * The test processes of test/run.ts: `jobs` processes of test/support/test-worker.ts, each sent the next unit of
 * test files when it is free, the heaviest first, so that every process stays busy until the last units
 * (longest-first list scheduling), whatever the recorded times say. Each unit's report is printed whole when the
 * unit ends, so reports never interleave; uvu's summary lines of the units are added up into one closing summary
 * in uvu's own form (`Total:`, `Passed:`, `Skipped:`, `Duration:`; .ci/run sums the first two).
 */
import { spawn } from 'node:child_process';
import { relative } from 'node:path';
import { UNIT_DONE } from './test-worker.ts';

const WORKER = new URL('./test-worker.ts', import.meta.url).pathname;
const TEST_ROOT = new URL('..', import.meta.url).pathname;

/** What the processes did: whether anything failed, the time of each file (ms, by path under test/) and uvu's counts. */
export interface PoolOutcome {
  failed: boolean;
  readonly durations: Map<string, number>;
  total: number;
  passed: number;
  skipped: number;
}

// eslint-disable-next-line no-control-regex
const COLOR = /\x1b\[[0-9;]*m/g;

/** uvu's summary of a unit's report (its `Total:`, `Passed:` and `Skipped:` lines), and the report without it. */
export function summaryOf(report: string): { total: number; passed: number; skipped: number; rest: string } {
  const plain = report.replace(COLOR, '');
  const count = (label: string): number => Number(new RegExp(`^\\s*${label}:\\s*(\\d+)`, 'm').exec(plain)?.[1] ?? 0);
  const rest = report
    .split('\n')
    .filter((line) => !/^\s*(Total|Passed|Skipped|Duration):/.test(line.replace(COLOR, '')))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
  return { total: count('Total'), passed: count('Passed'), skipped: count('Skipped'), rest };
}

/**
 * Runs `units` (lists of absolute test file paths, the heaviest first) in `jobs` worker processes. A unit fails
 * when uvu says so, when its report has fewer passed and skipped tests than it counts, or when its process ends
 * before it does; the run fails when any unit fails or is left unrun.
 */
export function runInWorkers(units: readonly (readonly string[])[], jobs: number, env: NodeJS.ProcessEnv): Promise<PoolOutcome> {
  const queue = [...units];
  const outcome: PoolOutcome = { failed: false, durations: new Map(), total: 0, passed: 0, skipped: 0 };
  const finish = (unit: readonly string[], report: string, passed: boolean, since: number): void => {
    const summary = summaryOf(report);
    process.stdout.write(summary.rest.endsWith('\n') ? summary.rest : `${summary.rest}\n`);
    outcome.total += summary.total;
    outcome.passed += summary.passed;
    outcome.skipped += summary.skipped;
    if (!passed || summary.passed + summary.skipped < summary.total) outcome.failed = true;
    // A unit of several files is timed as a whole: each file gets an equal share.
    const ms = performance.now() - since;
    for (const file of unit) outcome.durations.set(relative(TEST_ROOT, file), ms / unit.length);
  };
  const worker = (): Promise<void> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, [...process.execArgv, WORKER], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'], env });
      let current: { unit: readonly string[]; since: number } | undefined;
      let report = '';
      const next = (): void => {
        const unit = queue.shift();
        current = unit && { unit, since: performance.now() };
        child.send(unit ? { files: unit } : { end: true });
      };
      const take = (chunk: Buffer): void => {
        report += chunk.toString('utf8');
        for (let at = report.indexOf(UNIT_DONE); at >= 0; at = report.indexOf(UNIT_DONE)) {
          const end = report.indexOf('\n', at);
          if (end < 0) return;
          if (current) finish(current.unit, report.slice(0, at), report.slice(at + UNIT_DONE.length, end).trim() === 'pass', current.since);
          report = report.slice(end + 1);
          next();
        }
      };
      child.stdout!.on('data', take);
      child.stderr!.on('data', take);
      child.on('close', (code) => {
        if (current) {
          const names = current.unit.map((f) => relative(TEST_ROOT, f)).join(', ');
          finish(current.unit, `${report}\n(the test process ended, code ${code}, before ${names} finished)\n`, false, current.since);
        } else if (report.trim() !== '') process.stdout.write(report);
        if (code !== 0) outcome.failed = true;
        resolve();
      });
      next();
    });
  const started = performance.now();
  return Promise.all(Array.from({ length: Math.max(1, Math.min(jobs, units.length)) }, worker)).then(() => {
    if (queue.length > 0) outcome.failed = true;
    const ms = (performance.now() - started).toFixed(2);
    process.stdout.write(`\n  Total:     ${outcome.total}\n  Passed:    ${outcome.passed}\n  Skipped:   ${outcome.skipped}\n  Duration:  ${ms}ms\n\n`);
    return outcome;
  });
}
