/**
 * A fresh temporary folder for each test of a suite, so tests never share files and nothing is left behind
 * (docs/running-the-tests.md: tests use their own temporary folders).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'uvu';

/**
 * Gives each test of `s` its own empty folder under the system's temporary directory as `ctx.dir` (named
 * `<prefix>XXXXXX`), made before the test and removed with everything in it after. `then` runs right after
 * the folder is made (to put files in it).
 */
export function tempDirEach<T extends { dir: string }>(s: Test<T>, prefix: string, then?: (dir: string) => void): void {
  s.before.each((ctx) => {
    ctx.dir = mkdtempSync(join(tmpdir(), prefix));
    then?.(ctx.dir);
  });
  s.after.each((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));
}
