// The size bookkeeping of values changed in place (engine/assign.ts, value.ts `remeasure`) against the full
// measure. A map or list only one variable holds is changed in place, also when the assigned value reads the
// variable without keeping any of it (`m[k]: ${len(m)}`, `k in m`, `m[k]` giving a scalar), so its size is
// kept by increments instead of measuring the whole value again (docs/limits.md#assignments-into-nested-paths).
// That the map is changed in place, not copied, is seen by an observer: the same map at every step.
// The increments must give exactly what measuring does: the 512 KB variable memory
// (https://cloud.google.com/workflows/quotas, "Memory") must stop a workflow at the same entry whether the
// engine changed its map in place or copied it each time.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { runExecution } from '../../src/engine/run.ts';
import { fromJs, sizeOf, toJs, type Value } from '../../src/lang/value.ts';
import { failure, harness, run } from './helpers.ts';
import type { StepObserver } from '../../src/engine/hooks.ts';

// About 1 KB an entry, so the 512 KB limit comes after about 500 entries.
const PAD = 'x'.repeat(1000);

/**
 * A loop that fills `m` (through `path`, e.g. `m` or `m["a"]["b"]`) with `value` until the memory limit
 * fails the execution; `copy` first puts the whole map in a list (`len([m])`: a list that holds `m` takes
 * the variable's sole hold away), which makes the engine copy the map (and measure the copy from scratch) at
 * each assignment.
 */
function fill(path: string, value: string, copy: boolean): string {
  return `main:
  steps:
    - init:
        assign:
          - m: {a: {b: {}}}
          - seen: 0
          - pad: ${PAD}
    - loop:
        for:
          value: i
          range: [1, 10000]
          steps:
            - put:
                assign:
${copy ? '                  - seen: ${len([m]) - 1}\n' : ''}                  - ${path}["k" + string(i)]: \${${value}}
    - done:
        return: \${len(${path})}
`;
}

const VALUES: readonly [string, string, string][] = [
  ['m[k]: len(m)', 'm', `string(len(m)) + pad`],
  ['m[k]: a read of m[k] giving a scalar, `in` and len', 'm', `string(if("k1" in m, len(m) + len(m["k1"]), 0)) + pad`],
  ['m["a"]["b"][k]: len(m["a"]["b"])', 'm["a"]["b"]', `string(len(m["a"]["b"])) + pad`],
];

for (const [name, path, value] of VALUES) {
  test(`${name}: changed in place, the memory limit fails it with the byte count copying gives`, async () => {
    const inPlace = await failure(fill(path, value, false));
    const copied = await failure(fill(path, value, true));
    assert.equal(inPlace.tags, ['ResourceLimitError']);
    assert.match(inPlace.message, /^variables use \d+ bytes, over the memory limit of 524288 bytes/);
    assert.is(inPlace.message, copied.message);
    assert.is(inPlace.step, copied.step);
  });
}

for (const [name, value] of [
  ['len(m)', 'len(m)'],
  ['k in m, m[k] giving a scalar', 'if("k1" in m, m["k1"] + len(m), 0)'],
  ['map.get(m, k) and keys(m)', 'default(map.get(m, "k1"), 0) + len(keys(m))'],
] as const) {
  test(`m[k]: \${${name}} changes m in place: one map across 1,000 assignments, not a copy each time`, async () => {
    // The map each \`put\` step starts with, as the engine holds it (an observer sees the variables themselves).
    const seen = new Set<unknown>();
    const observer: StepObserver = {
      enter(event) {
        if (event.step === 'put') seen.add(event.variables().get('m'));
        return undefined;
      },
      leave() {},
    };
    const h = harness();
    const out = await run(
      `main:
  steps:
    - init:
        assign:
          - m: {}
    - loop:
        for:
          value: i
          range: [1, 1000]
          steps:
            - put:
                assign:
                  - m["k" + string(i)]: \${${value}}
    - done:
        return: \${len(m)}
`,
      undefined,
      { ...h, deps: { ...h.deps, hooks: { observer } } },
    );
    assert.equal(out, { result: '1000' });
    // The literal {} and the copy the first assignment makes; every later one changes that copy.
    assert.ok(seen.size <= 2, `${seen.size} different maps`);
  });
}

/** Runs `yaml` in process and returns the result as the engine's own value (with its kept measure). */
async function runValue(yaml: string): Promise<Value> {
  return runExecution(compileDefinition(yaml, DEFINITION_LIBRARY), null, harness().deps, new AbortController().signal);
}

test('the kept size of a map and a list grown in place equals the size measured from scratch', async () => {
  const v = await runValue(`main:
  steps:
    - init:
        assign:
          - m: {a: {b: {}}}
          - l: []
    - loop:
        for:
          value: i
          range: [1, 3000]
          steps:
            - put:
                assign:
                  - m["k" + string(i % 700)]: \${len(m) + i}
                  - m["a"]["b"]["k" + string(i % 300)]: \${string(len(m["a"]["b"])) + "-" + string(i)}
                  - m["a"]["n" + string(i % 5)]: '\${if(i % 2 == 0, [i, "x"], {"i": i})}'
                  - l: \${list.concat(l, len(l) * i)}
                  - l[i % len(l)]: \${"v" + string(len(l))}
    - done:
        return: \${[m, l]}
`);
  // toJs/fromJs build the same value anew, never measured before.
  const fresh = fromJs(toJs(v));
  assert.is(sizeOf(v), sizeOf(fresh));
  const [m, l] = v as Value[];
  const [m2, l2] = fresh as Value[];
  assert.is(sizeOf(m!), sizeOf(m2!));
  assert.is(sizeOf(l!), sizeOf(l2!));
});

test.run();
