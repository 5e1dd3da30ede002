/**
 * A fast reader for the plain subset of YAML that workflow definitions are written in, so that a 128 KB
 * definition parses well inside the deploy budget (issue 2: parse, validate and compile 128 KB in 50 ms; the
 * `yaml` package alone needs about that much for the text).
 *
 * The subset: block mappings and sequences indented with spaces, comments, blank lines, plain scalars on
 * one line, single- and double-quoted scalars on one line, literal block scalars (`|`, `|-`, `|+`), and flow
 * collections (`[a, b: 1]`, `{"k": v}`, also spanning lines, which covers JSON documents). Scalars resolve as
 * in the YAML 1.2 core schema (null, bool, int, float, string), exactly as the `yaml` package resolves them,
 * then as the loader converts them (an int beyond 64 bits becomes a double).
 *
 * Anything else (anchors, aliases, tags, directives, document markers, folded or multi-line scalars, complex
 * keys, tabs in indentation, duplicate keys, and every syntax error) makes {@link parseYamlFast} return
 * undefined; the caller then parses the source with the `yaml` package, which is the reference for both
 * values and error messages. Offsets follow the `yaml` package's node ranges.
 */
import { INT_MAX, INT_MIN } from '../value.ts';
import type { SEntry, SNode, SScalar } from './load.ts';

/** Thrown internally to give up on the fast path. */
class Unsupported extends Error {}
const UNSUPPORTED = new Unsupported();
function bail(): never {
  throw UNSUPPORTED;
}

/**
 * Parses a source written in the plain subset of YAML (module header) into source nodes.
 *
 * @param lastKeyWins JSON semantics for repeated keys (the last one is kept); otherwise a repeated key gives up.
 * @returns the root node, or undefined when the source is outside the subset or has an error.
 */
export function parseYamlFast(source: string, lastKeyWins = false): SNode | undefined {
  try {
    return new FastYaml(source, lastKeyWins).document();
  } catch (e) {
    if (e === UNSUPPORTED) return undefined;
    if (e instanceof RangeError) return undefined; // too deep for the JS stack: let the reference parser say so
    throw e;
  }
}

const SPACE = 32;
const NL = 10;
const CR = 13;
const TAB = 9;
const HASH = 35;
const COLON = 58;
const DASH = 45;
const COMMA = 44;
const LBRACKET = 91;
const RBRACKET = 93;
const LBRACE = 123;
const RBRACE = 125;
const SQUOTE = 39;
const DQUOTE = 34;

class FastYaml {
  private i = 0;
  private readonly n: number;

  constructor(
    private readonly s: string,
    private readonly lastKeyWins: boolean,
  ) {
    this.n = s.length;
  }

  document(): SNode | undefined {
    const s = this.s;
    if (s.charCodeAt(0) === 0xfeff) bail();
    const first = this.nextContentLine(0);
    if (first < 0) bail(); // empty document: let the reference parser report it
    const indent = this.indentAt(first);
    if (s.charCodeAt(first + indent) === 37 /* % */ || s.startsWith('---', first + indent) || s.startsWith('...', first + indent)) bail();
    this.i = first + indent;
    const root = this.blockNodeAt(indent, -1);
    // Nothing but blank lines and comments may follow.
    if (this.nextContentLine(this.lineEndFrom(this.i)) >= 0) bail();
    return root;
  }

  // ----------------------------------------------------------------------------------------------------
  // Lines

  /** Start offset of the first line at or after `from` (a line start) holding content, or -1. */
  private nextContentLine(from: number): number {
    const s = this.s;
    let p = from;
    while (p < this.n) {
      let q = p;
      while (q < this.n && s.charCodeAt(q) === SPACE) q++;
      const c = s.charCodeAt(q);
      if (c === TAB) {
        // A tab after the indentation spaces: fine in a blank or comment line only.
        let r = q;
        while (r < this.n && (s.charCodeAt(r) === SPACE || s.charCodeAt(r) === TAB)) r++;
        const d = s.charCodeAt(r);
        if (r < this.n && d !== NL && d !== CR && d !== HASH) bail();
        q = r;
      }
      if (q >= this.n) return -1;
      const d = s.charCodeAt(q);
      if (d === NL || d === CR || d === HASH) {
        p = this.nextLineStart(q);
        continue;
      }
      return p;
    }
    return -1;
  }

