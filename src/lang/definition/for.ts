/**
 * The loop of a `for` step and of a parallel `for` (spec "For"): `value`, optional `index`, `in` (a list or
 * map) or `range` (`[start, end]`), and the body `steps`.
 */
import { typeError } from '../errors.ts';
import type { CompiledExpression } from '../expr/ast.ts';
import { typeName, type Value } from '../value.ts';
import type { ForSpec, StepList, Template } from './ast.ts';
import type { SNode } from './load.ts';
import type { Frame, StepCompiler } from './step-compiler.ts';
import { compileScalarExpr, compileTemplate, expressionText } from './template.ts';

/**
 * Compiles the map of a `for` field (`what` names it in messages: `for`).
 * @throws DefinitionError for a missing `value` or `steps`, both or neither of `in` and `range`, bad names.
 */
export function compileFor(c: StepCompiler, node: SNode, frame: Frame, what: string): ForSpec {
  if (node.kind !== 'map') return c.fail(node, `'${what}' must be a map with 'value', 'in' or 'range', and 'steps'`);
  const get = (k: string) => node.entries.find((e) => e.key === k);
  for (const e of node.entries) {
    if (!['value', 'index', 'in', 'range', 'steps'].includes(e.key)) c.fail(e.keyNode, `unknown field '${e.key}' in '${what}'`);
  }
  const valueE = get('value');
  const inE = get('in');
  const rangeE = get('range');
  const stepsE = get('steps');
  if (!valueE) return c.fail(node, `'${what}' needs 'value' (the loop variable)`);
  if (!stepsE) return c.fail(node, `'${what}' needs 'steps'`);
  if (inE && rangeE) c.fail(rangeE.keyNode, `conflicting fields 'in' and 'range' in '${what}'`);
  if (!inE && !rangeE) c.fail(node, `'${what}' needs 'in' (a list) or 'range' ([start, end])`);
  const value = c.ident(valueE.value, "'value'");
  const index = get('index') ? c.ident(get('index')!.value, "'index'") : undefined;
  if (index !== undefined && index === value) c.fail(get('index')!.value, "'index' and 'value' must be different variables");
  const spec: { -readonly [K in keyof ForSpec]: ForSpec[K] } = { value, steps: undefined as unknown as StepList };
  if (index !== undefined) spec.index = index;
  if (inE) spec.in = compileTemplate(inE.value, c.cx);
  else spec.range = range(c, rangeE!.value);
  spec.steps = c.stepList(stepsE.value, frame, 'for', `'${what}'`);
  return spec;
}

/**
 * `range: [start, end]` (each a value or an expression), or one expression yielding that list
 * (`range: ${[0, len(x) - 1]}`, Google's schema: `^\$\{\[.+\]\}$`): each bound then evaluates the expression
 * and takes its element.
 */
function range(c: StepCompiler, node: SNode): readonly [Template, Template] {
  if (node.kind === 'seq') {
    if (node.items.length !== 2) c.fail(node, "'range' must be a list of two values [start, end]");
    return [compileTemplate(node.items[0]!, c.cx), compileTemplate(node.items[1]!, c.cx)];
  }
  if (node.kind === 'scalar' && typeof node.value === 'string' && expressionText(node.value) !== undefined) {
    const whole = compileScalarExpr(node, c.cx);
    const pos = c.pos(node);
    return [
      { kind: 'expr', expr: rangeBound(whole, 0), pos },
      { kind: 'expr', expr: rangeBound(whole, 1), pos },
    ];
  }
  return c.fail(node, "'range' must be a list of two values [start, end]");
}

/**
 * One bound of `range: ${[start, end]}`: the whole expression, evaluated, then its element `i`.
 * @throws WorkflowError tagged TypeError (at run time) when the expression does not yield a list of two.
 */
function rangeBound(whole: CompiledExpression, i: 0 | 1): CompiledExpression {
  const pick = (v: Value): Value => {
    if (!Array.isArray(v) || v.length !== 2) {
      throw typeError(`for: range must be a list of two numbers [start, end], not ${Array.isArray(v) ? `a list of ${v.length}` : `a ${typeName(v)}`}`);
    }
    return v[i]!;
  };
  return {
    source: whole.source,
    ast: whole.ast,
    isAsync: whole.isAsync,
    evaluate: (env) => pick(whole.evaluate(env)),
    evaluateAsync: async (env) => pick(await whole.evaluateAsync(env)),
  };
}
