/**
 * The `uuid` namespace (docs/standard-library.md#namespaces; Google's `uuid.generate` page): random version 4
 * UUIDs from the execution's source of them (recorded, or played back: docs/recording.md), else from the
 * platform's global `crypto` (Node 20+, Deno and Bun all provide `crypto.randomUUID`).
 */
import type { StdlibFunction } from './types.ts';

/** The uuid functions, one row per function. */
export const functions: StdlibFunction[] = [
  {
    // uuid.generate(): a random version 4 UUID in lower-case canonical form, e.g. "1b4e28ba-2fa1-4d3b-...".
    name: 'uuid.generate',
    params: [],
    impl: (_args, ctx) => (ctx.uuid ? ctx.uuid() : crypto.randomUUID()),
  },
];
