/**
 * The fields of a `try` step: its body, `retry` and `except` (docs/language.md#try-retry-and-except).
 */
import type { RetrySpec, StepList } from './ast.ts';
import type { SEntry, SScalar } from './load.ts';
import { compileRetry } from './retry.ts';
import type { Frame, StepCompiler } from './step-compiler.ts';

/**
 * Compiles a `try` step's `try` (a step's fields or `steps`), `retry` and `except` (`as`, `steps`) (docs/language.md#try-retry-and-except,
 * "Retry"; https://cloud.google.com/workflows/docs/reference/syntax/catching-errors).
 * @throws DefinitionError for a malformed field, an unknown field in `except` (UNKNOWN_FIELD), a bad retry.
 */
export function compileTry(
  c: StepCompiler,
  name: string,
  at: SScalar,
  tryE: SEntry,
  retryE: SEntry | undefined,
  exceptE: SEntry | undefined,
  frame: Frame,
): { body: StepList; retry?: RetrySpec; except?: { as?: string; steps: StepList } } {
  const t = tryE.value;
  let body: StepList;
  if (t.kind !== 'map' || t.entries.length === 0) return c.fail(t, "'try' must hold a step's fields or 'steps'");
  if (t.entries.length === 1 && t.entries[0]!.key === 'steps') {
    body = c.stepList(t.entries[0]!.value, frame, 'plain', `step '${name}'`);
  } else {
    // One step's content: a list of one step, named for the try step. Its own name is not a jump target
    // inside that list: `next` resolves from the try step's list, as for the try step itself.
    const inner: Frame = { names: new Map(), parent: frame, kind: 'plain' };
    body = { steps: [c.stepBody(name, at, t, inner)], index: new Map([[name, 0]]) };
  }
  const out: { body: StepList; retry?: RetrySpec; except?: { as?: string; steps: StepList } } = { body };
  if (retryE) out.retry = compileRetry(retryE.value, c.cx);
  if (exceptE) {
    const x = exceptE.value;
    if (x.kind !== 'map') return c.fail(x, "'except' must be a map with 'as' and 'steps'");
    for (const f of x.entries) if (f.key !== 'as' && f.key !== 'steps') c.fail(f.keyNode, `unknown field '${f.key}' in 'except'`, 'UNKNOWN_FIELD');
    const stepsE = x.entries.find((f) => f.key === 'steps');
    if (!stepsE) return c.fail(exceptE.keyNode, "'except' needs 'steps'");
    const asE = x.entries.find((f) => f.key === 'as');
    const steps = c.stepList(stepsE.value, frame, 'plain', `step '${name}'`);
    out.except = asE ? { as: c.ident(asE.value, "'as'"), steps } : { steps };
  }
  return out;
}
