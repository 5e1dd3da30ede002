/**
 * The `retry` field of a `try` step (docs/language.md#try-retry-and-except): a named policy (`${http.default_retry}`) or a map with
 * `predicate`, `max_retries` and an optional `backoff` (a named backoff or `initial_delay`, `max_delay`,
 * `multiplier`).
 */
import type { Expr } from '../expr/ast.ts';
import { ExpressionSyntaxError, parseExpression } from '../expr/parser.ts';
import type { PredicateRef, RetrySpec, Template } from './ast.ts';
import type { BackoffSpec } from './library.ts';
import { entryOf, type SNode } from './load.ts';
import { compileTemplate, expressionText, failAt, type TemplateContext } from './template.ts';

/** What compiling a retry needs: the template context and each workflow's parameter counts. @internal */
export interface RetryContext extends TemplateContext {
  /** Required (`min`) and total (`max`) parameters of each workflow, to check retry predicates. */
  readonly paramCounts: ReadonlyMap<string, { readonly min: number; readonly max: number }>;
}

/** The fields of a `retry` map. */
const RETRY_FIELDS: ReadonlySet<string> = new Set(['predicate', 'max_retries', 'backoff']);

/**
 * Compiles a `retry` field.
 * @throws DefinitionError for an unknown policy, predicate or backoff, a missing `predicate` or `max_retries`,
 *   or a field that is not a non-negative number or expression.
 */
export function compileRetry(node: SNode, cx: RetryContext): RetrySpec {
  const pos = cx.load.posAt(node.offset);
  if (node.kind === 'scalar' && typeof node.value === 'string') {
    const name = dottedName(node, 'retry', cx);
    if (!cx.library.retryPolicies.has(name)) {
      const known = [...cx.library.retryPolicies.keys()].join(', ');
      return failAt(cx, node.offset, `unknown retry policy '${name}'${known ? ` (known: ${known})` : ''}`, 'UNKNOWN_RETRY');
    }
    return { kind: 'policy', name, pos };
  }
  if (node.kind !== 'map') {
    return failAt(cx, node.offset, "'retry' must be a policy '${http.default_retry}' or a map with 'predicate', 'max_retries' and 'backoff'");
  }
  for (const e of node.entries) {
    if (!RETRY_FIELDS.has(e.key)) failAt(cx, e.keyNode.offset, `unknown field '${e.key}' in 'retry'`, 'UNKNOWN_FIELD');
  }
  const predE = entryOf(node, 'predicate');
  if (!predE) return failAt(cx, node.offset, "'retry' needs a 'predicate'");
  const maxE = entryOf(node, 'max_retries');
  if (!maxE) return failAt(cx, node.offset, "'retry' needs 'max_retries'");
  const predicate = retryPredicate(predE.value, cx);
  const backoffE = entryOf(node, 'backoff');
  // Without `backoff`, the default backoff applies (retry.default_backoff); `backoff: ${retry.default_backoff}`
  // names it, or any other backoff of the stdlib, explicitly.
  const isName = backoffE?.value.kind === 'scalar' && typeof backoffE.value.value === 'string';
  let named: BackoffSpec = cx.library.defaultBackoff;
  if (backoffE && isName) {
    const name = dottedName(backoffE.value, 'backoff', cx);
    const found = cx.library.backoffs.get(name);
    if (!found) failAt(cx, backoffE.value.offset, `unknown backoff '${name}' (known: ${[...cx.library.backoffs.keys()].join(', ')})`, 'UNKNOWN_RETRY');
    named = found;
  }
  let initial: Template = { kind: 'const', value: named.initialDelaySec };
  let max: Template = { kind: 'const', value: named.maxDelaySec };
  let mult: Template = { kind: 'const', value: named.multiplier };
  if (backoffE && !isName) {
    const b = backoffE.value;
    if (b.kind !== 'map') return failAt(cx, b.offset, "'backoff' must be a map with 'initial_delay', 'max_delay' and 'multiplier'");
    for (const e of b.entries) {
      if (e.key === 'initial_delay') initial = number(e.value, 'initial_delay', cx);
      else if (e.key === 'max_delay') max = number(e.value, 'max_delay', cx);
      else if (e.key === 'multiplier') mult = number(e.value, 'multiplier', cx);
      else failAt(cx, e.keyNode.offset, `unknown field '${e.key}' in 'backoff'`, 'UNKNOWN_FIELD');
    }
  }
  return {
    kind: 'custom',
    predicate,
    maxRetries: number(maxE.value, 'max_retries', cx, true),
    initialDelaySec: initial,
    maxDelaySec: max,
    multiplier: mult,
    pos,
  };
}

// A number field of retry: a literal number (an int where `int` is set) or an expression.
function number(node: SNode, what: string, cx: RetryContext, int = false): Template {
  if (node.kind === 'scalar') {
    const v = node.value;
    if (typeof v === 'bigint' && v >= 0n) return { kind: 'const', value: v };
    if (!int && typeof v === 'number' && v >= 0) return { kind: 'const', value: v };
    if (typeof v === 'string' && expressionText(v) !== undefined) return compileTemplate(node, cx);
  }
  return failAt(cx, node.offset, `'${what}' must be a non-negative ${int ? 'integer' : 'number'} or an expression`);
}

function retryPredicate(node: SNode, cx: RetryContext): PredicateRef {
  const name = dottedName(node, 'predicate', cx);
  if (cx.workflows.has(name)) {
    const c = cx.paramCounts.get(name);
    if (c && (c.max < 1 || c.min > 1)) {
      failAt(cx, node.offset, `retry predicate '${name}' must be a subworkflow taking one parameter (the error map)`);
    }
    return { kind: 'subworkflow', name };
  }
  if (cx.library.hasFunction(name)) return { kind: 'stdlib', name };
  const policy = cx.library.retryPolicies.get(name);
  if (policy) return { kind: 'stdlib', name: (cx.compat === 'google' ? policy.googlePredicate : undefined) ?? policy.predicate };
  return failAt(cx, node.offset, `unknown retry predicate '${name}': expected a subworkflow or a predicate such as http.default_retry_predicate`, 'UNKNOWN_RETRY');
}

// `${name}` or `${a.b.c}`: the dotted name (policies, predicates).
function dottedName(node: SNode, what: string, cx: RetryContext): string {
  if (node.kind !== 'scalar' || typeof node.value !== 'string') return failAt(cx, node.offset, `'${what}' must be an expression naming it, e.g. \${...}`);
  const text = expressionText(node.value);
  if (text === undefined) return failAt(cx, node.offset, `'${what}' must be an expression naming it, e.g. \${http.default_retry}`);
  let ast: Expr;
  try {
    ast = parseExpression(text);
  } catch (e) {
    if (e instanceof ExpressionSyntaxError) return failAt(cx, node.offset, `invalid expression '${node.value}': ${e.message}`, 'BAD_EXPRESSION');
    throw e;
  }
  const parts: string[] = [];
  let n = ast;
  while (n.kind === 'member') {
    parts.unshift(n.name);
    n = n.object;
  }
  if (n.kind !== 'var') return failAt(cx, node.offset, `'${what}' must name a policy or subworkflow, e.g. \${http.default_retry}`);
  parts.unshift(n.name);
  return parts.join('.');
}
