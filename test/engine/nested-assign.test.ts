// Nested-path assignment (`m["a"]["b"][k]: v`; Google's "Assign variables" reference,
// https://cloud.google.com/workflows/docs/reference/syntax/variables) changes the containers along the path
// in place while only the variable holds them, so filling a nested map key by key is linear; a value anyone
// else was given before never changes under them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { result } from './helpers.ts';

test('20,000 keys through a nested path end with every key, each value its own', async () => {
  const r = await result(`main:
  steps:
    - init:
        assign:
          - m: {a: {b: {}}, n: 0}
    - loop:
        for:
          value: k
          range: [1, 20000]
          steps:
            - set:
                assign:
                  - m["a"]["b"][string(k)]: \${k}
    - done:
        return: \${[len(m.a.b), m.a.b["1"], m.a.b["20000"], m.n]}
`);
  assert.is(r, '[20000,1,20000,0]');
});

test('a copy taken between nested assignments keeps its value (values are immutable)', async () => {
  const r = await result(`main:
  steps:
    - a:
        assign:
          - m: {}
          - m["x"]["y"]["k1"]: 1
          - m["x"]["y"]["k2"]: 2
          - before: \${m}
          - inner: \${m.x.y}
          - m["x"]["y"]["k3"]: 3
          - m["x"]["z"]: 4
          - l: [[0, 0], [0, 0]]
          - l[1][0]: 5
          - l0: \${l}
          - l[1][1]: 6
    - done:
        return: \${[before, inner, m, l0, l]}
`);
  assert.is(
    r,
    '[{"x":{"y":{"k1":1,"k2":2}}},{"k1":1,"k2":2},{"x":{"y":{"k1":1,"k2":2,"k3":3},"z":4}},[[0,0],[5,0]],[[0,0],[5,6]]]',
  );
});

test('an out-of-range index deep in a path is still the IndexError, and nothing changes', async () => {
  const r = await result(`main:
  steps:
    - a:
        assign:
          - m: {}
          - m["x"]["l"]: [1, 2]
          - m["x"]["l"][0]: 9
    - t:
        try:
          assign:
            - m["x"]["l"][5]: 0
        except:
          as: e
          steps:
            - r:
                return: \${[e.tags, m]}
`);
  assert.is(r, '[["IndexError"],{"x":{"l":[9,2]}}]');
});

test.run();
