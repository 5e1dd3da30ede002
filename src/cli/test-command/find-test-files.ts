/**
 * Finding test files (docs/testing.md#the-test-command): every `*.test.yaml`, `*.test.yml` and `*.test.json` file under
 * the given files or directories (default: the current directory), skipping `node_modules` and folders whose
 * name starts with a dot. The list is sorted so runs and reports are stable.
 */
import { readdirSync, realpathSync, statSync, type Stats } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/** True for a test file's name. */
function isTestFile(name: string): boolean {
  return name.endsWith('.test.yaml') || name.endsWith('.test.yml') || name.endsWith('.test.json');
}

/** A path given on the command line that does not exist. */
export class MissingPathError extends Error {
  constructor(readonly path: string) {
    super(`no such file or directory: ${path}`);
    this.name = 'MissingPathError';
  }
}

/**
 * The test files under `paths` (files are taken as given, whatever their name), as absolute paths, sorted
 * and without repeats.
 * @throws MissingPathError for a path that does not exist.
 */
export function findTestFiles(paths: readonly string[], cwd: string): string[] {
  return findFiles(paths, cwd, isTestFile);
}

/**
 * The files under `paths` whose name `accept` takes (files given are taken whatever their name), as absolute
 * paths, sorted and without repeats; `node_modules` and dot folders are skipped.
 * @throws MissingPathError for a path that does not exist.
 */
export function findFiles(paths: readonly string[], cwd: string, accept: (name: string) => boolean): string[] {
  const found = new Set<string>();
  const walked = new Set<string>();
  for (const p of paths.length ? paths : ['.']) {
    const abs = resolve(cwd, p);
    let isDir: boolean;
    try {
      isDir = statSync(abs).isDirectory();
    } catch {
      throw new MissingPathError(p);
    }
    if (isDir) walk(abs, found, walked, accept);
    else found.add(abs);
  }
  return [...found].sort();
}

/**
 * Adds the files under `dir` that `accept` takes, walking each real directory once (`walked` holds their real paths), so
 * symbolic links to a parent or to each other cannot make the walk loop or repeat; only regular files (or
 * links to one) are taken.
 */
function walk(dir: string, out: Set<string>, walked: Set<string>, accept: (name: string) => boolean): void {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return;
  }
  if (walked.has(real)) return;
  walked.add(real);
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return;
  }
  for (const name of names) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const p = join(dir, name);
    let st: Stats;
    try {
      st = statSync(p);
    } catch {
      continue;
    }
    if (st.isDirectory()) walk(p, out, walked, accept);
    else if (st.isFile() && accept(name)) out.add(p);
  }
}

/** A path as reports show it: relative to `cwd` when below it, else absolute. */
export function displayPath(abs: string, cwd: string): string {
  const r = relative(cwd, abs);
  return r && !r.startsWith('..') ? r : abs;
}
