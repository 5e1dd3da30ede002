/**
 * The parser of the expression language (docs/language.md#expressions): a hand-written Pratt parser from the tokens of
 * lexer.ts to the `kind`-tagged AST of ast.ts. The precedence table below is the spec's, highest first:
 *
 * | binding | operators                         | form                              |
 * |---------|-----------------------------------|-----------------------------------|
 * | 9       | `.`  `[]`  call `(...)`           | postfix, left to right            |
 * | 8       | `not`  unary `-`                  | prefix                            |
 * | 7       | `*`  `/`  `%`  `//`               | binary, left-associative          |
 * | 6       | `+`  `-`                          | binary, left-associative          |
 * | 5       | `<`  `>`  `<=`  `>=`              | binary, left-associative          |
 * | 4       | `==`  `!=`                        | binary, left-associative          |
 * | 3       | `in`  `not in`                    | binary, left-associative          |
 * | 2       | `and`                             | binary, left-associative          |
 * | 1       | `or`                              | binary, left-associative          |
 *
 * Parentheses override it. Details the spec leaves open follow Google's Workflows documentation ("Data
 * types, functions, operators"): `and`, `or` and `not` may be written lower-case or upper-case but not mixed
 * (`AND`, `NOT`; `And` is an ordinary name); `in` has no upper-case form there, so only `in` is the operator.
 * `not(x)` needs no special rule: it is prefix `not` applied to a parenthesized operand.
 *
 * Names: `x` is a variable; `a.b` on a variable is member access; a dotted name followed by `(` is one call
 * node with the dotted callee (`text.split(s, ",")`, `googleapis.storage.v1.objects.get(...)`), because the
 * language only ever calls functions by name. `if(c, a, b)` parses as a call to `if`; the compiler makes it lazy
 * (compile-sync.ts, compile-async.ts).
 */
import type { BinaryOp, Expr } from './ast.ts';
import { ExpressionSyntaxError, tokenize, type Punct, type Token } from './lexer.ts';
import { BOOLEAN_SPELLINGS, INT_MAX, INT_MIN } from '../value.ts';
import type { Compat } from '../compat.ts';

export { ExpressionSyntaxError } from './lexer.ts';

/** Binding power of the prefix operators `not` and unary `-` (docs/language.md#expressions precedence table). */
const PREFIX_BP = 8;

/** Binding power of each binary operator (docs/language.md#expressions precedence table; higher binds tighter). */
const BINARY_BP: Readonly<Record<BinaryOp, number>> = {
  '*': 7,
  '/': 7,
  '%': 7,
  '//': 7,
  '+': 6,
  '+~': 6,
  '-': 6,
  '<': 5,
  '>': 5,
  '<=': 5,
  '>=': 5,
  '==': 4,
  '!=': 4,
  in: 3,
  'not in': 3,
  and: 2,
  or: 1,
};

/**
 * Google's precedence table (`--compat google`): as the spec's, except that comparison, equality and `in`
 * share one level, left to right ("<, <=, >=, >, ==, !=, in: Comparison, equality, membership";
 * https://cloud.google.com/workflows/docs/reference/syntax/datatypes, order of operations).
 */
const GOOGLE_BINARY_BP: Readonly<Record<BinaryOp, number>> = {
  ...BINARY_BP,
  '<': 3,
  '>': 3,
  '<=': 3,
  '>=': 3,
  '==': 3,
  '!=': 3,
};

/** How {@link parseExpression} reads: the spec's rules (the default) or Google's (`compat: 'google'`). */
export interface ParseOptions {
  /** `google`: Google's precedence table and Google's `+` (op `+~`); see docs/compat.md. */
  readonly compat?: Compat;
}

const SYMBOLIC_BINARY = new Set<string>(['*', '/', '%', '//', '+', '-', '<', '>', '<=', '>=', '==', '!=']);

/**
 * Parses the text of one expression (the part between `${` and `}`) into its AST.
 *
 * Literals: ints are exact and 64-bit (`-9223372036854775808` is an int; an int literal beyond 64 bits
 * becomes a double, as JSON input does); doubles (`1.5`, `1e3`, `2.0`); strings in either quote with escapes;
 * `true`/`True`/`TRUE`, `false`/`False`/`FALSE`; `null`; lists `[a, b]` and maps `{"k": v}` (a trailing comma is
 * allowed). Node positions are character offsets into `text`.
 *
 * @throws ExpressionSyntaxError with the offset of the offending token, for an empty expression, an
 *   unexpected or missing token, a call of something that is not a name, or any lexical error.
 */
