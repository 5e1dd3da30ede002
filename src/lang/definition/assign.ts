/**
 * The field of an `assign` step: its list of `target: value` entries (docs/language.md#step-types;
 * https://cloud.google.com/workflows/docs/reference/syntax/variables).
 */
import { MAX_ASSIGNMENTS } from '../language-limits.ts';
import { appendElement, compileAssignTarget } from './assign-target.ts';
import type { Assignment } from './ast.ts';
import type { SEntry, SNode } from './load.ts';
import type { StepCompiler } from './step-compiler.ts';
import { compileTemplate } from './template.ts';

/**
 * Compiles an `assign` step's list (`field` is its `assign:` entry, `node` its value), at most
 * {@link MAX_ASSIGNMENTS} entries (docs/api-resources.md#limits).
 * @throws DefinitionError for a value that is not a non-empty list of one-entry maps, a bad target, or too
 *   many assignments (LIMIT_EXCEEDED).
 */
export function compileAssignments(c: StepCompiler, node: SNode, field: SEntry): Assignment[] {
  if (node.kind !== 'seq') return c.fail(node, "'assign' must be a list of 'name: value' entries");
  if (node.items.length === 0) return c.fail(node, "'assign' must not be empty");
  if (node.items.length > MAX_ASSIGNMENTS) {
    c.fail(field.keyNode, `too many assignments in one step: ${node.items.length} (the limit is ${MAX_ASSIGNMENTS})`, 'LIMIT_EXCEEDED');
  }
  return node.items.map((item) => {
    if (item.kind !== 'map' || item.entries.length !== 1) {
      return c.fail(item, "each assignment must be a map with exactly one entry 'target: value'");
    }
    const e = item.entries[0]!;
    const target = compileAssignTarget(e, c.cx);
    const value = compileTemplate(e.value, c.cx);
    const append = appendElement(target, value, c.cx);
    return append ? { target, value, append } : { target, value };
  });
}
