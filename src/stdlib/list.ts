/**
 * The `list` namespace (docs/standard-library.md#namespaces; Google's `list.concat` and `list.prepend` pages):
 * functions that return a new list and leave their input unchanged, as values are immutable.
 *
 * Named arguments follow Google (`objs`, `val`); the spec's words (`list`, `element`) are accepted too.
 */
import { list } from './check.ts';
import type { StdlibFunction } from './types.ts';

/** The list functions, one row per function. */
export const functions: StdlibFunction[] = [
  {
    // list.concat(objs, val): a copy of objs with val appended. TypeError when objs is not a list.
    name: 'list.concat',
    params: [
      { name: 'objs', aliases: ['list'] },
      { name: 'val', aliases: ['element'] },
    ],
    impl: ([objs, val]) => [...list('list.concat', 'objs', objs), val ?? null],
  },
  {
    // list.prepend(objs, val): a copy of objs with val in front. TypeError when objs is not a list.
    name: 'list.prepend',
    params: [
      { name: 'objs', aliases: ['list'] },
      { name: 'val', aliases: ['element'] },
    ],
    impl: ([objs, val]) => [val ?? null, ...list('list.prepend', 'objs', objs)],
  },
];
