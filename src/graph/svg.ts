/**
 * Renders a laid out workflow graph (src/graph/layout.ts) as SVG text (docs/graph.md): nodes as links with a
 * `<title>` (keyboard-reachable, named for screen readers), clusters as labelled boxes, edges as polylines with
 * arrowheads and their labels. Every user string (step names, conditions, function names) is escaped. Colours
 * come from CSS: the web UI's stylesheet styles the `g-*` classes with its light and dark variables; a
 * standalone SVG (the `graph` command's) carries its own `<style>` with both schemes. The drawing scales to
 * its container through `viewBox` (narrow screens see it shrunk, never cut).
 *
 * A run overlay (an execution's step history: src/graph/overlay.ts) adds each node's state and counts, draws
 * the edges taken strongly and marks the failing node.
 */
import type { GraphLayout, PlacedEdge, PlacedNode } from './layout.ts';
import type { GraphNode } from './model.ts';
import type { RunOverlay } from './overlay.ts';
import { nodeLines } from './layout.ts';

/** Options of {@link renderSvg}. */
export interface SvgOptions {
  /** Prefix of the element IDs the SVG defines (its arrowhead markers), unique within the page. Default `wfg`. */
  readonly idPrefix?: string;
  /** Where a node links to (escaped here); undefined: the node is focusable but not a link. */
  readonly href?: (node: GraphNode) => string | undefined;
  /** A standalone document: an XML declaration-free `<svg>` with its own `<style>` (light and dark). */
  readonly standalone?: boolean;
  /** The run to draw on the graph. */
  readonly overlay?: RunOverlay;
  /** The node shown selected (its ID). */
  readonly selected?: string;
}

/** Escapes `&`, `<`, `>`, `"` and `'` for XML text and attribute values. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'));
}

/** The stylesheet a standalone SVG carries (the web UI's styles.css holds the same rules for pages). */
export const STANDALONE_STYLE = `
.wf-graph{--g-fg:#1f2328;--g-muted:#5f6670;--g-bg:#fff;--g-box:#f3f4f6;--g-line:#8a929b;--g-ok:#18794e;--g-bad:#c5221f;--g-run:#1a5fd0;font:12px system-ui,sans-serif;color:var(--g-fg)}
@media (prefers-color-scheme:dark){.wf-graph{--g-fg:#e6e8eb;--g-muted:#9aa3ad;--g-bg:#191d23;--g-box:#14171c;--g-line:#6f7883;--g-ok:#81c995;--g-bad:#f28b82;--g-run:#8ab4f8}}
${graphCss()}`;

/** The graph's CSS rules over the `--g-*` variables (the web UI maps them to its own). */
export function graphCss(): string {
  return `.g-cluster rect{fill:var(--g-box);stroke:var(--g-line);stroke-dasharray:4 3}
.g-cluster text{fill:var(--g-muted);font-size:11px}
.g-node rect{fill:var(--g-bg);stroke:var(--g-line);stroke-width:1.2}
.g-node text{fill:var(--g-fg)}
.g-node .g-detail{fill:var(--g-muted);font-size:11px}
.g-node:focus{outline:none}.g-node:focus rect,.g-node:hover rect{stroke:var(--g-run);stroke-width:3}
.g-kind-start rect,.g-kind-end rect,.g-kind-error rect{rx:14px}
.g-edge{fill:none;stroke:var(--g-line);stroke-width:1.2}
.g-edge-loop,.g-edge-retry,.g-edge-continue,.g-edge-except,.g-edge-raise{stroke-dasharray:5 3}
.g-label{fill:var(--g-muted);font-size:10px}
.g-arrow{fill:var(--g-line)}
.g-state-succeeded rect{stroke:var(--g-ok);stroke-width:2}
.g-state-failed rect{stroke:var(--g-bad);stroke-width:3.5}
.g-state-running rect{stroke:var(--g-run);stroke-width:3;stroke-dasharray:6 3}
.g-state-not-run{opacity:.55}
.g-selected rect{stroke-width:4}
.g-taken{stroke:var(--g-fg);stroke-width:3}
.g-badge{font-size:10px;fill:var(--g-muted)}
.g-state-failed .g-badge{fill:var(--g-bad);font-weight:700}`;
}

const r = (n: number): string => String(Math.round(n * 10) / 10);

