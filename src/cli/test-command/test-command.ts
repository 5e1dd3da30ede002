/**
 * `workflows-emulator test [PATH...]` (docs/testing.md#the-test-command): runs every test file under the given paths with no server,
 * each case an isolated execution (own mocks, own clock, own callbacks) run concurrently, and reports.
 *
 * Exit codes: 0 every case passed (or was skipped), 1 a case failed (a wrong result, or a workflow that does
 * not deploy), 2 a usage error or an invalid test file (file:line:col on stderr), 130/143 when interrupted.
 */
import { mkdirSync, readFileSync, watch as fsWatch, writeFileSync, type FSWatcher } from 'node:fs';
import { readBoundedFile } from '../read-bounded.ts';
import { dirname, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { displayPath, findTestFiles, MissingPathError } from './find-test-files.ts';
import { closingLine, formatCase, junitXml, tap, totalsOf, type CaseResult } from './case-report.ts';
import { parseTestFile, TestFileError, type TestFile } from '../../service/recording/test-file.ts';
import { applyUpdates, type CaseUpdate } from './update.ts';
import { prepareFile, runCase, type ClockMode, type PreparedFile } from './run-case.ts';
import { CoverageStore, type CoverageCounts } from '../../coverage/counts.ts';
import {
  COVERAGE_REPORTERS,
  coverageTable,
  parseThreshold,
  thresholdFailure,
  writeCoverageReports,
  type CoverageReporter,
  type CoverageThreshold,
} from './coverage-report.ts';

/** The usage text of `workflows-emulator test --help`. */
const TEST_USAGE = `Usage: workflows-emulator test [PATH...] [options]

Runs the workflow tests in every *.test.yaml / *.test.json file under the given files or directories
(default: the current directory; node_modules and dot-folders are skipped). No server is started.
  exit    0 all passed, 1 a case failed, 2 usage error or an invalid test file

Options:
  --reporter <name>     default | junit | tap (default: default)
  --output <file>       write the junit or tap report to this file (default: standard output)
  --filter <text>       run only the cases whose "file > name" contains this text
  --clock <mode>        virtual (default: sleeps and backoffs take no time) | real
  --concurrency <n>     cases run at once (default 16)
  --watch               run again whenever a test, workflow or mock file changes (Ctrl-C stops)
  -u, --update          write the actual outcome into the expect of failing cases (result or error, and
                        steps where the case has them), keeping the rest of the file; lists each change
  --coverage            count the steps, branches and routines the cases ran; print a table per workflow file
  --coverage-reporter <name>
                        lcov | cobertura | json | html, into --coverage-dir (repeatable; implies --coverage)
  --coverage-dir <dir>  where coverage reports go (default: coverage)
  --coverage-threshold <steps=N,branches=N>
                        exit 1 when steps or branches covered are below N percent (implies --coverage)
  --help                print this help
`;

/** Exit codes of `test`. */
const TEST_EXIT = { passed: 0, failed: 1, usage: 2 } as const;

/** Where the command writes; the process's by default, replaceable in tests. */
export interface TestIO {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly cwd: string;
  /** Aborted to stop a watch (SIGINT/SIGTERM in the command). */
  readonly interrupt?: AbortSignal;
  /** Colours in the default report (a TTY). */
  readonly color?: boolean;
}

interface TestArgs {
  readonly paths: string[];
  readonly reporter: 'default' | 'junit' | 'tap';
  readonly output?: string;
  readonly filter?: string;
  readonly clock: ClockMode;
  readonly concurrency: number;
  readonly watch: boolean;
  /** `--update`: failing cases get their actual outcome written into `expect` (update.ts). */
  readonly update: boolean;
  /** Coverage (docs/coverage.md): counted when set. */
  readonly coverage?: {
    readonly reporters: readonly CoverageReporter[];
    readonly dir: string;
    readonly threshold?: CoverageThreshold;
  };
}

class UsageError extends Error {}

/**
 * Runs the `test` command with `args` (the words after `test`) and resolves to its exit code. Never rejects:
 * every problem is reported on `io.stderr` and becomes an exit code.
 */
export async function testCommand(args: readonly string[], io: TestIO = processIO()): Promise<number> {
  let parsed: TestArgs | 'help';
  try {
    parsed = parseTestArgs(args);
  } catch (e) {
    io.stderr(`workflows-emulator test: ${(e as Error).message}\n`);
    return TEST_EXIT.usage;
  }
  if (parsed === 'help') {
    io.stdout(TEST_USAGE);
    return TEST_EXIT.passed;
  }
  if (!parsed.watch) return runOnce(parsed, io);
  return watchLoop(parsed, io);
}

function parseTestArgs(args: readonly string[]): TestArgs | 'help' {
  let v;
  try {
    v = parseArgs({
      args: [...args],
      allowPositionals: true,
      strict: true,
      options: {
        reporter: { type: 'string' },
        output: { type: 'string' },
        filter: { type: 'string' },
        clock: { type: 'string' },
        concurrency: { type: 'string' },
        watch: { type: 'boolean' },
        update: { type: 'boolean', short: 'u' },
        coverage: { type: 'boolean' },
        'coverage-reporter': { type: 'string', multiple: true },
        'coverage-dir': { type: 'string' },
        'coverage-threshold': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    throw new UsageError(`${(e as Error).message.split('\n')[0]} (see workflows-emulator test --help)`);
  }
  const o = v.values;
  if (o.help) return 'help';
  const reporter = o.reporter ?? 'default';
  if (reporter !== 'default' && reporter !== 'junit' && reporter !== 'tap') {
    throw new UsageError(`--reporter must be default, junit or tap (got "${reporter}")`);
  }
  if (o.output !== undefined && reporter === 'default') throw new UsageError('--output goes with --reporter junit or tap');
  const clock = o.clock ?? 'virtual';
  if (clock !== 'virtual' && clock !== 'real') throw new UsageError(`--clock must be virtual or real (got "${clock}")`);
  const concurrency = o.concurrency === undefined ? 16 : Number(o.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 1000) {
    throw new UsageError(`--concurrency must be a whole number from 1 to 1000 (got "${o.concurrency}")`);
  }
  const coverage = coverageArgs(o);
  return {
    paths: v.positionals,
    reporter,
    ...(coverage ? { coverage } : {}),
    ...(o.output !== undefined ? { output: o.output } : {}),
    ...(o.filter !== undefined ? { filter: o.filter } : {}),
    clock,
    concurrency,
    watch: o.watch ?? false,
    update: o.update ?? false,
  };
}

/** The coverage options of `test`, or undefined when coverage is not asked for. */
function coverageArgs(o: {
  coverage?: boolean | undefined;
  'coverage-reporter'?: string[] | undefined;
  'coverage-dir'?: string | undefined;
  'coverage-threshold'?: string | undefined;
}): TestArgs['coverage'] {
  const reporters = o['coverage-reporter'] ?? [];
  if (!o.coverage && reporters.length === 0 && o['coverage-threshold'] === undefined) {
    if (o['coverage-dir'] !== undefined) throw new UsageError('--coverage-dir goes with --coverage');
    return undefined;
  }
  for (const r of reporters) {
    if (!Object.hasOwn(COVERAGE_REPORTERS, r)) {
      throw new UsageError(`--coverage-reporter must be lcov, cobertura, json or html (got "${r}")`);
    }
  }
  let threshold: CoverageThreshold | undefined;
  if (o['coverage-threshold'] !== undefined) {
    try {
      threshold = parseThreshold(o['coverage-threshold']);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
  }
  return {
    reporters: reporters as CoverageReporter[],
    dir: o['coverage-dir'] ?? 'coverage',
    ...(threshold ? { threshold } : {}),
  };
}

/** What one run read: the test files (or their errors) and every file it depends on, for --watch. */
interface RunPlan {
  readonly files: { readonly abs: string; readonly shown: string; readonly test?: TestFile; readonly error?: TestFileError; readonly prepared?: PreparedFile }[];
  readonly watched: Set<string>;
}

async function runOnce(a: TestArgs, io: TestIO): Promise<number> {
  let files: string[];
  try {
    files = findTestFiles(a.paths, io.cwd);
  } catch (e) {
    if (!(e instanceof MissingPathError)) throw e;
    io.stderr(`workflows-emulator test: ${e.message}\n`);
    return TEST_EXIT.usage;
  }
  if (files.length === 0) {
    io.stderr(`workflows-emulator test: no test files (*.test.yaml, *.test.json) under ${a.paths.length ? a.paths.join(' ') : 'the current directory'}\n`);
    return TEST_EXIT.usage;
  }
  const { code } = await runPlan(plan(files, io.cwd), a, io);
  return code;
}

/** Reads and checks every test file and what it names (workflow, mock file). */
function plan(files: readonly string[], cwd: string): RunPlan {
  const watched = new Set<string>(files);
  const out: RunPlan['files'][number][] = [];
  for (const abs of files) {
    const shown = displayPath(abs, cwd);
    try {
      let text: string;
      try {
        text = readBoundedFile(abs);
      } catch (e) {
        throw new TestFileError(shown, undefined, `cannot read the file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      const test = parseTestFile(shown, text);
      const prepared = prepareFile(test, dirname(abs), watched);
      out.push({ abs, shown, test, prepared });
    } catch (e) {
      if (!(e instanceof TestFileError)) throw e;
      out.push({ abs, shown, error: e });
    }
  }
  return { files: out, watched };
}

async function runPlan(p: RunPlan, a: TestArgs, io: TestIO): Promise<{ code: number; watched: Set<string> }> {
  const anyOnly = p.files.some((f) => f.test?.cases.some((c) => c.only));
  const results: CaseResult[][] = p.files.map(() => []);
  const jobs: (() => Promise<void>)[] = [];
  let invalid = false;
  const coverage = a.coverage ? new CoverageStore() : undefined;
  const countsOf = (f: PreparedFile): CoverageCounts | undefined =>
    coverage && f.definition
      ? coverage.countsFor(f.workflowPath, f.definition, { name: relative(io.cwd, f.workflowPath) || f.workflowPath, sourceContents: f.source })
      : undefined;
  p.files.forEach((f, fi) => {
    if (f.error || !f.test || !f.prepared) {
      invalid = true;
      results[fi]!.push({ file: f.shown, name: '(test file)', status: 'error', durationMs: 0, message: f.error?.message ?? 'invalid test file' });
      return;
    }
    const prepared = f.prepared;
    // Every workflow file tested is in the coverage, even one whose cases were all filtered out or skipped.
    const counts = countsOf(prepared);
    f.test.cases.forEach((c, ci) => {
      if (a.filter !== undefined && !`${f.shown} > ${c.name}`.includes(a.filter)) return;
      const slot = results[fi]!;
      const at = slot.length;
      slot.push({ file: f.shown, name: c.name, status: 'skipped', durationMs: 0, message: 'pending' });
      if (c.skip !== undefined || (anyOnly && !c.only)) {
        slot[at] = { file: f.shown, name: c.name, status: 'skipped', durationMs: 0, message: c.skip ?? 'not marked only' };
        return;
      }
      jobs.push(async () => {
        if (io.interrupt?.aborted) return; // stopped: the case stays skipped
        slot[at] = await runCase(prepared, f.test!.cases[ci]!, { clock: a.clock, file: f.shown, ...(counts ? { coverage: counts } : {}) });
      });
    });
  });
  // SIGINT/SIGTERM stop the run: the results so far are reported, cases not finished as skipped.
  await Promise.race([pool(jobs, a.concurrency), whenAborted(io.interrupt)]);
  const stoppedBy = io.interrupt?.aborted ? String(io.interrupt.reason ?? 'SIGINT') : undefined;
  if (stoppedBy) {
    for (const r of results) {
      for (let i = 0; i < r.length; i++) if (r[i]!.message === 'pending') r[i] = { ...r[i]!, message: `interrupted (${stoppedBy})` };
    }
  }
  const flat = results.flat();
  if (a.reporter === 'default') {
    p.files.forEach((f, fi) => {
      io.stdout(`${f.shown}\n`);
      for (const r of results[fi]!) io.stdout(formatCase(r, io.color) + '\n');
    });
    io.stdout(`\n${closingLine(totalsOf(flat))}\n`);
  } else {
    const text = a.reporter === 'junit' ? junitXml(flat) : tap(flat);
    if (a.output !== undefined) {
      try {
        mkdirSync(dirname(resolve(io.cwd, a.output)), { recursive: true });
        writeFileSync(resolve(io.cwd, a.output), text);
      } catch (e) {
        io.stderr(`workflows-emulator test: cannot write ${a.output}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
        return { code: TEST_EXIT.usage, watched: p.watched };
      }
      io.stdout(`${closingLine(totalsOf(flat))} (${a.reporter} report in ${a.output})\n`);
    } else io.stdout(text);
  }
  for (const f of p.files) if (f.error) io.stderr(`workflows-emulator test: invalid test file: ${f.error.message}\n`);
  if (a.update) writeUpdates(p, results, io);
  const t = totalsOf(flat);
  const code = stoppedBy ? (stoppedBy === 'SIGTERM' ? 143 : 130) : invalid ? TEST_EXIT.usage : t.failed + t.errors > 0 ? TEST_EXIT.failed : TEST_EXIT.passed;
  if (!coverage || !a.coverage) return { code, watched: p.watched };
  const toStdout = a.reporter === 'default' || a.output !== undefined;
  const covered = reportCoverage(coverage.all(), a.coverage, io, toStdout);
  return { code: code === TEST_EXIT.passed ? covered : code, watched: p.watched };
}

/**
 * Prints the coverage table (on standard output unless a junit or tap report goes there), writes the coverage
 * reports and checks the threshold; returns the exit code coverage asks for.
 */
function reportCoverage(sources: CoverageCounts[], c: NonNullable<TestArgs['coverage']>, io: TestIO, toStdout: boolean): number {
  const table = '\n' + coverageTable(sources);
  if (toStdout) io.stdout(table);
  else io.stderr(table);
  if (c.reporters.length > 0) {
    const dir = resolve(io.cwd, c.dir);
    try {
      writeCoverageReports(sources, (s) => resolve(io.cwd, s.label.name), c.reporters, dir, io.cwd);
    } catch (e) {
      io.stderr(`workflows-emulator test: cannot write the coverage reports to ${c.dir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
      return TEST_EXIT.usage;
    }
    (toStdout ? io.stdout : io.stderr)(`coverage reports (${c.reporters.join(', ')}) in ${c.dir}\n`);
  }
  const failure = c.threshold ? thresholdFailure(sources, c.threshold) : undefined;
  if (failure === undefined) return TEST_EXIT.passed;
  io.stderr(`workflows-emulator test: ${failure}\n`);
  return TEST_EXIT.failed;
}

/** Resolves when `signal` aborts (never without one). */
function whenAborted(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
}

/**
 * `--update`: writes the actual outcome of each failing case into its `expect` (update.ts) and lists every
 * change on stdout. JSON test files and cases whose workflow does not deploy are not updated.
 */
function writeUpdates(p: RunPlan, results: readonly CaseResult[][], io: TestIO): void {
  p.files.forEach((f, fi) => {
    const updates: CaseUpdate[] = [];
    for (const r of results[fi]!) {
      if (r.status !== 'failed' || !r.actual || !f.test) continue;
      const index = f.test.cases.findIndex((c) => c.name === r.name);
      if (index >= 0) updates.push({ index, name: r.name, ...r.actual });
    }
    if (updates.length === 0) return;
    if (f.abs.endsWith('.json')) {
      io.stdout(`not updated: ${f.shown}: JSON test files are not rewritten (${updates.length} failing case(s))\n`);
      return;
    }
    const { text, changes } = applyUpdates(readFileSync(f.abs, 'utf8'), updates);
    writeFileSync(f.abs, text);
    for (const c of changes) io.stdout(`updated: ${f.shown} > ${c}\n`);
  });
}

/** Runs `jobs` with at most `limit` at once. */
async function pool(jobs: readonly (() => Promise<void>)[], limit: number): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < jobs.length) await jobs[next++]!();
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
}

/** --watch: run, then run again 100 ms after any watched file changes, until interrupted. */
async function watchLoop(a: TestArgs, io: TestIO): Promise<number> {
  let watchers: FSWatcher[] = [];
  let last = TEST_EXIT.passed as number;
  for (;;) {
    let watched = new Set<string>();
    try {
      const files = findTestFiles(a.paths, io.cwd);
      const r = await runPlan(plan(files, io.cwd), a, io);
      last = r.code;
      watched = r.watched;
    } catch (e) {
      io.stderr(`workflows-emulator test: ${(e as Error).message}\n`);
    }
    io.stdout(`\nwatching ${watched.size} file(s) for changes (Ctrl-C stops)\n`);
    const changed = await new Promise<boolean>((resolve) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const fire = (): void => {
        clearTimeout(timer);
        timer = setTimeout(() => resolve(true), 100);
      };
      // Directories are watched (editors replace files on save); test files may appear under the given paths.
      const dirs = new Set([...watched].map((f) => dirname(f)));
      for (const p of a.paths.length ? a.paths : ['.']) dirs.add(p.endsWith('.yaml') || p.endsWith('.json') || p.endsWith('.yml') ? dirname(p) : p);
      watchers = [...dirs].flatMap((d) => {
        try {
          return [fsWatch(d, { persistent: true }, fire)];
        } catch {
          return [];
        }
      });
      io.interrupt?.addEventListener('abort', () => resolve(false), { once: true });
    });
    for (const w of watchers) w.close();
    if (!changed || io.interrupt?.aborted) return last;
    io.stdout('\n--- change detected: running again ---\n\n');
  }
}

function processIO(): TestIO {
  const ac = new AbortController();
  process.once('SIGINT', () => ac.abort('SIGINT'));
  process.once('SIGTERM', () => ac.abort('SIGTERM'));
  return {
    stdout: (t) => process.stdout.write(t),
    stderr: (t) => process.stderr.write(t),
    cwd: process.cwd(),
    interrupt: ac.signal,
    color: process.stdout.isTTY === true && !process.env.NO_COLOR,
  };
}
