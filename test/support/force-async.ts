/**
 * The engine's second path, forced (docs/architecture.md#layers-and-where-things-are): the engine runs
 * synchronously until something waits, then continues asynchronously. These helpers make everything wait, so a
 * test can run a workflow entirely on the asynchronous path and compare the outcome with the synchronous one:
 *
 * - {@link forceAsync} rebuilds a compiled definition with every `${...}` expression (values, conditions, map
 *   keys, assignment indexes, loop ranges, retry numbers) deferred: it is marked as one that may wait, and
 *   evaluates one microtask later, so every template holding one resolves through a promise and each engine
 *   function takes its `...Async` continuation;
 * - {@link deferringHooks} answers every outbound call (http.*, blocking built-ins, connectors) one microtask
 *   late through the call interceptor (it calls `proceed()`, so the result is the real one), and checks with a
 *   step observer that every step entry is left, in nesting order.
 */
import type { Definition } from '../../src/lang/definition/ast.ts';
import type { CompiledExpression, Env } from '../../src/lang/expr/ast.ts';
import type { Value } from '../../src/lang/value.ts';
import type { ExecutionHooks } from '../../src/engine/hooks.ts';

/** True for a compiled expression (the only objects of a definition with `evaluateAsync`). */
function isExpression(x: object): x is CompiledExpression {
  return typeof (x as CompiledExpression).evaluateAsync === 'function';
}

/** The same expression, one microtask later, always on the asynchronous evaluator. */
function deferred(e: CompiledExpression): CompiledExpression {
  return {
    source: e.source,
    ast: e.ast,
    isAsync: true,
    evaluate: () => {
      throw new Error(`forced-async expression evaluated synchronously: \${${e.source}}`);
    },
    evaluateAsync: async (env: Env): Promise<Value> => {
      await null;
      return e.isAsync ? e.evaluateAsync(env) : e.evaluate(env);
    },
  };
}

/**
 * A copy of `def` in which every expression is deferred (see the module header) and every list or map template
 * holding one is marked async. Values (constants, parameter defaults) are kept as they are; objects shared in
 * `def` (a workflow in both `main` and `workflows`) stay shared in the copy.
 */
export function forceAsync(def: Definition): Definition {
  const seen = new Map<object, unknown>();
  const walk = (x: unknown, key?: string): unknown => {
    if (x === null || typeof x !== 'object') return x;
    // Constants and parameter defaults are workflow values, not definition nodes.
    if (key === 'default' || (x as { kind?: unknown }).kind === 'const') return x;
    const done = seen.get(x);
    if (done !== undefined) return done;
    let out: unknown;
    if (isExpression(x)) out = deferred(x);
    else if (x instanceof Map) {
      const m = new Map();
      seen.set(x, m);
      for (const [k, v] of x) m.set(k, walk(v));
      return m;
    } else if (Array.isArray(x)) {
      const a: unknown[] = [];
      seen.set(x, a);
      for (const v of x) a.push(walk(v));
      return a;
    } else {
      const o: Record<string, unknown> = {};
      seen.set(x, o);
      for (const [k, v] of Object.entries(x)) o[k] = walk(v, k);
      // A list or map template holding anything but constants now waits.
      if ((o.kind === 'list' || o.kind === 'map') && 'isAsync' in o) o.isAsync = holdsExpression(o);
      return o;
    }
    seen.set(x, out);
    return out;
  };
  return walk(def) as Definition;
}

function holdsExpression(t: Record<string, unknown>): boolean {
  if (t.kind === 'list') return (t.items as { kind: string }[]).some((i) => i.kind !== 'const');
  const keys = t.keyExprs as unknown[] | undefined;
  return (t.entries as [string, { kind: string }][]).some(([, v]) => v.kind !== 'const') || (keys?.some((k) => k) ?? false);
}

/** Hooks that defer every outbound call and check the nesting of step entries (see the module header). */
export function deferringHooks(): ExecutionHooks & { calls: number; checkBalanced(): void } {
  let open = 0;
  let entered = 0;
  const hooks = {
    calls: 0,
    observer: {
      enter: (): number => {
        open++;
        return ++entered;
      },
      leave: (): void => {
        open--;
      },
    },
    interceptor: {
      intercept: async (_call: unknown, proceed: () => Value | Promise<Value>): Promise<Value> => {
        hooks.calls++;
        await null;
        return proceed();
      },
    },
    checkBalanced(): void {
      if (open !== 0) throw new Error(`${open} of ${entered} step entries were never left`);
    },
  };
  return hooks;
}
