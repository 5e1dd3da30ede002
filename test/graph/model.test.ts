// The graph of a definition (docs/graph.md): the model's nodes, edges and clusters for every step kind, the
// layout's boxes, the SVG's escaping and accessibility, Mermaid and DOT text, and the run overlay from step
// entries. In process, on compiled definitions. Control flow as Google documents it:
// https://cloud.google.com/workflows/docs/reference/syntax/jumps
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileDefinition } from '../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { definitionGraph, type WorkflowGraph } from '../../src/graph/model.ts';
import { layoutGraph } from '../../src/graph/layout.ts';
import { renderSvg } from '../../src/graph/svg.ts';
import { toDot, toMermaid } from '../../src/graph/text.ts';
import { runOverlay, type EntryLike } from '../../src/graph/overlay.ts';
import { everyKindWorkflow } from '../support/every-kind.ts';

const s = suite('graph of a definition (docs/graph.md)');

function graphOf(source: string): readonly WorkflowGraph[] {
  return definitionGraph(compileDefinition(source, DEFINITION_LIBRARY)).workflows;
}

/** The edges of `g` as `from -kind[label]-> to` with the routine prefix dropped, for readable assertions. */
function edges(g: WorkflowGraph): string[] {
  const short = (id: string): string => id.replace(`${g.name}/`, '').replace(`${g.name}:`, ':');
  return g.edges.map((e) => `${short(e.from)} -${e.kind}${e.label !== undefined ? `[${e.label}]` : ''}-> ${short(e.to)}`);
}

const FLOW = `main:
  params: [args]
  steps:
    - init:
        assign:
          - n: 0
    - decide:
        switch:
          - condition: \${args.n > 10}
            next: big
          - condition: \${args.n == 1}
            return: one
          - condition: \${args.n == 2}
            steps:
              - two:
                  assign:
                    - n: 2
    - loop:
        for:
          value: v
          range: [1, 3]
          steps:
            - early:
                switch:
                  - condition: \${v == 2}
                    next: break
            - add:
                assign:
                  - n: \${n + v}
    - guarded:
        try:
          call: sub
          args:
            x: \${n}
          result: n
        retry: \${http.default_retry}
        except:
          as: e
          steps:
            - fail:
                raise: \${e}
    - big:
        return: \${n}
sub:
  params: [x]
  steps:
    - back:
        return: \${x}
`;

s('every step is a node named for its step and kind; a call names its function and links to the subworkflow it calls', () => {
  const [main, sub] = graphOf(FLOW);
  assert.is(main!.name, 'main');
  assert.is(sub!.name, 'sub');
  const kinds = Object.fromEntries(main!.nodes.map((n) => [n.id, `${n.kind} ${n.detail}`.trim()]));
  assert.is(kinds['main/init'], 'assign n');
  assert.is(kinds['main/decide'], 'switch 3 conditions');
  assert.is(kinds['main/loop'], 'for v in range');
  assert.is(kinds['main/guarded'], 'try retry, except');
  assert.is(kinds['main/fail'], 'raise');
  assert.is(kinds['main/big'], 'return');
  assert.is(kinds['main:start'], 'start args');
  const call = main!.nodes.find((n) => n.kind === 'call');
  assert.is(call?.detail, 'sub');
  assert.is(call?.calls, 'sub');
  assert.is(call?.id, 'main:try:guarded', 'the call written inline in the try carries the try\'s name');
  assert.is(call?.inline, true);
});

s('edges: sequence, next, each condition labelled, fall-through, loop and break, try → except, retry loop, return and raise to the terminals', () => {
  const [main] = graphOf(FLOW);
  const e = edges(main!);
  for (const expected of [
    ':start -seq-> init',
    'init -seq-> decide',
    'decide -cond[args.n > 10]-> big',
    'decide -cond[args.n == 2]-> two',
    'decide -else[no match]-> loop',
    'two -seq-> loop',
    'loop -branch[each v]-> early',
    'early -break[v == 2]-> guarded',
    'early -else[no match]-> add',
    'add -loop-> loop',
    'loop -seq[done]-> guarded',
    'guarded -except[error]-> fail',
    'guarded -seq-> :try:guarded',
    'big -return-> :end',
    'fail -raise-> :error',
  ]) {
    assert.ok(e.includes(expected), `missing edge ${expected} in\n${e.join('\n')}`);
  }
  assert.ok(e.includes(':try:guarded -retry[retry http.default_retry]-> guarded'), 'the retry loops back to the try');
  assert.ok(e.some((x) => /^:case:1:decide -return-> :end$/.test(x)), 'an inline return in a condition');
});

