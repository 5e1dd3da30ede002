/**
 * User environment variables on the command line of `run`: `--env NAME=VALUE` (repeatable) and
 * `--env-file FILE` (one `NAME=VALUE` per line; blank lines and lines starting with `#` are skipped; a value
 * may be wrapped in matching single or double quotes, which are removed). They are what a workflow's
 * `userEnvVars` are on Google's service (https://cloud.google.com/workflows/docs/use-environment-variables):
 * `sys.get_env` reads them, the built-in `CLOUD_*`/`GOOGLE_CLOUD_*` values win, and the same rules hold (at
 * most 20, no empty name, none starting with GOOGLE or WORKFLOWS, 4 KiB per name or value).
 */
import { readFileSync } from 'node:fs';
import { ApiError } from '../service/errors.ts';
import { checkUserEnvVars } from '../service/store/workflow-settings.ts';

/**
 * The variables of `--env-file` files (in order) with `--env` assignments over them (in order, a later one
 * winning), checked as userEnvVars are.
 * @returns the variables, or the problem as one line (`--env-file vars.env:3: ...`, `--env "X": ...`).
 */
export function userEnvFromArgs(files: readonly string[], assignments: readonly string[]): Record<string, string> | string {
  const env: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const file of files) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      return `cannot read --env-file ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
    }
    const lines = text.split(/\r?\n/);
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.trim();
      if (line === '' || line.startsWith('#')) continue;
      const pair = assignment(line.startsWith('export ') ? line.slice(7).trimStart() : line);
      if (typeof pair === 'string') return `--env-file ${file}:${i + 1}: ${pair}`;
      env[pair[0]] = unquote(pair[1]);
    }
  }
  for (const a of assignments) {
    const pair = assignment(a);
    if (typeof pair === 'string') return `--env "${a}": ${pair}`;
    env[pair[0]] = pair[1];
  }
  try {
    checkUserEnvVars(env);
  } catch (e) {
    if (e instanceof ApiError) return `--env / --env-file: ${e.message.replace(/^userEnvVars: /, '')}`;
    throw e;
  }
  return env;
}

/** `NAME=VALUE` split at the first `=`, or the problem. */
function assignment(text: string): readonly [string, string] | string {
  const eq = text.indexOf('=');
  if (eq < 0) return 'expected NAME=VALUE';
  const name = text.slice(0, eq).trim();
  if (name === '') return 'the name before "=" is empty';
  return [name, text.slice(eq + 1)];
}

/** A value without the matching quotes around it, if it has them. */
function unquote(v: string): string {
  const t = v.trim();
  return t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.at(-1) === t[0] ? t.slice(1, -1) : t;
}