  private nextLineStart(p: number): number {
    const nl = this.s.indexOf('\n', p);
    return nl < 0 ? this.n : nl + 1;
  }

  private indentAt(lineStart: number): number {
    let q = lineStart;
    while (this.s.charCodeAt(q) === SPACE) q++;
    return q - lineStart;
  }

  /**
   * After a value that ends at `p` on its line: only spaces and a comment may follow. Returns the start of the
   * next line.
   */
  private lineEndFrom(p: number): number {
    const s = this.s;
    let q = p;
    while (q < this.n && (s.charCodeAt(q) === SPACE || s.charCodeAt(q) === TAB)) q++;
    if (q >= this.n) return this.n;
    const c = s.charCodeAt(q);
    if (c === HASH) {
      if (q === p && p > 0 && s.charCodeAt(p - 1) !== SPACE && s.charCodeAt(p - 1) !== TAB) bail();
      return this.nextLineStart(q);
    }
    if (c === CR && s.charCodeAt(q + 1) === NL) return q + 2;
    if (c === NL) return q + 1;
    return bail();
  }

  // ----------------------------------------------------------------------------------------------------
  // Block structure

  /**
   * A block node that starts at `this.i` (on a line whose content starts at column `col`): a sequence, a
   * mapping, or a single value. `parentIndent` is the indentation of the enclosing collection (-1 at the root).
   * Leaves `this.i` at the end of the node's last line content.
   */
  private blockNodeAt(col: number, parentIndent: number): SNode {
    const s = this.s;
    const c = s.charCodeAt(this.i);
    if (c === DASH && this.isSpaceOrEnd(this.i + 1)) return this.blockSeq(col);
    if (c !== LBRACKET && c !== LBRACE && this.isKeyLine(this.i)) return this.blockMap(col);
    return this.inlineValue(parentIndent);
  }

  private isSpaceOrEnd(p: number): boolean {
    if (p >= this.n) return true;
    const c = this.s.charCodeAt(p);
    return c === SPACE || c === NL || c === CR || c === TAB;
  }

  /** True when the content at `p` is `key:` (a plain or quoted key followed by `:` and a space or the end). */
  private isKeyLine(p: number): boolean {
    const s = this.s;
    const c = s.charCodeAt(p);
    if (c === DQUOTE || c === SQUOTE) {
      const end = this.quotedEnd(p);
      if (end < 0) return false;
      let q = end;
      while (s.charCodeAt(q) === SPACE) q++;
      return s.charCodeAt(q) === COLON && this.isSpaceOrEnd(q + 1);
    }
    // A plain key: up to `: ` on this line.
    let q = p;
    while (q < this.n) {
      const d = s.charCodeAt(q);
      if (d === NL || d === CR) return false;
      if (d === COLON && this.isSpaceOrEnd(q + 1)) return true;
      if (d === HASH && q > p && (s.charCodeAt(q - 1) === SPACE || s.charCodeAt(q - 1) === TAB)) return false;
      q++;
    }
    return false;
  }

