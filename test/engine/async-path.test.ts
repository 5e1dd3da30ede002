import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Both engine paths proven (docs/architecture.md#layers-and-where-things-are): the spec cases, run a second time with everything deferred
// (spec-cases.test.ts, test/support/force-async.ts), reach every asynchronous continuation of the engine
// (each `async function ...Async` under src/engine), measured with V8's precise coverage (NODE_V8_COVERAGE).
const s = suite('engine async path coverage');

const engineDir = new URL('../../src/engine/', import.meta.url);

interface V8Coverage {
  result: { url: string; functions: { functionName: string; ranges: { count: number }[] }[] }[];
}

s('the forced-async spec run calls every async continuation of the engine', () => {
  const twins = new Map<string, string>(); // function name -> file
  for (const f of readdirSync(engineDir).filter((n) => n.endsWith('.ts'))) {
    for (const m of readFileSync(new URL(f, engineDir), 'utf8').matchAll(/async function (\w+Async)\b/g)) twins.set(m[1]!, f);
  }
  assert.ok(twins.has('iterateAsync') && twins.has('assignToAsync'), `found ${[...twins.keys()].join(', ')}`);

  const dir = mkdtempSync(join(tmpdir(), 'engine-coverage-'));
  try {
    const specCases = new URL('./spec-cases.test.ts', import.meta.url).pathname;
    const r = spawnSync(process.execPath, ['--import', 'tsx', specCases], {
      env: { ...process.env, NODE_V8_COVERAGE: dir },
      encoding: 'utf8',
    });
    assert.is(r.status, 0, `the spec cases failed:\n${r.stdout.slice(-2000)}${r.stderr.slice(-2000)}`);
    const calls = new Map<string, number>();
    for (const f of readdirSync(dir)) {
      const cov = JSON.parse(readFileSync(join(dir, f), 'utf8')) as V8Coverage;
      for (const script of cov.result) {
        for (const fn of script.functions) {
          const file = twins.get(fn.functionName);
          if (file !== undefined && script.url.endsWith(`/src/engine/${file}`)) {
            calls.set(fn.functionName, (calls.get(fn.functionName) ?? 0) + (fn.ranges[0]?.count ?? 0));
          }
        }
      }
    }
    const unreached = [...twins.keys()].filter((n) => !(calls.get(n)! > 0));
    assert.equal(unreached, [], `calls: ${JSON.stringify(Object.fromEntries(calls))}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

s.run();
