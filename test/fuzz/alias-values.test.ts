// Fuzz: values built from aliases (docs/limits.md "Definitions"): an anchored string or list repeated through
// aliases and returned, raised, logged or sent as a body either is refused at deploy (DefinitionError) or runs
// to a result or a tagged WorkflowError, whatever its expanded size; nothing throws raw or freezes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { DefinitionError } from '../../src/lang/definition/errors.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { encodeError } from '../../src/service/executions/error-payload.ts';
import { run } from '../engine/helpers.ts';
import { params, FUZZ_SEED } from './config.ts';

const s = suite(`fuzz: values built from aliases (seed ${FUZZ_SEED})`);

const USES = {
  return: (v: string) => `    - r:\n        return: ${v}\n`,
  raise: (v: string) => `    - r:\n        raise: {message: ${v}}\n`,
  log: (v: string) => `    - r:\n        call: sys.log\n        args: {json: {v: ${v}}}\n`,
  post: (v: string) => `    - r:\n        call: http.post\n        args: {url: "http://127.0.0.1:9/", body: ${v}}\n`,
  assign: (v: string) => `    - r:\n        assign:\n          - x: ${v}\n`,
};

function source(stringKb: number, levels: number, fanout: number, use: keyof typeof USES): string {
  let src = `l0: &l0 "${'x'.repeat(stringKb * 1024)}"\n`;
  for (let i = 1; i <= levels; i++) src += `l${i}: &l${i} [${Array(fanout).fill(`*l${i - 1}`).join(', ')}]\n`;
  return `${src}main:\n  steps:\n${USES[use](`*l${levels}`)}`;
}

s('aliased values compile or are refused, and run to a result or a tagged error', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 100 }),
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 1, max: 40 }),
      fc.constantFrom(...(Object.keys(USES) as (keyof typeof USES)[])),
      async (kb, levels, fanout, use) => {
        const src = source(kb, levels, fanout, use);
        if (src.length > 128 * 1024) return;
        try {
          compileDefinition(src, DEFINITION_LIBRARY);
        } catch (e) {
          assert.instance(e, DefinitionError);
          return;
        }
        const o = await run(src);
        if ('error' in o) {
          const payload = JSON.parse(encodeError(o.error.value)) as { tags?: unknown };
          assert.ok(Array.isArray(payload.tags) && payload.tags.length > 0, o.error.json.slice(0, 200));
        } else assert.type(o.result, 'string');
      },
    ),
    params(25, [[60, 1, 30, 'raise'], [60, 2, 40, 'return'], [100, 1, 20, 'log']]),
  );
});

s.run();
