/**
 * The graph of a definition as text (docs/graph.md "On the command line"): Mermaid flowchart syntax for
 * READMEs and GitHub (https://mermaid.js.org/syntax/flowchart.html) and Graphviz DOT
 * (https://graphviz.org/doc/info/lang.html). Each workflow is a subgraph (DOT: a cluster), each compound step a
 * nested one, and a call to a subworkflow a dashed edge to that workflow's start. Node IDs are generated
 * (`n0`, `n1`, ...); every user string is quoted and escaped for the format.
 */
import type { DefinitionGraph, GraphCluster, GraphEdge, GraphNode, WorkflowGraph } from './model.ts';
import { nodeLines } from './layout.ts';

/** Mermaid's quoted label text: `#`, `"`, `<` and `>` as its entity codes, so nothing is read as markup. */
function mermaidText(text: string): string {
  return text.replace(/#/g, '#35;').replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;');
}

/** A DOT double-quoted string's content: backslash and quote escaped, line breaks as `\n`. */
function dotText(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r?\n/g, '\\n');
}

/** Short IDs for the nodes and clusters of a whole definition. */
class Ids {
  private readonly map = new Map<string, string>();
  of(id: string, prefix: string): string {
    let s = this.map.get(id);
    if (s === undefined) this.map.set(id, (s = `${prefix}${this.map.size}`));
    return s;
  }
}

/** Nodes and sub-clusters per cluster ('' for the workflow's top level). */
function tree(w: WorkflowGraph): { nodes: Map<string, GraphNode[]>; clusters: Map<string, GraphCluster[]> } {
  const nodes = new Map<string, GraphNode[]>();
  const clusters = new Map<string, GraphCluster[]>();
  for (const n of w.nodes) nodes.set(n.cluster ?? '', [...(nodes.get(n.cluster ?? '') ?? []), n]);
  for (const c of w.clusters) clusters.set(c.parent ?? '', [...(clusters.get(c.parent ?? '') ?? []), c]);
  return { nodes, clusters };
}

function label(n: GraphNode): string[] {
  return nodeLines(n).filter((l) => l !== '');
}

/** The definition as a Mermaid flowchart, top down. */
export function toMermaid(graph: DefinitionGraph): string {
  const ids = new Ids();
  const out = ['flowchart TD'];
  const edges: string[] = [];
  for (const w of graph.workflows) {
    const { nodes, clusters } = tree(w);
    const emit = (key: string, indent: string): void => {
      for (const n of nodes.get(key) ?? []) {
        const text = label(n).map(mermaidText).join('<br/>');
        const [open, close] = n.kind === 'start' || n.kind === 'end' || n.kind === 'error' ? ['(["', '"])'] : n.kind === 'switch' ? ['{"', '"}'] : ['["', '"]'];
        out.push(`${indent}${ids.of(n.id, 'n')}${open}${text}${close}`);
      }
      for (const c of clusters.get(key) ?? []) {
        out.push(`${indent}subgraph ${ids.of(c.id, 'c')}["${mermaidText(c.label)}"]`);
        emit(c.id, indent + '  ');
        out.push(`${indent}end`);
      }
    };
    out.push(`  subgraph ${ids.of(`wf:${w.name}`, 'w')}["${mermaidText(w.name)}"]`);
    emit('', '    ');
    out.push('  end');
    for (const e of w.edges) edges.push(`  ${ids.of(e.from, 'n')} ${mermaidArrow(e)} ${ids.of(e.to, 'n')}`);
    for (const n of w.nodes) if (n.calls !== undefined) edges.push(`  ${ids.of(n.id, 'n')} -.->|"calls"| ${ids.of(`${n.calls}:start`, 'n')}`);
  }
  return [...out, ...edges].join('\n') + '\n';
}

function mermaidArrow(e: GraphEdge): string {
  const dashed = e.kind === 'loop' || e.kind === 'retry' || e.kind === 'continue' || e.kind === 'except' || e.kind === 'raise';
  const arrow = dashed ? '-.->' : '-->';
  return e.label !== undefined ? `${arrow}|"${mermaidText(e.label)}"|` : arrow;
}

/** The definition as a Graphviz DOT digraph, top down. */
export function toDot(graph: DefinitionGraph): string {
  const ids = new Ids();
  const out = ['digraph workflows {', '  rankdir=TB;', '  compound=true;', '  node [shape=box, style=rounded, fontname="sans-serif", fontsize=11];', '  edge [fontname="sans-serif", fontsize=9];'];
  const edges: string[] = [];
  for (const w of graph.workflows) {
    const { nodes, clusters } = tree(w);
    const emit = (key: string, indent: string): void => {
      for (const n of nodes.get(key) ?? []) {
        const shape = n.kind === 'switch' ? ', shape=diamond, style=""' : n.kind === 'start' || n.kind === 'end' || n.kind === 'error' ? ', shape=oval, style=""' : '';
        out.push(`${indent}${ids.of(n.id, 'n')} [label="${dotText(label(n).join('\n'))}"${shape}];`);
      }
      for (const c of clusters.get(key) ?? []) {
        out.push(`${indent}subgraph cluster_${ids.of(c.id, 'c')} {`, `${indent}  label="${dotText(c.label)}"; style=dashed;`);
        emit(c.id, indent + '  ');
        out.push(`${indent}}`);
      }
    };
    out.push(`  subgraph cluster_${ids.of(`wf:${w.name}`, 'w')} {`, `    label="${dotText(w.name)}";`);
    emit('', '    ');
    out.push('  }');
    for (const e of w.edges) {
      const attrs = [e.label !== undefined ? `label="${dotText(e.label)}"` : '', e.kind === 'loop' || e.kind === 'retry' || e.kind === 'continue' || e.kind === 'except' || e.kind === 'raise' ? 'style=dashed' : ''].filter(Boolean);
      edges.push(`  ${ids.of(e.from, 'n')} -> ${ids.of(e.to, 'n')}${attrs.length ? ` [${attrs.join(', ')}]` : ''};`);
    }
    for (const n of w.nodes) if (n.calls !== undefined) edges.push(`  ${ids.of(n.id, 'n')} -> ${ids.of(`${n.calls}:start`, 'n')} [label="calls", style=dotted];`);
  }
  return [...out, ...edges, '}'].join('\n') + '\n';
}
