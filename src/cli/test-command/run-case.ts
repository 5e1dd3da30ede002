/**
 * Running one case of a test file (docs/testing.md#the-test-command): the case's workflow, compiled once per file, runs as one
 * isolated execution with the case's argument, env, mocks and callbacks, under its own clock; what it did
 * (result or error, the steps that ran, its outbound calls, its logs, the callbacks it created) is checked
 * against the case's `expect`.
 */
import { readBoundedFile } from '../read-bounded.ts';
import { resolve as resolvePath } from 'node:path';
import type { Definition } from '../../lang/definition/ast.ts';
import { checkExpectations, type CaseOutcome } from './expectations.ts';
import type { CaseResult } from './case-report.ts';
import { TestFileError, type TestCase, type TestFile } from '../../service/recording/test-file.ts';
import { MockFileError, NO_MOCKS, overlayMocks, parseMocks, type MockSet } from '../../mocks/mock-file.ts';
import { unmatchedFails } from '../../mocks/mock-set.ts';
import { runIsolated } from '../run-isolated.ts';
import type { CoverageCounts } from '../../coverage/counts.ts';
import { compileWorkflowFile, workflowIdOfFile } from '../workflow-file.ts';
import { revisionId } from '../../service/names.ts';

/** `virtual`: sleeps, backoffs and timeouts take no wall time; `real`: they take their time. */
export type ClockMode = 'virtual' | 'real';

/** A test file made ready to run: its workflow compiled (or why it does not deploy) and its mocks read. */
export interface PreparedFile {
  readonly test: TestFile;
  /** The workflow file's path as the report shows it. */
  readonly workflowFile: string;
  /** The workflow file's absolute path. */
  readonly workflowPath: string;
  readonly source: string;
  /** The workflow ID and revision ID its executions see (from the file name and the source). */
  readonly workflowId: string;
  readonly revisionId: string;
  readonly definition?: Definition;
  /** Why the workflow does not deploy (`file:line:col: invalid workflow definition: ...`). */
  readonly compileError?: string;
  /** The file-level mocks (none: {@link NO_MOCKS}). */
  readonly mocks: MockSet;
}

/**
 * Reads what a test file names, relative to `dir` (the test file's directory), adding each file read to
 * `watched`.
 * @throws TestFileError when the workflow or mock file cannot be read.
 */
export function prepareFile(test: TestFile, dir: string, watched: Set<string>): PreparedFile {
  const workflowPath = resolvePath(dir, test.workflow.value);
  watched.add(workflowPath);
  let source: string;
  try {
    source = readBoundedFile(workflowPath);
  } catch (e) {
    throw new TestFileError(test.file, test.workflow.pos, `cannot read the workflow ${test.workflow.value}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const workflowFile = test.workflow.value;
  const compiled = compileWorkflowFile(workflowFile, source, test.compat);
  let mocks = NO_MOCKS;
  if (test.mocks && 'value' in test.mocks) {
    const named = test.mocks;
    const mockPath = resolvePath(dir, named.value);
    watched.add(mockPath);
    let text: string;
    try {
      text = readBoundedFile(mockPath);
    } catch (e) {
      throw new TestFileError(test.file, named.pos, `cannot read the mock file ${named.value}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    try {
      mocks = parseMocks(text, named.value);
    } catch (e) {
      if (!(e instanceof MockFileError)) throw e;
      throw new TestFileError(test.file, named.pos, `invalid mock file: ${e.message}`);
    }
  } else if (test.mocks) mocks = test.mocks;
  if ('definition' in compiled) checkRoutines(test, compiled.definition);
  return {
    test,
    workflowFile,
    workflowPath,
    source,
    workflowId: workflowIdOfFile(workflowFile),
    revisionId: revisionId(1, source),
    ...('definition' in compiled ? { definition: compiled.definition } : { compileError: compiled.error }),
    mocks,
  };
}

/**
 * Every case's `routine` is a routine of the workflow (docs/testing.md#calling-one-subworkflow).
 * @throws TestFileError at the `routine` of the first case naming none, listing the routines there are.
 */
function checkRoutines(test: TestFile, definition: Definition): void {
  for (const c of test.cases) {
    if (!c.routine || definition.workflows.has(c.routine.value)) continue;
    const known = [...definition.workflows.keys()].join(', ');
    throw new TestFileError(test.file, c.routine.pos, `case ${JSON.stringify(c.name)}: the workflow has no routine '${c.routine.value}' (its routines: ${known})`);
  }
}

/** Options of {@link runCase}. */
export interface RunCaseOptions {
  readonly clock: ClockMode;
  /** The test file as reports show it. */
  readonly file: string;
  /** The workflow file's coverage counts, when coverage is counted (docs/coverage.md). */
  readonly coverage?: CoverageCounts | undefined;
}

/** Runs one case and judges it; never rejects (a problem running it is an `error` result). */
export async function runCase(p: PreparedFile, c: TestCase, o: RunCaseOptions): Promise<CaseResult> {
  const started = performance.now();
  const base = { file: o.file, name: c.name };
  if (!p.definition) return { ...base, status: 'failed', durationMs: 0, message: p.compileError ?? 'the workflow does not deploy' };
  let outcome: CaseOutcome & { failedPos?: { line: number; col: number } };
  try {
    outcome = await runIsolated({
      definition: p.definition,
      workflowId: p.workflowId,
      revisionId: p.revisionId,
      ...(c.argument !== undefined ? { argument: c.argument } : {}),
      ...(c.routine ? { entry: { routine: c.routine.value, args: c.args } } : {}),
      env: c.env,
      mocks: unmatchedFails(c.mocks ? overlayMocks(p.mocks, c.mocks) : p.mocks),
      callbacks: c.callbacks,
      clock: o.clock,
      timeoutSec: c.timeoutSec,
      playback: c.playback,
      project: p.test.project,
      location: p.test.location,
      ...(p.test.compat ? { compat: p.test.compat } : {}),
      ...(o.coverage ? { coverage: o.coverage } : {}),
    });
  } catch (e) {
    return { ...base, status: 'error', durationMs: performance.now() - started, message: (e as Error).message };
  }
  const durationMs = performance.now() - started;
  const mismatches = checkExpectations(c.expect, outcome);
  if (mismatches.length === 0) return { ...base, status: 'passed', durationMs };
  const line = outcome.failedPos ? p.source.split('\n')[outcome.failedPos.line - 1] : undefined;
  return {
    ...base,
    status: 'failed',
    durationMs,
    mismatches,
    steps: outcome.steps,
    ...(outcome.state === 'FAILED' ? { actual: { error: outcome.error ?? null, steps: outcome.steps } } : {}),
    ...(outcome.state === 'SUCCEEDED' ? { actual: { result: outcome.result ?? null, steps: outcome.steps } } : {}),
    ...(outcome.failedPos
      ? { sourceLine: `${p.workflowFile}:${outcome.failedPos.line}:${outcome.failedPos.col}: ${line?.trim() ?? ''}` }
      : {}),
  };
}
