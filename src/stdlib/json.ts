/**
 * The `json` namespace (docs/standard-library.md#namespaces; Google's `json.decode`, `json.encode` and
 * `json.encode_to_string` pages). Ints stay exact both ways (`2` is an int, `2.0` a double; see
 * `parseJson`/`toJson` in `src/lang/value.ts`), map keys keep their order.
 *
 * `indent` (Google): a bool, or a map with optional string fields `prefix` (default "") and `indent`
 * (default four spaces); `true` equals `{}`, `false` equals leaving it out. When indenting, each element
 * starts on a new line that begins with `prefix` followed by one `indent` per nesting level; the first line
 * carries no prefix and `": "` separates keys from values.
 */
import { typeError, valueError } from '../lang/errors.ts';
import { type Value } from '../lang/value.ts';
import { JsonEncodeError, JsonSyntaxError, parseJson, toJson } from '../lang/json.ts';
import { checkString, MAX_STRING_BYTES, MAX_VALUE_BYTES, SizeBudget } from '../lang/size-checks.ts';
import { fromUtf8Lenient, utf8, wrongType } from './check.ts';
import type { StdlibFunction } from './types.ts';

/** Indentation options of json.encode: undefined for compact output. */
interface Indent {
  readonly prefix: string;
  readonly indent: string;
}

function indentOf(fn: string, v: Value | undefined): Indent | undefined {
  if (v === undefined || v === null || v === false) return undefined;
  if (v === true) return { prefix: '', indent: '    ' };
  if (v instanceof Map) {
    const prefix = v.get('prefix') ?? '';
    const indent = v.get('indent') ?? '    ';
    if (typeof prefix !== 'string') throw typeError(`${fn}: indent.prefix must be a string`);
    if (typeof indent !== 'string') throw typeError(`${fn}: indent.indent must be a string`);
    return { prefix, indent };
  }
  wrongType(fn, 'indent', 'a bool or a map', v);
}

/**
 * Encodes a value as JSON text, compact or indented as Google's `indent` argument asks, stopping as soon as
 * the text passes `maxUnits` UTF-16 code units (a list holding one long string many times would otherwise
 * build a text far larger than any variable can be).
 *
 * @throws WorkflowError tagged ValueError when the value holds bytes or a NaN/infinite double (Google:
 *   "ValueError If the input contains types that cannot be JSON-encoded"); TypeError for a bad `indent`;
 *   ResourceLimitError past `maxUnits`.
 */
function encodeJson(fn: string, v: Value, indent: Value | undefined, maxUnits: number): string {
  const o = indentOf(fn, indent);
  const budget = new SizeBudget(fn, maxUnits);
  const parts: string[] = [];
  const put = (text: string): void => {
    budget.add(text.length);
    parts.push(text);
  };
  const walk = (x: Value, depth: number): void => {
    if (!(Array.isArray(x) || x instanceof Map)) {
      put(scalarJson(fn, x));
      return;
    }
    const [open, close] = Array.isArray(x) ? ['[', ']'] : ['{', '}'];
    const size = Array.isArray(x) ? x.length : x.size;
    if (size === 0) return put(open + close);
    put(open);
    const pad = o ? '\n' + o.prefix + o.indent.repeat(Math.min(depth + 1, maxUnits)) : '';
    let first = true;
    const item = (k: string | undefined, e: Value): void => {
      put(first ? pad : ',' + pad);
      first = false;
      if (k !== undefined) put(JSON.stringify(k) + (o ? ': ' : ':'));
      walk(e, depth + 1);
    };
    if (Array.isArray(x)) for (const e of x) item(undefined, e);
    else for (const [k, e] of x) item(k, e);
    put(o ? '\n' + o.prefix + o.indent.repeat(Math.min(depth, maxUnits)) + close : close);
  };
  walk(v, 0);
  return parts.join('');
}

function scalarJson(fn: string, v: Value): string {
  try {
    return toJson(v);
  } catch (e) {
    if (e instanceof JsonEncodeError) throw valueError(`${fn}: ${e.message}`);
    throw e;
  }
}

/** The json functions, one row per function. */
export const functions: StdlibFunction[] = [
  {
    // json.decode(data): JSON text (string, or bytes decoded as by text.decode(data, "UTF-8")) to a value;
    // ValueError when not valid JSON.
    name: 'json.decode',
    params: [{ name: 'data' }],
    impl: ([data]) => {
      let text: string;
      if (typeof data === 'string') text = data;
      else if (data instanceof Uint8Array) text = fromUtf8Lenient(data);
      else wrongType('json.decode', 'data', 'a string or bytes', data);
      try {
        return parseJson(text);
      } catch (e) {
        if (e instanceof JsonSyntaxError) throw valueError(`json.decode: invalid JSON: ${e.message}`);
        throw e;
      }
    },
  },
  {
    // json.encode(data, indent?): a value to UTF-8 JSON bytes.
    name: 'json.encode',
    params: [{ name: 'data', aliases: ['value'] }, { name: 'indent', optional: true }],
    impl: ([data, indent]) => utf8(encodeJson('json.encode', data ?? null, indent, MAX_VALUE_BYTES)),
  },
  {
    // json.encode_to_string(data, indent?): a value to JSON text.
    name: 'json.encode_to_string',
    params: [{ name: 'data', aliases: ['value'] }, { name: 'indent', optional: true }],
    impl: ([data, indent]) =>
      checkString('json.encode_to_string', encodeJson('json.encode_to_string', data ?? null, indent, MAX_STRING_BYTES)),
  },
];
