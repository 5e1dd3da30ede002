/**
 * Loading a workflow source (docs/language.md#definitions: "A definition (YAML or JSON)"): text in,
 * a tree of source nodes out, each node keeping its offset so every later error can name `line:col`.
 *
 * YAML is read with js-yaml 4 (a port of PyYAML's reader), because it accepts what libyaml/PyYAML (and so the
 * real service) accept and the `yaml` package rejects: flow collections whose continuation lines are indented
 * no more than their key, and quoted scalars continued at a lower indentation, folded as libyaml folds them.
 * It is also about 10x faster (docs/architecture.md#reading-definitions-the-yaml-reader has the measurements). Scalars are resolved with the
 * YAML 1.2 core schema (`true`/`True`/`TRUE` are booleans; ints are read as bigint and stay exact; `1.0` is a
 * double). The tree is built from js-yaml's `listener` events: each node's `open` gives where it starts.
 * JSON sources are read by the same reader after a strict JSON syntax check, with JSON's semantics where they
 * differ: a repeated key keeps the last value instead of being an error. In both, an int beyond 64 bits
 * becomes a double, as `parseJson` does (docs/language.md#data-types).
 *
 * Maps become ordered entry lists with string keys (so `__proto__` is just a key); anchors and aliases are
 * shared, not copied, and the nodes they stand for are counted against {@link MAX_SOURCE_NODES} (so a
 * "billion laughs" alias bomb is a DefinitionError within milliseconds); anything the workflow language has no
 * value for (complex keys, custom tags) is an error.
 */
import { utf8Length } from '../size-checks.ts';
import { load as loadYaml, type State as YamlState } from 'js-yaml';
import { JsonSyntaxError, parseJson } from '../json.ts';
import type { SourcePos } from './ast.ts';
import { DefinitionError } from './errors.ts';
import { CORE_SCHEMA } from './yaml-schema.ts';

/** Largest accepted source, in UTF-8 bytes (docs/api-resources.md#limits: workflow source 128 KB). */
export const MAX_SOURCE_BYTES = 128 * 1024;

/**
 * Most nodes a source may stand for, aliases expanded (docs/api-resources.md#limits: alias bombs). A 128 KB source written out
 * without aliases holds at most about 65,000 nodes (`[0,0,...]`), so this is three times that.
 */
const MAX_SOURCE_NODES = 200_000;

/**
 * Most bytes of values a source may stand for, aliases expanded (docs/limits.md "Definitions"): 2 MB, 16
 * times the largest source, four times the 512 KB a whole execution's variables may hold. An alias of a 60 KB
 * string repeated 10,000 times (600 MB, within the node limit) is refused at deploy instead of frozen on
 * when it is returned, raised or logged.
 */
export const MAX_EXPANDED_BYTES = 2 * 1024 * 1024;

/** A scalar of the source: its value and where it is written. */
export interface SScalar {
  readonly kind: 'scalar';
  /** The scalar's value: ints as bigint (within 64 bits), floats as number. */
  readonly value: string | number | bigint | boolean | null;
  /** Offset (UTF-16 code units) of the scalar's first character in the source, quote or block indicator included. */
  readonly offset: number;
  /** Offset just past the scalar's last character. */
  readonly end: number;
  /** How the scalar is written: plain, quoted, or as a block (`|`, `>`). */
  readonly style: 'plain' | 'single' | 'double' | 'block';
}

/** A map of the source: its entries in source order. Keys are unique (JSON: the last one is kept). */
export interface SMap {
  readonly kind: 'map';
  readonly entries: readonly SEntry[];
  readonly offset: number;
}

/** One key/value entry of a {@link SMap}. */
export interface SEntry {
  readonly key: string;
  readonly keyNode: SScalar;
  readonly value: SNode;
}

/** The entry of a map with key `key`, if any. */
export function entryOf(map: SMap, key: string): SEntry | undefined {
  for (const e of map.entries) if (e.key === key) return e;
  return undefined;
}

/** A sequence (list) of the source. */
export interface SSeq {
  readonly kind: 'seq';
  readonly items: readonly SNode[];
  readonly offset: number;
}

/** A node of the loaded source tree. */
export type SNode = SScalar | SMap | SSeq;

