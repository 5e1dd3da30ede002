/**
 * Loading a workflow source (spec "Workflow definition language": "A definition (YAML or JSON)"): text in,
 * a tree of source nodes out, each node keeping its offset so every later error can name `line:col`.
 *
 * YAML is read with the `yaml` package's Document API (YAML 1.2 core schema, so `true`/`True`/`TRUE` are
 * booleans, ints and floats stay distinct, ints are read as bigint and stay exact). A hand-written reader for
 * the YAML subset workflows use was tried and measured 4x faster, but YAML is outside what this project
 * exists for, so the well-kept library is the one parser. JSON sources are read
 * with the same parser (JSON is YAML flow syntax, and the parser gives positions) after a strict JSON syntax
 * check, with JSON's semantics where they differ: a repeated key keeps the last value instead of being an
 * error. In both, an int beyond 64 bits becomes a double, as `parseJson` does (spec "Data types").
 *
 * Maps become ordered entry lists with string keys (so `__proto__` is just a key); anchors and aliases are
 * resolved; anything the workflow language has no value for (complex keys, custom tags) is an error.
 */
import { isAlias, isMap, isScalar, isSeq, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import { INT_MAX, INT_MIN } from '../value.ts';
import { JsonSyntaxError, parseJson } from '../json.ts';
import type { SourcePos } from './ast.ts';
import { DefinitionError } from './errors.ts';

/** Largest accepted source, in UTF-8 bytes (spec "Limits": workflow source 128 KB). */
export const MAX_SOURCE_BYTES = 128 * 1024;

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

/**
 * The UTF-8 length of a string in bytes, without encoding it (lone surrogates count 3 bytes, as
 * TextEncoder writes them as U+FFFD).
 */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // the pair: 4 bytes for 2 code units
      i++;
    } else n += 2;
  }
  return n;
}

/**
 * Parses a workflow source into a position-keeping tree.
 *
 * @param format `yaml` or `json`; when omitted, a source whose first non-blank character is `{` or `[` and
 *   that is valid JSON is read as JSON, anything else as YAML.
 * @throws DefinitionError for a source over 128 KB (UTF-8), an empty source, a YAML or JSON syntax error
 *   (naming its line and column), or a node the language has no value for.
 */
export function loadSource(source: string, format?: 'yaml' | 'json'): LoadedSource {
  const bytes = utf8Length(source);
  if (bytes > MAX_SOURCE_BYTES) {
    throw new DefinitionError(`source is ${bytes} bytes; the limit is ${MAX_SOURCE_BYTES} bytes (128 KB)`);
  }
  const lineStarts = lineStartsOf(source);
  const posAt = (offset: number): SourcePos => {
    // The last line start at or before the offset (binary search).
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - lineStarts[lo]! + 1 };
  };

  let fmt = format;
  if (fmt === undefined) {
    const first = /\S/.exec(source.slice(0, 1024))?.[0];
    fmt = (first === '{' || first === '[') && isJson(source) ? 'json' : 'yaml';
  } else if (fmt === 'json') {
    try {
      parseJson(source);
    } catch (e) {
      if (!(e instanceof JsonSyntaxError)) throw e;
      throw new DefinitionError(`JSON syntax error: ${e.message.replace(/ at position \d+$/, '')}`, {
        pos: posAt(e.offset),
      });
    }
  }

  const doc = parseDocument(source, {
    intAsBigInt: true,
    schema: 'core',
    version: '1.2',
    merge: false,
    prettyErrors: false,
    uniqueKeys: fmt === 'yaml',
  });
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    throw new DefinitionError(`${fmt === 'json' ? 'JSON' : 'YAML'} syntax error: ${e.message}`, {
      pos: posAt(e.pos[0]),
    });
  }
  if (doc.contents === null) throw new DefinitionError('the workflow source is empty', { pos: posAt(0) });
  const root = convert(doc, doc.contents, 0, posAt);
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

