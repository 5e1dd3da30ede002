/**
 * The `map` namespace (docs/standard-library.md#namespaces; Google's `map.get`, `map.delete`, `map.merge` and
 * `map.merge_nested` pages). Every function returns a new map and leaves its inputs unchanged.
 *
 * `map.get` accepts both forms: Google's key or list of keys (a nested lookup that yields null when any step
 * is missing or not a map) and the spec's optional third argument, the default returned instead of null
 * when the key is missing. Named arguments follow Google (`map`, `keys`, `key`, `first`, `second`); the
 * spec's words are aliases.
 */
import { map, str, wrongType } from './check.ts';
import type { Value, WMap } from '../lang/value.ts';
import type { StdlibFunction } from './types.ts';

/**
 * Merges `second` into `first` recursively: where both hold a map under the same key the two maps are
 * merged, otherwise the value of `second` wins. Returns a new map; neither input is changed. Key order: the
 * keys of `first`, then the new keys of `second`.
 */
function mergeNested(first: WMap, second: WMap): WMap {
  const out: WMap = new Map(first);
  for (const [k, v] of second) {
    const old = out.get(k);
    out.set(k, old instanceof Map && v instanceof Map ? mergeNested(old, v) : v);
  }
  return out;
}

/** The map functions, one row per function. */
export const functions: StdlibFunction[] = [
  {
    // map.get(map, keys, default?): safe lookup; a list of keys drills down; null or the default on a miss.
    name: 'map.get',
    params: [{ name: 'map' }, { name: 'keys', aliases: ['key'] }, { name: 'default', optional: true }],
    impl: ([m, keys, dflt]) => {
      const path: string[] = [];
      if (typeof keys === 'string') path.push(keys);
      else if (Array.isArray(keys)) {
        for (const k of keys) {
          if (typeof k !== 'string') wrongType('map.get', 'keys', 'a string or a list of strings', keys);
          path.push(k);
        }
      } else wrongType('map.get', 'keys', 'a string or a list of strings', keys);
      let cur: Value | undefined = m ?? null;
      for (const k of path) {
        cur = cur instanceof Map ? cur.get(k) : undefined;
        if (cur === undefined) return dflt ?? null;
      }
      return cur;
    },
  },
  {
    // map.delete(map, key): a copy without key (unchanged when absent).
    name: 'map.delete',
    params: [{ name: 'map' }, { name: 'key' }],
    impl: ([m, key]) => {
      const src = map('map.delete', 'map', m);
      const k = str('map.delete', 'key', key);
      const out: WMap = new Map(src);
      out.delete(k);
      return out;
    },
  },
  {
    // map.merge(first, second): shallow merge; second wins on shared keys.
    name: 'map.merge',
    params: [
      { name: 'first', aliases: ['map1'] },
      { name: 'second', aliases: ['map2'] },
    ],
    impl: ([a, b]) => {
      const out: WMap = new Map(map('map.merge', 'first', a));
      for (const [k, v] of map('map.merge', 'second', b)) out.set(k, v);
      return out;
    },
  },
  {
    // map.merge_nested(first, second): deep merge; nested maps merge, anything else from second wins.
    name: 'map.merge_nested',
    params: [
      { name: 'first', aliases: ['map1'] },
      { name: 'second', aliases: ['map2'] },
    ],
    impl: ([a, b]) => mergeNested(map('map.merge_nested', 'first', a), map('map.merge_nested', 'second', b)),
  },
];
