/**
 * Our modules that the bundle's packed module groups import (src/platform/libraries.ts, `loadModule`), by their
 * path in the repository: build.mjs replaces this file's contents in the bundle with a namespace import of each
 * such module (`import * as`), so a group's code uses the bundle's own instances of them. Empty when run from
 * source, where no group is packed.
 */
export const HOST_MODULES: Readonly<Record<string, unknown>> = {};
