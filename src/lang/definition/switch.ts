/**
 * The conditions of a `switch` step (docs/language.md#step-types; https://cloud.google.com/workflows/docs/reference/syntax/conditions):
 * each a `condition` with `next`, `steps`, both, or a step's fields written inline.
 */
import type { SwitchCase } from './ast.ts';
import { MAX_SWITCH_CONDITIONS } from '../language-limits.ts';
import type { SMap, SNode, SScalar } from './load.ts';
import type { Frame, StepCompiler } from './step-compiler.ts';
import { compileTemplate } from './template.ts';

/**
 * Compiles the list of a `switch` field: at most MAX_SWITCH_CONDITIONS conditions (docs/language.md#step-types).
 * @throws DefinitionError for a non-list, an empty list, too many conditions (LIMIT_EXCEEDED), or a bad entry.
 */
export function compileSwitch(c: StepCompiler, name: string, at: SScalar, node: SNode, frame: Frame): SwitchCase[] {
  if (node.kind !== 'seq') return c.fail(node, "'switch' must be a list of conditions");
  if (node.items.length === 0) return c.fail(node, "'switch' must have at least one condition");
  if (node.items.length > MAX_SWITCH_CONDITIONS) {
    c.fail(node, `too many conditions in one switch: ${node.items.length} (the limit is ${MAX_SWITCH_CONDITIONS})`, 'LIMIT_EXCEEDED');
  }
  return node.items.map((item) => switchCase(c, name, at, item, frame));
}

/**
 * One switch condition: `condition` plus `next`, `steps`, both, or the fields of a step written inline
 * (Google's schema allows any step content there: assign, call, return, raise, and even for, try, ...).
 * Inline content becomes `step`; inline content or `steps` with a `next` become `steps`: a list of one step
 * carrying that `next` (its depth counts that list).
 */
function switchCase(c: StepCompiler, name: string, at: SScalar, item: SNode, frame: Frame): SwitchCase {
  if (item.kind !== 'map') return c.fail(item, "a switch entry must be a map with 'condition'");
  const cond = item.entries.find((e) => e.key === 'condition');
  if (!cond) return c.fail(item, "a switch entry must have a 'condition'");
  const rest = item.entries.filter((e) => e !== cond);
  const sc: { -readonly [K in keyof SwitchCase]: SwitchCase[K] } = {
    condition: compileTemplate(cond.value, c.cx),
    pos: c.pos(item),
  };
  if (rest.length === 1 && rest[0]!.key === 'steps') {
    sc.steps = c.stepList(rest[0]!.value, frame, 'plain', `step '${name}'`);
  } else if (rest.length === 1 && rest[0]!.key === 'next') {
    sc.next = c.jump(rest[0]!.value, frame);
  } else if (rest.length > 0) {
    // Inline content (or `steps` followed by `next`) is a step of its own, named for the switch step.
    const content: SMap = { kind: 'map', entries: rest, offset: item.offset };
    if (!rest.some((e) => e.key === 'next')) sc.step = c.stepBody(name, at, content, frame);
    else {
      // With a `next`, it runs as the only step of a list of its own, so that the list runner follows its
      // `next` like any step's. That list has no names to jump to: `next` resolves from the switch's list.
      const own: Frame = { names: new Map(), parent: frame, kind: 'plain' };
      sc.steps = { steps: [c.stepBody(name, at, content, own)], index: new Map() };
    }
  }
  return sc;
}
