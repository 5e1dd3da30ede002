// How build.mjs turns esbuild's ES module output into the scripts dist/emulator.js compiles with node:vm and V8's
// code cache (docs/architecture.md#the-code-cache): the main code and each packed group become one function
// expression (asScriptFunction), after scriptReady has made the output fit for it, with one parse of the code by
// TypeScript's parser (TypeScript 5.9's compiler API, the typescript-api devDependency):
//
// - Built-ins. The bundle leaves every import of a Node built-in external, and scriptReady turns each into a
//   `require` at the top of the code (`import { join as a } from "node:path"` into
//   `const { join: a } = require("node:path")`), which the script's `require` parameter serves. Bundled instead, as
//   CommonJS modules of `module.exports = require(...)`, every import of one went through esbuild's `__toESM`,
//   which copies each property of the module into an object of getters: 24 imports of node:fs, node:path, ... made
//   about 1,400 getter closures at every start (2.6 ms of CPU and 650 KB of heap, measured apart). Imports are
//   evaluated before any code of the module runs, so the requires go first: the same order.
// - Names. esbuild's keepNames names a function with its `__name` helper, `defineProperty(fn, 'name', ...)`,
//   wherever the function is made, a closure made per execution too; the new property turns the closure's
//   properties into a dictionary of about 256 bytes (a heap snapshot of 2,000 executions held in sys.sleep counted
//   15 such closures on each: 3.8 KB). Where the function is the value of an object literal's property or a class
//   field of the same name (`{ now: __name(() => ..., 'now') }`), the language itself names it so (ECMAScript's
//   NamedEvaluation of an anonymous function), so the call is dropped there and the function written alone: the
//   same name, no property.
import { createRequire } from 'node:module';

/**
 * TypeScript 5.9's compiler API, loaded on first use with `require`: an `import` of its one 9 MB CommonJS file
 * makes Node scan it all for named exports first, 0.7 s more CPU.
 */
let typescriptApi;
export const typescript = () => (typescriptApi ??= createRequire(import.meta.url)('typescript-api'));

/**
 * `code` (esbuild's output, ES module or not) with its imports of Node built-ins turned into `require` calls at
 * `preludeAt` (the end of the banner, which defines `require`, or 0) and its kept names given by the language
 * where it can (module header). Throws for an import of anything but a built-in: the bundle imports nothing else.
 */
