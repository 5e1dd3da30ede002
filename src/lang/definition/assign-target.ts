/**
 * Assignment targets of `assign` steps (spec "Assign"): `a`, `a.b`, `a[i]`, `a['k']`, `a.b[0].c`.
 */
import type { CompiledExpression, Expr } from '../expr/ast.ts';
import { compileExpression } from '../expr/compile.ts';
import { ExpressionSyntaxError, parseExpression } from '../expr/parser.ts';
import type { AssignTarget, Template } from './ast.ts';
import type { SEntry, SScalar } from './load.ts';
import { compileExpressionAt, expressionText, failAt, isAsyncCall, type TemplateContext } from './template.ts';

/**
 * Parses an assignment target (`a`, `a.b`, `a[i]`, `a['k']`, `a.b[0].c`): the whole target must parse as an
 * expression, and be a variable followed by `.name` and `[...]` segments. A bracket holding a string literal
 * is a key segment; any other bracket is compiled as an index expression evaluated at run time.
 */
export function compileAssignTarget(e: SEntry, cx: TemplateContext): AssignTarget {
  const text = e.key;
  const keyNode: SScalar = { ...e.keyNode, value: text };
  const bad = (why: string): never => failAt(cx, keyNode.offset, `invalid assignment target '${text}': ${why}`, 'BAD_EXPRESSION');
  if (expressionText(text.trim()) !== undefined) bad("a target is a variable name or path, not an expression '${...}'");
  try {
    parseExpression(text);
  } catch (err) {
    if (err instanceof ExpressionSyntaxError) return bad(err.message);
    throw err;
  }
  const shape = 'expected a variable name, optionally followed by .key, [index] or ["key"]';
  const ident = /[A-Za-z_][A-Za-z0-9_]*/y;
  const ws = (i: number) => {
    while (i < text.length && /\s/.test(text[i]!)) i++;
    return i;
  };
  let i = ws(0);
  ident.lastIndex = i;
  const m = ident.exec(text);
  if (!m) return bad(shape);
  const root = m[0];
  i = ws(i + root.length);
  const path: AssignTarget['path'][number][] = [];
  while (i < text.length) {
    if (text[i] === '.') {
      i = ws(i + 1);
      ident.lastIndex = i;
      const k = ident.exec(text);
      if (!k) return bad(shape);
      path.push({ kind: 'key', name: k[0] });
      i = ws(i + k[0].length);
    } else if (text[i] === '[') {
      const close = matchingBracket(text, i);
      if (close === undefined) return bad('unbalanced brackets');
      const inner = text.slice(i + 1, close);
      const ast = parseExpression(inner);
      if (ast.kind === 'literal' && typeof ast.value === 'string') path.push({ kind: 'key', name: ast.value });
      else path.push({ kind: 'index', expr: compileExpressionAt(inner, keyNode, i + 1, cx) });
      i = ws(close + 1);
    } else return bad(shape);
  }
  return { root, path, text: text.trim() };
}

/** The offset of the `]` matching the `[` at `open`, skipping brackets inside string literals. */
function matchingBracket(text: string, open: number): number | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '(' || c === '{') depth++;
    else if (c === ']' || c === ')' || c === '}') {
      depth--;
      if (depth === 0) return c === ']' ? i : undefined;
    }
  }
  return undefined;
}

/**
 * The element of Google's accumulator idiom `l: ${list.concat(l, x)}`, compiled on its own (see
 * `Assignment.append`): when `target` is a plain variable and `value` is exactly `list.concat` of that
 * variable and an element expression that does not wait. Undefined for any other assignment.
 */
export function appendElement(target: AssignTarget, value: Template, cx: TemplateContext): CompiledExpression | undefined {
  if (target.path.length > 0 || value.kind !== 'expr' || cx.workflows.has('list.concat')) return undefined;
  const ast = value.expr.ast;
  if (ast.kind !== 'call' || ast.callee !== 'list.concat' || ast.args.length !== 2) return undefined;
  const [list, item] = ast.args as [Expr, Expr];
  if (list.kind !== 'var' || list.name !== target.root) return undefined;
  // The element's text runs from its first character to the call's closing parenthesis, the last one.
  const source = value.expr.source;
  const end = source.lastIndexOf(')');
  if (end <= item.pos) return undefined;
  let element: CompiledExpression;
  try {
    element = compileExpression(source.slice(item.pos, end), { isAsyncCall: (name: string) => isAsyncCall(name, cx) });
  } catch {
    return undefined;
  }
  return element.isAsync ? undefined : element;
}
