// Expression evaluation throughput (target: >= 5 million evaluations/s): compiles
// `${a + b * 2 > c and m["k"] == "v"}` once, binds a, b, c to ints and m to a map, and evaluates it in a loop.
// Also reports the compile cost of the same expression. Runs on import.
// Usage: node --expose-gc --import tsx bench/expression.bench.ts   (or: npm run bench -- expression)
import { compileExpression } from '../src/lang/expr/compile.ts';
import type { Env } from '../src/lang/expr/ast.ts';
import type { Value } from '../src/lang/value.ts';
import { report } from './report.ts';

const TEXT = 'a + b * 2 > c and m["k"] == "v"';
const vars = new Map<string, Value>([
  ['a', 1n],
  ['b', 2n],
  ['c', 3n],
  ['m', new Map<string, Value>([['k', 'v']])],
]);
// The engine's scopes answer lookups from a Map as well; calls are not used by this expression.
const env: Env = {
  lookup: (name) => vars.get(name),
  call: (name) => {
    throw new Error(`unexpected call ${name}`);
  },
};

const compiled = compileExpression(TEXT, { isAsyncCall: () => false });
if (compiled.evaluate(env) !== true) throw new Error('benchmark expression evaluated to the wrong value');

function run(n: number): number {
  let trues = 0;
  for (let i = 0; i < n; i++) if (compiled.evaluate(env) === true) trues++;
  return trues;
}

// Warm up so the JIT has optimized the closures, then take the best of several timed rounds.
run(2_000_000);
(globalThis as { gc?: () => void }).gc?.();
const N = 5_000_000;
let best = 0;
for (let round = 0; round < 5; round++) {
  const t0 = performance.now();
  const trues = run(N);
  const seconds = (performance.now() - t0) / 1000;
  if (trues !== N) throw new Error('benchmark expression changed value');
  best = Math.max(best, N / seconds);
}
report('expression evaluate', best / 1e6, 'M evaluations/s', { value: 5, higherIsBetter: true });

const C = 20_000;
const t0 = performance.now();
for (let i = 0; i < C; i++) compileExpression(TEXT, { isAsyncCall: () => false });
report('expression compile', ((performance.now() - t0) * 1000) / C, 'µs per expression');
