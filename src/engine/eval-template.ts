/**
 * Values as written in the source, evaluated at run time (docs/language.md#expressions: `${...}` wherever a value is
 * expected): constants as they are, expressions synchronously unless they may wait, lists and maps element by
 * element, computed map keys (Google's dynamic keys).
 */
import { typeError } from '../lang/errors.ts';
import type { Template } from '../lang/definition/ast.ts';
import type { CompiledExpression } from '../lang/expr/ast.ts';
import { typeName, type Value, type WMap } from '../lang/value.ts';
import type { Scope } from './scope.ts';

/**
 * Evaluates a value as written in the source: constants as they are, `${...}` expressions (synchronously
 * unless the expression may wait), lists and maps element by element.
 * @internal
 */
export function evalTemplate(t: Template, scope: Scope): Value | Promise<Value> {
  switch (t.kind) {
    case 'const':
      return t.value;
    case 'expr':
      return t.expr.isAsync ? t.expr.evaluateAsync(scope) : t.expr.evaluate(scope);
    case 'list': {
      if (t.isAsync) return evalListAsync(t.items, scope);
      const out: Value[] = new Array(t.items.length);
      for (let i = 0; i < t.items.length; i++) out[i] = evalTemplate(t.items[i]!, scope) as Value;
      return out;
    }
    case 'map': {
      const keyExprs = t.keyExprs;
      if (t.isAsync || keyExprs?.some((k) => k?.isAsync)) return evalMapAsync(t.entries, keyExprs, scope);
      const m: WMap = new Map();
      const entries = t.entries;
      for (let i = 0; i < entries.length; i++) {
        const ke = keyExprs?.[i];
        const key = ke ? keyString(ke.evaluate(scope)) : entries[i]![0];
        m.set(key, evalTemplate(entries[i]![1], scope) as Value);
      }
      return m;
    }
  }
}

/** A computed map key (Google's dynamic keys) must be a string. */
function keyString(k: Value): string {
  if (typeof k !== 'string') throw typeError(`a map key must be a string, not a ${typeName(k)}`);
  return k;
}

async function evalListAsync(items: readonly Template[], scope: Scope): Promise<Value> {
  const out: Value[] = [];
  for (const t of items) out.push(await evalTemplate(t, scope));
  return out;
}

async function evalMapAsync(
  entries: readonly (readonly [string, Template])[],
  keyExprs: readonly (CompiledExpression | null)[] | undefined,
  scope: Scope,
): Promise<Value> {
  const m: WMap = new Map();
  for (let i = 0; i < entries.length; i++) {
    const ke = keyExprs?.[i];
    const key = ke ? keyString(await ke.evaluateAsync(scope)) : entries[i]![0];
    m.set(key, await evalTemplate(entries[i]![1], scope));
  }
  return m;
}
