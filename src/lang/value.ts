/**
 * Values of the workflow language and the operations every layer shares on them.
 *
 * Each language type has its own JS type (docs/language.md#data-types), so `type()` and `10 / 2 == 2.0` fall out:
 *
 * | language | JS                      |
 * |----------|-------------------------|
 * | int      | `bigint`, always within the signed 64-bit range (wrapped with {@link wrapInt}) |
 * | double   | `number`                |
 * | string   | `string`                |
 * | bool     | `boolean`               |
 * | null     | `null`                  |
 * | list     | `Value[]`               |
 * | map      | `Map<string, Value>` (so `__proto__` and `constructor` are ordinary keys; insertion order kept) |
 * | bytes    | `Uint8Array`            |
 *
 * Values are immutable once built: every operation that "changes" a list or map returns a new one. This gives
 * value semantics (an assignment copies) without copying on read, and keeps parallel branches from seeing
 * each other's writes.
 */

/** A workflow value. See the module header for the mapping of language types to JS types. */
export type Value = null | boolean | bigint | number | string | Uint8Array | Value[] | WMap;

/** A workflow map: string keys, insertion order, no prototype. */
export type WMap = Map<string, Value>;

/** The names `type()` returns for each kind (docs/language.md#data-types). */
export type TypeName = 'int' | 'double' | 'string' | 'bool' | 'null' | 'list' | 'map' | 'bytes';

/** Largest int (2^63 - 1). */
export const INT_MAX = 9223372036854775807n;
/** Smallest int (-2^63). */
export const INT_MIN = -9223372036854775808n;

/**
 * Wraps an arbitrary bigint into the signed 64-bit range, as int overflow does (docs/language.md#data-types: "overflow
 * wraps"). Cheap when no wrap is needed.
 */
export function wrapInt(n: bigint): bigint {
  return n > INT_MAX || n < INT_MIN ? BigInt.asIntN(64, n) : n;
}

/** The language type name of a value: `int`, `double`, `string`, `bool`, `null`, `list`, `map` or `bytes`. */
export function typeName(v: Value): TypeName {
  switch (typeof v) {
    case 'bigint':
      return 'int';
    case 'number':
      return 'double';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    default:
      if (v === null) return 'null';
      if (Array.isArray(v)) return 'list';
      if (v instanceof Map) return 'map';
      return 'bytes';
  }
}

/**
 * The spellings of the two booleans (docs/language.md#data-types: `true`/`false`, also `True`/`False`, `TRUE`/`FALSE`):
 * literals in expressions and the text `bool()` accepts.
 */
export const BOOLEAN_SPELLINGS: ReadonlyMap<string, boolean> = new Map([
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);

/** True for a workflow map. */
export function isMap(v: Value | undefined): v is WMap {
  return v instanceof Map;
}

/** True for a workflow list. */
export function isList(v: Value | undefined): v is Value[] {
  return Array.isArray(v);
}

/** True for bytes. */
export function isBytes(v: Value | undefined): v is Uint8Array {
  return v instanceof Uint8Array;
}

/** Builds a map from entries or a plain object (own enumerable keys only; `__proto__` stays a key). */
export function mapOf(entries: Iterable<readonly [string, Value]> | Record<string, Value>): WMap {
  if (Symbol.iterator in entries) return new Map(entries as Iterable<readonly [string, Value]>);
  const m: WMap = new Map();
  for (const k of Object.keys(entries)) m.set(k, (entries as Record<string, Value>)[k]!);
  return m;
}

/**
 * Deep equality as `==` defines it (docs/language.md#expressions): lists and maps compare element by element (map key
 * order does not matter), int and double compare by numeric value (`1 == 1.0`), bytes by content, and values
 * of incompatible types are simply unequal.
 */
export function deepEqual(a: Value, b: Value): boolean {
  if (a === b) return true;
  const ta = typeof a;
  const tb = typeof b;
  if (ta === 'bigint' || ta === 'number') {
    if (tb !== 'bigint' && tb !== 'number') return false;
    return compareNumbers(a as bigint | number, b as bigint | number) === 0;
  }
  if (a === null || b === null || ta !== 'object' || tb !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i]!, b[i]!)) return false;
    return true;
  }
  if (a instanceof Map) {
    if (!(b instanceof Map) || a.size !== b.size) return false;
    for (const [k, v] of a) {
      const w = b.get(k);
      if (w === undefined || !deepEqual(v, w)) return false;
    }
    return true;
  }
  if (a instanceof Uint8Array && b instanceof Uint8Array) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  return false;
}

