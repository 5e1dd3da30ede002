/**
 * Our modules that the bundle's packed module groups import (src/platform/libraries.ts, `loadModule`): build.mjs
 * replaces this file's contents in the bundle with a namespace import of each such module (`import * as`) handed
 * to `registerHostModules`, so a group's code uses the bundle's own instances of them. main.ts imports it after
 * everything else, so that it changes no module's place in the order of evaluation. Empty when run from source,
 * where no group is packed.
 */
export {};