  private blockSeq(col: number): SNode {
    const s = this.s;
    const items: SNode[] = [];
    const offset = this.i;
    for (;;) {
      // At a `-` in column `col`.
      const after = this.i + 1;
      let q = after;
      while (s.charCodeAt(q) === SPACE) q++;
      if (s.charCodeAt(q) === TAB) bail();
      const d = s.charCodeAt(q);
      if (q >= this.n || d === NL || d === CR || d === HASH) {
        if (d === HASH && q === after) bail();
        items.push(this.nestedOrNull(this.lineEndFrom(after), col, q, true));
      } else {
        this.i = q;
        items.push(this.blockNodeAt(q - this.lineStartOf(q), col));
      }
      const next = this.nextContentLine(this.lineEndFrom(this.i));
      if (next < 0) break;
      const ind = this.indentAt(next);
      if (ind > col) bail();
      if (ind < col) {
        this.i = this.lastContentEnd(next);
        break;
      }
      const p = next + ind;
      if (!(s.charCodeAt(p) === DASH && this.isSpaceOrEnd(p + 1))) {
        this.i = this.lastContentEnd(next);
        break;
      }
      this.i = p;
    }
    return { kind: 'seq', items, offset };
  }

  private lineStartOf(p: number): number {
    return this.s.lastIndexOf('\n', p - 1) + 1;
  }

  // The parser's position is kept at the end of the last consumed content; given the start of the next
  // content line, step back to just before it so the caller's lineEndFrom() lands on that line again.
  private lastContentEnd(nextLine: number): number {
    return nextLine > 0 ? nextLine - 1 : 0;
  }

  /**
   * The value of a `key:` or `-` whose line ends after the indicator: a block node on the following lines
   * indented more than `col` (or, for a mapping value, a sequence at the same column), else null.
   */
  private nestedOrNull(nextLineFrom: number, col: number, nullAt: number, inSeq: boolean): SNode {
    const next = this.nextContentLine(nextLineFrom);
    if (next >= 0) {
      const ind = this.indentAt(next);
      const p = next + ind;
      if (ind > col || (!inSeq && ind === col && this.s.charCodeAt(p) === DASH && this.isSpaceOrEnd(p + 1))) {
        this.i = p;
        return this.blockNodeAt(ind, col);
      }
    }
    this.i = nullAt;
    return { kind: 'scalar', value: null, offset: nullAt, end: nullAt, style: 'plain' } satisfies SScalar;
  }

  private blockMap(col: number): SNode {
    const s = this.s;
    const entries: SEntry[] = [];
    const index = new Map<string, number>();
    const offset = this.i;
    for (;;) {
      const keyNode = this.key();
      // At the `:`.
      const after = this.i + 1;
      let q = after;
      while (s.charCodeAt(q) === SPACE) q++;
      if (s.charCodeAt(q) === TAB) {
        while (s.charCodeAt(q) === SPACE || s.charCodeAt(q) === TAB) q++;
      }
      const d = s.charCodeAt(q);
      let value: SNode;
      if (q >= this.n || d === NL || d === CR || d === HASH) {
        if (d === HASH && q === after) bail();
        value = this.nestedOrNull(this.lineEndFrom(after), col, after, false);
      } else {
        this.i = q;
        if (d === DASH && this.isSpaceOrEnd(q + 1)) bail(); // a sequence on the key's line is an error
        value = this.inlineValue(col);
      }
      const key = keyNode.value as string;
      const seen = index.get(key);
      if (seen === undefined) {
        index.set(key, entries.length);
        entries.push({ key, keyNode, value });
      } else if (this.lastKeyWins) entries[seen] = { key, keyNode, value };
      else bail();

      const next = this.nextContentLine(this.lineEndFrom(this.i));
      if (next < 0) break;
      const ind = this.indentAt(next);
      if (ind > col) bail();
      if (ind < col) {
        this.i = this.lastContentEnd(next);
        break;
      }
      const p = next + ind;
      if (s.charCodeAt(p) === DASH && this.isSpaceOrEnd(p + 1)) {
        this.i = this.lastContentEnd(next);
        break;
      }
      if (!this.isKeyLine(p)) bail();
      this.i = p;
    }
    return { kind: 'map', entries, offset };
  }

