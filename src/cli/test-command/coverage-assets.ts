/**
 * The files istanbul's HTML coverage report links (its stylesheets, scripts and images, from the
 * istanbul-reports package), so that `test --coverage-reporter html` writes them from the one-file bundle too:
 * build.mjs inlines them as `__COVERAGE_ASSETS__` (text files as text, images in base64) in the test command's
 * module group, which the bundle carries compressed as a whole, as it does the web UI's (src/ui/assets.ts); from
 * source they are read from node_modules.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** Inlined by build.mjs: file name → content (an image's in base64). Undefined when running from source. */
declare const __COVERAGE_ASSETS__: Record<string, string> | undefined;

/** The asset files, as istanbul's HTML report lays them out (all beside its pages). */
const FILES = ['base.css', 'block-navigation.js', 'favicon.png', 'sort-arrow-sprite.png', 'sorter.js', 'vendor/prettify.css', 'vendor/prettify.js'];

/** Each asset's file name (as the report's pages link it) and content. */
export function coverageHtmlAssets(): Map<string, Uint8Array> {
  const inlined = typeof __COVERAGE_ASSETS__ === 'object' ? __COVERAGE_ASSETS__ : undefined;
  const out = new Map<string, Uint8Array>();
  const dir = inlined ? '' : dirname(createRequire(import.meta.url).resolve('istanbul-reports/lib/html/assets/base.css'));
  for (const f of FILES) {
    const name = f.replace('vendor/', '');
    const inline = inlined?.[name];
    out.set(name, inline === undefined ? readFileSync(join(dir, f)) : Buffer.from(inline, name.endsWith('.png') ? 'base64' : 'utf8'));
  }
  return out;
}
