/**
 * Lays out a workflow graph (src/graph/model.ts) from the workflow's own structure, top to bottom: a step list
 * is a column, switch conditions, parallel branches and a try's except sit side by side, a cluster is a box
 * around its steps. Edges between steps that follow one another drop straight down (with one horizontal
 * jog); every other edge (a jump, a condition's `next`, a fall-through past other steps) runs in a channel
 * to the right of the drawing, each on its own track, and a loop back (for body, retry, continue) runs up the
 * inside left of its box. docs/architecture.md says why this is not a general graph-layout library: measured,
 * dagre needs seconds for the 126 KB benchmark definition, this layout milliseconds.
 *
 * Linear in the blocks for placement; the straight-down test is linear in the nodes per edge.
 */
import type { Block, GraphCluster, GraphEdge, GraphNode, WorkflowGraph } from './model.ts';

/** A node with its box: top-left corner and size, in SVG user units (pixels at 100%). */
export interface PlacedNode {
  readonly node: GraphNode;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A cluster's box: top-left corner and size. */
export interface PlacedCluster {
  readonly cluster: GraphCluster;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** A point of the drawing. */
export interface Point {
  readonly x: number;
  readonly y: number;
}

/** An edge's polyline (at least two points, the last one on the target's border) and where its label goes. */
export interface PlacedEdge {
  readonly edge: GraphEdge;
  readonly points: readonly Point[];
  /** The label's anchor (its text starts there), when the edge is labelled. */
  readonly labelAt?: Point;
}

/** A laid out workflow graph: everything inside `width` × `height`. */
export interface GraphLayout {
  readonly graph: WorkflowGraph;
  readonly width: number;
  readonly height: number;
  readonly nodes: readonly PlacedNode[];
  readonly clusters: readonly PlacedCluster[];
  readonly edges: readonly PlacedEdge[];
}

/** Width of one character of the node text, in user units (a generous average for a 12 px sans-serif font). */
export const CHAR_WIDTH = 7;
/** Most characters of a node line drawn (the full text is in the node's title). */
export const MAX_NODE_CHARS = 30;
/** Height of a step node (two lines of text) and of a terminal. */
const NODE_HEIGHT = 40;
const TERMINAL_HEIGHT = 28;
/** Vertical gap between items of a column: room for a jog and a label. */
const GAP_Y = 36;
/** Horizontal gap between items of a row. */
const GAP_X = 24;
/** Box padding: sides, bottom, and the top holding the box's label. */
const PAD = 12;
const PAD_TOP = 24;
const MARGIN = 12;
/** Distance between the tracks of the right-hand channel. */
const TRACK = 8;

/** The text lines of a node: name (or terminal word) and kind with detail, each at most {@link MAX_NODE_CHARS}. */
export function nodeLines(n: GraphNode): readonly [string, string] {
  const cut = (t: string): string => (t.length <= MAX_NODE_CHARS ? t : t.slice(0, MAX_NODE_CHARS - 1) + '…');
  if (n.kind === 'start') return [cut(n.routine), cut(n.detail ? `(${n.detail})` : '')];
  if (n.kind === 'end' || n.kind === 'error') return [n.kind, ''];
  return [cut(n.inline ? `${n.step} ›` : n.step), cut(n.detail ? `${n.kind} ${n.detail}` : n.kind)];
}

function nodeSize(n: GraphNode): { width: number; height: number } {
  const [a, b] = nodeLines(n);
  const terminal = n.kind === 'start' || n.kind === 'end' || n.kind === 'error';
  return {
    width: Math.max(terminal ? 64 : 96, Math.max(a.length, b.length) * CHAR_WIDTH + 20),
    height: terminal && !b ? TERMINAL_HEIGHT : NODE_HEIGHT,
  };
}

interface Size {
  readonly width: number;
  readonly height: number;
}

/**
 * Lays out one workflow graph.
 * @returns boxes for nodes and clusters and polylines for edges, all inside (0, 0)–(width, height).
 */
export function layoutGraph(graph: WorkflowGraph): GraphLayout {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const clusterById = new Map(graph.clusters.map((c) => [c.id, c]));
  const sizes = measureBlocks(graph.shape, byId, clusterById);
  const total = sizes.get(graph.shape)!;
  const { nodes, clusters, clusterBox } = placeBlocks(graph.shape, sizes, byId, clusterById);

  const placed = graph.nodes.map((n) => nodes.get(n.id)!);
  const channel = new Channel(MARGIN + total.width + TRACK);
  const index = new NodeIndex(placed);
  // Labels of edges leaving one node (a switch's conditions) alternate between two heights so they do not overlap.
  const labelled = new Map<string, number>();
  const stagger = (from: string): number => {
    const k = labelled.get(from) ?? 0;
    labelled.set(from, k + 1);
    return (k % 2) * 11;
  };
  const edges = graph.edges.map((e) => route(e, nodes, index, clusterBox, channel, stagger));
  return {
    graph,
    width: Math.ceil(Math.max(MARGIN + total.width, channel.right()) + MARGIN),
    height: Math.ceil(total.height + 2 * MARGIN),
    nodes: placed,
    clusters,
    edges,
  };
}

/** The size of every block of `shape`, `shape` itself included: a node's from its text, the others' from their items. */
function measureBlocks(
  shape: Block,
  byId: ReadonlyMap<string, GraphNode>,
  clusterById: ReadonlyMap<string, GraphCluster>,
): Map<Block, Size> {
  const sizes = new Map<Block, Size>();
  const measure = (b: Block): Size => {
    let s: Size;
    switch (b.kind) {
      case 'node':
        s = nodeSize(byId.get(b.id)!);
        break;
      case 'column': {
        const items = b.items.map(measure);
        s = { width: Math.max(0, ...items.map((i) => i.width)), height: items.reduce((h, i) => h + i.height, 0) + GAP_Y * Math.max(0, items.length - 1) };
        break;
      }
      case 'row': {
        const items = b.items.map(measure);
        s = { width: items.reduce((w, i) => w + i.width, 0) + GAP_X * Math.max(0, items.length - 1), height: Math.max(0, ...items.map((i) => i.height)) };
        break;
      }
      case 'box': {
        const c = measure(b.content);
        const label = (clusterById.get(b.cluster)?.label.length ?? 0) * CHAR_WIDTH * 0.9 + 2 * PAD;
        s = { width: Math.max(c.width + 2 * PAD, Math.min(label, 260)), height: c.height + PAD_TOP + PAD };
        break;
      }
    }
    sizes.set(b, s);
    return s;
  };
  measure(shape);
  return sizes;
}

/** The boxes of the nodes (by ID) and of the clusters (in placing order, and by ID): `shape` placed inside the margin. */
function placeBlocks(
  shape: Block,
  sizes: ReadonlyMap<Block, Size>,
  byId: ReadonlyMap<string, GraphNode>,
  clusterById: ReadonlyMap<string, GraphCluster>,
): { nodes: Map<string, PlacedNode>; clusters: PlacedCluster[]; clusterBox: Map<string, PlacedCluster> } {
  const nodes = new Map<string, PlacedNode>();
  const clusters: PlacedCluster[] = [];
  const clusterBox = new Map<string, PlacedCluster>();
  const place = (b: Block, x: number, y: number, width: number): void => {
    const s = sizes.get(b)!;
    switch (b.kind) {
      case 'node':
        nodes.set(b.id, { node: byId.get(b.id)!, x: x + (width - s.width) / 2, y, width: s.width, height: s.height });
        return;
      case 'column': {
        let top = y;
        const left = x + (width - s.width) / 2;
        for (const item of b.items) {
          place(item, left, top, s.width);
          top += sizes.get(item)!.height + GAP_Y;
        }
        return;
      }
      case 'row': {
        let left = x + (width - s.width) / 2;
        for (const item of b.items) {
          const w = sizes.get(item)!.width;
          place(item, left, y, w);
          left += w + GAP_X;
        }
        return;
      }
      case 'box': {
        const left = x + (width - s.width) / 2;
        const c: PlacedCluster = { cluster: clusterById.get(b.cluster)!, x: left, y, width: s.width, height: s.height };
        clusters.push(c);
        clusterBox.set(b.cluster, c);
        place(b.content, left + PAD, y + PAD_TOP, s.width - 2 * PAD);
      }
    }
  };
  place(shape, MARGIN, MARGIN, sizes.get(shape)!.width);
  return { nodes, clusters, clusterBox };
}

/** The tracks of the right-hand channel: each track holds vertical runs that do not overlap. */
class Channel {
  private readonly tracks: { readonly from: number; readonly until: number }[][] = [];
  constructor(private readonly left: number) {}

