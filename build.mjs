// Bundles the emulator into one dependency-free ES module, dist/emulator.js (only `node:` built-ins stay
// imports), runnable with `node dist/emulator.js`, `deno run -A dist/emulator.js` or `bun dist/emulator.js`.
// Usage: node build.mjs [--watch]
import * as esbuild from 'esbuild';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));

// The web UI's assets, inlined as __UI_ASSETS__ (src/ui/assets.ts reads them from disk when run from source).
// Read once per build: under --watch, restart after editing them.
const file = (path) => readFileSync(new URL(path, import.meta.url), 'utf8');
const uiAssets = {
  'htmx.min.js': file('./node_modules/htmx.org/dist/htmx.min.js'),
  'styles.css': file('./src/ui/styles.css'),
  'ui.js': file('./src/ui/ui.js'),
};

const options = {
  entryPoints: ['src/main.ts'],
  outfile: 'dist/emulator.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: ['node20'],
  minifySyntax: true,
  legalComments: 'none',
  // Some bundled CommonJS dependencies call require() for node built-ins; give ESM a require.
  banner: {
    js: [
      '#!/usr/bin/env node',
      "import { createRequire as __wfCreateRequire } from 'node:module';",
      'const require = __wfCreateRequire(import.meta.url);',
    ].join('\n'),
  },
  define: { __EMULATOR_VERSION__: JSON.stringify(pkg.version), __UI_ASSETS__: JSON.stringify(uiAssets) },
  loader: { '.css': 'text', '.html': 'text', '.txt': 'text' },
  logLevel: 'warning',
};

if (process.argv.includes('--watch')) {
  const ctx = await esbuild.context(options);
  await ctx.watch();
} else {
  await esbuild.build(options);
}
