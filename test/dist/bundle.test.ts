// The one-file distribution (docs/cli.md#one-file-on-node-deno-and-bun): dist/emulator.js imports nothing but
// `node:` built-ins, checked by parsing the built file and visiting every import, export-from, dynamic import
// and require call; it starts with a shebang, prints --help and --version when run, exports the JS API and
// starts nothing when imported, and stays within an 800 KB guard (the 700 KB size target and where it stands:
// docs/architecture.md#the-one-file); dist/index.d.ts stands alone and there
// is no second bundle. The libraries and module groups it carries packed (src/platform/libraries.ts) are checked
// the same way. Run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { builtinModules } from 'node:module';
import { brotliDecompressSync } from 'node:zlib';
import { transformSync } from 'esbuild';
import type TS from 'typescript-api';
import { ts } from '../support/typescript-api.ts';
import { BASE117_ALPHABET, base117Decode } from '../../src/platform/base117.ts';

const DIST = new URL('../../dist/', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string; bin: Record<string, string> };
/** The guard on the file's size, in bytes: nothing may grow it unnoticed (docs/architecture.md#the-one-file). */
const MAX_BUNDLE_BYTES = 800 * 1024;
/** A packed text (src/platform/base117.ts): a padding digit, then base-117 characters. */
const PACKED = new RegExp(`^[0-5][${BASE117_ALPHABET.replace(/[-\\\]^[]/g, '\\$&')}]+$`);

/** Every module specifier the file loads: `import`, `export ... from`, `import()`, and calls of `require`-named functions. */
function specifiers(path: string, text = readFileSync(path, 'utf8')): { static: string[]; dynamic: string[]; nonLiteral: number; packed: string[] } {
  const sf = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.JS);
  const out = { static: [] as string[], dynamic: [] as string[], nonLiteral: 0, packed: [] as string[] };
  const visit = (node: TS.Node): void => {
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
  // The packed texts are the comments of functions (build.mjs mainFile), which the parser skips.
  for (const m of text.matchAll(/function\(\)\{\/\*!([^*]{1000,})\*\/\}/g)) if (PACKED.test(m[1]!)) out.packed.push(m[1]!);
  return out;
}

const builtins = new Set(builtinModules);

const s = suite('dist: the one bundle, command line and JS API');

/** How dist/emulator.js opens the comment that carries its main code (build.mjs mainFile). */
const MAIN_OPENING = 'const __wfSource = __wfCommentText(function(){/*!';

/**
 * dist/emulator.js as the ES module V8 compiles, and the main script it carries as the comment of the function
 * read into `__wfSource` (build.mjs mainFile), as the module hands it to node:vm.
 */
function fileParts(text: string): { module: string; main: string } {
  const start = text.indexOf(MAIN_OPENING);
  const end = text.indexOf('*/});\n', start);
  assert.ok(start > 0 && end > start, 'dist/emulator.js carries its main code as the comment read into __wfSource');
  const main = text.slice(start + MAIN_OPENING.length, end);
  return { module: text.slice(0, start + MAIN_OPENING.length) + text.slice(end), main };
}

