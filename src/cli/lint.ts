/**
 * `workflows-emulator lint [PATH…] [--format text|json|sarif] [--max-warnings N]` (docs/lint.md): checks
 * workflow files as a deploy would (every deploy error, with its code) plus the lint warnings, for CI.
 *
 * Paths are files (checked whatever their name) or directories, walked for `.yaml`, `.yml` and `.json` files
 * that have a workflow definition's shape (test files, mock files and other YAML are left alone); default:
 * the current directory. The report goes to stdout.
 *
 * Exit codes: 0 when no file has an error and the warnings are at most `--max-warnings` (no limit by
 * default); 1 otherwise; 2 for bad usage (an unknown option or format, a bad number, a missing path, an
 * unreadable file).
 */
import { readFileSync } from 'node:fs';
import { extname } from 'node:path';
import { loadSource } from '../lang/definition/load.ts';
import { checkSource, looksLikeWorkflow } from '../lint/check.ts';
import { jsonReport, sarifReport, textReport, type FileProblems } from '../lint/report.ts';
import { VERSION } from '../service/version.ts';
import { DEFINITION_LIBRARY } from '../stdlib/index.ts';
import { displayPath, findFiles, MissingPathError } from './test-command/find-test-files.ts';

/** The usage text of `workflows-emulator lint --help`. */
export const LINT_USAGE = `Usage: workflows-emulator lint [PATH...] [--format text|json|sarif] [--max-warnings N]

Checks workflow definitions as a deploy does (every deploy error, with its code) and reports lint warnings
(docs/lint.md). PATHs are files or directories (default: .); directories are searched for .yaml, .yml and
.json workflow definitions.

  --format text|json|sarif   the report on stdout (default text; sarif is SARIF 2.1.0 for code scanning)
  --max-warnings N           exit 1 when there are more than N warnings (default: no limit)

Exit codes: 0 clean, 1 errors or too many warnings, 2 bad usage.
`;

/** Where the command reads and writes; the process's by default, replaceable in tests. */
export interface LintIO {
  readonly cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}

const PROCESS_IO: LintIO = {
  cwd: process.cwd(),
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

/** Runs `lint` with its arguments (after the word `lint`); resolves to the exit code. */
export function lintCommand(argv: readonly string[], io: LintIO = PROCESS_IO): number {
  const parsed = parseLintArgs(argv);
  if ('help' in parsed) {
    io.stdout(LINT_USAGE);
    return 0;
  }
  if ('error' in parsed) {
    io.stderr(`workflows-emulator lint: ${parsed.error} (see lint --help)\n`);
    return 2;
  }
  let files: string[];
  try {
    files = findFiles(parsed.paths, io.cwd, (name) => /\.(ya?ml|json)$/i.test(name) && !/\.test\.(ya?ml|json)$/i.test(name));
  } catch (e) {
    if (!(e instanceof MissingPathError)) throw e;
    io.stderr(`workflows-emulator lint: ${e.message}\n`);
    return 2;
  }
  const given = new Set(parsed.paths.map((p) => displayPath(p, io.cwd)));
  const results: FileProblems[] = [];
  for (const abs of files) {
    const file = displayPath(abs, io.cwd);
    let source: string;
    try {
      source = readFileSync(abs, 'utf8');
    } catch (e) {
      io.stderr(`workflows-emulator lint: cannot read ${file}: ${(e as Error).message}\n`);
      return 2;
    }
    const format = extname(abs).toLowerCase() === '.json' ? 'json' : 'yaml';
    // Found in a directory: only files with a workflow's shape (a file named on the command line always).
    if (!given.has(file) && !given.has(abs) && !isWorkflowSource(source, format)) continue;
    results.push({ file, problems: checkSource(source, DEFINITION_LIBRARY, format).problems });
  }
  const report = parsed.format === 'sarif' ? sarifReport(results, VERSION) : parsed.format === 'json' ? jsonReport(results) : textReport(results);
  io.stdout(report);
  const all = results.flatMap((r) => r.problems);
  const errors = all.filter((p) => p.severity === 'error').length;
  const warnings = all.length - errors;
  return errors > 0 || (parsed.maxWarnings !== undefined && warnings > parsed.maxWarnings) ? 1 : 0;
}

/** Whether a file found in a directory is a workflow definition (it loads and has the shape of one). */
function isWorkflowSource(source: string, format: 'yaml' | 'json'): boolean {
  try {
    return looksLikeWorkflow(loadSource(source, format).root);
  } catch {
    return false;
  }
}

type LintArgs = { help: true } | { error: string } | { paths: string[]; format: 'text' | 'json' | 'sarif'; maxWarnings: number | undefined };

function parseLintArgs(argv: readonly string[]): LintArgs {
  const paths: string[] = [];
  let format: 'text' | 'json' | 'sarif' = 'text';
  let maxWarnings: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') return { help: true };
    const m = /^(--format|--max-warnings)(?:=(.*))?$/.exec(arg);
    if (m) {
      const value = m[2] ?? argv[++i];
      if (value === undefined) return { error: `${m[1]} needs a value` };
      if (m[1] === '--format') {
        if (value !== 'text' && value !== 'json' && value !== 'sarif') return { error: `unknown format '${value}' (text, json or sarif)` };
        format = value;
      } else {
        if (!/^\d+$/.test(value)) return { error: `--max-warnings takes a whole number, got '${value}'` };
        maxWarnings = Number(value);
      }
    } else if (arg.startsWith('-') && arg !== '-') return { error: `unknown option '${arg}'` };
    else paths.push(arg);
  }
  return { paths, format, maxWarnings };
}