/**
 * Compares two numbers of either kind exactly (no precision loss for ints beyond 2^53).
 * Returns -1, 0 or 1; NaN compares as unordered and yields NaN.
 */
export function compareNumbers(a: bigint | number, b: bigint | number): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : a === b ? 0 : NaN;
  // Mixed: compare exactly. A double that is not finite or not integral compares by value against the int.
  const d = (typeof a === 'number' ? a : b) as number;
  const i = (typeof a === 'bigint' ? a : b) as bigint;
  let r: number;
  if (Number.isNaN(d)) return NaN;
  if (d === Infinity) r = 1;
  else if (d === -Infinity) r = -1;
  else {
    const fl = Math.floor(d);
    const bi = BigInt(fl);
    if (bi !== i) r = bi > i ? 1 : -1;
    else r = d > fl ? 1 : 0;
  }
  // r is the sign of (d - i); flip when a is the int.
  return typeof a === 'number' ? r : -r;
}

/**
 * Formats a double the way the emulator prints it in `string()` and JSON: the shortest text that reads back
 * to the same double, with `.0` added to integral values so the value stays a double on a round trip
 * (`5.0`, `0.1`, `1e+21`). NaN and infinities print as `NaN`, `Infinity`, `-Infinity` (they cannot occur in
 * JSON output; see {@link toJson}).
 */
export function formatDouble(d: number): string {
  if (!Number.isFinite(d)) return String(d);
  const s = String(d);
  if (Number.isInteger(d) && !s.includes('e')) return s + '.0';
  return s;
}

/**
 * Deepest nesting of lists and maps in a value (a list of lists of ints is 2 deep): 1000. A value nested deeper
 * cannot be stored in a variable ({@link sizeOf} raises {@link NestingDepthError}) nor read from JSON
 * (`parseJson`), so every recursive walk of a value (equality, JSON, merging) stays far from the
 * JavaScript stack's end. Google documents no such limit; JSON parsers commonly stop at this depth.
 */
export const MAX_NESTING_DEPTH = 1000;

/** A value nested more than {@link MAX_NESTING_DEPTH} lists and maps deep. WorkflowError.from makes it a ResourceLimitError. */
export class NestingDepthError extends Error {
  constructor() {
    super(`a value is nested more than ${MAX_NESTING_DEPTH} lists and maps deep`);
    this.name = 'NestingDepthError';
  }
}

/**
 * The size estimate of a value in bytes, used for the 512 KB variable-memory limit (docs/api-resources.md#limits).
 * @throws NestingDepthError for a value nested more than {@link MAX_NESTING_DEPTH} deep.
 */
export function sizeOf(v: Value): number {
  switch (typeof v) {
    case 'bigint':
    case 'number':
      return 8;
    case 'boolean':
      return 1;
    case 'string':
      return v.length;
    default:
      if (v === null) return 1;
      if (v instanceof Uint8Array) return v.length;
      return Math.floor(measure(v) / DEPTH_SLOTS);
  }
}

/** Nesting depth of a value: 0 for a scalar, 1 + the deepest element for a list or map. Same error as {@link sizeOf}. */
function depthOf(v: Value): number {
  return v !== null && typeof v === 'object' && !(v instanceof Uint8Array) ? measure(v) % DEPTH_SLOTS : 0;
}

