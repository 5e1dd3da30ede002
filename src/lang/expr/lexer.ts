/**
 * The lexer of the expression language (docs/language.md#expressions): turns the text between `${` and `}` into
 * tokens for the Pratt parser in parser.ts.
 *
 * Tokens are numbers (int and double kept apart, ints exact), strings (single or double quotes, with
 * escapes decoded here), names (identifiers and the word operators `and`, `or`, `not`, `in`, which the parser
 * tells apart) and punctuation. Every token keeps `pos`, the character offset of its first character, so a
 * syntax error can point at the spot. Pure: no `node:` imports.
 */

/** Why an expression's text is not a valid expression, and where. */
export class ExpressionSyntaxError extends Error {
  constructor(
    message: string,
    /** Character offset in the expression text (the text between `${` and `}`) where the problem is. */
    readonly offset: number,
  ) {
    super(message);
    this.name = 'ExpressionSyntaxError';
  }
}

/** Punctuation and symbolic operators, longest first where one is a prefix of another. */
export type Punct =
  | '=='
  | '!='
  | '<='
  | '>='
  | '//'
  | '<'
  | '>'
  | '+'
  | '-'
  | '*'
  | '/'
  | '%'
  | '('
  | ')'
  | '['
  | ']'
  | '{'
  | '}'
  | ','
  | ':'
  | '.';

/**
 * One token. `int` carries the exact value as a bigint (which may exceed 64 bits: the parser decides, since
 * `-9223372036854775808` is only in range with its sign); `double` a number; `string` the decoded text;
 * `name` the identifier as written (case kept; keywords are decided by the parser).
 */
export type Token =
  | { readonly kind: 'int'; readonly value: bigint; readonly pos: number }
  | { readonly kind: 'double'; readonly value: number; readonly pos: number }
  | { readonly kind: 'string'; readonly value: string; readonly pos: number }
  | { readonly kind: 'name'; readonly value: string; readonly pos: number }
  | { readonly kind: 'punct'; readonly value: Punct; readonly pos: number }
  | { readonly kind: 'eof'; readonly value: ''; readonly pos: number };

/** The two-character punctuation `==`, `!=`, `<=`, `>=`, `//` that starts with these two code units, if any. */
function twoCharPunct(c: number, d: number): Punct | undefined {
  if (d === 61 /* = */) {
    if (c === 61) return '==';
    if (c === 33 /* ! */) return '!=';
    if (c === 60 /* < */) return '<=';
    if (c === 62 /* > */) return '>=';
  } else if (c === 47 && d === 47) return '//';
  return undefined;
}

/** The one-character punctuation, by code unit (ASCII). */
const ONE_CHAR: readonly (Punct | undefined)[] = (() => {
  const table = new Array<Punct | undefined>(128).fill(undefined);
  for (const p of ['<', '>', '+', '-', '*', '/', '%', '(', ')', '[', ']', '{', '}', ',', ':', '.'] as const) table[p.charCodeAt(0)] = p;
  return table;
})();

/**
 * Splits expression text into tokens, ending with one `eof` token.
 *
 * @throws ExpressionSyntaxError for an unterminated string, a bad `\u` escape, a character that starts no
 *   token (including a nested `${`), or a malformed number; `offset` points at the problem.
 */
