// Every value that leaves an execution as JSON (its result, a raised error, a sys.log entry, an http.* body)
// is held to the language's value limits (src/lang/language-limits.ts; docs/limits.md "Definitions"): a larger one is
// the workflow's ResourceLimitError at the step, never a frozen or crashed process.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { failure } from './helpers.ts';

const S = `"${'x'.repeat(60_000)}"`;
const ALIASES = Array(30).fill('*a').join(', '); // 1.8 MB of values
const pre = `main:\n  steps:\n    - d:\n        assign:\n          - s: &a ${S}\n`;

async function limitError(steps: string, step = 'r'): Promise<string> {
  const e = await failure(pre + steps);
  const v = e.value as Map<string, unknown>;
  assert.equal(v.get('tags'), ['ResourceLimitError']);
  assert.is(e.step, step);
  return v.get('message') as string;
}

test('returning 1.8 MB of aliased values is a ResourceLimitError (the result is over the memory limit)', async () => {
  assert.match(await limitError(`    - r:\n        return: [${ALIASES}]\n`, 'main'), /512 KB/);
});

test('raising 1.8 MB of aliased values, or a list an expression repeats, is a ResourceLimitError at the raise step', async () => {
  assert.match(await limitError(`    - r:\n        raise: {message: [${ALIASES}]}\n`), /^raise: /);
  assert.match(await limitError(`    - r:\n        raise: \${[s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s,s]}\n`), /^raise: /);
});

test('sys.log of 1.8 MB of aliased values is a ResourceLimitError, nothing is logged', async () => {
  assert.match(await limitError(`    - r:\n        call: sys.log\n        args: {data: [${ALIASES}]}\n`), /^sys\.log: /);
});

test('an http.post body of 1.8 MB is a ResourceLimitError before anything is sent', async () => {
  assert.match(await limitError(`    - r:\n        call: http.post\n        args: {url: "http://127.0.0.1:9/x", body: [${ALIASES}]}\n`), /^http\.post body: /);
});

test.run();