export function scriptReady(code, preludeAt = 0) {
  const helper = /var (\w+)=\((\w),(\w)\)=>\w+\(\2,"name",\{value:\3,configurable:!0\}\)/.exec(code);
  if (!helper && !/\bimport\s*[\w{*"']/.test(code.slice(preludeAt))) return code;
  const ts = typescript();
  const sf = ts.createSourceFile('bundle.js', code, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const prelude = [];
  const edits = []; // [start, end, replacement(out, shift)]
  for (const statement of sf.statements) {
    if (!ts.isImportDeclaration(statement) || statement.getStart(sf) < preludeAt) continue;
    prelude.push(requireOf(ts, statement));
    edits.push([statement.getStart(sf), statement.end, () => '']);
  }
  if (helper) edits.push(...namingEdits(ts, sf, helper[1]));
  // From the last to the first, so an edit inside a later-starting one is already applied: positions inside the
  // current span have moved by the length changes of the edits applied within it.
  let out = code;
  const applied = [];
  for (const [start, end, replacement] of edits.sort((x, y) => y[0] - x[0])) {
    const shift = applied.filter(([s]) => s >= start && s < end).reduce((sum, [, d]) => sum + d, 0);
    const text = replacement(out, shift);
    out = out.slice(0, start) + text + out.slice(end + shift);
    applied.push([start, text.length - (end - start)]);
  }
  return prelude.length ? `${out.slice(0, preludeAt)}${prelude.join('')}\n${out.slice(preludeAt)}` : out;
}

/**
 * The `require` statement of an import of a built-in (`import d, { a as b } from "node:x"`: `const d=require("node:x"),{a:b}=d;`).
 * An import of `createRequire` alone from node:module gives the script's own `require` instead
 * (`const c=()=>require;`): everything the bundle requires is a built-in, which that `require` loads, and so a
 * start loads no node:module (src/platform/builtins.ts; build.mjs, the banner).
 */
function requireOf(ts, statement) {
  const from = statement.moduleSpecifier.text;
  if (!from.startsWith('node:')) throw new Error(`scripts/script-code.mjs: the bundle imports ${from}, not a Node built-in`);
  const call = `require(${JSON.stringify(from)})`;
  const clause = statement.importClause;
  if (!clause) return `${call};`;
  const names = clause.namedBindings;
  const only = names && ts.isNamedImports(names) && !clause.name && names.elements.length === 1 ? names.elements[0] : undefined;
  if (from === 'node:module' && only && (only.propertyName ?? only.name).text === 'createRequire') return `const ${only.name.text}=()=>require;`;
  const pattern =
    names && ts.isNamedImports(names)
      ? `{${names.elements.map((e) => (e.propertyName ? `${e.propertyName.text}:${e.name.text}` : e.name.text)).join(',')}}`
      : undefined;
  const whole = clause.name?.text ?? (names && ts.isNamespaceImport(names) ? names.name.text : undefined);
  if (whole && pattern) return `const ${whole}=${call},${pattern}=${whole};`;
  return `const ${whole ?? pattern}=${call};`;
}

/** The edits that drop esbuild's `__name` call where the language names the function (module header). */
function namingEdits(ts, sf, helperName) {
  const edits = [];
  const keyText = (name) => (ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined);
  const visit = (node) => {
    const value = ts.isPropertyAssignment(node) || ts.isPropertyDeclaration(node) ? node.initializer : undefined;
    if (
      value &&
      ts.isCallExpression(value) &&
      ts.isIdentifier(value.expression) &&
      value.expression.text === helperName &&
      value.arguments.length === 2 &&
      (ts.isArrowFunction(value.arguments[0]) || (ts.isFunctionExpression(value.arguments[0]) && !value.arguments[0].name)) &&
      ts.isStringLiteral(value.arguments[1]) &&
      value.arguments[1].text === keyText(node.name)
    ) {
      const fnStart = value.arguments[0].getStart(sf);
      const fnEnd = value.arguments[0].end;
      edits.push([value.getStart(sf), value.end, (out, shift) => out.slice(fnStart, fnEnd + shift)]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return edits;
}

/**
 * esbuild's ES module output, made ready by {@link scriptReady}, as one script that evaluates to an async
 * function, `(async function (require, __wfImportMetaUrl, __wfImportMetaMain, ...) {...})`, returning the
 * module's exports as an object: so the bundle can compile it with node:vm, which keeps V8's code cache of it
 * (src/platform/code-cache.ts), as Node 20 cannot for an ES module. Throws when the module is not of that shape
 * (an import statement anywhere, an `import.meta` or `import()` left, no export clause at its end), and when it
 * holds a carriage return, U+2028 or U+2029 (the main code is carried as a string literal whose lines are the
 * file's: build.mjs mainFile). Returns the script and the exported names.
 */
export function asScriptFunction(code, banner = '', params = ['require', '__wfImportMetaUrl', '__wfImportMetaMain']) {
  if (!code.startsWith(banner)) throw new Error('scripts/script-code.mjs asScriptFunction: the module does not start with its banner');
  let body = code.slice(banner.length);
  const clause = /\bexport\s*\{([^}]*)\};?\s*$/.exec(body);
  if (!clause) throw new Error('scripts/script-code.mjs asScriptFunction: no export clause at the end of the module');
  const exported = clause[1]
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean)
    .map((x) => {
      const [local, name = local] = x.split(/\s+as\s+/);
      return [name, local];
    });
  body = body.slice(0, clause.index);
  const left = [
    // At a statement's start: a line's, or after `;` or `}` (minified code puts statements on one line).
    ['an import statement', /(^|[;}])\s*import\s*([\w$]+\s*(,|from\b)|[{*'"])/m],
    ['import.meta', /\bimport\.meta\b/],
    ['a dynamic import()', /\bimport\(/],
    ['a carriage return, U+2028 or U+2029', /[\r\u2028\u2029]/],
  ].find(([, re]) => re.test(body));
  if (left) {
    const at = body.search(left[1]);
    throw new Error(`scripts/script-code.mjs asScriptFunction: the module still has ${left[0]}: ${body.slice(Math.max(0, at - 80), at + 80)}`);
  }
  const returned = exported.map(([name, local]) => `${JSON.stringify(name)}:${local}`).join(',');
  return {
    script: `(async function(${params.join(',')}){'use strict';${body.startsWith('\n') ? '' : '\n'}${body}\nreturn{${returned}};\n})`,
    names: exported.map(([name]) => name),
  };
}

/**
 * `script` made fit to be carried inside a block comment (build.mjs mainFile), each change leaving every value the
 * same: in each string, template or regular expression literal, every star followed by a slash (which would end
 * the comment) becomes a star, a backslash and the slash (an identity escape; in a regular expression, a matched
 * slash); and a template's line breaks become `\n` escapes, because Bun indents every line of a legal comment it
 * prints back (the only line breaks a literal can hold). Throws if an end of comment is left elsewhere (a
 * multiplication by a regular expression, a comment) or a template cannot be written so (a tagged one, whose tag
 * reads the raw text; a line continuation), naming where: that code has to be written otherwise.
 */
export function commentSafe(script) {
  if (!script.includes('*/') && !/`[^`]*\n/.test(script)) return script;
  const ts = typescript();
  const sf = ts.createSourceFile('main.js', script, ts.ScriptTarget.Latest, true, ts.ScriptKind.JS);
  const K = ts.SyntaxKind;
  const templates = new Set([K.NoSubstitutionTemplateLiteral, K.TemplateHead, K.TemplateMiddle, K.TemplateTail]);
  const literals = new Set([...templates, K.StringLiteral, K.RegularExpressionLiteral]);
  const refuse = (what, at) => {
    throw new Error(`scripts/script-code.mjs commentSafe: ${what}: ${script.slice(Math.max(0, at - 80), at + 40)}`);
  };
  const tagged = (node) => {
    let t = node;
    while (t.parent && (ts.isTemplateSpan(t.parent) || ts.isTemplateExpression(t.parent))) t = t.parent;
    return t.parent !== undefined && ts.isTaggedTemplateExpression(t.parent);
  };
  /** The literal's text as the comment carries it. */
  const written = (node, text) => {
    let out = text.replaceAll('*/', '*\\/');
    if (templates.has(node.kind) && out.includes('\n')) {
      out = out.replace(/(\\*)\n/g, (_, slashes) => (slashes.length % 2 ? refuse('a line continuation in a template', node.getStart(sf)) : `${slashes}\\n`));
    }
    return out;
  };
  const edits = [];
  const visit = (node) => {
    if (!literals.has(node.kind)) return ts.forEachChild(node, visit);
    const text = node.getText(sf);
    const start = node.getStart(sf);
    if (!text.includes('*/') && !(templates.has(node.kind) && text.includes('\n'))) return;
    if (templates.has(node.kind) && tagged(node)) refuse('a tagged template with an end of comment or a line break', start);
    edits.push([start, node.end, written(node, text)]);
  };
  visit(sf);
  let out = '';
  let at = 0;
  for (const [start, end, text] of edits.sort((x, y) => x[0] - y[0])) {
    out += script.slice(at, start) + text;
    at = end;
  }
  out += script.slice(at);
  const left = out.indexOf('*/');
  if (left >= 0) throw new Error(`scripts/script-code.mjs commentSafe: an end of comment outside a literal: ${out.slice(Math.max(0, left - 80), left + 40)}`);
  return out;
}
