/**
 * Type-checks TypeScript files as a user's strict project would (ES2022, NodeNext modules), with the
 * repository's own `tsc` (TypeScript 7, the native compiler: about 0.3 s of CPU a check, where the compiler API
 * of TypeScript 5.9 took over a second to load and parse the declarations of node_modules in each test process),
 * and returns the diagnostics' messages (empty: it type-checks) and the files the program read.
 *
 * The files are checked in place (their imports and `types` resolve from where they are, as in the user's project),
 * through a tsconfig file written for the check beside the first of them and removed after; tsc runs with `--pretty false --listFiles`, and its report is read
 * back: each `file(line,col): error TSnnnn: message` (with its indented continuation lines) is one message of that
 * file, an error naming no file (a bad option) one message of the program, and every other line that is an
 * absolute path a file of the program.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';

const TSC = new URL('../../node_modules/typescript/bin/tsc', import.meta.url).pathname;

/** Compiler options beyond the strict NodeNext defaults, as a tsconfig.json's `compilerOptions` has them. */
export interface TypeCheckOptions {
  readonly types?: readonly string[];
  /** Absolute folders. */
  readonly typeRoots?: readonly string[];
  readonly skipLibCheck?: boolean;
  readonly skipDefaultLibCheck?: boolean;
}

/** What {@link typeCheck} found. */
export interface TypeCheckResult {
  /** Every message, of every file and of the program. */
  readonly messages: string[];
  /** The files of the program (absolute paths): the checked ones and every declaration file they brought in. */
  readonly files: string[];
  /** The messages of one checked file. */
  messagesOf(file: string): string[];
}

/** Checks `files` in one program with tsc; throws only when tsc cannot be run. */
export function typeCheck(files: readonly string[], extra: TypeCheckOptions = {}): TypeCheckResult {
  const dir = dirname(resolve(files[0]!));
  const config = join(dir, `tsconfig.typecheck-${process.pid}-${++checks}.json`);
  try {
    const compilerOptions = { strict: true, noEmit: true, target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', ...extra };
    writeFileSync(config, JSON.stringify({ compilerOptions, files: files.map((f) => resolve(f)) }));
    const run = spawnSync(process.execPath, [TSC, '-p', config, '--pretty', 'false', '--listFiles'], { cwd: dir, encoding: 'utf8' });
    if (run.error) throw run.error;
    return readReport(dir, `${run.stdout}${run.stderr}`, run.status);
  } finally {
    rmSync(config, { force: true });
  }
}

let checks = 0;

/** tsc's report (`--pretty false --listFiles`, run in `dir`) as a {@link TypeCheckResult}. */
function readReport(dir: string, report: string, status: number | null): TypeCheckResult {
  const byFile = new Map<string, string[]>();
  const messages: string[] = [];
  const listed: string[] = [];
  let last: { file: string | undefined; index: number } | undefined;
  for (const line of report.split('\n')) {
    const located = /^(.+?)\(\d+,\d+\): error TS\d+: (.*)$/.exec(line);
    const unlocated = /^error TS\d+: (.*)$/.exec(line);
    if (located || unlocated) {
      const file = located ? resolve(dir, located[1]!) : undefined;
      messages.push(located ? located[2]! : unlocated![1]!);
      if (file !== undefined) byFile.set(file, [...(byFile.get(file) ?? []), messages[messages.length - 1]!]);
      last = { file, index: messages.length - 1 };
    } else if (/^\s+\S/.test(line) && last) {
      // A continuation of the last message (TypeScript's message chains).
      messages[last.index] += '\n' + line.trim();
      if (last.file !== undefined) {
        const own = byFile.get(last.file)!;
        own[own.length - 1] = messages[last.index]!;
      }
    } else if (isAbsolute(line.trim())) {
      listed.push(line.trim());
      last = undefined;
    }
  }
  if (status !== 0 && messages.length === 0) messages.push(`tsc exited with ${status}:\n${report}`);
  return { messages, files: listed, messagesOf: (file) => byFile.get(resolve(file)) ?? [] };
}
