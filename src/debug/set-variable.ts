/**
 * "Set variable" of the debugger (docs/debugging.md#variables): the new value, read as a workflow expression,
 * is type-checked against what the variable (or the map or list item) holds now before it is assigned, so a
 * slip in the debugger's edit box (`"3"` for `3`, `[1]` for `1`) is refused instead of changing the
 * execution's types under it. Workflow values are dynamically typed (https://cloud.google.com/workflows/docs/reference/syntax/datatypes),
 * so the check is against the current value's type, as `get_type` names it:
 *
 * - a value of the same type is taken as it is;
 * - an int is taken where a double is held, as the double of the same number (`3` sets `3.0`), as arithmetic
 *   between the two widens ints;
 * - a variable or item that holds `null` (declared, not yet set) takes a value of any type;
 * - anything else is refused, naming both types.
 */
import { isList, isMap, typeName, type Value } from '../lang/value.ts';

/**
 * `value` as it is to be assigned to `name`, which holds `current` (undefined: nothing yet).
 * @throws Error naming the variable, its type and the new value's type, when the types differ (see the module
 *   header); an int too large for a double's exact range is refused as a double would lose it.
 */
export function typeChecked(name: string, current: Value | undefined, value: Value): Value {
  if (current === undefined || current === null) return value;
  const held = typeName(current);
  const given = typeName(value);
  if (held === given) return value;
  if (held === 'double' && given === 'int') {
    const n = Number(value as bigint);
    if (BigInt(n) === value) return n;
    throw new Error(`${name} holds a double; ${String(value)} cannot be one exactly`);
  }
  const hint = held === 'double' || held === 'int' ? (held === 'int' ? ' (e.g. 3, or int(x))' : ' (e.g. 2.5, or double(x))') : held === 'string' ? ' (e.g. "text", or string(x))' : '';
  throw new Error(`${name} holds ${article(held)}; the new value is ${article(given)}: give ${article(held)}${hint}`);
}

function article(type: string): string {
  return `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;
}

/** The key of item `name` of a map or list: the map key, or the list index. */
export function keyOf(container: ReadonlyMap<string, Value> | Value, name: string): string | number {
  return isList(container as Value) ? Number(name) : name;
}

/** The item `key` of a map or list, or undefined when it has none. */
export function itemOf(container: ReadonlyMap<string, Value> | Value, key: string | number): Value | undefined {
  if (isMap(container as Value) && typeof key === 'string') return (container as ReadonlyMap<string, Value>).get(key);
  if (isList(container as Value) && typeof key === 'number') return (container as Value[])[key];
  return undefined;
}

/** `v` with the item at `path` replaced by `value` (maps and lists copied on the way down). */
export function replaced(v: Value, path: readonly (string | number)[], value: Value): Value {
  if (path.length === 0) return value;
  const [k, ...rest] = path;
  if (isMap(v) && typeof k === 'string') {
    const m = new Map(v);
    m.set(k, replaced(v.get(k) ?? null, rest, value));
    return m;
  }
  if (isList(v) && typeof k === 'number' && k >= 0 && k < v.length) {
    const l = [...v];
    l[k] = replaced(v[k]!, rest, value);
    return l;
  }
  throw new Error(`no item ${JSON.stringify(k)} to set`);
}
