/**
 * The source tree of a workflow source built from js-yaml's `listener` events (docs/language.md#definitions):
 * each node keeps its offset, maps become ordered entry lists with string keys, and an alias is the anchored
 * node itself, shared. `loadSource` of load.ts drives it; the node types are load.ts's.
 */
import type { State as YamlState } from 'js-yaml';
import type { SourcePos } from './ast.ts';
import { DefinitionError } from './errors.ts';
import type { SEntry, SMap, SNode, SScalar, SSeq } from './load.ts';

/**
 * Builds the tree from js-yaml's events on flat stacks (docs/architecture.md#compile-time: no object per event): `open` pushes where a
 * node starts and how many nodes were read before it; `close` builds the node from the nodes read since and
 * puts it in their place. Beside each node read, `results` keeps js-yaml's value for it, so that a map or list
 * js-yaml read twice (see `node`) and the pairs of a flow list (see `seq`) are told apart by identity.
 * The node an alias stands for is the anchored node itself: the tree shares it.
 */
export class TreeBuilder {
  /** Where each open node starts (its `open` event's position), for the first `depth` entries. */
  private starts = new Int32Array(64);
  /** For each open node, how many nodes `nodes` held when it opened: its children are the ones after. */
  private marks = new Int32Array(64);
  /** How many nodes are open. */
  private depth = 0;
  /** The nodes read and not yet placed in their parent: the first `count` of this array. */
  private readonly nodes: SNode[] = [];
  /** js-yaml's value for each node of `nodes`. */
  private readonly results: unknown[] = [];
  /** How many entries of `nodes` and `results` are in use (the rest are stale: setting `length` costs more). */
  private count = 0;
  private readonly anchors = new Map<string, SNode>();
  /** Whether an alias was read: only then can the tree stand for more nodes than the source holds. */
  aliased = false;

  constructor(
    private readonly source: string,
    private readonly format: 'yaml' | 'json',
    private readonly posAt: (offset: number) => SourcePos,
  ) {}

  root(): SNode | undefined {
    return this.count > 0 ? this.nodes[0] : undefined;
  }

  open(state: YamlState): void {
    const d = this.depth++;
    if (d === this.starts.length) {
      // js-yaml's maxDepth bounds this; grow as far as the source nests.
      const starts = new Int32Array(d * 2);
      starts.set(this.starts);
      this.starts = starts;
      const marks = new Int32Array(d * 2);
      marks.set(this.marks);
      this.marks = marks;
    }
    this.starts[d] = state.position;
    this.marks[d] = this.count;
  }

  close(state: YamlState): void {
    const d = --this.depth;
    const start = this.starts[d]!;
    const mark = this.marks[d]!;
    const node = this.node(start, mark, state);
    // js-yaml tries a block mapping after a node's anchor or tag and rolls back when there is none; the node
    // read in that attempt closes inside the real one, so it only ever lands among a scalar's children.
    this.nodes[mark] = node;
    this.results[mark] = state.result;
    this.count = mark + 1;
    const anchor = (state as unknown as { anchor: string | null }).anchor;
    if (anchor !== null && anchor !== undefined) this.anchors.set(anchor, node);
  }

  /** The node that closes, from its start, its children (`nodes` from `mark` on) and js-yaml's state. */
  private node(start: number, mark: number, state: YamlState): SNode {
    const src = this.source;
    const kind = state.kind as string | null;
    // js-yaml reads a node that might be a block mapping's first key inside the node; when it was not, the
    // node is the one just read (the same object).
    if ((kind === 'mapping' || kind === 'sequence') && this.count === mark + 1 && this.results[mark] === state.result) {
      return this.nodes[mark]!;
    }
    const at = contentStart(src, start, state.position);
    if (kind === 'mapping') return this.map(mark, this.count, at);
    if (kind === 'sequence') return this.seq(mark, state, at);
    if (src.charCodeAt(at) === 0x2a /* * */ && kind === null) {
      let end = at + 1;
      while (end < src.length && !endsAlias(src.charCodeAt(end))) end++;
      const name = src.slice(at + 1, end);
      const target = this.anchors.get(name);
      if (target === undefined) throw new DefinitionError(`unresolved alias *${name}`, { pos: this.posAt(at) });
      this.aliased = true;
      return target;
    }
    if (kind === null) {
      // An empty node (`key:` and nothing after it): null, where the node would have started.
      return { kind: 'scalar', value: null, offset: start, end: start, style: 'plain' };
    }
    return this.scalar(state.result, at, state.position);
  }

  private seq(mark: number, state: YamlState, at: number): SSeq {
    const nodes = this.nodes;
    const results = this.results;
    const count = this.count;
    const result = state.result as unknown[];
    // `[a, b: 1]`: a pair inside a flow list is a map of one entry, read as a key and a value; js-yaml's value
    // for it is an object of its own, not the value of the key read.
    const items = new Array<SNode>(result.length);
    let c = mark;
    let r = 0;
    for (; r < result.length; r++) {
      const item = result[r];
      if (c >= count) break;
      const child = nodes[c]!;
      if (typeof item === 'object' && item !== null && results[c] !== item && c + 1 < count) {
        items[r] = this.map(c, c + 2, child.offset);
        c += 2;
      } else {
        items[r] = child;
        c += 1;
      }
    }
    if (r !== result.length || c !== count) {
      throw new DefinitionError('a list entry that cannot be read (a complex key?)', { pos: this.posAt(at) });
    }
    return { kind: 'seq', items, offset: at };
  }