/** A loaded source: the tree, the text, and offset-to-position mapping. */
export interface LoadedSource {
  readonly root: SNode;
  readonly source: string;
  readonly format: 'yaml' | 'json';
  /** The 1-based line and column of a source offset. */
  posAt(offset: number): SourcePos;
}

/** The UTF-8 length of a string in bytes (one implementation, in size-limits.ts). */
export { utf8Length } from '../size-checks.ts';

/**
 * Parses a workflow source into a position-keeping tree.
 *
 * @param format `yaml` or `json`; when omitted, a source whose first non-blank character is `{` or `[` and
 *   that is valid JSON is read as JSON, anything else as YAML.
 * @param maxBytes the size limit in UTF-8 bytes: a workflow's is 128 KB (docs/api-resources.md#limits); other files read
 *   with this loader (test files, mock files) pass their own.
 * @throws DefinitionError for a source over `maxBytes` (UTF-8), an empty source, a YAML or JSON syntax error
 *   (naming its line and column), a source standing for more than {@link MAX_SOURCE_NODES} nodes with its
 *   aliases expanded, or a node the language has no value for.
 */
export function loadSource(source: string, format?: 'yaml' | 'json', maxBytes = MAX_SOURCE_BYTES): LoadedSource {
  if (!fitsInBytes(source, maxBytes)) {
    const bytes = utf8Length(source);
    throw new DefinitionError(`source is ${bytes} bytes; the limit is ${maxBytes} bytes (${Math.round(maxBytes / 1024)} KB)`, { code: 'SOURCE_TOO_LARGE' });
  }
  // Made in a function of its own: a closure made here would keep every variable of this function that any
  // closure here uses (the tree builder and through it js-yaml's whole result) alive as long as the loaded
  // source, and the garbage collector would copy them all through a compile (docs/architecture.md#compile-time).
  const posAt = positionsIn(source);

  let fmt = format;
  if (fmt === undefined) {
    let i = 0;
    const scan = Math.min(source.length, 1024);
    while (i < scan && isJsSpace(source.charCodeAt(i))) i++;
    const first = i < scan ? source[i] : undefined;
    fmt = (first === '{' || first === '[') && isJson(source) ? 'json' : 'yaml';
  } else if (fmt === 'json') {
    try {
      parseJson(source);
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e;
      throw new DefinitionError(`JSON syntax error: ${e.message.replace(/ at position \d+$/, '')}`, {
        pos: posAt(e.offset),
        code: 'JSON_SYNTAX',
      });
    }
  }

  const builder = new TreeBuilder(source, fmt, posAt);
  try {
    loadYaml(source, {
      schema: CORE_SCHEMA,
      json: true, // duplicate keys are reported by the builder, with the key's position (YAML) or overridden (JSON)
      maxDepth: MAX_DEPTH,
      listener: (event, state) => (event === 'open' ? builder.open(state) : builder.close(state)),
    } as Parameters<typeof loadYaml>[1]);
  } catch (e) {
    if (e instanceof DefinitionError) throw e;
    const mark = (e as { mark?: { position?: number } }).mark;
    const reason = (e as { reason?: string }).reason;
    if (mark === undefined || reason === undefined) throw e;
    const what = fmt === 'json' ? 'JSON' : 'YAML';
    if (reason.startsWith('nesting exceeded maxDepth')) {
      throw new DefinitionError(`the source is nested more than ${MAX_DEPTH} levels deep`, {
        pos: posAt(mark.position ?? 0),
        code: 'NESTING_TOO_DEEP',
      });
    }
    throw new DefinitionError(`${what} syntax error: ${reason}`, { pos: posAt(mark.position ?? 0), code: what === 'JSON' ? 'JSON_SYNTAX' : 'YAML_SYNTAX' });
  }
  const root = builder.root();
  if (root === undefined || (root.kind === 'scalar' && root.value === null && root.style === 'plain')) {
    throw new DefinitionError('the workflow source is empty', { pos: posAt(0), code: 'EMPTY_SOURCE' });
  }
  // Without aliases the tree is no bigger than the source, which is far below the limit (see MAX_SOURCE_NODES).
  if (builder.aliased) countNodes(root, posAt);
  return { root, source, format: fmt, posAt };
}

function isJson(source: string): boolean {
  try {
    parseJson(source);
    return true;
  } catch {
    return false;
  }
}

const encoder = new TextEncoder();