  /** A block mapping key at `this.i`; leaves `this.i` at its `:`. Keys are strings (as the loader makes them). */
  private key(): SScalar {
    const s = this.s;
    const start = this.i;
    const c = s.charCodeAt(start);
    if (c === DQUOTE || c === SQUOTE) {
      const k = this.quoted();
      while (s.charCodeAt(this.i) === SPACE) this.i++;
      if (s.charCodeAt(this.i) !== COLON) bail();
      return k;
    }
    if (!this.plainStartOk(start, false)) bail();
    let q = start;
    while (!(s.charCodeAt(q) === COLON && this.isSpaceOrEnd(q + 1))) q++;
    let end = q;
    while (end > start && (s.charCodeAt(end - 1) === SPACE || s.charCodeAt(end - 1) === TAB)) end--;
    const text = s.slice(start, end);
    this.i = q;
    // The loader keys maps by the key's text as written for non-string plain keys (`1: x` has key "1").
    return { kind: 'scalar', value: text, offset: start, end, style: 'plain' };
  }

  /** A value that starts on the current line at `this.i`: flow collection, quoted, block or plain scalar. */
  private inlineValue(parentIndent: number): SNode {
    const s = this.s;
    const c = s.charCodeAt(this.i);
    if (c === LBRACKET || c === LBRACE) return this.flow(parentIndent);
    if (c === DQUOTE || c === SQUOTE) return this.quoted();
    if (c === 124 /* | */) return this.literalBlock(parentIndent);
    if (!this.plainStartOk(this.i, false)) bail();
    // A plain scalar to the end of the line (or a comment); it may not hold `: `.
    const start = this.i;
    let q = start;
    let end = start;
    while (q < this.n) {
      const d = s.charCodeAt(q);
      if (d === NL || d === CR) break;
      if (d === HASH && (s.charCodeAt(q - 1) === SPACE || s.charCodeAt(q - 1) === TAB)) break;
      if (d === COLON && this.isSpaceOrEnd(q + 1)) bail();
      if (d !== SPACE && d !== TAB) end = q + 1;
      q++;
    }
    this.i = end;
    // A continuation line (a multi-line plain scalar) is outside the subset: the caller's indentation checks
    // see a more-indented line and give up.
    return this.plain(s.slice(start, end), start, end);
  }

  /** True when a plain scalar may start at `p` (not with an indicator; `-`, `?`, `:` need a safe follower). */
  private plainStartOk(p: number, inFlow: boolean): boolean {
    const c = this.s.charCodeAt(p);
    switch (c) {
      case DASH:
      case 63 /* ? */:
      case COLON: {
        if (this.isSpaceOrEnd(p + 1)) return false;
        const d = this.s.charCodeAt(p + 1);
        return !(inFlow && (d === COMMA || d === LBRACKET || d === RBRACKET || d === LBRACE || d === RBRACE));
      }
      case COMMA:
      case LBRACKET:
      case RBRACKET:
      case LBRACE:
      case RBRACE:
      case HASH:
      case 38 /* & */:
      case 42 /* * */:
      case 33 /* ! */:
      case 124 /* | */:
      case 62 /* > */:
      case SQUOTE:
      case DQUOTE:
      case 37 /* % */:
      case 64 /* @ */:
      case 96 /* ` */:
        return false;
      default:
        return !(c === SPACE || c === TAB || c === NL || c === CR || Number.isNaN(c));
    }
  }

  // ----------------------------------------------------------------------------------------------------
  // Scalars

  /** A plain scalar's value by the core schema (the `yaml` package's resolution, ints as bigint). */
  private plain(text: string, offset: number, end: number): SScalar {
    return { kind: 'scalar', value: resolvePlain(text), offset, end, style: 'plain' };
  }

  /** Offset just past the closing quote of the quoted scalar at `p` on its line, or -1. */
  private quotedEnd(p: number): number {
    const s = this.s;
    const q = s.charCodeAt(p);
    let k = p + 1;
    while (k < this.n) {
      const c = s.charCodeAt(k);
      if (c === NL || c === CR) return -1;
      if (q === DQUOTE && c === 92 /* \ */) {
        k += 2;
        continue;
      }
      if (c === q) {
        if (q === SQUOTE && s.charCodeAt(k + 1) === SQUOTE) {
          k += 2;
          continue;
        }
        return k + 1;
      }
      k++;
    }
    return -1;
  }