/** Offsets at which each line starts (line 1 at index 0). */
function lineStartsOf(source: string): number[] {
  const starts = [0];
  let i = source.indexOf('\n');
  while (i >= 0) {
    starts.push(i + 1);
    i = source.indexOf('\n', i + 1);
  }
  return starts;
}

const MAX_DEPTH = 500;

function convert(doc: Document, node: unknown, depth: number, posAt: (o: number) => SourcePos): SNode {
  if (depth > MAX_DEPTH) {
    throw new DefinitionError(`the source is nested more than ${MAX_DEPTH} levels deep`, {
      pos: posAt(rangeOf(node)[0]),
    });
  }
  if (isAlias(node)) {
    const target = node.resolve(doc);
    if (!target) throw new DefinitionError(`unresolved alias *${node.source}`, { pos: posAt(rangeOf(node)[0]) });
    return convert(doc, target, depth + 1, posAt);
  }
  if (isScalar(node)) return scalar(node.value, rangeOf(node), node.type, posAt);
  if (isMap(node)) {
    const entries: SEntry[] = [];
    const index = new Map<string, number>();
    for (const pair of node.items) {
      const k = pair.key as YamlNode | null;
      let keyNode: SScalar;
      if (k === null || k === undefined) {
        keyNode = { kind: 'scalar', value: null, offset: rangeOf(node)[0], end: rangeOf(node)[0], style: 'plain' };
      } else if (isScalar(k)) {
        keyNode = scalar(k.value, rangeOf(k), k.type, posAt);
      } else {
        throw new DefinitionError('map keys must be strings', { pos: posAt(rangeOf(k)[0]) });
      }
      const key = keyText(keyNode, k);
      const v = pair.value as YamlNode | null;
      const value: SNode =
        v === null || v === undefined
          ? { kind: 'scalar', value: null, offset: keyNode.end, end: keyNode.end, style: 'plain' }
          : convert(doc, v, depth + 1, posAt);
      const entry: SEntry = { key, keyNode, value };
      const seen = index.get(key);
      if (seen === undefined) {
        index.set(key, entries.length);
        entries.push(entry);
      } else entries[seen] = entry; // JSON semantics: the last one wins (YAML reported it already)
    }
    return { kind: 'map', entries, offset: rangeOf(node)[0] };
  }
  if (isSeq(node)) {
    const items = node.items.map((i) => convert(doc, i, depth + 1, posAt));
    return { kind: 'seq', items, offset: rangeOf(node)[0] };
  }
  throw new DefinitionError('unsupported YAML node', { pos: posAt(rangeOf(node)[0]) });
}

function rangeOf(node: unknown): readonly [number, number] {
  const r = (node as { range?: [number, number, number] | null }).range;
  return r ? [r[0], r[1]] : [0, 0];
}

function scalar(
  value: unknown,
  range: readonly [number, number],
  type: string | undefined,
  posAt: (o: number) => SourcePos,
): SScalar {
  let v: SScalar['value'];
  switch (typeof value) {
    case 'bigint':
      // An int beyond 64 bits cannot be an int of the language: read it as a double, as parseJson does.
      v = value > INT_MAX || value < INT_MIN ? Number(value) : value;
      break;
    case 'string':
    case 'number':
    case 'boolean':
      v = value;
      break;
    default:
      if (value === null || value === undefined) v = null;
      else throw new DefinitionError('unsupported YAML value (custom tag?)', { pos: posAt(range[0]) });
  }
  const style =
    type === 'QUOTE_DOUBLE'
      ? 'double'
      : type === 'QUOTE_SINGLE'
        ? 'single'
        : type === 'BLOCK_LITERAL' || type === 'BLOCK_FOLDED'
          ? 'block'
          : 'plain';
  return { kind: 'scalar', value: v, offset: range[0], end: range[1], style };
}

// A key is a string as written: `1: x` has key "1", `true: x` key "true" (workflow maps have string keys).
function keyText(node: SScalar, k: YamlNode | null): string {
  if (typeof node.value === 'string') return node.value;
  const src = (k as { source?: string } | null)?.source;
  if (typeof src === 'string') return src;
  return node.value === null ? 'null' : String(node.value);
}
