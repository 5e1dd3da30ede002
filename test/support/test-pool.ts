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

/**
 * The build the tests run beside (test/run.ts --build): `done` resolves to whether it succeeded; `needs(unit)`
 * says whether a unit must wait for it. Units that do not need it run while it runs.
 */
export interface BuildGate {
  readonly done: Promise<boolean>;
  needs(unit: readonly string[]): boolean;
}

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
 * Runs `units` (lists of absolute test file paths, the heaviest first) in `jobs` worker processes; with `build`,
 * the units that need it wait for it, the others run meanwhile. A unit fails when uvu says so, when its report
 * has fewer passed and skipped tests than it counts, or when its process ends before it does; the run fails
 * when any unit fails or is left unrun (as those that need a build that failed are).
 */
export function runInWorkers(units: readonly (readonly string[])[], jobs: number, env: NodeJS.ProcessEnv, build?: BuildGate): Promise<PoolOutcome> {
  const queue = [...units];
  let built: boolean | undefined;
  void build?.done.then((ok) => (built = ok));
  /** The next unit to send: the heaviest, or while the build runs the heaviest that does not need it. */
  const take = async (): Promise<readonly string[] | undefined> => {
    if (build === undefined || built === true) return queue.shift();
    const i = built === false ? -1 : queue.findIndex((u) => !build.needs(u));
    if (i >= 0) return queue.splice(i, 1)[0];
    if (built === undefined && queue.length > 0) {
      built = await build.done;
      return take();
    }
    return undefined; // the build failed: what needs it stays unrun
  };
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
        current = undefined;
        void take().then((unit) => {
          current = unit && { unit, since: performance.now() };
          child.send(unit ? { files: unit } : { end: true });
        });
      };
      const read = (chunk: Buffer): void => {
        report += chunk.toString('utf8');
        for (let at = report.indexOf(UNIT_DONE); at >= 0; at = report.indexOf(UNIT_DONE)) {
          const end = report.indexOf('\n', at);
          if (end < 0) return;
          if (current) finish(current.unit, report.slice(0, at), report.slice(at + UNIT_DONE.length, end).trim() === 'pass', current.since);
          report = report.slice(end + 1);
          next();
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
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
