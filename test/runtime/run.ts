// Runs the runtime smoke suites (test/runtime/*.test.ts): the built bundle under Node, Deno and Bun, one after
// another. Usage: npm run test:runtimes [-- node|deno|bun ...]   (builds first, and installs Deno and Bun into
// .cache/runtimes with scripts/runtimes.mjs)
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const dir = new URL('.', import.meta.url).pathname;
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.test.ts'))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort((a, b) => order(a) - order(b));
// uvu's public runner (what its CLI calls) runs every suite of the files in one pass and sets the exit code once:
// a suite that fails makes the run fail, whichever runtime's suite comes after it.
const { run } = await import('uvu/run');
await run(files.map((f) => ({ name: `runtime/${f}`, file: join(dir, f) })));

function order(f: string): number {
  return ['node', 'deno', 'bun'].findIndex((r) => f.startsWith(r));
}
