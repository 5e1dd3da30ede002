// Runs the runtime smoke suites (test/runtime/*.test.ts): the built bundle under Node, Deno and Bun, one after
// another. Usage: npm run test:runtimes [-- node|deno|bun ...]   (builds first, and installs Deno and Bun into
// .cache/runtimes with scripts/runtimes.mjs)
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const dir = new URL('.', import.meta.url).pathname;
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort((a, b) => order(a) - order(b));
for (const f of files) {
  process.stdout.write(`# runtime/${f}\n`);
  await import(pathToFileURL(join(dir, f)).href);
}

function order(f: string): number {
  return ['node', 'deno', 'bun'].findIndex((r) => f.startsWith(r));
}
