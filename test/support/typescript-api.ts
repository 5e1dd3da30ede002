/**
 * TypeScript 5.9's compiler API (the `typescript-api` devDependency), for the tests that parse source files: the
 * layer and function-length rules and the bundle's imports.
 *
 * Loaded with `require`: the package is one CommonJS file of 9 MB, and an `import` of it makes Node scan all of it
 * for its named exports first (cjs-module-lexer) and, under tsx, detect its format too: about 1.5 s of CPU a
 * process, against 0.5 s for `require`. Types come from `import type TS from 'typescript-api'`.
 */
import { createRequire } from 'node:module';
import type TS from 'typescript-api';

/** The compiler API's namespace object (`ts.createSourceFile`, `ts.SyntaxKind`, ...). */
export const ts: typeof TS = createRequire(import.meta.url)('typescript-api') as typeof TS;
