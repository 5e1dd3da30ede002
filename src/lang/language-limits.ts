/**
 * The limits of the workflow language (docs/api-resources.md#limits), in one place: the definition compiler checks those
 * visible in the source at deploy time, the engine those that only show at run time (and re-checks the
 * branch count and parallel nesting, because a definition may be built by hand). Source size and expression
 * length are checked by the loader and the expression compiler, which own those numbers.
 */

/** Steps per execution; the next step raises ResourceLimitError. */
export const MAX_STEPS = 100_000;
/** Subworkflow call depth below `main` (main is depth 0); deeper raises RecursionError. */
export const MAX_CALL_DEPTH = 20;
/**
 * Total size of all live variables, in bytes as `sizeOf` estimates them (512 KB); also the largest list, map or
 * bytes value an expression may build (size-limits.ts).
 */
export const MAX_MEMORY_BYTES = 512 * 1024;
/** Largest string, in bytes of UTF-8 (docs/language.md#data-types and docs/api-resources.md#limits: 256 KB), however it is built. */
export const MAX_STRING_BYTES = 256 * 1024;
/** Assignments in one assign step. */
export const MAX_ASSIGNMENTS = 50;
/** Conditions in one switch step. */
export const MAX_SWITCH_CONDITIONS = 50;
/** Branches per parallel step. */
export const MAX_BRANCHES = 10;
/** Concurrent branches or iterations of one parallel step; also the default `concurrency_limit`. */
export const MAX_CONCURRENCY = 20;
/** Parallel steps nested inside each other, also through subworkflow calls (ParallelNestingError beyond). */
export const MAX_PARALLEL_DEPTH = 2;
/** Unhandled branch errors a `continueAll` parallel step collects before it gives up. */
export const MAX_BRANCH_ERRORS = 100;
