// Preload (`node --import <this file> ...`) that makes undici's internal clock, behind Node's fetch, run about
// 500 times faster than real time, so a test can show within a second whether a request would be cut off by
// one of undici's own timeouts (headersTimeout and bodyTimeout, 300 s by default) instead of the workflow's.
//
// undici keeps its long timers on a "fast timer" clock that advances by a fixed 499 ms on each tick of a
// native setTimeout(onTick, 499) (lib/util/timers.js, TICK_MS). This preload turns native timers of exactly
// 499 ms into 1 ms ones; no other timer of the process is touched.
const TICK_MS = 499;
const native = globalThis.setTimeout;
globalThis.setTimeout = function (fn, ms, ...args) {
  return native.call(this, fn, ms === TICK_MS ? 1 : ms, ...args);
};
