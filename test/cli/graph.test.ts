// The graph command (docs/graph.md "On the command line"): `workflows-emulator graph FILE [--format
// svg|mermaid|dot] [--output FILE]`, black-box on the built file (`npm run build` first): SVG, Mermaid and DOT
// of the published examples, --output, and exit 2 with file:line:col for an invalid definition.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { EMULATOR_JS } from '../support/emulator.ts';

const s = suite<{ dir: string }>('graph command (docs/graph.md)');

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'graph-cli-'));
});
s.after.each((ctx) => {
  rmSync(ctx.dir, { recursive: true, force: true });
});

const EXAMPLES = resolve(new URL('../../examples/workflows', import.meta.url).pathname);

function graph(args: string[]) {
  const r = spawnSync(process.execPath, [EMULATOR_JS, 'graph', ...args], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' }, timeout: 20_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

s('every example draws as SVG: one titled, reachable node per step, a drawing per workflow, its own light and dark styles', () => {
  for (const name of readdirSync(EXAMPLES).filter((f) => /\.ya?ml$/.test(f))) {
    const file = join(EXAMPLES, name);
    const r = graph([file]);
    assert.is(r.status, 0, `${name}: ${r.stderr}`);
    assert.match(r.stdout, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"[^>]* viewBox="0 0 \d+ \d+"/);
    assert.ok(r.stdout.includes('prefers-color-scheme:dark'), `${name}: dark scheme`);
    const source = readFileSync(file, 'utf8');
    const workflows = [...source.matchAll(/^([A-Za-z_][\w]*):\s*$/gm)].map((m) => m[1]!);
    for (const w of workflows) assert.ok(r.stdout.includes(`data-workflow="${w}"`), `${name}: a drawing of ${w}`);
    const titled = [...r.stdout.matchAll(/class="g-node[^"]*"[^>]*><title>/g)].length;
    assert.ok(titled >= 3 * workflows.length, `${name}: ${titled} titled nodes`);
  }
});

s('--format mermaid and --format dot write those languages; --output writes the file instead of stdout', (ctx) => {
  const file = join(EXAMPLES, 'order-saga.yaml');
  const m = graph([file, '--format', 'mermaid']);
  assert.is(m.status, 0, m.stderr);
  assert.ok(m.stdout.startsWith('flowchart TD\n'));
  assert.match(m.stdout, /subgraph w\d+\["main"\]/);
  const d = graph(['--format=dot', file]);
  assert.is(d.status, 0, d.stderr);
  assert.ok(d.stdout.startsWith('digraph workflows {'));
  assert.ok(d.stdout.trimEnd().endsWith('}'));
  const out = join(ctx.dir, 'g.svg');
  const o = graph([file, '--output', out]);
  assert.is(o.status, 0, o.stderr);
  assert.is(o.stdout, '');
  assert.ok(readFileSync(out, 'utf8').startsWith('<svg'));
});

s('an invalid definition exits 2 with file:line:col and writes nothing; a bad format or missing file exits 2', (ctx) => {
  const bad = join(ctx.dir, 'bad.yaml');
  writeFileSync(bad, 'main:\n  steps:\n    - one:\n        nxt: two\n');
  const r = graph([bad]);
  assert.is(r.status, 2);
  assert.is(r.stdout, '');
  assert.match(r.stderr, new RegExp(`^${bad.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:4:\\d+: invalid workflow definition`));
  const f = graph([join(EXAMPLES, 'hello.yaml'), '--format', 'png']);
  assert.is(f.status, 2);
  assert.match(f.stderr, /--format must be svg, mermaid or dot/);
  const missing = graph([join(ctx.dir, 'nope.yaml')]);
  assert.is(missing.status, 2);
  assert.match(missing.stderr, /cannot read .*nope\.yaml: ENOENT/);
  assert.is(graph([]).status, 2);
});

s('graph --help prints the command\'s usage; the server\'s --help mentions graph', () => {
  const r = graph(['--help']);
  assert.is(r.status, 0);
  assert.match(r.stdout, /Usage: workflows-emulator graph <file\.yaml\|file\.json> \[--format svg\|mermaid\|dot\]/);
  const server = spawnSync(process.execPath, [EMULATOR_JS, '--help'], { encoding: 'utf8' });
  assert.match(server.stdout, /workflows-emulator graph <file\.yaml\|file\.json>/);
});

s.run();
