/**
 * Runs every spec case under test/spec (one YAML file per case; CONTRIBUTING.md#tests-and-benchmarks) end to end: compile the
 * `workflow` with compileDefinition, run it with runExecution on the product's virtual clock (src/engine/virtual-time.ts), and compare.
 *
 * Case format:
 *   description: what the case shows          spec: the docs/ page#anchor it pins
 *   workflow: |  (the source)                 format: yaml | json   (optional)
 *   argument: <value>                         (optional)
 *   result: <value>                           compared strictly as JSON: `2` is an int, `2.0` a double
 *   error: {tags: [..], code: N, message: "substring", context: "step: name"}   (each key optional)
 *   error: {definition: "substring"}          the definition must fail to compile with that message
 * The file is parsed with intAsBigInt so YAML ints stay ints and floats stay doubles.
 *
 * Each case runs twice: as compiled (the engine stays synchronous until something waits), and with every
 * expression and every outbound call deferred (test/support/force-async.ts), so the engine's asynchronous
 * path gives the same outcome, with a step observer and a call interceptor attached (docs/architecture.md#layers-and-where-things-are).
 * Both engine paths proven: the suite's last test checks, with V8's precise coverage of the cases' runs (taken
 * through node:inspector in this process), that the forced runs reached every asynchronous continuation of the
 * engine (each `async function ...Async` under src/engine).
 */
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join, relative } from 'node:path';
import { parse } from 'yaml';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import type { CallbackHub } from '../../src/stdlib/types.ts';
import { recordingVirtualTime } from '../support/virtual-time.ts';
import { WorkflowError } from '../../src/lang/errors.ts';
import { type Value, type WMap } from '../../src/lang/value.ts';
import { toJson } from '../../src/lang/json.ts';
import { runExecution } from '../../src/engine/run.ts';
import { deferringHooks, forceAsync } from '../support/force-async.ts';
import { harness } from './helpers.ts';

/**
 * Cases whose result depends on how parallel branches interleave between reading and writing a shared
 * variable (`total: ${total + i}`). As compiled, such an assignment never waits, so no other branch runs in
 * between; forced async, every expression waits, and the read-modify-write races as it does in the real
 * service when the expression waits (an http.* call in it). Their forced run must still succeed, with every
 * step entry left; the value is not compared.
 */
const INTERLEAVING_DEPENDENT: ReadonlySet<string> = new Set([
  'engine/parallel-branches-shared-writable.yaml',
  'engine/parallel-for-shared-accumulates.yaml',
  'engine/parallel-nesting-two-allowed.yaml',
  'engine/assign-in-place-parallel.yaml',
]);

const root = new URL('../spec/', import.meta.url).pathname;

function collect(dir: string, out: string[]): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) collect(p, out);
    else if (name.endsWith('.yaml') || name.endsWith('.yml')) out.push(p);
  }
  return out;
}

/** YAML (parsed with intAsBigInt and mapAsMap) to a workflow value. */
function toValue(x: unknown): Value {
  if (x === null || x === undefined) return null;
  if (typeof x === 'bigint' || typeof x === 'number' || typeof x === 'string' || typeof x === 'boolean') return x;
  if (Array.isArray(x)) return x.map(toValue);
  if (x instanceof Map) {
    const m: WMap = new Map();
    for (const [k, v] of x) m.set(String(k), toValue(v));
    return m;
  }
  throw new Error(`unsupported YAML value ${String(x)}`);
}

interface Case {
  description?: string;
  spec?: string;
  workflow: string;
  format?: 'yaml' | 'json';
  argument?: unknown;
  result?: unknown;
  error?: Map<string, unknown>;
}

const s = suite('spec cases (test/spec/**/*.yaml)');

/** V8's precise coverage of this suite's runs, with call counts (for the last test). */
const coverage = new Session();
s.before(async () => {
  coverage.connect();
  await coverage.post('Profiler.enable');
  await coverage.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
});
s.after(() => coverage.disconnect());

for (const file of collect(root, [])) {
  const rel = relative(root, file);
  const c = parse(readFileSync(file, 'utf8'), { intAsBigInt: true, mapAsMap: true }) as Map<string, unknown>;
  const k: Case = Object.fromEntries(c) as unknown as Case;
  const name = `${rel}: ${k.description ?? '(no description)'}${k.spec ? ` [spec: ${k.spec}]` : ''}`;
  for (const forced of [false, true]) {
    s(forced ? `${name} (forced async)` : name, () => check(c, k, forced, forced && INTERLEAVING_DEPENDENT.has(rel)));
  }
}