s('a for, a parallel step (a lane per branch), a try with its except and a steps block are clusters holding their steps', () => {
  const [main] = graphOf(everyKindWorkflow(1));
  const clusterOf = (step: string): string | undefined => main!.clusters.find((c) => c.id === main!.nodes.find((n) => n.step === step && !n.inline)?.cluster)?.kind;
  assert.is(clusterOf('f_0'), 'for');
  assert.is(clusterOf('fa_0'), 'for');
  assert.is(clusterOf('p_0'), 'parallel');
  assert.is(clusterOf('pl_0'), 'branch');
  assert.is(clusterOf('pr_0'), 'branch');
  assert.is(clusterOf('t_0'), 'try');
  assert.is(clusterOf('te_0'), 'except');
  assert.is(clusterOf('g2_0'), 'steps');
  const lanes = main!.clusters.filter((c) => c.kind === 'branch').map((c) => c.label);
  assert.equal(lanes, ['left_0', 'right_0']);
});

s('the layout gives every node a box inside the drawing and no two boxes overlap, for a 200-step workflow of every kind', () => {
  const [main] = graphOf(everyKindWorkflow(10));
  assert.ok(main!.nodes.length >= 200, `${main!.nodes.length} nodes`);
  const l = layoutGraph(main!);
  assert.is(l.nodes.length, main!.nodes.length);
  for (const n of l.nodes) {
    assert.ok(n.x >= 0 && n.y >= 0 && n.x + n.width <= l.width && n.y + n.height <= l.height, `${n.node.id} inside`);
  }
  const sorted = [...l.nodes].sort((a, b) => a.y - b.y);
  for (let i = 0; i < sorted.length; i++) {
    for (let j = i + 1; j < sorted.length && sorted[j]!.y < sorted[i]!.y + sorted[i]!.height; j++) {
      const a = sorted[i]!;
      const b = sorted[j]!;
      assert.ok(a.x + a.width <= b.x || b.x + b.width <= a.x, `${a.node.id} and ${b.node.id} overlap`);
    }
  }
  for (const e of l.edges) assert.ok(e.points.length >= 2, `${e.edge.from} -> ${e.edge.to} is drawn`);
});

const HOSTILE = `main:
  steps:
    - "<script>alert(1)</script>":
        switch:
          - condition: \${"</text>" != "#quot;"}
            next: end
    - 'say "hi" & bye':
        return: 1
`;

