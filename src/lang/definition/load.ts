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
import { load as loadYaml } from 'js-yaml';
import { JsonSyntaxError, parseJson } from '../json.ts';
import type { SourcePos } from './ast.ts';
import { DefinitionError } from './errors.ts';
import { coreSchema } from './yaml-schema.ts';
import { isJsSpace, TreeBuilder } from './yaml-tree.ts';

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

/** JavaScript's white space, as the reader skips it (one implementation, in yaml-tree.ts). */
export { isJsSpace, skipJsSpace } from './yaml-tree.ts';

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
      schema: coreSchema(),
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
