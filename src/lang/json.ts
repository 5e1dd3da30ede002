/**
 * JSON in and out of workflow values, keeping ints exact (docs/language.md#data-types and docs/standard-library.md#namespaces): `2` is an int, `2.0`
 * and `2e3` are doubles, an integer beyond 64 bits is a double; doubles are written with their `.0` when
 * integral, so they stay doubles on a round trip. Used for arguments, results, `json.*` and HTTP bodies.
 */
import { formatDouble, INT_MAX, INT_MIN, MAX_NESTING_DEPTH, type Value, type WMap } from './value.ts';

/** Why JSON text could not be decoded: a message naming the offset, to be wrapped by the caller. */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    /** Offset in characters where the problem was found. */
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

/**
 * Decodes JSON text into a value, keeping numbers exact: an integer literal that fits in 64 bits becomes an
 * int (`2`), anything with a fraction or exponent becomes a double (`2.0`, `2e3`), and an integer beyond
 * 64 bits becomes a double. Objects become maps (`__proto__` is an ordinary key; a repeated key keeps the
 * last value).
 *
 * @throws JsonSyntaxError when the text is not one JSON value (leading and trailing whitespace allowed).
 */
export function parseJson(text: string): Value {
  const p = new JsonParser(text);
  p.ws();
  const v = p.value(0);
  p.ws();
  if (p.i < text.length) p.fail('unexpected data after the JSON value');
  return v;
}


class JsonParser {
  i = 0;
  constructor(readonly s: string) {}

  fail(msg: string): never {
    throw new JsonSyntaxError(`${msg} at position ${this.i}`, this.i);
  }

  ws(): void {
    const s = this.s;
    let i = this.i;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 32 || c === 10 || c === 13 || c === 9) i++;
      else break;
    }
    this.i = i;
  }

  /** One value; `depth` is the number of lists and maps around it. */
  value(depth: number): Value {
    const s = this.s;
    const c = s[this.i];
    if ((c === '[' || c === '{') && depth >= MAX_NESTING_DEPTH) {
      this.fail(`JSON nested too deeply (more than ${MAX_NESTING_DEPTH} arrays and objects)`);
    }
    switch (c) {
      case '{': {
        this.i++;
        const m: WMap = new Map();
        this.ws();
        if (s[this.i] === '}') {
          this.i++;
          return m;
        }
        for (;;) {
          this.ws();
          if (s[this.i] !== '"') this.fail('expected a string key');
          const k = this.string();
          this.ws();
          if (s[this.i] !== ':') this.fail("expected ':'");
          this.i++;
          this.ws();
          m.set(k, this.value(depth + 1));
          this.ws();
          const d = s[this.i++];
          if (d === '}') return m;
          if (d !== ',') {
            this.i--;
            this.fail("expected ',' or '}'");
          }
        }
      }
      case '[': {
        this.i++;
        const a: Value[] = [];
        this.ws();
        if (s[this.i] === ']') {
          this.i++;
          return a;
        }
        for (;;) {
          this.ws();
          a.push(this.value(depth + 1));
          this.ws();
          const d = s[this.i++];
          if (d === ']') return a;
          if (d !== ',') {
            this.i--;
            this.fail("expected ',' or ']'");
          }
        }
      }
      case '"':
        return this.string();
      case 't':
        return this.word('true', true);
      case 'f':
        return this.word('false', false);
      case 'n':
        return this.word('null', null);
      default:
        if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) return this.number();
        if (c === undefined) this.fail('unexpected end of JSON input');
        this.fail(`unexpected character ${JSON.stringify(c)}`);
    }
  }

  word<T extends Value>(w: string, v: T): T {
    if (this.s.startsWith(w, this.i)) {
      this.i += w.length;
      return v;
    }
    this.fail('invalid literal');
  }

  number(): bigint | number {
    const s = this.s;
    const start = this.i;
    let i = start;
    if (s[i] === '-') i++;
    if (s[i] === '0') i++;
    else if (s[i]! >= '1' && s[i]! <= '9') while (s[i]! >= '0' && s[i]! <= '9') i++;
    else {
      this.i = i;
      this.fail('invalid number');
    }
    let isInt = true;
    if (s[i] === '.') {
      isInt = false;
      i++;
      if (!(s[i]! >= '0' && s[i]! <= '9')) {
        this.i = i;
        this.fail('invalid number');
      }
      while (s[i]! >= '0' && s[i]! <= '9') i++;
    }
    if (s[i] === 'e' || s[i] === 'E') {
      isInt = false;
      i++;
      if (s[i] === '+' || s[i] === '-') i++;
      if (!(s[i]! >= '0' && s[i]! <= '9')) {
        this.i = i;
        this.fail('invalid number');
      }
      while (s[i]! >= '0' && s[i]! <= '9') i++;
    }
    this.i = i;
    const text = s.slice(start, i);
    if (isInt) {
      if (text.length < 16) return BigInt(text);
      const b = BigInt(text);
      if (b <= INT_MAX && b >= INT_MIN) return b;
    }
    return Number(text);
  }

  string(): string {
    const s = this.s;
    let i = ++this.i;
    let out = '';
    let runStart = i;
    for (;;) {
      const c = s.charCodeAt(i);
      if (c === 34 /* " */) {
        out += s.slice(runStart, i);
        this.i = i + 1;
        return out;
      }
      if (c === 92 /* \ */) {
        out += s.slice(runStart, i);
        const e = s[i + 1];
        i += 2;
        switch (e) {
          case '"':
            out += '"';
            break;
          case '\\':
            out += '\\';
            break;
          case '/':
            out += '/';
            break;
          case 'b':
            out += '\b';
            break;
          case 'f':
            out += '\f';
            break;
          case 'n':
            out += '\n';
            break;
          case 'r':
            out += '\r';
            break;
          case 't':
            out += '\t';
            break;
          case 'u': {
            const h = s.slice(i, i + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(h)) {
              this.i = i;
              this.fail('invalid unicode escape');
            }
            out += String.fromCharCode(parseInt(h, 16));
            i += 4;
            break;
          }
          default:
            this.i = i - 1;
            this.fail('invalid escape');
        }
        runStart = i;
        continue;
      }
      if (Number.isNaN(c)) {
        this.i = i;
        this.fail('unterminated string');
      }
      if (c < 32) {
        this.i = i;
        this.fail('control character in string');
      }
      i++;
    }
  }
}

