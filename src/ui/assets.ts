/**
 * The web UI's static assets, served under `/ui/assets/`: htmx (from the htmx.org package), the stylesheet
 * and a small script of our own. Nothing comes from a CDN.
 *
 * How they are embedded, so that both the one-file bundle and the sources under tsx work:
 * - In the bundle, build.mjs reads the files at build time and inlines them as the `__UI_ASSETS__` constant
 *   (esbuild `define`, the same mechanism as `__EMULATOR_VERSION__` in src/service/version.ts), as text in the web
 *   UI's module group, which the bundle carries brotli-compressed as a whole (src/platform/libraries.ts).
 *   dist/emulator.js then needs no file beside it.
 * - From source (tests, `node --import tsx`), `__UI_ASSETS__` is undefined and the files are read from disk
 *   on first use: styles.css and ui.js next to this module, htmx.min.js resolved from node_modules.
 *
 * Each asset is served with an ETag (a hash of its content); pages link to `?v=<hash>`, which is cached as
 * immutable, so a new build is picked up at once and an unchanged one is never fetched twice.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { nodeCrypto } from '../platform/builtins.ts';

/** Inlined by build.mjs: asset file name → its content. Undefined when running from source. */
declare const __UI_ASSETS__: Record<string, string> | undefined;

/** One static asset. */
export interface Asset {
  /** File name as served: `/ui/assets/<name>`. */
  readonly name: string;
  readonly contentType: string;
  readonly body: string;
  /** Short content hash, used as the ETag and the `?v=` cache buster. */
  readonly hash: string;
}

/** The asset files and their content types. build.mjs inlines the same names. */
const ASSET_TYPES: Readonly<Record<string, string>> = {
  'htmx.min.js': 'text/javascript; charset=utf-8',
  'styles.css': 'text/css; charset=utf-8',
  'ui.js': 'text/javascript; charset=utf-8',
};

let loaded: Map<string, Asset> | undefined;

function readFromSource(name: string): string {
  if (name === 'htmx.min.js') {
    const require = createRequire(import.meta.url);
    return readFileSync(require.resolve('htmx.org/dist/htmx.min.js'), 'utf8');
  }
  return readFileSync(new URL('./' + name, import.meta.url), 'utf8');
}

function load(): Map<string, Asset> {
  if (loaded) return loaded;
  const inlined = typeof __UI_ASSETS__ === 'object' ? __UI_ASSETS__ : undefined;
  const out = new Map<string, Asset>();
  for (const [name, contentType] of Object.entries(ASSET_TYPES)) {
    const body = inlined?.[name] ?? readFromSource(name);
    const hash = nodeCrypto().createHash('sha256').update(body).digest('hex').slice(0, 12);
    out.set(name, { name, contentType, body, hash });
  }
  loaded = out;
  return out;
}

/** The asset named `name` (as in `/ui/assets/<name>`), or undefined for an unknown name. */
export function getAsset(name: string): Asset | undefined {
  return Object.hasOwn(ASSET_TYPES, name) ? load().get(name) : undefined;
}

/** The URL pages use to link an asset: `/ui/assets/<name>?v=<hash>`. */
export function assetUrl(name: keyof typeof ASSET_TYPES & string): string {
  const a = getAsset(name);
  return `/ui/assets/${name}` + (a ? `?v=${a.hash}` : '');
}
