/**
 * Values as written in a workflow, with their expressions compiled once at deploy time (docs/language.md#expressions:
 * "Expressions are written `${...}`, allowed wherever a value is expected").
 *
 * A string value that is exactly one `${...}` is an expression; any other string is literal, even when it
 * holds `${` in the middle (the real service does not interpolate). Each expression is checked here for what
 * the deploy step of the real service refuses: an empty `${}`, a nested `${${x}}`, more than 400 characters, a
 * syntax error, and a call of a function that is neither in the standard library nor a subworkflow nor a
 * non-emulated namespace of the real service (`googleapis.*` connectors, `gke.*`, `experimental.*`). Errors point at the
 * `line:col` of the offending character as closely as the scalar allows.
 */
import type { CompiledExpression, Expr } from '../expr/ast.ts';
import { compileExpression, MAX_EXPRESSION_LENGTH, type CompileOptions } from '../expr/compile.ts';
import type { Compat } from '../compat.ts';
import { ExpressionSyntaxError } from '../expr/parser.ts';
import type { Value, WMap } from '../value.ts';
import type { CallTarget, Template } from './ast.ts';
import { DefinitionError, type DefinitionErrorCode } from './errors.ts';
import { didYouMean } from './suggest.ts';
import type { DefinitionLibrary } from './library.ts';
import { skipJsSpace, type LoadedSource, type SNode, type SScalar } from './load.ts';

/**
 * Longest expression text between `${` and `}`, in characters (docs/api-resources.md#limits: expression length 400
 * characters; counted as the expression compiler counts it).
 */
const MAX_EXPRESSION_CHARS = MAX_EXPRESSION_LENGTH;

/**
 * Namespaces of the real service that the emulator does not emulate (docs/differences.md#the-service): calls into
 * them deploy, and running one raises an error saying so.
 */
const UNSUPPORTED_PREFIXES: readonly string[] = ['googleapis.', 'experimental.', 'gke.'];

/** Names an expression may call that are forms of the language itself rather than stdlib rows. */
const SPECIAL_FORMS: ReadonlySet<string> = new Set(['if', 'not']);

/** What template compilation needs to know about its surroundings. @internal */
export interface TemplateContext {
  readonly load: LoadedSource;
  /** Names of the definition's workflows (`main` and subworkflows). */
  readonly workflows: ReadonlySet<string>;
  /** The functions the definition may call. */
  readonly library: DefinitionLibrary;
  /** The step being compiled, for messages. */
  step: string | undefined;
  /**
   * The expressions of this definition compiled so far, by text (an expression written twice is parsed and
   * checked once: what compiling it yields depends only on its text and this context).
   */
  readonly compiled: Map<string, CompiledExpression>;
  /** What the expression compiler asks about called names, answered for this context ({@link isAsyncCall}). */
  readonly expressionOptions: CompileOptions;
  /** `google`: Google's reading where it and the specification differ (docs/compat.md); absent: the spec's. */
  readonly compat?: Compat;
}

/**
 * The per-definition parts of a {@link TemplateContext}: the cache of compiled expressions and the options
 * of the expression compiler, bound to `cx`.
 */
export function expressionState(cx: {
  readonly workflows: ReadonlySet<string>;
  readonly library: DefinitionLibrary;
  readonly compat?: Compat;
}): {
  compiled: Map<string, CompiledExpression>;
  expressionOptions: CompileOptions;
} {
  return {
    compiled: new Map(),
    expressionOptions: { isAsyncCall: (name: string) => isAsyncCall(name, cx), ...(cx.compat === 'google' ? { compat: cx.compat } : {}) },
  };
}

/**
 * How a called name resolves: a subworkflow of the definition, a stdlib function, a non-emulated namespace,
 * or `undefined` for an unknown name. Subworkflows shadow stdlib functions of the same name.
 */
export function resolveCall(name: string, cx: TemplateContext): CallTarget | undefined {
  if (cx.workflows.has(name)) return { kind: 'subworkflow', name };
  if (cx.library.hasFunction(name)) return { kind: 'stdlib', name };
  if (isUnsupported(name)) return { kind: 'unsupported', name };
  return undefined;
}

/** Whether a name is in a namespace of the real service that the emulator does not emulate. */
function isUnsupported(name: string): boolean {
  for (const p of UNSUPPORTED_PREFIXES) if (name.startsWith(p)) return true;
  return false;
}

/** Every name a call may use: the definition's workflows and the standard library's functions. @internal */
export function* callNames(cx: TemplateContext): Iterable<string> {
  yield* cx.workflows;
  yield* cx.library.functionNames();
}

/** Throws a DefinitionError at a source offset, naming the current step. @internal */
export function failAt(cx: TemplateContext, offset: number, reason: string, code?: DefinitionErrorCode): never {
  throw new DefinitionError(reason, { pos: cx.load.posAt(offset), ...(cx.step !== undefined ? { step: cx.step } : {}), ...(code ? { code } : {}) });
}

/**
 * The text between `${` and `}` when the string is one whole expression, else undefined (literal text).
 * `${` must open the string and `}` close it; text around it makes the whole value a literal string.
 */
