// The layer order of src/ (docs/architecture.md#layers-and-where-things-are): every import of every file under src/ points down the
// order or within its own folder, so folders never form a cycle. Imports are read with the TypeScript
// compiler's own pre-processor (static imports, re-exports, `import type` and dynamic `import()` alike).
import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { ts } from './support/typescript-api.ts';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sourceFiles } from './support/source-files.ts';

/**
 * The layers, lowest first; a folder may import its own files and the folders of lower layers. Folders of one
 * layer may not import each other. `.` is the root files (main.ts, server.ts, index.ts), which wire the rest.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['platform'],
  ['lang'],
  ['lang/expr'],
  ['lang/definition'],
  ['graph'],
  ['stdlib'],
  ['lint'],
  ['engine'],
  ['mocks', 'coverage'],
  ['service'],
  ['debug'],
  ['api', 'ui'],
  ['cli', 'lsp'],
  ['.'],
];

const src = resolve(new URL('../src', import.meta.url).pathname);

/**
 * The layer folder a file under src/ belongs to: the longest folder of {@link LAYERS} holding it (`cli/test-command/x.ts`
 * is in `cli`), else its own directory relative to src/ (`.` for root files).
 */
function folderOf(file: string): string {
  const dir = relative(src, dirname(file)) || '.';
  let best: string | undefined;
  for (const f of LAYERS.flat()) {
    if (f !== '.' && (dir === f || dir.startsWith(f + '/')) && f.length > (best?.length ?? 0)) best = f;
  }
  return best ?? dir;
}

/** Rank of a folder in {@link LAYERS}, or undefined for a folder not placed in the order. */
function rankOf(folder: string): number | undefined {
  const i = LAYERS.findIndex((layer) => layer.includes(folder));
  return i < 0 ? undefined : i;
}

/** Relative imports of a file under src/ (its path and text) that land inside src/, as [specifier, folder]. */
function importsOf(file: string, text: string): [string, string][] {
  const info = ts.preProcessFile(text, true, true);
  const out: [string, string][] = [];
  for (const { fileName } of info.importedFiles) {
    if (!fileName.startsWith('.')) continue; // packages and node: built-ins
    const target = resolve(dirname(file), fileName);
    if (relative(src, target).startsWith('..')) continue; // gen/ and other files outside src/
    out.push([fileName, folderOf(target)]);
  }
  return out;
}

/** The imports of one file that break the order, each as `src/<file> imports '<specifier>': <why>`. */
function checkFile(file: string, text: string): string[] {
  const from = folderOf(file);
  const name = `src/${relative(src, file)}`;
  const fromRank = rankOf(from);
  if (fromRank === undefined) {
    return [`${name}: folder '${from}' is not in the layer order (add it to LAYERS here and to the map in docs/architecture.md)`];
  }
  const problems: string[] = [];
  for (const [spec, to] of importsOf(file, text)) {
    if (to === from) continue;
    const toRank = rankOf(to);
    if (toRank === undefined) problems.push(`${name} imports '${spec}': folder '${to}' is not in the layer order`);
    else if (toRank > fromRank) problems.push(`${name} imports '${spec}': '${from}' may not import '${to}', a higher layer`);
    else if (toRank === fromRank) {
      problems.push(`${name} imports '${spec}': '${from}' and '${to}' are one layer and may not import each other`);
    }
  }
  return problems;
}

/** Cycles in a graph of folders, each as `a -> b -> a` (empty when the graph is acyclic). */
function cyclesOf(edges: ReadonlyMap<string, ReadonlySet<string>>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (n: string): void => {
    state.set(n, 'open');
    path.push(n);
    for (const m of [...(edges.get(n) ?? [])].sort()) {
      if (state.get(m) === 'open') cycles.push([...path.slice(path.indexOf(m)), m].join(' -> '));
      else if (!state.has(m)) visit(m);
    }
    path.pop();
    state.set(n, 'done');
  };
  for (const n of [...edges.keys()].sort()) if (!state.has(n)) visit(n);
  return cycles;
}

const files = sourceFiles(src).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
const test = suite('layers (docs/architecture.md#layers-and-where-things-are)');

test('every import under src/ points down the layer order or stays in its folder', () => {
  const problems = files.flatMap((f) => checkFile(f.path, f.text));
  assert.equal(problems, [], `imports against the layer order:\n  ${problems.join('\n  ')}`);
});

test('the folders under src/ import each other without a cycle', () => {
  const edges = new Map<string, Set<string>>();
  for (const f of files) {
    const from = folderOf(f.path);
    for (const [, to] of importsOf(f.path, f.text)) {
      if (to === from) continue;
      if (!edges.has(from)) edges.set(from, new Set());
      edges.get(from)!.add(to);
    }
  }
  const cycles = cyclesOf(edges);
  assert.equal(cycles, [], `folder cycles:\n  ${cycles.join('\n  ')}`);
});

// The checker itself: it names the file and the import, and sees a cycle.
test('the checker names a file importing up the order, or sideways within a layer, and a folder cycle', () => {
  const probe = join(src, 'lang', 'definition', 'probe.ts');
  assert.equal(checkFile(probe, "import { STDLIB } from '../../stdlib/index.ts';\nimport type { Expr } from '../expr/ast.ts';"), [
    "src/lang/definition/probe.ts imports '../../stdlib/index.ts': 'lang/definition' may not import 'stdlib', a higher layer",
  ]);
  assert.equal(checkFile(join(src, 'api', 'probe.ts'), "const ui = await import('../ui/routes.ts');"), [
    "src/api/probe.ts imports '../ui/routes.ts': 'api' and 'ui' are one layer and may not import each other",
  ]);
  assert.equal(checkFile(join(src, 'cli', 'probe.ts'), "export { startServer } from '../server.ts';"), [
    "src/cli/probe.ts imports '../server.ts': 'cli' may not import '.', a higher layer",
  ]);
  assert.equal(checkFile(join(src, 'history', 'probe.ts'), ''), [
    "src/history/probe.ts: folder 'history' is not in the layer order (add it to LAYERS here and to the map in docs/architecture.md)",
  ]);
  const graph = new Map([['cli', new Set(['.'])], ['.', new Set(['cli', 'api'])], ['api', new Set<string>()]]);
  assert.equal(cyclesOf(graph), ['. -> cli -> .']);
});

test.run();