export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    // Whitespace: YAML block scalars can spread an expression over several lines.
    if (c === 32 || c === 9 || c === 10 || c === 13) {
      i++;
      continue;
    }
    const start = i;
    if (isDigit(c)) {
      i = readNumber(text, i, out);
      continue;
    }
    if (isNameStart(c)) {
      i++;
      while (i < n && isNamePart(text.charCodeAt(i))) i++;
      out.push({ kind: 'name', value: text.slice(start, i), pos: start });
      continue;
    }
    if (c === 34 /* " */ || c === 39 /* ' */) {
      i = readString(text, i, out);
      continue;
    }
    const two = twoCharPunct(c, text.charCodeAt(i + 1));
    if (two !== undefined) {
      out.push({ kind: 'punct', value: two, pos: start });
      i += 2;
      continue;
    }
    const punct = c < 128 ? ONE_CHAR[c] : undefined;
    if (punct !== undefined) {
      out.push({ kind: 'punct', value: punct, pos: start });
      i++;
      continue;
    }
    const one = text[i]!;
    if (text.startsWith('${', i)) throw new ExpressionSyntaxError('nested ${ is not allowed inside an expression', start);
    if (one === '=') throw new ExpressionSyntaxError("unexpected '=' (use '==' to compare)", start);
    if (one === '!') throw new ExpressionSyntaxError("unexpected '!' (use 'not' for negation)", start);
    if (one === '&' || one === '|') {
      throw new ExpressionSyntaxError(`unexpected '${one}' (use 'and' / 'or')`, start);
    }
    throw new ExpressionSyntaxError(`unexpected character ${JSON.stringify(one)}`, start);
  }
  out.push({ kind: 'eof', value: '', pos: n });
  return out;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Whether a UTF-16 code unit may start a name, `[A-Za-z_]` (docs/language.md#expressions). @internal */
export function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** Whether a UTF-16 code unit may continue a name, `[A-Za-z0-9_]` (docs/language.md#expressions). @internal */
export function isNamePart(c: number): boolean {
  return isNameStart(c) || isDigit(c);
}

// Reads `digits [. digits] [e [+-] digits]`. Without fraction or exponent it is an int (exact, any size);
// otherwise a double (`2.0`, `1e3`), as in JSON, so `type(2.0)` is double.
function readNumber(text: string, i: number, out: Token[]): number {
  const start = i;
  const n = text.length;
  while (i < n && isDigit(text.charCodeAt(i))) i++;
  let isInt = true;
  if (text[i] === '.' && isDigit(text.charCodeAt(i + 1))) {
    isInt = false;
    i++;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
  }
  if (text[i] === 'e' || text[i] === 'E') {
    let j = i + 1;
    if (text[j] === '+' || text[j] === '-') j++;
    if (!isDigit(text.charCodeAt(j))) throw new ExpressionSyntaxError('malformed number: exponent has no digits', i);
    isInt = false;
    i = j;
    while (i < n && isDigit(text.charCodeAt(i))) i++;
  }
  if (i < n && isNameStart(text.charCodeAt(i))) {
    throw new ExpressionSyntaxError(`malformed number ${JSON.stringify(text.slice(start, i + 1))}`, start);
  }
  const s = text.slice(start, i);
  if (isInt) out.push({ kind: 'int', value: BigInt(s), pos: start });
  else out.push({ kind: 'double', value: Number(s), pos: start });
  return i;
}

// Escapes follow Python and JSON: \n \t \r \b \f \v \a \0 \\ \' \" \/ \xHH \uXXXX \UXXXXXXXX. An unknown escape
// keeps its backslash (Python's rule), so regex patterns such as "\d+" written with one backslash still work.
function readString(text: string, i: number, out: Token[]): number {
  const start = i;
  const quote = text.charCodeAt(i);
  const n = text.length;
  i++;
  let s = '';
  let run = i;
  for (;;) {
    if (i >= n) throw new ExpressionSyntaxError('unterminated string literal', start);
    const c = text.charCodeAt(i);
    if (c === quote) {
      s += text.slice(run, i);
      i++;
      break;
    }
    if (c !== 92 /* \ */) {
      i++;
      continue;
    }
    s += text.slice(run, i);
    const e = text[i + 1];
    if (e === undefined) throw new ExpressionSyntaxError('unterminated string literal', start);
    i += 2;
    switch (e) {
      case 'n':
        s += '\n';
        break;
      case 't':
        s += '\t';
        break;
      case 'r':
        s += '\r';
        break;
      case 'b':
        s += '\b';
        break;
      case 'f':
        s += '\f';
        break;
      case 'v':
        s += '\v';
        break;
      case 'a':
        s += '\x07';
        break;
      case '0':
        s += '\0';
        break;
      case '\\':
      case "'":
      case '"':
      case '/':
        s += e;
        break;
      case 'x':
      case 'u':
      case 'U': {
        const len = e === 'x' ? 2 : e === 'u' ? 4 : 8;
        const hex = text.slice(i, i + len);
        if (hex.length !== len || !/^[0-9a-fA-F]+$/.test(hex)) {
          throw new ExpressionSyntaxError(`invalid \\${e} escape: expected ${len} hex digits`, i - 2);
        }
        const cp = parseInt(hex, 16);
        if (cp > 0x10ffff) throw new ExpressionSyntaxError(`invalid \\${e} escape: beyond Unicode`, i - 2);
        s += String.fromCodePoint(cp);
        i += len;
        break;
      }
      default:
        s += '\\' + e;
    }
    run = i;
  }
  out.push({ kind: 'string', value: s, pos: start });
  return i;
}