export function expressionText(s: string): string | undefined {
  if (s.length < 3 || !s.startsWith('${') || s.charCodeAt(s.length - 1) !== 125 /* } */) return undefined;
  return s.slice(2, -1);
}

/**
 * Compiles a source value into a {@link Template}: constants fold (a list or map without expressions is one
 * constant), `${...}` strings become compiled expressions, and map keys written as `${...}` become computed
 * keys (Google's "dynamic keys", `keyExprs`).
 *
 * @throws DefinitionError for a bad expression (see the module header).
 */
export function compileTemplate(node: SNode, cx: TemplateContext): Template {
  switch (node.kind) {
    case 'scalar': {
      if (typeof node.value === 'string') {
        const text = expressionText(node.value);
        if (text !== undefined) return { kind: 'expr', expr: compileScalarExpr(node, cx), pos: cx.load.posAt(node.offset) };
      }
      return { kind: 'const', value: node.value };
    }
    case 'seq': {
      const items = node.items.map((i) => compileTemplate(i, cx));
      if (items.every((t) => t.kind === 'const')) {
        return { kind: 'const', value: items.map((t) => (t as { value: Value }).value) };
      }
      return { kind: 'list', items, isAsync: items.some(isAsyncTemplate) };
    }
    case 'map': {
      const entries: (readonly [string, Template])[] = [];
      let keyExprs: (CompiledExpression | null)[] | undefined;
      for (let i = 0; i < node.entries.length; i++) {
        const e = node.entries[i]!;
        if (expressionText(e.key) !== undefined) {
          keyExprs ??= new Array<CompiledExpression | null>(node.entries.length).fill(null);
          keyExprs[i] = compileScalarExpr({ ...e.keyNode, value: e.key }, cx);
        }
        entries.push([e.key, compileTemplate(e.value, cx)]);
      }
      if (!keyExprs && entries.every(([, t]) => t.kind === 'const')) {
        const m: WMap = new Map();
        for (const [k, t] of entries) m.set(k, (t as { value: Value }).value);
        return { kind: 'const', value: m };
      }
      const isAsync = entries.some(([, t]) => isAsyncTemplate(t)) || (keyExprs?.some((k) => k?.isAsync) ?? false);
      return keyExprs ? { kind: 'map', entries, isAsync, keyExprs } : { kind: 'map', entries, isAsync };
    }
  }
}

/** True when evaluating the template may wait (it calls a subworkflow or a blocking function). */
function isAsyncTemplate(t: Template): boolean {
  switch (t.kind) {
    case 'const':
      return false;
    case 'expr':
      return t.expr.isAsync;
    case 'list':
    case 'map':
      return t.isAsync;
  }
}

/**
 * Compiles a scalar that holds exactly one `${...}` expression, checking it (see the module header).
 * @throws DefinitionError naming the step and the `line:col` of the problem.
 */
function compileScalarExpr(node: SScalar, cx: TemplateContext): CompiledExpression {
  const s = node.value as string;
  const text = expressionText(s);
  if (text === undefined) return failAt(cx, node.offset, `expected an expression '\${...}', got ${JSON.stringify(s)}`);
  return compileExpressionAt(text, node, 2, cx);
}

/**
 * Compiles expression text found at `valueIndex` (in UTF-16 code units) of a scalar's value, with every
 * deploy-time check. Used for `${...}` values and for the bracketed parts of assignment targets.
 *
 * @throws DefinitionError for an empty or nested expression, one over 400 characters, a syntax error, or a call
 *   of an unknown function or subworkflow.
 */
export function compileExpressionAt(
  text: string,
  node: SScalar,
  valueIndex: number,
  cx: TemplateContext,
): CompiledExpression {
  // Compiled before in this definition: the same text passed the same checks (see TemplateContext.compiled).
  const known = cx.compiled.get(text);
  if (known !== undefined) return known;
  const first = skipJsSpace(text, 0);
  if (first === text.length) return failAt(cx, sourceOffset(cx.load, node, valueIndex - 2), "empty expression '${}'", 'BAD_EXPRESSION');
  if (text.startsWith('${', first)) {
    return failAt(cx, sourceOffset(cx.load, node, valueIndex + text.indexOf('${')), "nested expression '${${...}}' is not allowed", 'BAD_EXPRESSION');
  }
  if (text.length > MAX_EXPRESSION_CHARS) {
    return failAt(cx, sourceOffset(cx.load, node, valueIndex), `expression is ${text.length} characters long; the limit is ${MAX_EXPRESSION_CHARS}`, 'LIMIT_EXCEEDED');
  }
  let expr: CompiledExpression;
  try {
    expr = compileExpression(text, cx.expressionOptions);
  } catch (e) {
    if (e instanceof ExpressionSyntaxError) {
      const nested = text.indexOf('${');
      if (nested >= 0) return failAt(cx, sourceOffset(cx.load, node, valueIndex + nested), "nested expression '${${...}}' is not allowed", 'BAD_EXPRESSION');
      return failAt(cx, sourceOffset(cx.load, node, valueIndex + e.offset), `invalid expression '\${${text}}': ${e.message}`, 'BAD_EXPRESSION');
    }
    throw e;
  }
  checkCalls(expr.ast, node, valueIndex, cx);
  cx.compiled.set(text, expr);
  return expr;
}

