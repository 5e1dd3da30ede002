// Builds the extension: out/extension.js (src/ bundled with vscode-languageclient; `vscode` is VS Code's own)
// server/emulator.mjs (the emulator's one-file bundle, ../../dist/emulator.js: run `npm run build` at the
// repository's root first) and LICENSE (the repository's). Usage: node build.mjs
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';

const emulator = new URL('../../dist/emulator.js', import.meta.url);
if (!existsSync(emulator)) {
  console.error('editors/vscode: ../../dist/emulator.js is missing; run `npm run build` at the repository root first');
  process.exit(1);
}
mkdirSync(new URL('./server/', import.meta.url), { recursive: true });
copyFileSync(emulator, new URL('./server/emulator.mjs', import.meta.url));
// The package carries the project's license (vsce asks for a LICENSE file beside package.json).
copyFileSync(new URL('../../LICENSE', import.meta.url), new URL('./LICENSE', import.meta.url));
await esbuild.build({
  entryPoints: ['src/extension.ts'],
  outfile: 'out/extension.js',
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: ['node20'],
  external: ['vscode'],
  minify: true,
  keepNames: true,
  logLevel: 'warning',
});