// A container's size and depth, packed as size * DEPTH_SLOTS + depth (exact while size < 2^42) and cached:
// values are immutable, so neither ever changes once computed.
const DEPTH_SLOTS = 2048;
const sizeCache = new WeakMap<object, number>();

/**
 * Keeps {@link sizeOf} and {@link depthOf} exact after `container` was changed in place (an element `removed`,
 * or none, replaced by `added`; `sizeDelta` the change in bytes as sizeOf counts them), without walking it:
 * the engine changes a container in place only when no one else can see it (engine/assign.ts), so its
 * cached measure must follow. A container never measured stays unmeasured.
 * @throws NestingDepthError when `added` makes the container too deep (nothing is recorded then).
 */
export function remeasure(container: Value[] | WMap, sizeDelta: number, added: Value, removed: Value | undefined): void {
  const packed = sizeCache.get(container);
  if (packed === undefined) return;
  let depth = packed % DEPTH_SLOTS;
  const addedDepth = depthOf(added) + 1;
  if (addedDepth > MAX_NESTING_DEPTH) throw new NestingDepthError();
  if (addedDepth > depth) depth = addedDepth;
  else if (removed !== undefined && depthOf(removed) + 1 === depth && addedDepth < depth) {
    // The deepest element may be gone: measure again when next asked.
    sizeCache.delete(container);
    return;
  }
  sizeCache.set(container, (Math.floor(packed / DEPTH_SLOTS) + sizeDelta) * DEPTH_SLOTS + depth);
}

function measure(v: Value[] | WMap): number {
  const cached = sizeCache.get(v);
  if (cached !== undefined) return cached;
  let size = 8;
  let depth = 0;
  const add = (e: Value): void => {
    if (e !== null && typeof e === 'object' && !(e instanceof Uint8Array)) {
      const m = measure(e);
      size += Math.floor(m / DEPTH_SLOTS);
      const d = m % DEPTH_SLOTS;
      if (d > depth) depth = d;
    } else size += sizeOf(e);
  };
  if (Array.isArray(v)) for (const e of v) add(e);
  else for (const [k, e] of v) (size += k.length), add(e);
  if (++depth > MAX_NESTING_DEPTH) throw new NestingDepthError();
  const packed = size * DEPTH_SLOTS + depth;
  sizeCache.set(v, packed);
  return packed;
}

/**
 * Converts a plain JS value (from `JSON.parse`, YAML, or test code) into a workflow value: integral JS
 * numbers become ints only when `intsFromNumbers` says so (default: integral numbers become ints), objects
 * become maps, `undefined` becomes null.
 */
export function fromJs(x: unknown): Value {
  if (x === null || x === undefined) return null;
  switch (typeof x) {
    case 'bigint':
      return wrapInt(x);
    case 'number':
      return Number.isInteger(x) && Number.isSafeInteger(x) ? BigInt(x) : x;
    case 'string':
    case 'boolean':
      return x;
    case 'object':
      if (x instanceof Uint8Array) return x;
      if (x instanceof Map) {
        const m: WMap = new Map();
        for (const [k, e] of x) m.set(String(k), fromJs(e));
        return m;
      }
      if (Array.isArray(x)) return x.map(fromJs);
      return mapOf(Object.keys(x).map((k) => [k, fromJs((x as Record<string, unknown>)[k])] as const));
    default:
      return String(x);
  }
}

/**
 * Converts a workflow value into plain JS for display and tests: ints become numbers when safe and bigints
 * otherwise, maps become null-prototype objects, bytes stay Uint8Array.
 */
export function toJs(v: Value): unknown {
  if (typeof v === 'bigint') return v >= -9007199254740991n && v <= 9007199254740991n ? Number(v) : v;
  if (Array.isArray(v)) return v.map(toJs);
  if (v instanceof Map) {
    const o: Record<string, unknown> = Object.create(null);
    for (const [k, e] of v) o[k] = toJs(e);
    return o;
  }
  return v;
}