export function parseExpression(text: string, options: ParseOptions = {}): Expr {
  const p = new Parser(tokenize(text), options.compat === 'google');
  if (p.peek().kind === 'eof') throw new ExpressionSyntaxError('empty expression', 0);
  const e = p.expr(0);
  const t = p.peek();
  if (t.kind !== 'eof') throw new ExpressionSyntaxError(`unexpected ${describe(t)} after the expression`, t.pos);
  return e;
}

/** Word operators: lower-case or upper-case, never mixed (Google: "Data types, functions, operators"). */
function isWord(t: Token, lower: 'and' | 'or' | 'not'): boolean {
  return t.kind === 'name' && (t.value === lower || t.value === WORD_UPPER[lower]);
}

const WORD_UPPER = { and: 'AND', or: 'OR', not: 'NOT' } as const;

const LITERAL_NAMES: ReadonlyMap<string, boolean | null> = new Map<string, boolean | null>([
  ...BOOLEAN_SPELLINGS,
  ['null', null],
]);

function describe(t: Token): string {
  switch (t.kind) {
    case 'eof':
      return 'end of expression';
    case 'punct':
      return `'${t.value}'`;
    case 'name':
      return `name '${t.value}'`;
    case 'string':
      return 'string literal';
    default:
      return `number ${String(t.value)}`;
  }
}

class Parser {
  private i = 0;
  private depth = 0;

  private readonly bp: Readonly<Record<BinaryOp, number>>;
  private readonly plus: '+' | '+~';

  constructor(
    private readonly tokens: Token[],
    google: boolean,
  ) {
    this.bp = google ? GOOGLE_BINARY_BP : BINARY_BP;
    this.plus = google ? '+~' : '+';
  }

