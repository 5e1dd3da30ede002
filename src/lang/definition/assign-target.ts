/**
 * Assignment targets of `assign` steps (docs/language.md#step-types): `a`, `a.b`, `a[i]`, `a['k']`, `a.b[0].c`.
 */
import type { CompiledExpression, Expr } from '../expr/ast.ts';
import { compileExpression } from '../expr/compile.ts';
import { isNamePart, isNameStart } from '../expr/lexer.ts';
import { ExpressionSyntaxError, parseExpression } from '../expr/parser.ts';
import type { AssignTarget, Template } from './ast.ts';
import { skipJsSpace, type SEntry, type SScalar } from './load.ts';
import { compileExpressionAt, expressionText, failAt, type TemplateContext } from './template.ts';

/**
 * Parses an assignment target (`a`, `a.b`, `a[i]`, `a['k']`, `a.b[0].c`): the whole target must parse as an
 * expression, and be a variable followed by `.name` and `[...]` segments. A bracket holding a string literal
 * is a key segment; any other bracket is compiled as an index expression evaluated at run time.
 */
export function compileAssignTarget(e: SEntry, cx: TemplateContext): AssignTarget {
  const text = e.key;
  // The common case, a plain variable name, needs no parsing (the word operators do not parse: see below).
  if (isPlainName(text) && !OPERATOR_WORDS.has(text)) return { root: text, path: [], text };
  const keyNode: SScalar = e.keyNode.value === text ? e.keyNode : { ...e.keyNode, value: text };
  if (expressionText(text.trim()) !== undefined) bad(cx, keyNode, "a target is a variable name or path, not an expression '${...}'");
  try {
    parseExpression(text);
  } catch (err) {
    if (err instanceof ExpressionSyntaxError) return bad(cx, keyNode, err.message);
    throw err;
  }
  const shape = 'expected a variable name, optionally followed by .key, [index] or ["key"]';
  let i = skipJsSpace(text, 0);
  let end = nameEnd(text, i);
  if (end === i) return bad(cx, keyNode, shape);
  const root = text.slice(i, end);
  i = skipJsSpace(text, end);
  const path: AssignTarget['path'][number][] = [];
  while (i < text.length) {
    if (text[i] === '.') {
      i = skipJsSpace(text, i + 1);
      end = nameEnd(text, i);
      if (end === i) return bad(cx, keyNode, shape);
      path.push({ kind: 'key', name: text.slice(i, end) });
      i = skipJsSpace(text, end);
    } else if (text[i] === '[') {
      const close = matchingBracket(text, i);
      if (close === undefined) return bad(cx, keyNode, 'unbalanced brackets');
      const inner = text.slice(i + 1, close);
      const ast = parseExpression(inner);
      if (ast.kind === 'literal' && typeof ast.value === 'string') path.push({ kind: 'key', name: ast.value });
      else path.push({ kind: 'index', expr: compileExpressionAt(inner, keyNode, i + 1, cx) });
      i = skipJsSpace(text, close + 1);
    } else return bad(cx, keyNode, shape);
  }
  return { root, path, text: text.trim() };
}

/** Names that do not parse as a variable: the word operators (docs/language.md#expressions; lexer.ts). */
const OPERATOR_WORDS: ReadonlySet<string> = new Set(['in', 'and', 'AND', 'or', 'OR', 'not', 'NOT']);

/** @throws DefinitionError (BAD_EXPRESSION) for an invalid assignment target, saying `why`. */
function bad(cx: TemplateContext, keyNode: SScalar, why: string): never {
  return failAt(cx, keyNode.offset, `invalid assignment target '${keyNode.value as string}': ${why}`, 'BAD_EXPRESSION');
}

/**
 * Whether `text` is one name, `[A-Za-z_][A-Za-z0-9_]*`: a variable, parameter, loop variable or result name
 * (docs/language.md#expressions). @internal
 */
export function isPlainName(text: string): boolean {
  return text.length > 0 && nameEnd(text, 0) === text.length;
}

/** The end of the name (`[A-Za-z_][A-Za-z0-9_]*`) starting at `i`; `i` when none starts there. */
function nameEnd(text: string, i: number): number {
  if (i >= text.length || !isNameStart(text.charCodeAt(i))) return i;
  let j = i + 1;
  while (j < text.length && isNamePart(text.charCodeAt(j))) j++;
  return j;
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
    element = compileExpression(source.slice(item.pos, end), cx.expressionOptions);
  } catch {
    return undefined;
  }
  return element.isAsync ? undefined : element;
}
