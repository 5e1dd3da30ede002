/** The TypeScript source files under a folder (src/), for tests that read the code itself. */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** Every `.ts` and `.mts` file under `dir` (declaration files left out), in sorted order. */
export function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) sourceFiles(p, out);
    else if (/\.(ts|mts)$/.test(name) && !name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}
