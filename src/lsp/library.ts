/**
 * Loading the language server's library (vscode-languageserver, about 245 KB of JavaScript) only when
 * `workflows-emulator lsp` runs. Code in the bundle is compiled by V8 at every start of every command, run or
 * not (docs/architecture.md "Start-up"), so the bundle carries the library as data instead: build.mjs bundles
 * library-entry.ts on its own, brotli-compressed in base64, as the `__LSP_LIBRARY__` constant (as it does the web
 * UI's assets), and this module decompresses it and imports it as a module (a `data:` URL of build output,
 * never user input). From source (tests, `node --import tsx`), the constant is undefined and library-entry.ts is
 * imported directly.
 */
import { nodeZlib } from '../platform/builtins.ts';

declare const __LSP_LIBRARY__: string | undefined;

/** The library's exports the server uses (library-entry.ts). */
export type LspLibrary = typeof import('./library-entry.ts');

/** Loads the library: from the bundle's compressed copy, or from node_modules when run from source. */
export async function loadLspLibrary(): Promise<LspLibrary> {
  if (typeof __LSP_LIBRARY__ === 'string') {
    const code = nodeZlib().brotliDecompressSync(Buffer.from(__LSP_LIBRARY__, 'base64'));
    return (await import(`data:text/javascript;base64,${code.toString('base64')}`)) as LspLibrary;
  }
  return import('./library-entry.ts');
}
