/**
 * Where the published-samples corpus is: every sample of Google's GoogleCloudPlatform/workflows-samples
 * repository, laid out as `yaml/`, `json/` and `SOURCE.tsv` (its origin and whether each runs locally). It is
 * not part of this repository: tests find it through the `WORKFLOWS_CORPUS` environment variable, or as
 * `../shared/corpus/workflows-samples` beside the clone (where CI puts it; for a `git worktree`, beside its
 * main checkout). Without it, the tests that need it
 * are reported as skipped, with one line on stderr saying how to get it — never as passed.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Test } from 'uvu';

const REPO = resolve(new URL('../../', import.meta.url).pathname);
const BESIDE = '../shared/corpus/workflows-samples';

/** The corpus directory, or undefined when it is not there. */
export const CORPUS: string | undefined = [process.env['WORKFLOWS_CORPUS'], resolve(REPO, BESIDE), besideMainCheckout()].find(
  (p): p is string => p !== undefined && p !== '' && existsSync(resolve(p, 'SOURCE.tsv')),
);

/** In a `git worktree`, the corpus beside the main checkout (its `.git` file names the shared git directory). */
function besideMainCheckout(): string | undefined {
  try {
    const dotGit = resolve(REPO, '.git');
    if (!statSync(dotGit).isFile()) return undefined;
    const gitdir = resolve(REPO, /^gitdir: (.*)$/m.exec(readFileSync(dotGit, 'utf8'))![1]!.trim());
    const common = resolve(gitdir, readFileSync(resolve(gitdir, 'commondir'), 'utf8').trim());
    return resolve(dirname(common), BESIDE);
  } catch {
    return undefined;
  }
}

let told = false;

/**
 * Registers `name` as a skipped test of `suite` when the corpus is absent, and says once per run how to get
 * it. Returns true when the corpus is absent (the caller then registers nothing else).
 */
export function skipWithoutCorpus(suite: Test<any>, name: string): boolean {
  if (CORPUS !== undefined) return false;
  // The corpus is Google's published samples, not part of this repository (a clone must pass on its own):
  // without it the test is reported as skipped, never as passed. CI always runs them: .ci/run stops when the
  // corpus is not beside the clone.
  suite.skip(name, () => {});
  if (!told) {
    told = true;
    process.stderr.write(
      'SKIPPED: the published-samples corpus tests (set WORKFLOWS_CORPUS to a folder of yaml/, json/ and SOURCE.tsv ' +
        "built from github.com/GoogleCloudPlatform/workflows-samples, or put it at ../shared/corpus/workflows-samples)\n",
    );
  }
  return true;
}