  /** The x of a track free between y0 and y1. Edges are routed in order, so the first free track is reused. */
  take(y0: number, y1: number): number {
    const lo = Math.min(y0, y1) - 4;
    const hi = Math.max(y0, y1) + 4;
    for (let i = 0; i < this.tracks.length; i++) {
      const runs = this.tracks[i]!;
      if (runs.every((r) => hi < r.from || lo > r.until)) {
        runs.push({ from: lo, until: hi });
        return this.left + i * TRACK;
      }
    }
    this.tracks.push([{ from: lo, until: hi }]);
    return this.left + (this.tracks.length - 1) * TRACK;
  }

  right(): number {
    return this.left + this.tracks.length * TRACK;
  }
}

/** The placed nodes sorted by top, for finding those a segment may cross without looking at all of them. */
class NodeIndex {
  private readonly sorted: readonly PlacedNode[];
  private readonly tallest: number;
  constructor(placed: readonly PlacedNode[]) {
    this.sorted = [...placed].sort((p, q) => p.y - q.y);
    this.tallest = Math.max(0, ...placed.map((p) => p.height));
  }

  /** Whether the segment from (x0, y0) to (x1, y1) (vertical or horizontal) crosses a node not in `skip`. */
  blocked(x0: number, y0: number, x1: number, y1: number, skip: ReadonlySet<string>): boolean {
    const lx = Math.min(x0, x1) - 2;
    const hx = Math.max(x0, x1) + 2;
    const ly = Math.min(y0, y1);
    const hy = Math.max(y0, y1);
    // First node whose top is at or below ly - tallest: nodes above it end before ly.
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sorted[mid]!.y < ly - this.tallest) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.sorted.length; i++) {
      const p = this.sorted[i]!;
      if (p.y > hy) break;
      if (skip.has(p.node.id)) continue;
      if (p.x <= hx && p.x + p.width >= lx && p.y + p.height >= ly) return true;
    }
    return false;
  }
}

