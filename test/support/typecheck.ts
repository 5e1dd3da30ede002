/**
 * Type-checks TypeScript files as a user's strict project would (ES2022, NodeNext modules), with the
 * compiler API of TypeScript 5.9 (the `typescript-api` devDependency: TypeScript 7, the repository's `tsc`,
 * has no stable JavaScript API yet), and returns the diagnostics' messages (empty: it type-checks).
 *
 * Declaration files under node_modules (TypeScript's own lib files, @types/node, packages' types) are parsed
 * once per test process and shared by every program made here: they do not change while the tests run, and
 * parsing them is most of what a small program costs.
 */
import ts from 'typescript-api';

const parsed = new Map<string, ts.SourceFile>();

/** A compiler host that reuses parsed declaration files from node_modules across programs. */
function cachingHost(options: ts.CompilerOptions): ts.CompilerHost {
  const host = ts.createCompilerHost(options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreate) => {
    if (!/[\\/]node_modules[\\/].*\.d\.[cm]?ts$/.test(fileName)) return read(fileName, languageVersionOrOptions, onError, shouldCreate);
    const key = `${fileName}\0${JSON.stringify(languageVersionOrOptions)}`;
    let file = parsed.get(key);
    if (!file) {
      file = read(fileName, languageVersionOrOptions, onError, shouldCreate);
      if (file) parsed.set(key, file);
    }
    return file;
  };
  return host;
}

/**
 * Options beyond the strict NodeNext defaults (e.g. `types`, `typeRoots`, `skipLibCheck`). `messagesOf(file)`
 * gives one file's messages when several are checked in one program.
 */
export function typeCheck(
  files: readonly string[],
  extra: ts.CompilerOptions = {},
): { messages: string[]; program: ts.Program; messagesOf(file: string): string[] } {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    ...extra,
  };
  const program = ts.createProgram(files, options, cachingHost(options));
  const text = (ds: readonly ts.Diagnostic[]): string[] => ds.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  return {
    messages: text(ts.getPreEmitDiagnostics(program)),
    program,
    messagesOf: (file) => text(ts.getPreEmitDiagnostics(program, program.getSourceFile(file))),
  };
}