/** Why a value cannot be written as JSON (bytes, NaN or infinities). The caller maps it to TypeError/ValueError. */
export class JsonEncodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JsonEncodeError';
  }
}

/**
 * Encodes a value as compact JSON text with exact ints and doubles that keep their type (`5.0`; see
 * {@link formatDouble}). Map keys keep insertion order.
 *
 * @param indent spaces per level for pretty output (0: compact).
 * @throws JsonEncodeError for bytes (the real service cannot JSON-encode bytes: "Bytes can't be returned by a
 *   workflow") and for NaN or infinite doubles.
 */
export function toJson(v: Value, indent = 0): string {
  return encode(v, indent, '');
}

/**
 * The value with what {@link toJson} refuses made encodable, for showing a value the API must always show
 * (error payloads, recorded calls): bytes become their base64 text and NaN or infinite doubles their
 * string (`"NaN"`, `"Infinity"`); everything else, nested lists and maps included, is kept. Never throws.
 */
export function jsonSafe(v: Value): Value {
  if (v instanceof Uint8Array) return Buffer.from(v).toString('base64');
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  if (Array.isArray(v)) return v.map(jsonSafe);
  if (v instanceof Map) {
    const out: WMap = new Map();
    for (const [k, e] of v) out.set(k, jsonSafe(e));
    return out;
  }
  return v;
}

function encode(v: Value, indent: number, pad: string): string {
  switch (typeof v) {
    case 'bigint':
      return v.toString();
    case 'number':
      if (!Number.isFinite(v)) throw new JsonEncodeError(`cannot encode ${v} as JSON`);
      return formatDouble(v);
    case 'string':
      return JSON.stringify(v);
    case 'boolean':
      return v ? 'true' : 'false';
    default: {
      if (v === null) return 'null';
      if (v instanceof Uint8Array) throw new JsonEncodeError('bytes cannot be encoded as JSON');
      const inner = indent ? pad + ' '.repeat(indent) : '';
      const nl = indent ? '\n' : '';
      const sep = indent ? ': ' : ':';
      if (Array.isArray(v)) {
        if (v.length === 0) return '[]';
        const parts = v.map((e) => inner + encode(e, indent, inner));
        return '[' + nl + parts.join(',' + nl) + nl + pad + ']';
      }
      if (v.size === 0) return '{}';
      const parts: string[] = [];
      for (const [k, e] of v) parts.push(inner + JSON.stringify(k) + sep + encode(e, indent, inner));
      return '{' + nl + parts.join(',' + nl) + nl + pad + '}';
    }
  }
}
