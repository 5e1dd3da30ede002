// Installs Deno and Bun for the runtime suite (`npm run test:runtimes`) and the bundle benchmarks into
// .cache/runtimes (not into node_modules: contributors' `npm install` should not download ~195 MB it does
// not need). Runs `npm install` there only when the pinned versions are not installed yet, so the second
// run is instant and works offline. Prints the bin folder. Usage: node scripts/runtimes.mjs
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The versions the runtime suite is run with (docs/cli.md#one-file-on-node-deno-and-bun). */
export const RUNTIME_VERSIONS = { deno: '2.9.6', bun: '1.4.5' };

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** Where they are installed; test/runtime and bench run `deno` and `bun` from `${RUNTIMES_DIR}/node_modules/.bin`. */
export const RUNTIMES_DIR = join(root, '.cache', 'runtimes');

function installed(name, version) {
  try {
    return JSON.parse(readFileSync(join(RUNTIMES_DIR, 'node_modules', name, 'package.json'), 'utf8')).version === version;
  } catch {
    return false;
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = Object.entries(RUNTIME_VERSIONS).filter(([name, version]) => !installed(name, version));
  if (missing.length > 0) {
    mkdirSync(RUNTIMES_DIR, { recursive: true });
    const pkg = join(RUNTIMES_DIR, 'package.json');
    if (!existsSync(pkg)) writeFileSync(pkg, '{"private": true, "description": "Deno and Bun for npm run test:runtimes"}\n');
    const specs = Object.entries(RUNTIME_VERSIONS).map(([name, version]) => `${name}@${version}`);
    process.stderr.write(`installing ${specs.join(' and ')} into .cache/runtimes for the runtime suite...\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    execFileSync(npm, ['install', '--no-audit', '--no-fund', '--prefer-offline', '--no-package-lock', ...specs], { cwd: RUNTIMES_DIR, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  process.stdout.write(join(RUNTIMES_DIR, 'node_modules', '.bin') + '\n');
}