s('SVG: every user string is escaped; every node has a <title> and is a link or focusable; the drawing scales by its viewBox', () => {
  const [main] = graphOf(HOSTILE);
  const svg = renderSvg(layoutGraph(main!), { href: (n) => (n.step ? `#L${n.pos.line}` : undefined) });
  assert.not.ok(svg.includes('<script>') || svg.includes('"</text>'), 'no raw markup from step names or conditions');
  assert.ok(svg.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  assert.ok(svg.includes('say &quot;hi&quot; &amp; bye'));
  assert.match(svg, /^<svg [^>]*viewBox="0 0 \d+ \d+"/);
  const nodes = [...svg.matchAll(/<(a href="[^"]*"|g tabindex="0") class="g-node[^"]*"[^>]*><title>([^<]+)<\/title>/g)];
  assert.is(nodes.length, main!.nodes.length, 'one titled, reachable element per node');
});

s('Mermaid and DOT: one subgraph per workflow, nested clusters, labelled edges, user strings quoted and escaped', () => {
  const g = definitionGraph(compileDefinition(HOSTILE, DEFINITION_LIBRARY));
  const mermaid = toMermaid(g);
  assert.ok(mermaid.startsWith('flowchart TD\n'));
  assert.ok(mermaid.includes('#lt;script#gt;alert(1)#lt;/script#gt;'));
  assert.ok(mermaid.includes('say #quot;hi#quot; & bye'));
  assert.ok(mermaid.includes('#35;quot;'), 'a # in a condition is not read as an entity');
  const dot = toDot(g);
  assert.ok(dot.startsWith('digraph workflows {'));
  assert.ok(dot.includes('label="say \\"hi\\" & bye\\nreturn"'));
  const flow = toMermaid(definitionGraph(compileDefinition(FLOW, DEFINITION_LIBRARY)));
  assert.match(flow, /subgraph w\d+\["main"\]/);
  assert.match(flow, /subgraph w\d+\["sub"\]/);
  assert.match(flow, /-->\|"args\.n #gt; 10"\|/);
  assert.match(flow, /-\.->\|"calls"\|/);
});

/** A step entry for the overlay. */
function entry(id: number, step: string, state: EntryLike['state'], parent?: number, progress?: [string, number]): EntryLike {
  return {
    entryId: String(id),
    routine: 'main',
    step,
    state,
    navigationInfo: parent !== undefined ? { parent: String(parent) } : {},
    stepEntryMetadata: progress ? { progressType: progress[0], progressNumber: String(progress[1]) } : {},
  };
}

s('run overlay: node states from the latest entry, iteration and retry counts, the path taken, the failing step, steps not run', () => {
  const [main] = graphOf(FLOW);
  const entries = [
    entry(1, 'init', 'STATE_SUCCEEDED'),
    entry(2, 'decide', 'STATE_SUCCEEDED'),
    entry(3, 'loop', 'STATE_SUCCEEDED'),
    entry(4, 'loop', 'STATE_SUCCEEDED', 3, ['PROGRESS_TYPE_FOR', 1]),
    entry(5, 'early', 'STATE_SUCCEEDED', 4),
    entry(6, 'add', 'STATE_SUCCEEDED', 4),
    entry(7, 'loop', 'STATE_SUCCEEDED', 3, ['PROGRESS_TYPE_FOR', 2]),
    entry(8, 'early', 'STATE_SUCCEEDED', 7),
    entry(9, 'guarded', 'STATE_FAILED'),
    entry(10, 'guarded', 'STATE_FAILED', 9, ['PROGRESS_TYPE_RETRY', 1]),
    entry(11, 'guarded', 'STATE_FAILED', 9, ['PROGRESS_TYPE_RETRY', 2]),
    entry(12, 'fail', 'STATE_FAILED', 9),
  ];
  const o = runOverlay(main!, entries, { routine: 'main', step: 'fail' });
  assert.is(o.nodes.get('main/init')?.state, 'succeeded');
  assert.is(o.nodes.get('main/loop')?.iterations, 2);
  assert.is(o.nodes.get('main/guarded')?.retries, 2);
  assert.is(o.nodes.get('main/guarded')?.state, 'failed');
  assert.is(o.nodes.get('main/fail')?.failing, true);
  assert.is(o.nodes.get('main/big'), undefined, 'not run');
  assert.is(o.nodes.get('main/two'), undefined, 'not run');
  const taken = [...o.taken].map((i) => main!.edges[i]!).map((e) => `${e.from} ${e.to} ${e.kind}`);
  for (const t of ['main:start main/init seq', 'main/init main/decide seq', 'main/decide main/loop else', 'main/loop main/early branch', 'main/early main/add else', 'main/add main/loop loop', 'main/guarded main/fail except']) {
    assert.ok(taken.includes(t), `taken: ${t} in ${taken.join('; ')}`);
  }
  assert.not.ok(taken.some((t) => t.startsWith('main/decide main/big')), 'a condition not met is not taken');
  const svg = renderSvg(layoutGraph(main!), { overlay: o });
  assert.match(svg, /class="g-node g-kind-raise g-state-failed" data-node="main\/fail"[^>]*><title>fail: raise, line \d+, failed, the failing step<\/title>/);
  assert.match(svg, /data-node="main\/big"[^>]*data-state="not-run"/);
  assert.ok(svg.includes('g-taken'));
});

s('run overlay: the way out of parallel branches into the next step is taken from each branch that ran', () => {
  const [main] = graphOf(everyKindWorkflow(1));
  const entries = [
    entry(14, 'p_0', 'STATE_SUCCEEDED'),
    entry(15, 'p_0', 'STATE_SUCCEEDED', 14),
    entry(16, 'pl_0', 'STATE_SUCCEEDED', 15),
    entry(17, 'p_0', 'STATE_SUCCEEDED', 14),
    entry(18, 'pr_0', 'STATE_SUCCEEDED', 17),
    entry(21, 'pf_0', 'STATE_SUCCEEDED'),
  ];
  const o = runOverlay(main!, entries);
  const taken = [...o.taken].map((i) => `${main!.edges[i]!.from} ${main!.edges[i]!.to}`);
  for (const t of ['main/p_0 main/pl_0', 'main/p_0 main/pr_0', 'main/pl_0 main/pf_0', 'main/pr_0 main/pf_0']) assert.ok(taken.includes(t), `${t} in ${taken.join('; ')}`);
});

s.run();