s('dist/emulator.js loads nothing but node: built-ins (every import, export-from, import() and require call)', () => {
  const { module, main } = fileParts(readFileSync(DIST + 'emulator.js', 'utf8'));
  const shell = specifiers(DIST + 'emulator.js', module);
  assert.ok(shell.dynamic.includes('node:fs'), 'the parser found the requires');
  // The module around the main code: the code cache's loader and the packed groups' texts (each the comment of a
  // function, made a string only when its group is loaded), little else.
  const packedBytes = shell.packed.reduce((sum, text) => sum + text.length, 0);
  assert.ok(main.startsWith('(async function(require,') && main.length > (module.length - packedBytes) * 10, 'the comment is the main code, the module around it short');
  assert.match(module, /const __wfPacked = \{\n"[\w-]+": \(\) => __wfCommentText\(function\(\)\{\/\*![0-5]/, 'the packed texts are comments of functions of the module');
  const found = specifiers(DIST + 'emulator.js (main code)', main);
  assert.equal(found.packed, [], 'the main code carries no packed text itself');
  const all = [...shell.static, ...shell.dynamic, ...found.static, ...found.dynamic];
  const bad = all.filter((m) => !m.startsWith('node:') || !builtins.has(m.slice('node:'.length)));
  assert.equal([...new Set(bad)], [], 'non-built-in imports in dist/emulator.js');
  assert.is(shell.nonLiteral + found.nonLiteral, 0, 'no import() of a computed specifier');
  // The packed libraries and module groups (src/platform/libraries.ts) are scripts too; they load only built-ins.
  const modules = shell.packed.map((text) => brotliDecompressSync(base117Decode(text)).toString('utf8'));
  assert.ok(modules.length >= 2, `packed libraries in the bundle: ${modules.length}`);
  assert.ok(modules.some((code) => code.includes('createConnection')), 'the language server library is in the bundle, compressed');
  for (const [i, code] of modules.entries()) {
    const inner = specifiers(`packed-${i}.js`, code);
    const innerBad = [...inner.static, ...inner.dynamic].filter((m) => !(m.startsWith('node:') ? builtins.has(m.slice(5)) : builtins.has(m)));
    assert.equal([...new Set(innerBad)], [], `non-built-in imports in packed module ${i}: ${code.slice(0, 200)}`);
    assert.is(inner.nonLiteral, 0);
  }
});

s('dist/emulator.js starts with a node shebang and is both the package bin and its import (one file)', () => {
  const head = readFileSync(DIST + 'emulator.js', 'utf8').slice(0, 64);
  assert.ok(head.startsWith('#!/usr/bin/env node\n'), head);
  const p = pkg as unknown as { bin: Record<string, string>; exports: { '.': { default: string; types: string } }; files: string[] };
  assert.is(p.bin['workflows-emulator'], 'dist/emulator.js');
  assert.is(p.exports['.'].default, './dist/emulator.js');
  assert.is(p.exports['.'].types, './dist/index.d.ts');
  assert.ok(!p.files.includes('dist/index.js'), 'no second bundle is packed');
  assert.not.ok(existsSync(DIST + 'index.js'), 'the build leaves no dist/index.js');
});

s('imported by another script, dist/emulator.js exports the JS API and starts no command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-import-'));
  try {
    // A script that only imports the bundle: had the import started the server, the process would not exit.
    const script = join(dir, 'import.mjs');
    writeFileSync(script, `const api = await import(${JSON.stringify(pathToFileURL(DIST + 'emulator.js').href)});\nconsole.log(Object.keys(api).sort().join(','));\n`);
    const r = spawnSync(process.execPath, [script, '--version'], { encoding: 'utf8', timeout: 20_000 });
    assert.is(r.status, 0, r.stderr);
    assert.is(r.stdout, 'runWorkflow,startEmulator\n', 'the API alone, and no --version line of the command line');
    assert.is(r.stderr, '');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('run through a symlink (as npm\'s node_modules/.bin does), dist/emulator.js is the command line', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-bin-'));
  try {
    const link = join(dir, 'workflows-emulator');
    symlinkSync(DIST + 'emulator.js', link);
    const r = spawnSync(process.execPath, [link, '--version'], { encoding: 'utf8', timeout: 20_000 });
    assert.is(r.status, 0, r.stderr);
    assert.is(r.stdout, pkg.version + '\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('--help prints usage and --version prints package.json\'s version', () => {
  const help = spawnSync(process.execPath, [DIST + 'emulator.js', '--help'], { encoding: 'utf8' });
  assert.is(help.status, 0);
  assert.match(help.stdout, /^workflows-emulator \d+\.\d+\.\d+/);
  assert.match(help.stdout, /Usage: workflows-emulator \[options\]/);
  const version = spawnSync(process.execPath, [DIST + 'emulator.js', '--version'], { encoding: 'utf8' });
  assert.is(version.status, 0);
  assert.is(version.stdout, pkg.version + '\n');
});

// The bundle requires built-ins with the runtime's process.getBuiltinModule, and with createRequire where the
// runtime has none (Node 20 before 20.16): here the same file with it taken away before the file runs.
s('without process.getBuiltinModule (Node before 20.16), dist/emulator.js runs a workflow with createRequire', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wf-no-builtin-module-'));
  try {
    writeFileSync(join(dir, 'old-node.cjs'), 'delete process.getBuiltinModule;\n');
    writeFileSync(join(dir, 'wf.yaml'), 'main:\n  steps:\n    - done:\n        return: ${text.to_upper("ok") + string(len([1, 2]))}\n');
    const run = spawnSync(process.execPath, ['--require', join(dir, 'old-node.cjs'), DIST + 'emulator.js', 'run', join(dir, 'wf.yaml')], { encoding: 'utf8' });
    assert.is(run.stderr, '');
    assert.is(run.stdout, '"OK2"\n');
    assert.is(run.status, 0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('a copy of dist/emulator.js rewritten by a tool that drops comments says so, instead of failing obscurely', () => {
  // esbuild, as a bundler that re-bundles a dependency without its legal comments would.
  const dir = mkdtempSync(join(tmpdir(), 'wfemu-stripped-'));
  try {
    const text = readFileSync(DIST + 'emulator.js', 'utf8');
    const stripped = transformSync(text, { loader: 'js', format: 'esm', legalComments: 'none' }).code;
    assert.ok(stripped.length < text.length / 10, `the comments are gone: ${stripped.length} of ${text.length} characters left`);
    writeFileSync(join(dir, 'emulator.mjs'), stripped);
    const r = spawnSync(process.execPath, [join(dir, 'emulator.mjs'), '--version'], { encoding: 'utf8' });
    assert.is.not(r.status, 0);
    assert.match(r.stderr, /this copy of emulator\.js has lost the comments that hold its code .*: use the file as published/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s('dist/emulator.js is at most 800 KB (the size guard: docs/architecture.md#the-one-file)', () => {
  const bytes = statSync(DIST + 'emulator.js').size;
  assert.ok(bytes <= MAX_BUNDLE_BYTES, `dist/emulator.js is ${bytes} bytes`);
});

s('dist/index.d.ts stands alone (no imports) and declares startEmulator', () => {
  const dts = readFileSync(DIST + 'index.d.ts', 'utf8');
  const sf = ts.createSourceFile('index.d.ts', dts, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const imports = sf.statements.filter((st) => ts.isImportDeclaration(st) || (ts.isExportDeclaration(st) && st.moduleSpecifier));
  assert.is(imports.length, 0, dts.slice(0, 300));
  assert.match(dts, /export declare function startEmulator\(options\?: EmulatorOptions\): Promise<Emulator>;/);
});

s.run();