/** The SVG of one laid out workflow graph. */
export function renderSvg(layout: GraphLayout, options: SvgOptions = {}): string {
  const prefix = options.idPrefix ?? 'wfg';
  const arrow = `${prefix}-arrow`;
  const out: string[] = [];
  const name = escapeXml(layout.graph.name);
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="wf-graph" viewBox="0 0 ${layout.width} ${layout.height}" width="${layout.width}" height="${layout.height}" role="group" aria-label="Graph of workflow ${name}" data-workflow="${name}">`,
  );
  if (options.standalone) out.push(`<style>${STANDALONE_STYLE}</style>`);
  out.push(`<defs><marker id="${arrow}" viewBox="0 0 8 8" refX="8" refY="4" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto"><path class="g-arrow" d="M0,0L8,4L0,8z"/></marker></defs>`);
  for (const c of layout.clusters) {
    out.push(
      `<g class="g-cluster g-cluster-${c.cluster.kind}"><rect x="${r(c.x)}" y="${r(c.y)}" width="${r(c.width)}" height="${r(c.height)}" rx="8"/><text x="${r(c.x + 8)}" y="${r(c.y + 15)}">${escapeXml(c.cluster.label)}</text></g>`,
    );
  }
  const taken = options.overlay?.taken;
  layout.edges.forEach((e, i) => out.push(edgeSvg(e, arrow, taken?.has(i) ?? false)));
  for (const n of layout.nodes) out.push(nodeSvg(n, options));
  out.push('</svg>');
  return out.join('\n');
}

function edgeSvg(e: PlacedEdge, arrow: string, taken: boolean): string {
  if (e.points.length < 2) return '';
  const d = e.points.map((p, i) => `${i ? 'L' : 'M'}${r(p.x)},${r(p.y)}`).join('');
  const path = `<path class="g-edge g-edge-${e.edge.kind}${taken ? ' g-taken' : ''}" d="${d}" marker-end="url(#${arrow})" data-from="${escapeXml(e.edge.from)}" data-to="${escapeXml(e.edge.to)}"/>`;
  const label = e.labelAt && e.edge.label !== undefined ? `<text class="g-label" x="${r(e.labelAt.x)}" y="${r(e.labelAt.y)}">${escapeXml(e.edge.label)}</text>` : '';
  return path + label;
}

function nodeSvg(p: PlacedNode, options: SvgOptions): string {
  const n = p.node;
  const [first, second] = nodeLines(n);
  const run = options.overlay?.nodes.get(n.id);
  // Terminals (start, end, error) carry no state: entries name steps only.
  const state = options.overlay && n.step !== '' ? (run?.state ?? 'not-run') : undefined;
  const classes = ['g-node', `g-kind-${n.kind}`];
  if (state) classes.push(`g-state-${state}`);
  if (options.selected === n.id) classes.push('g-selected');
  const title = [
    n.kind === 'start' || n.kind === 'end' || n.kind === 'error' ? `${n.routine}: ${n.kind}` : `${n.step}: ${n.kind}${n.detail ? ' ' + n.detail : ''}`,
    n.kind === 'start' || n.kind === 'end' || n.kind === 'error' ? '' : `line ${n.pos.line}`,
    n.calls ? `calls ${n.calls}` : '',
    state ? stateText(state, run) : '',
  ]
    .filter(Boolean)
    .join(', ');
  const href = options.href?.(n);
  const open = href !== undefined ? `<a href="${escapeXml(href)}"` : `<g tabindex="0"`;
  const close = href !== undefined ? '</a>' : '</g>';
  const two = second !== '';
  const cx = p.x + p.width / 2;
  const badge = run ? badgeText(run) : '';
  return `${open} class="${classes.join(' ')}" data-node="${escapeXml(n.id)}" data-step="${escapeXml(n.step)}" data-routine="${escapeXml(n.routine)}"${state ? ` data-state="${state}"` : ''}><title>${escapeXml(title)}</title><rect x="${r(p.x)}" y="${r(p.y)}" width="${r(p.width)}" height="${r(p.height)}" rx="6"/><text class="g-name" x="${r(cx)}" y="${r(p.y + (two ? 16 : p.height / 2 + 4))}" text-anchor="middle">${escapeXml(first)}</text>${
    two ? `<text class="g-detail" x="${r(cx)}" y="${r(p.y + 31)}" text-anchor="middle">${escapeXml(second)}</text>` : ''
  }${badge ? `<text class="g-badge" x="${r(p.x + p.width - 3)}" y="${r(p.y - 3)}" text-anchor="end">${escapeXml(badge)}</text>` : ''}${close}`;
}

function stateText(state: string, run: RunOverlay['nodes'] extends ReadonlyMap<string, infer V> ? V | undefined : never): string {
  const parts = [state.replace('-', ' ')];
  if (run && run.entries > 1) parts.push(`${run.entries} entries`);
  if (run?.iterations) parts.push(`${run.iterations} iterations`);
  if (run?.retries) parts.push(`${run.retries} ${run.retries === 1 ? 'retry' : 'retries'}`);
  if (run?.failing) parts.push('the failing step');
  return parts.join(', ');
}

function badgeText(run: NonNullable<ReturnType<RunOverlay['nodes']['get']>>): string {
  const parts: string[] = [];
  if (run.iterations) parts.push(`×${run.iterations}`);
  else if (run.retries) parts.push(`retry ${run.retries}`);
  else if (run.entries > 1) parts.push(`×${run.entries}`);
  if (run.failing) parts.push('failed here');
  return parts.join(' ');
}