  private scalar(value: unknown, at: number, position: number): SScalar {
    const src = this.source;
    const c = src.charCodeAt(at);
    const style: SScalar['style'] =
      c === 0x22 /* " */ ? 'double' : c === 0x27 /* ' */ ? 'single' : c === 0x7c /* | */ || c === 0x3e /* > */ ? 'block' : 'plain';
    let end = position;
    if (style === 'plain') while (end > at && isJsSpace(src.charCodeAt(end - 1))) end--;
    else if (style !== 'block') end = src.lastIndexOf(src[at]!, position - 1) + 1;
    let v: SScalar['value'];
    switch (typeof value) {
      case 'bigint':
      case 'string':
      case 'number':
      case 'boolean':
        v = value;
        break;
      default:
        if (value === null || value === undefined) v = null;
        else throw new DefinitionError('unsupported YAML value (custom tag?)', { pos: this.posAt(at) });
    }
    return { kind: 'scalar', value: v, offset: at, end, style };
  }

  /** The map of the key and value nodes `nodes[from]` to `nodes[to - 1]`. */
  private map(from: number, to: number, at: number): SMap {
    const nodes = this.nodes;
    if ((to - from) % 2 !== 0) {
      throw new DefinitionError('a map key without a value (`? key`) is not supported', { pos: this.posAt(at) });
    }
    // Sized up front: most maps have one to three entries, and an array grown by push starts at seventeen.
    const entries = new Array<SEntry>((to - from) / 2);
    let count = 0;
    // Repeated keys: a linear search in small maps (most are), a Map of indexes in large ones.
    const index = to - from > 2 * SMALL_MAP ? new Map<string, number>() : undefined;
    for (let i = from; i < to; i += 2) {
      const k = nodes[i]!;
      if (k.kind !== 'scalar') throw new DefinitionError('map keys must be strings', { pos: this.posAt(k.offset) });
      const key = this.keyText(k);
      const entry: SEntry = { key, keyNode: k, value: nodes[i + 1]! };
      let seen: number | undefined;
      if (index !== undefined) {
        seen = index.get(key);
        if (seen === undefined) index.set(key, count);
      } else {
        for (let j = 0; j < count; j++) {
          if (entries[j]!.key === key) {
            seen = j;
            break;
          }
        }
      }
      if (seen === undefined) entries[count++] = entry;
      else if (this.format === 'json') entries[seen] = entry; // JSON semantics: the last one wins
      else {
        throw new DefinitionError(`YAML syntax error: Map keys must be unique; '${key}' is repeated`, {
          pos: this.posAt(k.offset),
          code: 'YAML_SYNTAX',
        });
      }
    }
    if (count < entries.length) entries.length = count; // JSON: repeated keys took one entry
    return { kind: 'map', entries, offset: at };
  }

  // A key is a string as written: `1: x` has key "1", `true: x` key "true" (workflow maps have string keys).
  private keyText(k: SScalar): string {
    if (typeof k.value === 'string') return k.value;
    if (k.style === 'plain' && k.end > k.offset) return this.source.slice(k.offset, k.end);
    return k.value === null ? 'null' : String(k.value);
  }
}

/** Maps with at most this many entries look for repeated keys by a linear search. */
const SMALL_MAP = 16;

/**
 * Whether a UTF-16 code unit is white space as JavaScript's `\s` and `String.prototype.trim` have it (ECMA-262
 * WhiteSpace and LineTerminator). @internal
 */
export function isJsSpace(c: number): boolean {
  if (c < 0x80) return c === 0x20 || (c >= 0x09 && c <= 0x0d);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** The index of the first code unit of `text` at or after `i` that is not white space ({@link isJsSpace}). @internal */
export function skipJsSpace(text: string, i: number): number {
  while (i < text.length && isJsSpace(text.charCodeAt(i))) i++;
  return i;
}

/** Whether a character ends an alias name (`*name`): white space or a flow indicator. */
function endsAlias(c: number): boolean {
  return isJsSpace(c) || c === 0x2c /* , */ || c === 0x5b /* [ */ || c === 0x5d /* ] */ || c === 0x7b /* { */ || c === 0x7d /* } */;
}

/**
 * Where a node's content starts: past the blanks, comments and properties (`&anchor`, `!tag`) that follow its
 * `open` event, but not past `limit` (the position at its `close`).
 */
function contentStart(src: string, from: number, limit: number): number {
  let i = from;
  while (i < limit) {
    const c = src.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
    else if (c === 0x23 /* # */) {
      while (i < limit && src.charCodeAt(i) !== 0x0a) i++;
    } else if (c === 0x26 /* & */ || c === 0x21 /* ! */) {
      while (i < limit && !isJsSpace(src.charCodeAt(i))) i++;
    } else break;
  }
  return i;
}
