// Runs every benchmark under bench/ (files named *.bench.ts), one after another, each in its own process so
// one does not warm up or slow down the next. Each prints lines of the form
//   <name>: <value> <unit>   (target <target>: PASS|MISS)
// Usage: npm run bench [-- substring-of-file ...]
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const dir = new URL('.', import.meta.url).pathname;
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();
let failed = 0;
for (const f of files) {
  process.stdout.write(`# ${f}\n`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', join(dir, f)], { stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
if (failed) process.exit(1);
