/**
 * Type-checks TypeScript files as a user's strict project would (ES2022, NodeNext modules), with the
 * repository's own `typescript`, and returns the diagnostics' messages (empty: it type-checks).
 */
import ts from 'typescript';

/** Options beyond the strict NodeNext defaults (e.g. `types`, `typeRoots`, `skipLibCheck`). */
export function typeCheck(files: readonly string[], extra: ts.CompilerOptions = {}): { messages: string[]; program: ts.Program } {
  const program = ts.createProgram(files, {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    ...extra,
  });
  const messages = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return { messages, program };
}
