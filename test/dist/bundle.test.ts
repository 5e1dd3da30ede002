// The one-file distribution (issue 7 "The bundle"): dist/emulator.js (and the JS API's dist/index.js) import
// nothing but `node:` built-ins, checked by parsing the built files and visiting every import, export-from,
// dynamic import and require call; the CLI file starts with a shebang, prints --help and --version, and stays
// within the 1.5 MB size target; dist/index.d.ts stands alone. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import ts from 'typescript';

const DIST = new URL('../../dist/', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; bin: Record<string, string> };
const MAX_BUNDLE_BYTES = 1.5 * 1024 * 1024;

/** Every module specifier the file loads: `import`, `export ... from`, `import()`, and calls of `require`-named functions. */
function specifiers(path: string): { static: string[]; dynamic: string[]; nonLiteral: number } {
  const text = readFileSync(path, 'utf8');
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const out = { static: [] as string[], dynamic: [] as string[], nonLiteral: 0 };
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      out.static.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && /require$/i.test(callee.text);
      if (isImport || isRequire) {
        const arg = node.arguments[0];
        if (arg && (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg))) out.dynamic.push(arg.text);
        else if (isImport) out.nonLiteral++;
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

const builtins = new Set(builtinModules);

const s = suite('dist: the bundle (issue 7 "The bundle")');

for (const file of ['emulator.js', 'index.js']) {
  s(`dist/${file} loads nothing but node: built-ins (every import, export-from, import() and require call)`, () => {
    const found = specifiers(DIST + file);
    const all = [...found.static, ...found.dynamic];
    assert.ok(found.static.length > 0, 'the parser found the imports');
    const bad = all.filter((m) => !m.startsWith('node:') || !builtins.has(m.slice('node:'.length)));
    assert.equal([...new Set(bad)], [], `non-built-in imports in dist/${file}`);
    assert.is(found.nonLiteral, 0, 'no import() of a computed specifier');
  });
}

s('dist/emulator.js starts with a node shebang and is the package bin (issue 7)', () => {
  const head = readFileSync(DIST + 'emulator.js', 'utf8').slice(0, 64);
  assert.ok(head.startsWith('#!/usr/bin/env node\n'), head);
  assert.is(pkg.bin['workflows-emulator'], 'dist/emulator.js');
});

s('--help prints usage and --version prints package.json\'s version (issue 7)', () => {
  const help = spawnSync(process.execPath, [DIST + 'emulator.js', '--help'], { encoding: 'utf8' });
  assert.is(help.status, 0);
  assert.match(help.stdout, /^workflows-emulator \d+\.\d+\.\d+/);
  assert.match(help.stdout, /Usage: workflows-emulator \[options\]/);
  const version = spawnSync(process.execPath, [DIST + 'emulator.js', '--version'], { encoding: 'utf8' });
  assert.is(version.status, 0);
  assert.is(version.stdout, pkg.version + '\n');
});

s('dist/emulator.js is at most 1.5 MB (issue 7 size target)', () => {
  const bytes = statSync(DIST + 'emulator.js').size;
  assert.ok(bytes <= MAX_BUNDLE_BYTES, `dist/emulator.js is ${bytes} bytes`);
});

s('dist/index.d.ts stands alone (no imports) and declares startEmulator (issue 7 "with .d.ts")', () => {
  const dts = readFileSync(DIST + 'index.d.ts', 'utf8');
  const sf = ts.createSourceFile('index.d.ts', dts, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const imports = sf.statements.filter((st) => ts.isImportDeclaration(st) || (ts.isExportDeclaration(st) && st.moduleSpecifier));
  assert.is(imports.length, 0, dts.slice(0, 300));
  assert.match(dts, /export declare function startEmulator\(options\?: EmulatorOptions\): Promise<Emulator>;/);
});

s.run();