/** True when a call of `name` may wait: a subworkflow, a blocking stdlib function, or a connector. @internal */
export function isAsyncCall(name: string, cx: Pick<TemplateContext, 'workflows' | 'library'>): boolean {
  return cx.workflows.has(name) || cx.library.isBlocking(name) || isUnsupported(name);
}

/**
 * Checks every call of an expression AST, in source order: each must name a special form, a function, a
 * subworkflow or a non-emulated namespace.
 * @throws DefinitionError (UNKNOWN_FUNCTION) at the first unknown callee.
 */
function checkCalls(e: Expr, node: SScalar, valueIndex: number, cx: TemplateContext): void {
  switch (e.kind) {
    case 'literal':
    case 'var':
      return;
    case 'member':
      return checkCalls(e.object, node, valueIndex, cx);
    case 'index':
      checkCalls(e.object, node, valueIndex, cx);
      return checkCalls(e.index, node, valueIndex, cx);
    case 'call': {
      const callee = e.callee;
      if (!SPECIAL_FORMS.has(callee) && !cx.workflows.has(callee) && !cx.library.hasFunction(callee) && !isUnsupported(callee)) {
        failAt(cx, sourceOffset(cx.load, node, valueIndex + e.pos), `unknown function or subworkflow '${callee}' in expression${didYouMean(callee, callNames(cx))}`, 'UNKNOWN_FUNCTION');
      }
      for (const a of e.args) checkCalls(a, node, valueIndex, cx);
      return;
    }
    case 'unary':
      return checkCalls(e.operand, node, valueIndex, cx);
    case 'binary':
      checkCalls(e.left, node, valueIndex, cx);
      return checkCalls(e.right, node, valueIndex, cx);
    case 'list':
      for (const i of e.items) checkCalls(i, node, valueIndex, cx);
      return;
    case 'map':
      for (const [k, v] of e.entries) {
        checkCalls(k, node, valueIndex, cx);
        checkCalls(v, node, valueIndex, cx);
      }
      return;
  }
}

/**
 * The source offset of a character of a scalar's value. Exact for plain scalars on one line and for quoted
 * ones whose expression is written without escapes or line breaks; otherwise the scalar's start.
 */
export function sourceOffset(load: LoadedSource, node: SScalar, valueIndex: number): number {
  const value = typeof node.value === 'string' ? node.value : '';
  const raw = load.source.slice(node.offset, node.end);
  if (node.style === 'plain' && raw === value) return node.offset + Math.max(0, valueIndex);
  const content = node.style === 'single' || node.style === 'double' ? 1 : 0;
  if (node.style !== 'block' && raw.slice(content, raw.length - content) === value) {
    return node.offset + content + Math.max(0, valueIndex);
  }
  // A one-line quoted scalar with escapes: walk the raw text escape by escape.
  if (content === 1 && !raw.includes('\n')) {
    const mapped = quotedIndex(raw.slice(1, -1), node.style === 'double', valueIndex);
    if (mapped !== undefined) return node.offset + 1 + mapped;
  }
  // Folding or a block scalar: find the line holding the character in the raw text.
  const lineStart = value.lastIndexOf('\n', valueIndex - 1) + 1;
  let lineEnd = value.indexOf('\n', valueIndex);
  if (lineEnd < 0) lineEnd = value.length;
  const line = value.slice(lineStart, lineEnd);
  if (line.length > 0) {
    const found = raw.indexOf(line);
    if (found >= 0 && raw.indexOf(line, found + 1) < 0) return node.offset + found + (valueIndex - lineStart);
  }
  return node.offset + content;
}

/**
 * The index in the raw text of a one-line quoted scalar (quotes excluded) of the character at `valueIndex` of
 * its value: `''` is one character in single quotes; `\x`, `\xXX`, `\uXXXX`, `\UXXXXXXXX` escapes in double
 * quotes.
 */
function quotedIndex(raw: string, double: boolean, valueIndex: number): number | undefined {
  let r = 0;
  for (let v = 0; v < valueIndex; v++) {
    if (r >= raw.length) return undefined;
    const c = raw[r];
    if (!double) r += c === "'" ? 2 : 1;
    else if (c !== '\\') r += 1;
    else {
      const e = raw[r + 1];
      r += e === 'x' ? 4 : e === 'u' ? 6 : e === 'U' ? 10 : 2;
      // \U and some \u escapes are two UTF-16 units in the value for one escape in the raw text.
      if ((e === 'U' || e === 'u') && v + 1 < valueIndex) {
        const cp = parseInt(raw.slice(r - (e === 'U' ? 8 : 4), r), 16);
        if (cp > 0xffff) v++;
      }
    }
  }
  return r <= raw.length ? r : undefined;
}
