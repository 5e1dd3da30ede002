/**
 * The web UI's graphs (docs/graph.md, docs/web-ui.md): the workflow page draws the graph of the revision it
 * shows; the execution page draws the graph of the revision the execution ran with its run on it (node
 * states, counts, the path taken, the failing step), beside that revision's source with the failing line
 * marked.
 *
 * A revision's graph is built and laid out once and kept (the last {@link CACHE_SIZE} sources drawn, keyed by
 * the source text, so the same source under another revision costs nothing and an edited one never shows a
 * stale drawing); the workflow page's SVG is kept with it. The SVG renderer (src/graph/svg.ts) escapes every
 * user string it writes, which is why its output goes into pages as markup.
 */
import { compileDefinition } from '../lang/definition/compile.ts';
import { DefinitionError } from '../lang/definition/errors.ts';
import { DEFINITION_LIBRARY } from '../stdlib/index.ts';
import { layoutGraph, type GraphLayout } from '../graph/layout.ts';
import { definitionGraph, type GraphNode } from '../graph/model.ts';
import { runOverlay, type EntryLike } from '../graph/overlay.ts';
import { renderSvg } from '../graph/svg.ts';
import { html, SafeHtml } from './html.ts';
import { sourceLines } from './format.ts';
import { writeError } from '../platform/std-streams.ts';

/** Sources whose graphs are kept. */
export const CACHE_SIZE = 32;

/** A revision's graphs laid out, and what pages ask of them. */
export interface DrawnDefinition {
  /** One layout per workflow, `main` first. */
  readonly layouts: readonly GraphLayout[];
  /** Nodes by ID. */
  readonly nodes: ReadonlyMap<string, GraphNode>;
  /** Step nodes by `routine/step` (entries name steps so; inline switch steps are left out). */
  readonly steps: ReadonlyMap<string, GraphNode>;
  /** The workflow page's rendering, made on first use. */
  workflowHtml?: SafeHtml;
}

const cache = new Map<string, DrawnDefinition | null>();

/**
 * The graphs of the definition `source`, laid out; undefined when it does not compile (a deployed revision
 * always does). Kept per source text, least recently used dropped first.
 */
export function drawnDefinition(source: string): DrawnDefinition | undefined {
  const hit = cache.get(source);
  if (hit !== undefined) {
    cache.delete(source);
    cache.set(source, hit);
    return hit ?? undefined;
  }
  let drawn: DrawnDefinition | null;
  try {
    const graph = definitionGraph(compileDefinition(source, DEFINITION_LIBRARY));
    const nodes = new Map<string, GraphNode>();
    const steps = new Map<string, GraphNode>();
    for (const w of graph.workflows) {
      for (const n of w.nodes) {
        nodes.set(n.id, n);
        if (n.step !== '' && !n.inline) steps.set(`${n.routine}/${n.step}`, n);
      }
    }
    drawn = { layouts: graph.workflows.map(layoutGraph), nodes, steps };
  } catch (e) {
    // A deployed revision always compiles; anything else is a bug of the graph code: the page still shows
    // everything else, and stderr says what went wrong.
    if (!(e instanceof DefinitionError)) writeError(`workflows-emulator: internal error while drawing a workflow graph: ${(e as Error)?.stack ?? String(e)}\n`);
    drawn = null;
  }
  cache.set(source, drawn);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!);
  return drawn ?? undefined;
}

/** One figure per workflow graph: its name and parameters as the caption, the SVG scaled to fit. */
function figures(drawn: DrawnDefinition, svg: (layout: GraphLayout, i: number) => string): SafeHtml {
  return html`${drawn.layouts.map(
    (l, i) =>
      html`<figure class="graph-fig" id="graph-${l.graph.name}"><figcaption><code>${l.graph.name}</code>${l.graph.params.length ? html` <span class="muted">(${l.graph.params.join(', ')})</span>` : ''}</figcaption><div class="graph-wrap" tabindex="-1">${new SafeHtml(svg(l, i))}</div></figure>`,
  )}`;
}

