// Where breakpoints land (src/debug/breakpoints.ts, docs/debugging.md#breakpoints): a line moves to the step
// written on it, to the step whose body holds it, or to the first step below a workflow header; a line outside
// the file has none; hit conditions.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { hitStops, placeLine, stepSites } from '../../src/debug/breakpoints.ts';

const s = suite('debug: breakpoint placement (docs/debugging.md#breakpoints)');

const SOURCE = `main:
  params: [args]
  steps:
    - first:
        assign:
          - x: 1
    - loop:
        for:
          value: i
          range: [1, 2]
          steps:
            - inner:
                assign:
                  - x: \${x + i}
    - done:
        return: \${x}
helper:
  params: [n]
  steps:
    - only:
        return: \${n}
`;
const def = compileDefinition(SOURCE, DEFINITION_LIBRARY);
const sites = stepSites(def);
const headers = new Map([...def.workflows].map(([name, wf]) => [name, wf.pos.line]));
const lines = SOURCE.split('\n').length;
const place = (line: number) => placeLine(sites, headers, line, lines);

s('every step is a site, nested ones included, in source order', () => {
  assert.equal(sites.map((x) => `${x.routine}.${x.step}@${x.pos.line}`), ['main.first@4', 'main.loop@7', 'main.inner@12', 'main.done@15', 'helper.only@20']);
});

s('a line moves to the step on it, the step whose body holds it, or the first step below a header', () => {
  assert.equal(place(4), { line: 4 });
  assert.equal(place(6), { line: 4 }, 'the assign of first');
  assert.equal(place(14), { line: 12 }, 'inside inner');
  assert.equal(place(1), { line: 4 }, 'main: header');
  assert.equal(place(2), { line: 4 }, 'params');
  assert.equal(place(17), { line: 20 }, 'helper: header goes to its first step, not to done');
  assert.equal(place(21), { line: 20 });
});

s('a line outside the file has no step, with the reason', () => {
  assert.match(String((place(0) as { reason: string }).reason), /outside the file/);
  assert.match(String((place(500) as { reason: string }).reason), /outside the file/);
});

s('hit conditions: N and >= N from the nth hit, == N only the nth, % N every nth; anything else undefined', () => {
  assert.equal([1, 2, 3, 4].map((h) => hitStops('3', h)), [false, false, true, true]);
  assert.equal([1, 2, 3, 4].map((h) => hitStops('>= 2', h)), [false, true, true, true]);
  assert.equal([1, 2, 3, 4].map((h) => hitStops('==2', h)), [false, true, false, false]);
  assert.equal([1, 2, 3, 4].map((h) => hitStops('% 2', h)), [false, true, false, true]);
  assert.is(hitStops('often', 1), undefined);
});

s.run();
