/**
 * Node built-ins that start-up may not need, loaded on first use rather than by a static import (a built-in
 * imported statically is loaded before any code runs, in the one-file bundle too): node:http2 for the gRPC
 * listener and node:http for the REST listener (a one-shot run opens one only for callbacks). Issue 17: start-up.
 * Works the same under Node, Deno and Bun (each has createRequire and these built-ins).
 */
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** node:http2, loaded on the first call. */
export const nodeHttp2 = (): typeof import('node:http2') => load('node:http2') as typeof import('node:http2');

/** node:http, loaded on the first call. */
export const nodeHttp = (): typeof import('node:http') => load('node:http') as typeof import('node:http');