function route(
  e: GraphEdge,
  nodes: ReadonlyMap<string, PlacedNode>,
  index: NodeIndex,
  boxes: ReadonlyMap<string, PlacedCluster>,
  channel: Channel,
  stagger: (from: string) => number,
): PlacedEdge {
  const a = nodes.get(e.from)!;
  const b = nodes.get(e.to)!;
  const label = (p: Point): PlacedEdge => ({ edge: e, points: pts, ...(e.label !== undefined ? { labelAt: p } : {}) });
  let pts: Point[];
  const ax = a.x + a.width / 2;
  const bx = b.x + b.width / 2;
  const bottom = a.y + a.height;
  const skip = new Set([a.node.id, b.node.id]);
  // A loop back to a box's header: up the inside left of the box.
  const back = e.kind === 'loop' || e.kind === 'retry' || e.kind === 'continue';
  const box = back && b.node.cluster !== undefined ? boxes.get(b.node.cluster) : undefined;
  if (box && a.y > b.y) {
    const x = box.x + PAD / 2;
    const ay = a.y + a.height / 2;
    const by = b.y + b.height / 2;
    pts = [{ x: a.x, y: ay }, { x, y: ay }, { x, y: by }, { x: b.x, y: by }];
    return label({ x: x + 3, y: (ay + by) / 2 });
  }
  // Straight down with one jog just above the target, when nothing is in the way.
  if (b.y > bottom) {
    const jog = b.y - GAP_Y / 2;
    if (!index.blocked(ax, bottom, ax, jog, skip) && !index.blocked(ax, jog, bx, jog, skip)) {
      pts = ax === bx ? [{ x: ax, y: bottom }, { x: bx, y: b.y }] : [{ x: ax, y: bottom }, { x: ax, y: jog }, { x: bx, y: jog }, { x: bx, y: b.y }];
      return label({ x: bx + 4, y: jog - 3 - (e.label !== undefined ? stagger(e.from) : 0) });
    }
  }
  // Anywhere else: out of the source's right side, along a track of the right-hand channel, into the target's
  // right side.
  const ay = a.y + a.height / 2;
  const by = b.y + b.height / 2 + (e.from === e.to ? 6 : 0);
  const x = channel.take(ay, by);
  pts = [{ x: a.x + a.width, y: ay }, { x, y: ay }, { x, y: by }, { x: b.x + b.width, y: by }];
  return label({ x: a.x + a.width + 4, y: ay - 4 });
}
