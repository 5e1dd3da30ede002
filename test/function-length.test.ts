// No function in src/ over 80 lines (docs/architecture.md#layers-and-where-things-are: small units with one job
// each). Functions are found with the TypeScript compiler's own parser: declarations, methods, arrows and function
// expressions alike; a function's length is its lines from its first to its last, nested functions included.
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import type TS from 'typescript-api';
import { ts } from './support/typescript-api.ts';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { sourceFiles } from './support/source-files.ts';

/** Longest function allowed, in lines. */
const MAX_FUNCTION_LINES = 80;

const src = resolve(new URL('../src', import.meta.url).pathname);

/** The name a function is known by: its own, its variable's, its property's or its class member's. */
function nameOf(node: TS.Node, sf: TS.SourceFile): string {
  const named = node as TS.Node & { name?: TS.Node };
  if (named.name) return named.name.getText(sf);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) {
    return parent.name.getText(sf);
  }
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  return '(anonymous)';
}

/** Every function of a source text with its length in lines, as `{ name, line, lines }`. */
function functionLengths(fileName: string, text: string): { name: string; line: number; lines: number }[] {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out: { name: string; line: number; lines: number }[] = [];
  const visit = (node: TS.Node): void => {
    if (ts.isFunctionLike(node) && (node as TS.FunctionLikeDeclaration).body) {
      const start = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const end = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      out.push({ name: nameOf(node, sf), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const test = suite('function length (docs/architecture.md#layers-and-where-things-are)');

test('the counter sees declarations, arrows and methods, nested ones included', () => {
  const body = Array.from({ length: 5 }, (_, i) => `  const x${i} = ${i};`).join('\n');
  const text = `function f() {\n${body}\n  const g = () => {\n    return 1;\n  };\n}\nclass C { m() {\n${body}\n} }\n`;
  const found = functionLengths('x.ts', text).map((f) => `${f.name}:${f.lines}`);
  assert.equal(found, ['f:10', 'g:3', 'm:7']);
});

test(`no function in src/ is over ${MAX_FUNCTION_LINES} lines`, () => {
  const offenders: string[] = [];
  for (const file of sourceFiles(src)) {
    for (const f of functionLengths(file, readFileSync(file, 'utf8'))) {
      if (f.lines > MAX_FUNCTION_LINES) offenders.push(`src/${relative(src, file)}:${f.line} ${f.name} (${f.lines} lines)`);
    }
  }
  assert.equal(offenders, [], `functions over ${MAX_FUNCTION_LINES} lines:\n${offenders.join('\n')}`);
});

test.run();
