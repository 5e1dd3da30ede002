/**
 * Loading the language server's library (vscode-languageserver, about 245 KB of JavaScript) only when
 * `workflows-emulator lsp` runs. In the bundle the language server is a module group that start-up does not
 * parse (build.mjs PACKED_MODULES, src/platform/libraries.ts), and this library is bundled inside that group:
 * it is compiled only when `lsp` runs, and only once the server needs it.
 */

/** The library's exports the server uses (library-entry.ts). */
export type LspLibrary = typeof import('./library-entry.ts');

/** Loads the library (library-entry.ts). */
export function loadLspLibrary(): Promise<LspLibrary> {
  return import('./library-entry.ts');
}
