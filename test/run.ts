// Runs every unit and black-box test under test/ (except test/browser and test/runtime, which have their own
// scripts). Usage: node --import tsx test/run.ts [substring-of-path ...]
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
for (const f of files) {
  process.stdout.write(`# ${relative(root, f)}\n`);
  await import(pathToFileURL(f).href);
}