/**
 * The workflow page's graph of the revision shown: each node links to its line of the source below
 * (`#L<line>`), a call to a subworkflow to that workflow's graph.
 */
export function workflowGraph(source: string): SafeHtml {
  const drawn = drawnDefinition(source);
  if (!drawn) return html`<p class="muted">This revision's graph cannot be drawn.</p>`;
  drawn.workflowHtml ??= figures(drawn, (l, i) =>
    renderSvg(l, { idPrefix: `wfg${i}`, href: (n) => (n.calls !== undefined ? `#graph-${n.calls}` : n.step !== '' ? `#L${n.pos.line}` : undefined) }),
  );
  return drawn.workflowHtml;
}

/** What the execution page's graph and source show. */
export interface RunView {
  readonly drawn: DrawnDefinition;
  readonly source: string;
  /** Every kept step entry of the execution, in order. */
  readonly entries: readonly EntryLike[];
  /** The failing step (the error's stack trace's first element) and its line. */
  readonly failing?: { readonly routine: string; readonly step: string; readonly line: number };
  /** The node picked (`?node=`), if it exists. */
  readonly selected?: GraphNode;
  /** The execution page's path, which node links extend with `?node=`. */
  readonly pagePath: string;
}

/**
 * The execution page's graph: the run on the graph of the revision it ran; each node links to the page narrowed
 * to its entries, scrolled to its line of the source.
 */
export function runGraph(v: RunView): SafeHtml {
  return figures(v.drawn, (l, i) =>
    renderSvg(l, {
      idPrefix: `xg${i}`,
      overlay: runOverlay(l.graph, v.entries, v.failing),
      href: (n) => (n.step !== '' ? `${v.pagePath}?node=${encodeURIComponent(n.id)}#src-L${n.pos.line}` : undefined),
      ...(v.selected ? { selected: v.selected.id } : {}),
    }),
  );
}

/**
 * The source lines of a node: from its own line to the line before the next step that starts after it in
 * the same workflow (at most 40 lines), as [first, last].
 */
export function nodeLines(drawn: DrawnDefinition, node: GraphNode): readonly [number, number] {
  let next = Infinity;
  for (const n of drawn.nodes.values()) {
    if (n.routine === node.routine && n.step !== '' && n.pos.line > node.pos.line && n.pos.line < next) next = n.pos.line;
  }
  const last = Number.isFinite(next) ? next - 1 : node.pos.line;
  return [node.pos.line, Math.min(last, node.pos.line + 39)];
}

/**
 * The execution page's source: the revision the execution ran, lines numbered and anchored `#src-L<line>`,
 * the failing line marked, the selected node's lines highlighted.
 */
export function runSource(v: RunView, workflowId: string): SafeHtml {
  const lines = sourceLines(v.source);
  const [from, to] = v.selected ? nodeLines(v.drawn, v.selected) : [0, -1];
  const failing = v.failing?.line;
  const note = failing !== undefined ? html`<p class="failing-note">The execution failed at <a href="#src-L${failing}" id="failing-line-link">line ${failing}</a> (step <code>${v.failing!.step}</code>${v.failing!.routine !== 'main' ? html` in <code>${v.failing!.routine}</code>` : ''}).</p>` : '';
  const picked = v.selected ? html`<p class="muted">Lines ${from}–${to}: step <code>${v.selected.step}</code>. <a href="${v.pagePath}#ex-source">Show all steps</a></p>` : '';
  return html`${note}${picked}<div class="source-wrap" tabindex="0" role="region" aria-label="Source of ${workflowId} at the execution's revision"><pre class="source"><code>${lines.map((line, i) => {
    const n = i + 1;
    const cls = `line${n === failing ? ' failing' : ''}${n >= from && n <= to ? ' picked' : ''}`;
    return html`<span class="${cls}" id="src-L${n}">${line}</span>\n`;
  })}</code></pre></div>`;
}
