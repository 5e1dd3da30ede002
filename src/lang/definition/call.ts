/**
 * The fields of a `call` step: the function or subworkflow it names, its `args` and its `result`
 * (docs/language.md#step-types; https://cloud.google.com/workflows/docs/reference/syntax/calls).
 */
import type { CallTarget, Template } from './ast.ts';
import type { SEntry, SNode } from './load.ts';
import type { StepCompiler } from './step-compiler.ts';
import { didYouMean } from './suggest.ts';
import { callNames, compileTemplate, expressionText, resolveCall } from './template.ts';

/** A compiled `call` step: what it calls, its arguments by name, and the variable its result goes to. */
export interface CompiledCall {
  target: CallTarget;
  args?: (readonly [string, Template])[];
  result?: string;
}

/**
 * Compiles a `call` step's `call` entry (`field`) with its `args` and `result` entries, if any.
 * @throws DefinitionError for a name that is not a plain function or subworkflow name, an unknown one
 *   (UNKNOWN_FUNCTION, with a suggestion), `args` that are neither a map nor a standard-library function's
 *   positional list, or a `result` that is not a variable name.
 */
export function compileCall(c: StepCompiler, field: SEntry, argsEntry: SEntry | undefined, resultEntry: SEntry | undefined): CompiledCall {
  const n = field.value;
  if (n.kind !== 'scalar' || typeof n.value !== 'string' || n.value === '') {
    return c.fail(n, "'call' must name a function or subworkflow");
  }
  if (expressionText(n.value) !== undefined) {
    c.fail(n, `'call' takes a function or subworkflow name, not an expression: ${n.value}`);
  }
  const target = resolveCall(n.value, c.cx);
  if (!target) return c.fail(n, `unknown function or subworkflow '${n.value}'${didYouMean(n.value, callNames(c.cx))}`, 'UNKNOWN_FUNCTION');
  const out: CompiledCall = { target };
  if (argsEntry) {
    const a = argsEntry.value;
    if (a.kind === 'scalar' && a.value === null) out.args = [];
    else if (a.kind === 'seq') out.args = positionalArgs(c, target, a);
    else if (a.kind !== 'map') return c.fail(a, "'args' must be a map of argument names to values");
    else out.args = a.entries.map((e) => [e.key, compileTemplate(e.value, c.cx)] as const);
  }
  if (resultEntry) out.result = c.ident(resultEntry.value, "'result'");
  return out;
}

/**
 * A list of `args` for a standard-library function, bound to its parameters by position as Google's
 * sys.log examples write it (`args: [${myVar}, "ERROR"]`,
 * https://cloud.google.com/workflows/docs/reference/stdlib/sys/log).
 */
function positionalArgs(c: StepCompiler, target: CallTarget, a: Extract<SNode, { kind: 'seq' }>): (readonly [string, Template])[] {
  const names = target.kind === 'stdlib' ? c.cx.library.paramNames?.(target.name) : undefined;
  if (!names) return c.fail(a, "'args' must be a map of argument names to values (a list is taken only by standard-library functions)");
  if (a.items.length > names.length) {
    return c.fail(a.items[names.length]!, `'args' of ${target.name} takes at most ${names.length} values, got ${a.items.length}`);
  }
  return a.items.map((item, i) => [names[i]!, compileTemplate(item, c.cx)] as const);
}