  /** A quoted scalar on one line at `this.i`; leaves `this.i` just past the closing quote. */
  private quoted(): SScalar {
    const s = this.s;
    const start = this.i;
    const end = this.quotedEnd(start);
    if (end < 0) bail(); // multi-line or unterminated: the reference parser folds or reports it
    const raw = s.slice(start + 1, end - 1);
    let value: string;
    if (s.charCodeAt(start) === SQUOTE) value = raw.includes("''") ? raw.replaceAll("''", "'") : raw;
    else value = raw.includes('\\') ? unescapeDouble(raw) : raw;
    this.i = end;
    return { kind: 'scalar', value, offset: start, end, style: s.charCodeAt(start) === SQUOTE ? 'single' : 'double' };
  }

  /** A literal block scalar `|`, `|-` or `|+` at `this.i`, its lines indented more than `parentIndent`. */
  private literalBlock(parentIndent: number): SScalar {
    const s = this.s;
    const start = this.i;
    let q = start + 1;
    let chomp: 'clip' | 'strip' | 'keep' = 'clip';
    if (s.charCodeAt(q) === DASH) {
      chomp = 'strip';
      q++;
    } else if (s.charCodeAt(q) === 43 /* + */) {
      chomp = 'keep';
      q++;
    }
    let p = this.lineEndFrom(q); // only a comment may follow the header (an indentation indicator gives up)
    // The content indentation is that of the first non-empty line.
    let indent = -1;
    const lines: string[] = [];
    let lastContentEnd = q;
    let probe = p;
    while (probe < this.n) {
      const lineEnd = this.s.indexOf('\n', probe);
      const e = lineEnd < 0 ? this.n : lineEnd;
      let line = s.slice(probe, e);
      if (line.endsWith('\r')) line = line.slice(0, -1);
      const ind = line.length - line.trimStart().length;
      if (line.trim() === '') {
        // Blank lines with spaces beyond the indentation keep them; before the first content line they
        // decide the indentation in subtle ways: leave those to the reference parser.
        if (indent < 0 && line.length > 0) bail();
        if (indent >= 0 && line.length > indent) lines.push(line.slice(indent));
        else lines.push('');
        probe = e + 1;
        continue;
      }
      if (line.includes('\t') && line.slice(0, ind).includes('\t')) bail();
      if (indent < 0) {
        if (ind <= parentIndent) break;
        indent = ind;
      }
      if (ind < indent) break;
      lines.push(line.slice(indent));
      lastContentEnd = e;
      p = e + 1;
      probe = e + 1;
    }
    if (indent < 0) bail(); // an empty block scalar: leave its fine points to the reference parser
    // Drop the trailing empty lines that belong to the chomping.
    let k = lines.length;
    while (k > 0 && lines[k - 1] === '') k--;
    const body = lines.slice(0, k);
    const trailing = lines.length - k;
    let value = body.join('\n');
    if (chomp === 'clip') value += '\n';
    else if (chomp === 'keep') value += '\n' + '\n'.repeat(trailing);
    if (chomp === 'keep') bail(); // trailing blank lines of `|+` depend on what follows: leave them to the reference
    this.i = lastContentEnd;
    void p;
    return { kind: 'scalar', value, offset: start, end: lastContentEnd, style: 'block' };
  }

  // ----------------------------------------------------------------------------------------------------
  // Flow collections

