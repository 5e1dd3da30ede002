// Fuzz: workflow definitions (docs/language.md#definitions and docs/api-resources.md#limits: source 128 KB), as the loader
// and compiler see them from every path (REST, gRPC, the watcher and `run` all call compileDefinition):
// mutated copies of the spec's own cases, YAML alias bombs of every shape (docs/api-resources.md#limits) and deep nesting
// in YAML and JSON. Each compiles or is refused with a DefinitionError (a 400 naming step, line and column);
// never a raw JS error, a stack overflow or a freeze.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { DefinitionError } from '../../src/lang/definition/errors.ts';
import { params, FUZZ_SEED } from './config.ts';

const s = suite(`fuzz: definitions (seed ${FUZZ_SEED})`);

/** The workflow of every spec case (test/spec/**\/*.yaml), as the seeds of mutation. */
function specWorkflows(): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir).sort()) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith('.yaml')) {
        const m = /^workflow: \|\n((?: {2}.*\n|\n)+)/m.exec(readFileSync(p, 'utf8'));
        if (m) out.push(m[1]!.replace(/^ {2}/gm, ''));
      }
    }
  };
  walk(new URL('../spec/', import.meta.url).pathname);
  return out;
}
const SEEDS = specWorkflows();

/** What is wrong with compiling `source`, or undefined when it compiled or was refused properly. */
function problem(source: string): string | undefined {
  try {
    compileDefinition(source, DEFINITION_LIBRARY);
    return undefined;
  } catch (e) {
    if (!(e instanceof DefinitionError)) return `threw a raw ${(e as Error)?.name}: ${(e as Error)?.message}`;
    if (/call stack|Maximum|cannot read|undefined is not|is not a function/i.test(e.message)) return `leaked a JS message: ${e.message}`;
    return undefined;
  }
}

/** An alias bomb: `levels` anchors, each a list of `fanout` aliases of the one before, then a normal main. */
function aliasBomb(levels: number, fanout: number, style: 'flow' | 'block', use: 'assign' | 'unused'): string {
  const lines = ['l0: &l0 ["lol"]'];
  for (let i = 1; i <= levels; i++) {
    if (style === 'flow') lines.push(`l${i}: &l${i} [${Array(fanout).fill(`*l${i - 1}`).join(', ')}]`);
    else lines.push(`l${i}: &l${i}\n${Array(fanout).fill(`  - *l${i - 1}`).join('\n')}`);
  }
  const body = use === 'assign' ? `    - a:\n        assign:\n          - x: *l${levels}\n` : '';
  return `${lines.join('\n')}\nmain:\n  steps:\n${body}    - r:\n        return: 1\n`;
}

/** A value nested `depth` deep in the definition's data, in YAML flow, YAML block or JSON. */
function deepData(depth: number, form: 'flow' | 'block' | 'json'): string {
  if (form === 'json') return `{"main": {"steps": [{"a": {"assign": [{"x": ${'['.repeat(depth)}1${']'.repeat(depth)}}]}}, {"r": {"return": 1}}]}}`;
  if (form === 'flow') return `main:\n  steps:\n    - a:\n        assign:\n          - x: ${'['.repeat(depth)}1${']'.repeat(depth)}\n    - r:\n        return: 1\n`;
  let v = '';
  for (let i = 0; i < depth; i++) v += ' '.repeat(12 + 2 * i) + '-\n';
  return `main:\n  steps:\n    - a:\n        assign:\n          - x:\n${v}${' '.repeat(12 + 2 * depth)}1\n    - r:\n        return: 1\n`;
}

/** Sources that once crashed or froze the emulator, kept as fixed cases. */
const FOUND = [
  aliasBomb(9, 10, 'flow', 'assign'), // the 596-byte bomb: 10^9 nodes, 155 s then heap exhaustion (docs/api-resources.md#limits)
  aliasBomb(9, 10, 'flow', 'unused'),
  deepData(40_000, 'flow'), // "YAML syntax error: Maximum call stack size exceeded"
];

s('alias bombs of every shape and deep nesting compile or are refused with a DefinitionError', () => {
  for (const src of FOUND) assert.is(problem(src), undefined, src.slice(0, 80));
  fc.assert(
    fc.property(
      fc.oneof(
        fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 16 }), fc.constantFrom('flow' as const, 'block' as const), fc.constantFrom('assign' as const, 'unused' as const))
          .map(([l, f, st, u]) => aliasBomb(l, f, st, u)),
        fc.tuple(fc.integer({ min: 1, max: 60_000 }), fc.constantFrom('flow' as const, 'block' as const, 'json' as const))
          .filter(([d, f]) => f !== 'block' || d < 250) // block style costs 2 spaces a level: 128 KB hold ~250 levels
          .map(([d, f]) => deepData(d, f)),
      ),
      (src) => {
        const p = problem(src);
        if (p) throw new Error(p);
      },
    ),
    params(60),
  );
});

s('mutated copies of the spec\'s workflows compile or are refused with a DefinitionError', () => {
  const edit = fc.tuple(fc.nat(), fc.constantFrom('delete', 'insert', 'replace', 'dup-line', 'drop-line'), fc.constantFrom(...' \n\t:-[]{}"\'&*!|>#%@`$,?'.split(''), '${', '}', '*a', '&a ', '<<: ', '!!binary ', '\uFEFF'));
  fc.assert(
    fc.property(fc.constantFrom(...SEEDS), fc.array(edit, { minLength: 1, maxLength: 6 }), (seed, edits) => {
      let src = seed;
      for (const [at, kind, text] of edits) {
        const i = at % (src.length + 1);
        const lines = src.split('\n');
        const li = at % lines.length;
        if (kind === 'delete') src = src.slice(0, i) + src.slice(i + 1);
        else if (kind === 'insert') src = src.slice(0, i) + text + src.slice(i);
        else if (kind === 'replace') src = src.slice(0, i) + text + src.slice(i + text.length);
        else if (kind === 'dup-line') src = [...lines.slice(0, li + 1), lines[li]!, ...lines.slice(li + 1)].join('\n');
        else src = [...lines.slice(0, li), ...lines.slice(li + 1)].join('\n');
      }
      const p = problem(src);
      if (p) throw new Error(`${p}\n--- source ---\n${src}`);
    }),
    params(1500),
  );
});

s.run();
