// Runs every unit and black-box test under test/ (except test/browser and test/runtime, which have their own
// scripts), one file after another: uvu's deferred mode, as its own CLI does, so suites never overlap and a
// failure anywhere fails the run. Usage: node --import tsx test/run.ts [substring-of-path ...]
import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = new URL('.', import.meta.url).pathname;
const skipDirs = new Set(['browser', 'runtime', 'support', 'spec', 'fixtures']);

function collect(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      if (!skipDirs.has(name)) collect(p, out);
    } else if (name.endsWith('.test.ts')) out.push(p);
  }
  return out;
}

const filters = process.argv.slice(2);
const files = collect(root, []).filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)));
if (files.length === 0) {
  process.stderr.write(`no test files match ${filters.join(' ')}\n`);
  process.exit(1);
}

// uvu's deferred mode: each file's suites are queued under the file's index and run by one exec() at the end.
const g = globalThis as { UVU_DEFER?: number; UVU_INDEX?: number; UVU_QUEUE?: unknown[][] };
g.UVU_DEFER = 1;
const uvu = await import('uvu');
for (const [i, f] of files.entries()) {
  g.UVU_INDEX = i;
  g.UVU_QUEUE!.push([relative(root, f)]);
  await import(pathToFileURL(f).href);
}
await uvu.exec();
