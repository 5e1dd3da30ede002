/**
 * The output formats of `workflows-emulator lint` (docs/lint.md "Output"): `text` (one line per problem,
 * `file:line:col: severity CODE message`), `json` (an array of files with their problems) and SARIF 2.1.0
 * (https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html), the format GitHub code scanning reads
 * (https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning).
 */
import type { Problem } from './check.ts';
import { codeDocsUrl, PROBLEM_CODES, type ProblemCode } from './codes.ts';

/** The problems of one file; `file` as the report shows it (relative to the working directory when below it). */
export interface FileProblems {
  readonly file: string;
  readonly problems: readonly Problem[];
}

/** The text report: one line per problem, then a summary line (`2 errors, 1 warning in 3 files`). */
export function textReport(files: readonly FileProblems[]): string {
  const lines: string[] = [];
  let errors = 0;
  let warnings = 0;
  for (const f of files) {
    for (const p of f.problems) {
      if (p.severity === 'error') errors++;
      else warnings++;
      const step = p.step !== undefined ? `step ${JSON.stringify(p.step)}: ` : '';
      lines.push(`${f.file}:${p.line}:${p.col}: ${p.severity} ${p.code} ${step}${p.message}`);
    }
  }
  const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;
  lines.push(`${plural(errors, 'error')}, ${plural(warnings, 'warning')} in ${plural(files.length, 'file')}`);
  return lines.join('\n') + '\n';
}

/** The JSON report: `[{file, problems: [{severity, code, message, step?, line, col, endLine, endCol}]}]`. */
export function jsonReport(files: readonly FileProblems[]): string {
  return JSON.stringify(files, null, 2) + '\n';
}

/**
 * The SARIF 2.1.0 log: one run of the tool `workflows-emulator` whose rules are every code used (with its
 * summary and docs/lint.md entry), and one result per problem with its file (a URI relative to the
 * `%SRCROOT%` base, so GitHub maps it into the repository) and region (1-based lines and columns).
 */
export function sarifReport(files: readonly FileProblems[], version: string): string {
  const used = [...new Set(files.flatMap((f) => f.problems.map((p) => p.code)))].sort() as ProblemCode[];
  const ruleIndex = new Map(used.map((c, i) => [c, i]));
  const rules = used.map((code) => ({
    id: code,
    name: code
      .toLowerCase()
      .split('_')
      .map((w) => w[0]!.toUpperCase() + w.slice(1))
      .join(''),
    shortDescription: { text: PROBLEM_CODES[code].summary },
    helpUri: codeDocsUrl(code),
    defaultConfiguration: { level: PROBLEM_CODES[code].severity },
  }));
  const results = files.flatMap((f) =>
    f.problems.map((p) => ({
      ruleId: p.code,
      ruleIndex: ruleIndex.get(p.code)!,
      level: p.severity,
      message: { text: p.step !== undefined ? `step ${JSON.stringify(p.step)}: ${p.message}` : p.message },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: fileUri(f.file), uriBaseId: '%SRCROOT%' },
            region: { startLine: p.line, startColumn: p.col, endLine: p.endLine, endColumn: p.endCol },
          },
        },
      ],
    })),
  );
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'workflows-emulator',
            version,
            informationUri: 'https://github.com/workflows-emulator/workflows-emulator',
            rules,
          },
        },
        columnKind: 'utf16CodeUnits',
        results,
      },
    ],
  };
  return JSON.stringify(log, null, 2) + '\n';
}

/** A path as a relative URI reference: forward slashes, each segment percent-encoded. */
function fileUri(path: string): string {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
}
