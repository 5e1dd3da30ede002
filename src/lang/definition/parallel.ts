/**
 * The `parallel` field of a step (docs/language.md#parallel-steps): `branches` or a parallel `for`, with `shared`,
 * `concurrency_limit` and `exception_policy`, within the limits of docs/api-resources.md#limits (10 branches, nesting 2).
 */
import { MAX_BRANCHES, MAX_PARALLEL_DEPTH } from '../language-limits.ts';
import type { Step } from './ast.ts';
import { compileFor } from './for.ts';
import { entryOf, type SNode, type SScalar } from './load.ts';
import type { Frame, StepCompiler } from './step-compiler.ts';
import { compileTemplate, expressionText } from './template.ts';

/** The fields of a parallel step besides those every step has. */
export type ParallelFields = Omit<Step & { kind: 'parallel' }, 'kind' | 'name' | 'pos' | 'next'>;

/** The fields of a `parallel` map. */
const PARALLEL_FIELDS: ReadonlySet<string> = new Set(['shared', 'concurrency_limit', 'exception_policy', 'branches', 'for']);

/**
 * Compiles the map of a `parallel` field; `at` is the field's key, for the nesting error.
 * @throws DefinitionError for unknown fields, both or neither of `branches` and `for`, a bad policy or limit,
 *   more than 10 branches, duplicate branch names, or nesting deeper than 2.
 */
export function compileParallel(c: StepCompiler, node: SNode, frame: Frame, at: SScalar): ParallelFields {
  if (node.kind !== 'map') return c.fail(node, "'parallel' must be a map with 'branches' or 'for'");
  if (c.parallelDepth >= MAX_PARALLEL_DEPTH) {
    c.fail(at, `parallel steps nested more than ${MAX_PARALLEL_DEPTH} deep (ParallelNestingError)`, 'LIMIT_EXCEEDED');
  }
  for (const e of node.entries) {
    if (!PARALLEL_FIELDS.has(e.key)) {
      c.fail(e.keyNode, `unknown field '${e.key}' in 'parallel'`, 'UNKNOWN_FIELD');
    }
  }
  const branchesE = entryOf(node, 'branches');
  const forE = entryOf(node, 'for');
  if (branchesE && forE) c.fail(forE.keyNode, "conflicting fields 'branches' and 'for' in 'parallel'", 'CONFLICTING_FIELDS');
  if (!branchesE && !forE) c.fail(node, "'parallel' needs 'branches' or 'for'");

  const shared: string[] = [];
  const sharedE = entryOf(node, 'shared');
  if (sharedE) {
    const s = sharedE.value;
    if (s.kind !== 'seq') return c.fail(s, "'shared' must be a list of variable names");
    for (const i of s.items) shared.push(c.ident(i, 'each shared variable'));
  }
  // The spec's default is `unhandled`; Google's page: "The default policy, continueAll, ... is the only policy
  // currently supported" (https://cloud.google.com/workflows/docs/reference/syntax/parallel-steps).
  let exceptionPolicy: 'unhandled' | 'continueAll' = c.cx.compat === 'google' ? 'continueAll' : 'unhandled';
  const policyE = entryOf(node, 'exception_policy');
  if (policyE) {
    const p = policyE.value;
    if (p.kind !== 'scalar' || (p.value !== 'unhandled' && p.value !== 'continueAll')) {
      return c.fail(p, "'exception_policy' must be 'unhandled' or 'continueAll'");
    }
    exceptionPolicy = p.value;
  }
  const out: { -readonly [K in keyof ParallelFields]: ParallelFields[K] } = {
    shared,
    exceptionPolicy,
  };
  const limitE = entryOf(node, 'concurrency_limit');
  if (limitE) {
    const l = limitE.value;
    if (l.kind === 'scalar' && typeof l.value === 'bigint') {
      if (l.value < 1n) c.fail(l, "'concurrency_limit' must be a positive integer");
    } else if (!(l.kind === 'scalar' && typeof l.value === 'string' && expressionText(l.value) !== undefined)) {
      c.fail(l, "'concurrency_limit' must be a positive integer or an expression");
    }
    out.concurrencyLimit = compileTemplate(l, c.cx);
  }
  c.parallelDepth++;
  try {
    if (forE) out.for = compileFor(c, forE.value, frame, 'for');
    else out.branches = branches(c, branchesE!.value, frame);
  } finally {
    c.parallelDepth--;
  }
  return out;
}

function branches(c: StepCompiler, node: SNode, frame: Frame): NonNullable<(Step & { kind: 'parallel' })['branches']> {
  if (node.kind !== 'seq') return c.fail(node, "'branches' must be a list of named branches");
  if (node.items.length === 0) return c.fail(node, "'branches' must not be empty");
  if (node.items.length > MAX_BRANCHES) {
    c.fail(node, `too many branches in one parallel step: ${node.items.length} (the limit is ${MAX_BRANCHES})`, 'LIMIT_EXCEEDED');
  }
  const seen = new Set<string>();
  return node.items.map((item) => {
    if (item.kind !== 'map' || item.entries.length !== 1) {
      return c.fail(item, "each branch must be a map with one key, the branch name, holding 'steps'");
    }
    const e = item.entries[0]!;
    if (seen.has(e.key)) c.fail(e.keyNode, `duplicate branch name '${e.key}'`);
    seen.add(e.key);
    const b = e.value;
    if (b.kind !== 'map') return c.fail(b, `branch '${e.key}' must be a map with 'steps'`);
    for (const f of b.entries) if (f.key !== 'steps') c.fail(f.keyNode, `unknown field '${f.key}' in branch '${e.key}'`, 'UNKNOWN_FIELD');
    const stepsE = b.entries.find((f) => f.key === 'steps');
    if (!stepsE) return c.fail(e.keyNode, `branch '${e.key}' has no 'steps'`);
    const saved = c.cx.step;
    c.cx.step = e.key;
    const steps = c.stepList(stepsE.value, frame, 'branch', `branch '${e.key}'`);
    c.cx.step = saved;
    return { name: e.key, steps, pos: c.pos(e.keyNode) };
  });
}
