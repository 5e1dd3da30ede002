/**
 * Writing a recorded execution to a test file (docs/recording.md): what `run --record FILE` and the JS API's
 * `testCase(execution, {file})` do. The case is built by src/service/recording/test-case.ts; here it is written to disk,
 * appended when the file exists, with the workflow named relative to the test file.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import type { RecordedExecution } from '../service/model.ts';
import { appendTestCase, TestCaseError, testCaseOf } from '../service/recording/test-case.ts';

/**
 * Writes `recorded` as a case named `{prefix} {execution ID}` of the test file `testFile` (appended when it
 * exists), its workflow `workflowFile` named relative to it. Returns the problem as text (an unreadable or
 * invalid test file, one testing another workflow, a write error), or undefined when written.
 */
export function recordToFile(recorded: RecordedExecution, workflowFile: string, testFile: string, prefix: string): string | undefined {
  let existing: string | undefined;
  try {
    existing = readFileSync(testFile, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return `cannot read ${testFile}: ${(e as Error).message}`;
  }
  const name = recorded.execution.name;
  try {
    const text = appendTestCase(existing, workflowPathFrom(testFile, workflowFile), testCaseOf(recorded, `${prefix} ${name.slice(name.lastIndexOf('/') + 1)}`), testFile);
    mkdirSync(dirname(resolve(testFile)), { recursive: true });
    writeFileSync(testFile, text);
  } catch (e) {
    return e instanceof TestCaseError ? e.message : `cannot write ${testFile}: ${(e as Error).message}`;
  }
  return undefined;
}

/** `workflowFile` as a test file at `testFile` names it: relative to the test file's directory, with `/`. */
export function workflowPathFrom(testFile: string, workflowFile: string): string {
  return relative(dirname(resolve(testFile)), resolve(workflowFile)).split(sep).join('/');
}