  /** Skips spaces, line breaks and comments inside a flow collection; continuation lines must be indented. */
  private flowSpace(parentIndent: number): void {
    const s = this.s;
    for (;;) {
      const c = s.charCodeAt(this.i);
      if (c === SPACE || c === TAB) this.i++;
      else if (c === NL || c === CR) {
        this.i++;
        if (c === CR && s.charCodeAt(this.i) === NL) this.i++;
        const ind = this.indentAt(this.i);
        const d = s.charCodeAt(this.i + ind);
        // A continuation line of a flow collection inside a block must be indented past the block; only the
        // closing bracket may stand at the block's own indentation.
        const closing = (d === RBRACKET || d === RBRACE) && ind === parentIndent;
        if (ind <= parentIndent && !closing && !(d === NL || d === CR || d === HASH || this.i + ind >= this.n)) bail();
        this.i += ind;
      } else if (c === HASH) {
        const p = this.i;
        if (p > 0 && s.charCodeAt(p - 1) !== SPACE && s.charCodeAt(p - 1) !== TAB && s.charCodeAt(p - 1) !== NL) bail();
        const nl = s.indexOf('\n', p);
        this.i = nl < 0 ? this.n : nl;
      } else return;
    }
  }

  private flow(parentIndent: number): SNode {
    const s = this.s;
    const open = s.charCodeAt(this.i);
    const offset = this.i;
    this.i++;
    const close = open === LBRACKET ? RBRACKET : RBRACE;
    const items: SNode[] = [];
    const entries: SEntry[] = [];
    const index = new Map<string, number>();
    for (;;) {
      this.flowSpace(parentIndent);
      if (this.i >= this.n) bail();
      if (s.charCodeAt(this.i) === close) {
        this.i++;
        break;
      }
      const itemStart = this.i;
      const first = this.flowValue(parentIndent);
      this.flowSpace(parentIndent);
      let pair: [SScalar, SNode] | undefined;
      if (s.charCodeAt(this.i) === COLON) {
        // `key: value` (a plain key needs the space after `:`; a quoted key may be followed at once).
        const adjacentOk = first.kind === 'scalar' && first.style !== 'plain';
        if (!adjacentOk && !this.isSpaceOrEnd(this.i + 1) && s.charCodeAt(this.i + 1) !== COMMA) bail();
        if (first.kind !== 'scalar') bail(); // complex keys
        this.i++;
        this.flowSpace(parentIndent);
        const c = s.charCodeAt(this.i);
        const value: SNode =
          c === COMMA || c === close
            ? { kind: 'scalar', value: null, offset: this.i, end: this.i, style: 'plain' }
            : this.flowValue(parentIndent);
        pair = [this.keyOf(first), value];
        this.flowSpace(parentIndent);
      }
      if (open === LBRACE) {
        if (!pair && first.kind !== 'scalar') bail(); // a collection as a key
        const [k, v] = pair ?? [this.keyOf(first as SScalar), { kind: 'scalar', value: null, offset: this.i, end: this.i, style: 'plain' } as SScalar];
        const key = k.value as string;
        const seen = index.get(key);
        if (seen === undefined) {
          index.set(key, entries.length);
          entries.push({ key, keyNode: k, value: v });
        } else if (this.lastKeyWins) entries[seen] = { key, keyNode: k, value: v };
        else bail();
      } else if (pair) {
        // `[a: 1]`: a one-pair map inside a flow sequence.
        items.push({ kind: 'map', entries: [{ key: pair[0].value as string, keyNode: pair[0], value: pair[1] }], offset: itemStart });
      } else items.push(first);
      const c = s.charCodeAt(this.i);
      if (c === COMMA) {
        this.i++;
        continue;
      }
      if (c === close) {
        this.i++;
        break;
      }
      bail();
    }
    return open === LBRACKET ? { kind: 'seq', items, offset } : { kind: 'map', entries, offset };
  }

  /** A key node as a string-valued scalar (plain keys by their text, as the loader keys them). */
  private keyOf(n: SScalar): SScalar {
    if (typeof n.value === 'string') return n;
    return { ...n, value: this.s.slice(n.offset, n.end) };
  }

