// Preload (`node --import <this file> ...`) that shortens the timeouts of Node's fetch for the whole process:
// the global dispatcher becomes an undici Agent whose headersTimeout and bodyTimeout (300 s by default) are
// 300 ms, through undici's public setGlobalDispatcher, which Node's own fetch honours
// (https://nodejs.org/api/globals.html#fetch, "Custom dispatcher"; undici's docs on setGlobalDispatcher). A plain
// fetch in such a process fails on a response that takes longer than that; http.* must not. undici counts both
// on its coarse clock (a tick every 499 ms, lib/util/timers.js), so they fire after two ticks, about 1 s.
import { Agent, setGlobalDispatcher } from 'undici';

/** The process-wide headers and body timeouts, in milliseconds. */
export const SHORT_FETCH_TIMEOUT_MS = 300;

setGlobalDispatcher(new Agent({ headersTimeout: SHORT_FETCH_TIMEOUT_MS, bodyTimeout: SHORT_FETCH_TIMEOUT_MS }));
