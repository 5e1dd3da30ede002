/**
 * Node built-ins that start-up does not need, loaded on first use rather than by a static import. A built-in
 * imported statically is loaded before any code runs, in the one-file bundle too (esbuild hoists every `node:`
 * import to the top of dist/emulator.js, even one inside a part that is itself loaded lazily): node:https with
 * node:tls, node:crypto with node:stream, node:zlib and node:http cost about 10 ms of CPU at every start
 * (`npm run bench -- dist`), while a one-shot run needs none of them for a workflow that calls no `http.*`, and a
 * server needs node:http only when it listens. See docs/architecture.md#start-up.
 *
 * Each function returns the module, loading it (through `require`, which is synchronous) on its first call.
 * Works the same under Node, Deno and Bun (each has createRequire and these built-ins). In the bundle,
 * `createRequire(import.meta.url)` is the file's own `require` (build.mjs, the banner: the runtime's
 * `process.getBuiltinModule` where it has one), so that no start loads node:module.
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/**
 * `require` for Node built-ins (`node:<name>`), for the bundle's packed groups, which call it for the built-ins
 * they use (src/platform/libraries.ts hands it to each group's script).
 */
export const nodeRequire: (id: string) => unknown = load;

/** A function returning `node:<name>`, loaded on its first call and kept. */
function onFirstUse<T>(name: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= load(`node:${name}`) as T);
}

/** node:http2: the gRPC listener. */
export const nodeHttp2 = onFirstUse<typeof import('node:http2')>('http2');
/** node:http: the REST listener, and http.* requests that send a GET body. */
export const nodeHttp = onFirstUse<typeof import('node:http')>('http');
/** node:https: http.* requests that send a GET body to an https URL. */
export const nodeHttps = onFirstUse<typeof import('node:https')>('https');
/** node:stream: the body of such a request's response. */
export const nodeStream = onFirstUse<typeof import('node:stream')>('stream');
/** node:crypto: hashes (revision IDs, hash.*, asset ETags) and random bytes (callback and operation IDs). */
export const nodeCrypto = onFirstUse<typeof import('node:crypto')>('crypto');
/** node:zlib: the web UI's inlined assets. */
export const nodeZlib = onFirstUse<typeof import('node:zlib')>('zlib');
/** node:os: the machine's host name (the browser guard). */
export const nodeOs = onFirstUse<typeof import('node:os')>('os');
/** node:net: `isIP` (the browser guard). */
export const nodeNet = onFirstUse<typeof import('node:net')>('net');
/** node:vm: the packed libraries loaded synchronously (src/platform/libraries.ts). */
export const nodeVm = onFirstUse<typeof import('node:vm')>('vm');
