// A test case may call one subworkflow directly (docs/testing.md#calling-one-subworkflow): `routine: NAME` runs
// that routine instead of main, its parameters bound by name from `args` (or `argument` as a map) with their
// defaults, as a `call` step binds them. Black-box on the built bundle (`npm run build` first): the
// `test` command's report and exit codes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EMULATOR_JS } from '../support/emulator.ts';

const s = suite<{ dir: string }>('cli: a test case calls one subworkflow directly (docs/testing.md#calling-one-subworkflow)');

// main is never run by the routine cases: it raises, so a case that went through main would fail.
const WORKFLOW = `main:
  steps:
    - never:
        raise: main must not run in a routine case
total:
  params: [items, tax: 0.5]
  steps:
    - init:
        assign:
          - sum: 0
    - add:
        for:
          value: item
          in: \${items}
          steps:
            - acc:
                assign:
                  - sum: \${sum + item.price}
    - done:
        return: \${sum + sum * tax}
price_of:
  params: [sku]
  steps:
    - get:
        call: http.get
        args:
          url: \${"https://shop.example.com/prices/" + sku}
        result: r
    - done:
        return: \${r.body.amount}
`;

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'test-routine-'));
  writeFileSync(join(ctx.dir, 'shop.yaml'), WORKFLOW);
});
s.after.each((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

function runTest(dir: string, cases: string): { code: number | null; out: string } {
  writeFileSync(join(dir, 'shop.test.yaml'), `workflow: ./shop.yaml\ncases:\n${cases}`);
  const r = spawnSync(process.execPath, [EMULATOR_JS, 'test', '.'], { cwd: dir, encoding: 'utf8', timeout: 60_000, env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout + r.stderr };
}

s('routine runs that subworkflow with args as its parameters, defaults filled, and main never runs', (ctx) => {
  const r = runTest(
    ctx.dir,
    `  - name: with the default tax
    routine: total
    args: {items: [{price: 2}, {price: 4}]}
    expect: {result: 9.0, steps: [init, add, acc, acc, done]}
  - name: with a tax given
    routine: total
    args: {items: [{price: 10}], tax: 0}
    expect: {result: 10}
  - name: argument as the map of parameters
    routine: total
    argument: {items: [], tax: 2}
    expect: {result: 0}
`,
  );
  assert.is(r.code, 0, r.out);
  assert.match(r.out, /✓ with the default tax/);
  assert.match(r.out, /✓ argument as the map of parameters/);
  assert.match(r.out, /3 passed/);
});

s('a routine case takes the mocks of its file and case, as a case through main does', (ctx) => {
  const r = runTest(
    ctx.dir,
    `  - name: the price comes from the mock
    routine: price_of
    args: {sku: tea}
    mocks: {http: [{match: {url: "https://shop.example.com/prices/tea"}, respond: {body: {amount: 4}}}]}
    expect: {result: 4, calls: [{url: "https://shop.example.com/prices/tea", mocked: true}]}
`,
  );
  assert.is(r.code, 0, r.out);
});

s('a missing required parameter or an unknown one fails the case with the TypeError a call step gets', (ctx) => {
  const r = runTest(
    ctx.dir,
    `  - name: no items
    routine: total
    expect: {error: {tags: [TypeError], message: "subworkflow 'total': missing required argument 'items'"}}
  - name: an unknown parameter
    routine: total
    args: {items: [], discount: 1}
    expect: {error: {tags: [TypeError], message: "subworkflow 'total': unexpected argument 'discount'"}}
  - name: expects a wrong result
    routine: total
    args: {items: [{price: 1}]}
    expect: {result: 2}
`,
  );
  assert.is(r.code, 1, r.out);
  assert.match(r.out, /✓ no items/);
  assert.match(r.out, /✓ an unknown parameter/);
  assert.match(r.out, /✗ expects a wrong result/);
  assert.match(r.out, /expected 2 \(int\), got 1\.5 \(double\)/);
});

s('a routine the workflow does not have is an invalid test file (exit 2) at file:line:col, listing the routines', (ctx) => {
  const r = runTest(ctx.dir, `  - name: typo\n    routine: totl\n    args: {items: []}\n`);
  assert.is(r.code, 2, r.out);
  assert.match(r.out, /shop\.test\.yaml:4:14: case "typo": the workflow has no routine 'totl' \(its routines: main, total, price_of\)/);
});

s('args without routine, args with argument, and parameters that are not a map are refused at file:line:col', (ctx) => {
  let r = runTest(ctx.dir, `  - name: stray args\n    args: {items: []}\n`);
  assert.is(r.code, 2, r.out);
  assert.match(r.out, /shop\.test\.yaml:4:11: 'args' goes with 'routine'/);
  r = runTest(ctx.dir, `  - name: both\n    routine: total\n    args: {items: []}\n    argument: {items: []}\n`);
  assert.is(r.code, 2, r.out);
  assert.match(r.out, /shop\.test\.yaml:6:15: give the routine's parameters as 'args' or as 'argument', not both/);
  r = runTest(ctx.dir, `  - name: a list\n    routine: total\n    args: [1, 2]\n`);
  assert.is(r.code, 2, r.out);
  assert.match(r.out, /shop\.test\.yaml:5:11: the parameters of routine 'total' must be a map of parameter names to values/);
});

s.run();