/**
 * Whether `source` takes at most `maxBytes` bytes of UTF-8 (lone surrogates 3, as U+FFFD): the platform's
 * encoder writes it into a buffer one byte larger, which is many times faster than counting in JavaScript.
 */
function fitsInBytes(source: string, maxBytes: number): boolean {
  if (source.length > maxBytes) return false;
  if (source.length * 3 <= maxBytes) return true;
  const { read, written } = encoder.encodeInto(source, new Uint8Array(maxBytes + 1));
  return read === source.length && written <= maxBytes;
}

/** The 1-based line and column of each offset of `source` (a binary search over where its lines start). */
function positionsIn(source: string): (offset: number) => SourcePos {
  const lineStarts = lineStartsOf(source);
  const last = lineStarts.length - 1;
  // The compiler asks in source order, mostly for the line of the previous answer or the next one.
  let line = 0;
  return (offset: number): SourcePos => {
    let lo = line;
    if (!(lineStarts[lo]! <= offset && (lo === last || offset < lineStarts[lo + 1]!))) {
      // The last line start at or before the offset.
      lo = 0;
      let hi = last;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (lineStarts[mid]! <= offset) lo = mid;
        else hi = mid - 1;
      }
      line = lo;
    }
    return { line: lo + 1, col: offset - lineStarts[lo]! + 1 };
  };
}

/** Offsets at which each line starts (line 1 at index 0). */
function lineStartsOf(source: string): Int32Array {
  let lines = 1;
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) lines++;
  const starts = new Int32Array(lines);
  let n = 1;
  for (let i = source.indexOf('\n'); i >= 0; i = source.indexOf('\n', i + 1)) starts[n++] = i + 1;
  return starts;
}

const MAX_DEPTH = 500;

/**
 * Builds the tree from js-yaml's events on flat stacks (docs/architecture.md#compile-time: no object per event): `open` pushes where a
 * node starts and how many nodes were read before it; `close` builds the node from the nodes read since and
 * puts it in their place. Beside each node read, `results` keeps js-yaml's value for it, so that a map or list
 * js-yaml read twice (see `node`) and the pairs of a flow list (see `seq`) are told apart by identity.
 * The node an alias stands for is the anchored node itself: the tree shares it.
 */
class TreeBuilder {
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

/**
 * Counts the nodes and the bytes the tree stands for, each alias counted as the whole node it stands for, and
 * stops at {@link MAX_SOURCE_NODES} nodes or {@link MAX_EXPANDED_BYTES} bytes (a string counts its UTF-16
 * length, any other scalar 8, a map key its length). Shared nodes are measured once (memoised), so this is
 * linear in the source.
 * @throws DefinitionError (code LIMIT_EXCEEDED) at the node that passes either limit.
 */
function countNodes(root: SNode, posAt: (offset: number) => SourcePos): void {
  const sizes = new Map<SNode, { nodes: number; bytes: number }>();
  const scalarBytes = (n: SScalar): number => (typeof n.value === 'string' ? n.value.length : 8);
  const size = (n: SNode): { nodes: number; bytes: number } => {
    if (n.kind === 'scalar') return { nodes: 1, bytes: scalarBytes(n) };
    const known = sizes.get(n);
    if (known !== undefined) return known;
    let nodes = 1;
    let bytes = 0;
    const add = (m: SNode): void => {
      const s = size(m);
      nodes += s.nodes;
      bytes += s.bytes;
    };
    if (n.kind === 'seq') for (const i of n.items) add(i);
    else {
      for (const e of n.entries) {
        nodes += 1;
        bytes += e.key.length;
        add(e.value);
      }
    }
    if (nodes > MAX_SOURCE_NODES) {
      throw new DefinitionError(
        `the source stands for more than ${MAX_SOURCE_NODES} nodes with its aliases expanded (an alias bomb?)`,
        { pos: posAt(n.offset), code: 'LIMIT_EXCEEDED' },
      );
    }
    if (bytes > MAX_EXPANDED_BYTES) {
      throw new DefinitionError(
        `the source stands for more than ${MAX_EXPANDED_BYTES} bytes of values with its aliases expanded (docs/limits.md "Definitions")`,
        { pos: posAt(n.offset), code: 'LIMIT_EXCEEDED' },
      );
    }
    const measured = { nodes, bytes };
    sizes.set(n, measured);
    return measured;
  };
  size(root);
}
