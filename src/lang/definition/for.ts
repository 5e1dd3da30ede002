/**
 * The loop of a `for` step and of a parallel `for` (docs/language.md#jumps-loops-and-scopes): `value`, optional `index`, `in` (a list or
 * map) or `range` (`[start, end]`), and the body `steps`.
 */
import type { ForSpec, StepList, Template } from './ast.ts';
import { entryOf, type SNode } from './load.ts';
import type { Frame, StepCompiler } from './step-compiler.ts';
import { compileTemplate, expressionText } from './template.ts';

/** The fields of a `for` map. */
const FOR_FIELDS: ReadonlySet<string> = new Set(['value', 'index', 'in', 'range', 'steps']);

/**
 * Compiles the map of a `for` field (`what` names it in messages: `for`).
 * @throws DefinitionError for a missing `value` or `steps`, both or neither of `in` and `range`, bad names.
 */
export function compileFor(c: StepCompiler, node: SNode, frame: Frame, what: string): ForSpec {
  if (node.kind !== 'map') return c.fail(node, `'${what}' must be a map with 'value', 'in' or 'range', and 'steps'`);
  for (const e of node.entries) {
    if (!FOR_FIELDS.has(e.key)) c.fail(e.keyNode, `unknown field '${e.key}' in '${what}'`, 'UNKNOWN_FIELD');
  }
  const valueE = entryOf(node, 'value');
  const inE = entryOf(node, 'in');
  const rangeE = entryOf(node, 'range');
  const stepsE = entryOf(node, 'steps');
  const indexE = entryOf(node, 'index');
  if (!valueE) return c.fail(node, `'${what}' needs 'value' (the loop variable)`);
  if (!stepsE) return c.fail(node, `'${what}' needs 'steps'`);
  if (inE && rangeE) c.fail(rangeE.keyNode, `conflicting fields 'in' and 'range' in '${what}'`, 'CONFLICTING_FIELDS');
  if (!inE && !rangeE) c.fail(node, `'${what}' needs 'in' (a list) or 'range' ([start, end])`);
  const value = c.ident(valueE.value, "'value'");
  const index = indexE ? c.ident(indexE.value, "'index'") : undefined;
  if (index !== undefined && index === value) c.fail(indexE!.value, "'index' and 'value' must be different variables");
  const spec: { -readonly [K in keyof ForSpec]: ForSpec[K] } = { value, steps: undefined as unknown as StepList };
  if (index !== undefined) spec.index = index;
  if (inE) spec.in = compileTemplate(inE.value, c.cx);
  else spec.range = range(c, rangeE!.value);
  spec.steps = c.stepList(stepsE.value, frame, 'for', `'${what}'`);
  return spec;
}

/**
 * `range: [start, end]` (each a value or an expression), or one expression yielding that list
 * (`range: ${[0, len(x) - 1]}`, Google's schema: `^\$\{\[.+\]\}$`), evaluated once per loop; the engine
 * checks at run time that it is a list of two numbers.
 */
function range(c: StepCompiler, node: SNode): Template {
  if (node.kind === 'seq') {
    if (node.items.length !== 2) c.fail(node, "'range' must be a list of two values [start, end]");
    return compileTemplate(node, c.cx);
  }
  if (node.kind === 'scalar' && typeof node.value === 'string' && expressionText(node.value) !== undefined) {
    return compileTemplate(node, c.cx);
  }
  return c.fail(node, "'range' must be a list of two values [start, end]");
}