s('the forced-async runs call every async continuation of the engine (docs/architecture.md#layers-and-where-things-are)', async () => {
  const engineDir = new URL('../../src/engine/', import.meta.url);
  const twins = new Map<string, string>(); // function name -> file
  for (const f of readdirSync(engineDir).filter((n) => n.endsWith('.ts'))) {
    for (const m of readFileSync(new URL(f, engineDir), 'utf8').matchAll(/async function (\w+Async)\b/g)) twins.set(m[1]!, f);
  }
  assert.ok(twins.has('iterateAsync') && twins.has('assignToAsync'), `found ${[...twins.keys()].join(', ')}`);
  const { result } = await coverage.post('Profiler.takePreciseCoverage');
  await coverage.post('Profiler.stopPreciseCoverage');
  const calls = new Map<string, number>();
  for (const script of result) {
    for (const fn of script.functions) {
      const file = twins.get(fn.functionName);
      if (file !== undefined && script.url.endsWith(`/src/engine/${file}`)) calls.set(fn.functionName, (calls.get(fn.functionName) ?? 0) + (fn.ranges[0]?.count ?? 0));
    }
  }
  const unreached = [...twins.keys()].filter((n) => !(calls.get(n)! > 0));
  assert.equal(unreached, [], `calls: ${JSON.stringify(Object.fromEntries(calls))}`);
});

async function check(c: Map<string, unknown>, k: Case, forced: boolean, anyResult: boolean): Promise<void> {
  {
    assert.ok(c.has('result') || c.has('error'), 'a case needs `result` or `error`');
    const expectedError = k.error instanceof Map ? k.error : undefined;
    let def;
    try {
      def = compileDefinition(k.workflow, DEFINITION_LIBRARY, k.format ? { format: k.format } : {});
    } catch (e) {
      const want = expectedError?.get('definition');
      if (typeof want !== 'string') throw e;
      assert.ok((e as Error).message.includes(want), `definition error '${(e as Error).message}' lacks '${want}'`);
      return;
    }
    assert.not.ok(expectedError?.has('definition'), 'expected the definition to be rejected');
    const clock = recordingVirtualTime();
    const h = harness(clock);
    const hooks = forced ? deferringHooks() : undefined;
    // A case delivers no callback: as in the test command, a wait's timeout passes at once on the virtual clock.
    const callbacks: CallbackHub = {
      create: (method) => h.deps.callbacks.create(method),
      await: (callback, timeoutMs, signal) => {
        const waiting = h.deps.callbacks.await(callback, timeoutMs, signal);
        void clock.advance(timeoutMs);
        return waiting;
      },
    };
    const deps = { ...h.deps, callbacks, ...(hooks ? { hooks } : {}) };
    const argument = c.has('argument') ? toValue(k.argument) : undefined;
    let actual: { result: string } | { error: WorkflowError };
    try {
      actual = { result: toJson(await runExecution(forced ? forceAsync(def) : def, argument, deps, new AbortController().signal)) };
    } catch (e) {
      if (!(e instanceof WorkflowError)) throw e;
      actual = { error: e };
    }
    hooks?.checkBalanced();
    if (c.has('result')) {
      if ('error' in actual) {
        assert.unreachable(`expected result, got error ${toJson(actual.error.value)} at step ${actual.error.stepName}`);
      } else if (!anyResult) {
        assert.is(actual.result, toJson(toValue(k.result)));
      }
      return;
    }
    if ('result' in actual) assert.unreachable(`expected an error, got result ${actual.result}`);
    else {
      const err = actual.error;
      const json = toJson(err.value);
      const tags = expectedError?.get('tags');
      if (tags !== undefined) assert.equal(err.tags, toJsArray(tags), `tags of ${json}`);
      const code = expectedError?.get('code');
      if (code !== undefined) {
        const got = err.value instanceof Map ? err.value.get('code') : undefined;
        assert.is(String(got), String(code), `code of ${json}`);
      }
      const message = expectedError?.get('message');
      if (message !== undefined) assert.ok(err.message.includes(String(message)), `message of ${json} lacks '${message}'`);
      const context = expectedError?.get('context');
      if (context !== undefined) assert.is(`step: ${err.stepName}`, context);
    }
  }
}

function toJsArray(x: unknown): string[] {
  return Array.isArray(x) ? x.map(String) : [String(x)];
}

s.run();