  peek(ahead = 0): Token {
    return this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)]!;
  }

  private next(): Token {
    const t = this.tokens[this.i]!;
    if (t.kind !== 'eof') this.i++;
    return t;
  }

  private isPunct(t: Token, p: Punct): boolean {
    return t.kind === 'punct' && t.value === p;
  }

  private expect(p: Punct, what: string): Token {
    const t = this.peek();
    if (!this.isPunct(t, p)) throw new ExpressionSyntaxError(`expected '${p}' ${what}, found ${describe(t)}`, t.pos);
    return this.next();
  }

  /** The binary operator at the current token (`not in` spans two tokens); undefined when none. */
  private binaryAt(): BinaryOp | undefined {
    const t = this.peek();
    if (t.kind === 'punct') return SYMBOLIC_BINARY.has(t.value) ? (t.value as BinaryOp) : undefined;
    if (t.kind !== 'name') return undefined;
    if (t.value === 'in') return 'in';
    if (isWord(t, 'and')) return 'and';
    if (isWord(t, 'or')) return 'or';
    if (isWord(t, 'not')) {
      const u = this.peek(1);
      if (u.kind === 'name' && u.value === 'in') return 'not in';
    }
    return undefined;
  }

  /** Parses an expression whose binary operators all bind tighter than `minBp`. */
  expr(minBp: number): Expr {
    // Deeply nested input must fail as a syntax error, not overflow the JS stack.
    if (++this.depth > 200) throw new ExpressionSyntaxError('expression nested too deeply', this.peek().pos);
    let left = this.prefix();
    for (;;) {
      const op = this.binaryAt();
      if (op === undefined) break;
      const bp = this.bp[op];
      if (bp <= minBp) break;
      const opTok = this.peek();
      this.i += op === 'not in' ? 2 : 1;
      const right = this.expr(bp);
      left = { kind: 'binary', op: op === '+' ? this.plus : op, left, right, pos: opTok.pos };
    }
    this.depth--;
    return left;
  }

  private prefix(): Expr {
    const t = this.peek();
    if (isWord(t, 'not')) {
      this.next();
      return { kind: 'unary', op: 'not', operand: this.expr(PREFIX_BP), pos: t.pos };
    }
    if (this.isPunct(t, '-')) {
      this.next();
      const u = this.peek();
      // Fold a minus sign into the int literal right after it, so that -9223372036854775808 (whose magnitude
      // alone is out of range) is the int INT_MIN; not when a postfix operator follows, as `-` binds looser.
      if ((u.kind === 'int' || u.kind === 'double') && !this.startsPostfix(this.peek(1))) {
        this.next();
        return { kind: 'literal', value: u.kind === 'int' ? intLiteral(-u.value) : -u.value, pos: t.pos };
      }
      return { kind: 'unary', op: '-', operand: this.expr(PREFIX_BP), pos: t.pos };
    }
    return this.postfix(this.primary());
  }

  private startsPostfix(t: Token): boolean {
    return t.kind === 'punct' && (t.value === '.' || t.value === '[' || t.value === '(');
  }

  private primary(): Expr {
    const t = this.next();
    switch (t.kind) {
      case 'int':
        return { kind: 'literal', value: intLiteral(t.value), pos: t.pos };
      case 'double':
      case 'string':
        return { kind: 'literal', value: t.value, pos: t.pos };
      case 'name': {
        const lit = LITERAL_NAMES.get(t.value);
        if (lit !== undefined) return { kind: 'literal', value: lit, pos: t.pos };
        if (t.value === 'in' || isWord(t, 'and') || isWord(t, 'or')) {
          throw new ExpressionSyntaxError(`expected an operand, found operator '${t.value}'`, t.pos);
        }
        return { kind: 'var', name: t.value, pos: t.pos };
      }
      case 'punct':
        switch (t.value) {
          case '(': {
            const e = this.expr(0);
            this.expect(')', 'to close the parenthesis');
            return e;
          }
          case '[':
            return { kind: 'list', items: this.items(']', 'list'), pos: t.pos };
          case '{':
            return this.mapLiteral(t.pos);
          default:
            throw new ExpressionSyntaxError(`expected an operand, found ${describe(t)}`, t.pos);
        }
      case 'eof':
        throw new ExpressionSyntaxError('unexpected end of expression: expected an operand', t.pos);
    }
  }

  /** Comma-separated expressions up to `close` (the opening token already consumed); trailing comma allowed. */
  private items(close: ']' | ')', what: string): Expr[] {
    const out: Expr[] = [];
    for (;;) {
      if (this.isPunct(this.peek(), close)) {
        this.next();
        return out;
      }
      out.push(this.expr(0));
      const t = this.peek();
      if (this.isPunct(t, ',')) this.next();
      else if (!this.isPunct(t, close)) {
        throw new ExpressionSyntaxError(`expected ',' or '${close}' in ${what}, found ${describe(t)}`, t.pos);
      }
    }
  }

  private mapLiteral(pos: number): Expr {
    const entries: (readonly [Expr, Expr])[] = [];
    for (;;) {
      if (this.isPunct(this.peek(), '}')) {
        this.next();
        return { kind: 'map', entries, pos };
      }
      const k = this.expr(0);
      this.expect(':', 'after a map key');
      const v = this.expr(0);
      entries.push([k, v]);
      const t = this.peek();
      if (this.isPunct(t, ',')) this.next();
      else if (!this.isPunct(t, '}')) {
        throw new ExpressionSyntaxError(`expected ',' or '}' in map literal, found ${describe(t)}`, t.pos);
      }
    }
  }

  private postfix(e: Expr): Expr {
    for (;;) {
      const t = this.peek();
      if (t.kind !== 'punct') return e;
      if (t.value === '.') {
        this.next();
        const n = this.next();
        // Any name may follow a dot, keywords included (`a.true`, `e.in` are map keys).
        if (n.kind !== 'name') throw new ExpressionSyntaxError(`expected a name after '.', found ${describe(n)}`, n.pos);
        e = { kind: 'member', object: e, name: n.value, pos: e.pos };
      } else if (t.value === '[') {
        this.next();
        const index = this.expr(0);
        this.expect(']', 'to close the index');
        e = { kind: 'index', object: e, index, pos: e.pos };
      } else if (t.value === '(') {
        const callee = dottedName(e);
        if (callee === undefined) {
          throw new ExpressionSyntaxError('only named functions can be called (e.g. len(x), text.split(s, ","))', t.pos);
        }
        this.next();
        e = { kind: 'call', callee, args: this.items(')', 'argument list'), pos: e.pos };
      } else return e;
    }
  }
}

/** `a.b.c` as one dotted name when the node is a variable with member accesses only; else undefined. */
function dottedName(e: Expr): string | undefined {
  if (e.kind === 'var') return e.name;
  if (e.kind === 'member') {
    const head = dottedName(e.object);
    return head === undefined ? undefined : head + '.' + e.name;
  }
  return undefined;
}

// An int literal in 64 bits stays an int; beyond, it becomes a double (the rule JSON input follows, so the
// two agree; docs/language.md#data-types: int is 64-bit signed).
function intLiteral(v: bigint): bigint | number {
  return v <= INT_MAX && v >= INT_MIN ? v : Number(v);
}