  private flowValue(parentIndent: number): SNode {
    const s = this.s;
    const c = s.charCodeAt(this.i);
    if (c === LBRACKET || c === LBRACE) return this.flow(parentIndent);
    if (c === DQUOTE || c === SQUOTE) return this.quoted();
    if (!this.plainStartOk(this.i, true)) bail();
    const start = this.i;
    let q = start;
    let end = start;
    while (q < this.n) {
      const d = s.charCodeAt(q);
      if (d === NL || d === CR || d === COMMA || d === LBRACKET || d === RBRACKET || d === LBRACE || d === RBRACE) break;
      if (d === HASH && (s.charCodeAt(q - 1) === SPACE || s.charCodeAt(q - 1) === TAB)) break;
      if (d === COLON) {
        const e = s.charCodeAt(q + 1);
        if (this.isSpaceOrEnd(q + 1) || e === COMMA || e === LBRACKET || e === RBRACKET || e === LBRACE || e === RBRACE) break;
      }
      if (d !== SPACE && d !== TAB) end = q + 1;
      q++;
    }
    if (end === start) bail();
    this.i = end;
    // A plain scalar continued on the next line is outside the subset.
    const save = this.i;
    this.flowSpace(parentIndent);
    const d = s.charCodeAt(this.i);
    if (!(d === COMMA || d === RBRACKET || d === RBRACE || d === COLON)) bail();
    this.i = save;
    return this.plain(s.slice(start, end), start, end);
  }
}

// ------------------------------------------------------------------------------------------------------
// Core schema resolution (YAML 1.2, as the `yaml` package's core schema with intAsBigInt).

const INT_DEC = /^[-+]?[0-9]+$/;
const INT_OCT = /^0o[0-7]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/;
const INF = /^[-+]?\.(?:inf|Inf|INF)$/;
const NAN = /^\.(?:nan|NaN|NAN)$/;

/** The value of a plain scalar by the YAML 1.2 core schema: null, bool, int (bigint), float or string. */
export function resolvePlain(text: string): string | number | bigint | boolean | null {
  const c = text.charCodeAt(0);
  // Most plain scalars are words: skip the tests when the first character rules them all out.
  if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) {
    if (INT_DEC.test(text)) return int64(BigInt(text.charCodeAt(0) === 43 ? text.slice(1) : text));
    if (INT_OCT.test(text)) return int64(BigInt('0o' + text.slice(2)));
    if (INT_HEX.test(text)) return int64(BigInt(text));
    if (FLOAT.test(text)) return parseFloat(text);
    if (INF.test(text)) return text.charCodeAt(0) === 45 ? -Infinity : Infinity;
    if (NAN.test(text)) return NaN;
    return text;
  }
  switch (text) {
    case '':
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
  }
  return text;
}

// An int beyond 64 bits cannot be an int of the language: it reads as a double, as the loader and parseJson do.
function int64(b: bigint): bigint | number {
  return b > INT_MAX || b < INT_MIN ? Number(b) : b;
}

/** Unescapes the inside of a one-line double-quoted scalar; gives up on escapes outside the common set. */
function unescapeDouble(raw: string): string {
  let out = '';
  let run = 0;
  for (let k = 0; k < raw.length; k++) {
    if (raw.charCodeAt(k) !== 92) continue;
    out += raw.slice(run, k);
    const e = raw[k + 1];
    k++;
    switch (e) {
      case '\\':
        out += '\\';
        break;
      case '"':
        out += '"';
        break;
      case '/':
        out += '/';
        break;
      case 'n':
        out += '\n';
        break;
      case 't':
        out += '\t';
        break;
      case 'r':
        out += '\r';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case '0':
        out += '\0';
        break;
      case 'u': {
        const h = raw.slice(k + 1, k + 5);
        if (!/^[0-9a-fA-F]{4}$/.test(h)) bail();
        out += String.fromCharCode(parseInt(h, 16));
        k += 4;
        break;
      }
      default:
        bail();
    }
    run = k + 1;
  }
  return out + raw.slice(run);
}
