import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';

// The engine's modules import one another without a cycle (docs/architecture.md#layers-and-where-things-are: the
// step kinds reach the interpreter through the execution's Engine, not by import).
const s = suite('engine imports');

const dir = new URL('../../src/engine/', import.meta.url);

s('no import cycle among the files of src/engine (type imports included)', () => {
  const graph = new Map<string, string[]>();
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.ts'))) {
    const text = readFileSync(new URL(f, dir), 'utf8');
    graph.set(f, [...text.matchAll(/from '\.\/([\w-]+\.ts)'/g)].map((m) => m[1]!));
  }
  assert.ok(graph.size > 10, 'read the engine files');
  const state = new Map<string, 'open' | 'done'>();
  const visit = (f: string, path: string[]): void => {
    state.set(f, 'open');
    for (const g of graph.get(f) ?? []) {
      if (state.get(g) === 'open') assert.unreachable(`import cycle: ${[...path.slice(path.indexOf(g)), g].join(' -> ')}`);
      if (state.get(g) === undefined) visit(g, [...path, g]);
    }
    state.set(f, 'done');
  };
  for (const f of graph.keys()) if (state.get(f) === undefined) visit(f, [f]);
});

s.run();
