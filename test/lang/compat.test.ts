// `--compat google` (docs/compat.md): each point where the specification and Google's documented behaviour
// differ follows the specification by default and Google with `compat: 'google'`. Each test runs both ways
// through the product's compiler and engine, so it fails if the switch does nothing or changes the default.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { parseCompat, type Compat } from '../../src/lang/compat.ts';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { WorkflowError } from '../../src/lang/errors.ts';
import { toJson } from '../../src/lang/json.ts';
import type { Value } from '../../src/lang/value.ts';
import { runExecution } from '../../src/engine/run.ts';
import { prepareRequest } from '../../src/stdlib/http.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { harness } from '../engine/helpers.ts';

const s = suite('compat: the specification by default, Google with --compat google');

/** Runs `yaml` with `compat`; the result's JSON, or `error: <tags> <message>`. */
async function outcome(yaml: string, compat: Compat): Promise<string> {
  const def = compileDefinition(yaml, DEFINITION_LIBRARY, { compat });
  const h = harness();
  try {
    const v = await runExecution(def, null, { ...h.deps, compat }, new AbortController().signal);
    return toJson(v as Value);
  } catch (e) {
    if (!(e instanceof WorkflowError)) throw e;
    return `error: ${e.tags.join(',')} ${e.message}`;
  }
}

const returns = (expr: string) => `main:\n  steps:\n    - r:\n        return: \${${expr}}\n`;

s('parseCompat reads spec and google (any case), empty as spec, and nothing else', () => {
  assert.equal([parseCompat(undefined), parseCompat(''), parseCompat('SPEC'), parseCompat('Google')], ['spec', 'spec', 'spec', 'google']);
  assert.is(parseCompat('gcp'), undefined);
});

s('+ between a string and an int, double or bool: TypeError by the spec, joined as text by Google (https://cloud.google.com/workflows/docs/reference/syntax/datatypes)', async () => {
  const yaml = returns('["Hello world" + 1, "bytes=" + 0, 1.5 + "x", "b" + true, "s" + "t", 1 + 2]');
  assert.match(await outcome(yaml, 'spec'), /^error: TypeError/);
  assert.is(await outcome(yaml, 'google'), '["Hello world1","bytes=0","1.5x","btrue","st",3]');
  // Other mixes stay TypeErrors under Google too.
  assert.match(await outcome(returns('"a" + null'), 'google'), /^error: TypeError/);
  assert.match(await outcome(returns('"a" + [1]'), 'google'), /^error: TypeError/);
});

s("precedence: comparison above equality above in by the spec; one level, left to right, in Google's table (https://cloud.google.com/workflows/docs/reference/syntax/datatypes)", async () => {
  // Spec: "a" in (["a"] == true) is a TypeError; Google: ("a" in ["a"]) == true.
  assert.match(await outcome(returns('"a" in ["a"] == true'), 'spec'), /^error: TypeError/);
  assert.is(await outcome(returns('"a" in ["a"] == true'), 'google'), 'true');
  // Spec: true == (1 < 2); Google: (true == 1) < 2, a bool compared with an int.
  assert.is(await outcome(returns('true == 1 < 2'), 'spec'), 'true');
  assert.match(await outcome(returns('true == 1 < 2'), 'google'), /^error: TypeError/);
  // Arithmetic and and/or keep their levels either way.
  assert.is(await outcome(returns('1 + 2 * 3 == 7 and 2 > 1'), 'google'), 'true');
});

s('text.find_all: [{index, match}] by the spec, a sorted list of indexes by Google (https://cloud.google.com/workflows/docs/reference/stdlib/text/find_all)', async () => {
  assert.is(await outcome(returns('text.find_all("Hello World", "l")'), 'spec'), '[{"index":2,"match":"l"},{"index":3,"match":"l"},{"index":9,"match":"l"}]');
  assert.is(await outcome(returns('text.find_all("Hello World", "l")'), 'google'), '[2,3,9]');
  assert.is(await outcome(returns('text.find_all("00000", "00")'), 'google'), '[0,2]');
});

s('text.replace_all_regex: \\1 names a group by the spec; Google takes no backreferences (https://cloud.google.com/workflows/docs/reference/stdlib/text/replace_all_regex)', async () => {
  const yaml = returns('text.replace_all_regex("John Smith", "(\\\\w+) (\\\\w+)", "\\\\2 \\\\1")');
  assert.is(await outcome(yaml, 'spec'), '"Smith John"');
  assert.is(await outcome(yaml, 'google'), '"\\\\2 \\\\1"');
});

const PARALLEL = `main:
  steps:
    - init:
        assign:
          - done: []
    - both:
        parallel:
          shared: [done]
          branches:
            - fails:
                steps:
                  - boom:
                      raise: boom
            - works:
                steps:
                  - wait:
                      call: sys.sleep
                      args:
                        seconds: 1
                  - mark:
                      assign:
                        - done: \${list.concat(done, "works")}
    - r:
        return: \${done}
`;

s("a parallel step's default exception policy: unhandled by the spec, continueAll by Google (https://cloud.google.com/workflows/docs/reference/syntax/parallel-steps)", async () => {
  assert.is(await outcome(PARALLEL, 'spec'), 'error:  boom');
  assert.match(await outcome(PARALLEL, 'google'), /^error: UnhandledBranchError/);
  // An explicit policy is kept either way.
  const explicit = PARALLEL.replace('shared: [done]', 'shared: [done]\n          exception_policy: unhandled');
  assert.is(await outcome(explicit, 'google'), 'error:  boom');
});

const RETRY = `main:
  steps:
    - init:
        assign:
          - attempts: 0
    - call:
        try:
          steps:
            - count:
                assign:
                  - attempts: \${attempts + 1}
            - fail:
                raise:
                  code: 502
                  tags: [HttpError]
                  message: bad gateway
        retry: \${http.default_retry_non_idempotent}
        except:
          as: e
          steps:
            - r:
                return: \${attempts}
`;

s('http.default_retry_non_idempotent: the spec retries 502 as http.default_retry does; Google only 429, 503 and ConnectionFailedError (https://cloud.google.com/workflows/docs/reference/stdlib/http/default_retry_predicate_non_idempotent)', async () => {
  assert.is(await outcome(RETRY, 'spec'), '6');
  assert.is(await outcome(RETRY, 'google'), '1');
  assert.is(await outcome(RETRY.replace('code: 502', 'code: 503'), 'google'), '6');
  // As a predicate name too.
  const asPredicate = RETRY.replace('retry: ${http.default_retry_non_idempotent}', 'retry:\n          predicate: ${http.default_retry_non_idempotent}\n          max_retries: 2');
  assert.is(await outcome(asPredicate, 'spec'), '3');
  assert.is(await outcome(asPredicate, 'google'), '1');
});

s('the default http.* timeout: 1800 s by the spec, 300 s by Google (https://cloud.google.com/workflows/docs/reference/stdlib/http/get)', () => {
  const args = { method: 'GET', url: 'http://localhost:1/', headers: undefined, body: undefined, query: undefined, timeout: undefined };
  assert.is(prepareRequest('http.get', args).timeoutMs, 1_800_000);
  assert.is(prepareRequest('http.get', args, 'google').timeoutMs, 300_000);
  assert.is(prepareRequest('http.get', { ...args, timeout: 900n }, 'google').timeoutMs, 900_000);
});

s.run();
