/**
 * Settings of the fuzz suites (test/fuzz/*.test.ts), seeded and replayable:
 *
 *   npm test                                   # every suite at its small default size, seed 11
 *   npm run fuzz                               # FUZZ_RUNS=3000 (or yours), a new seed each time, printed
 *   FUZZ_SEED=1234 FUZZ_RUNS=3000 npm run fuzz # the same inputs again
 *   FUZZ_SEED=1234 FUZZ_PATH=17:3 npm run fuzz # straight to the counterexample fast-check reported
 *
 * A failure prints fast-check's counterexample with its seed and path. Every input that ever made something
 * crash is kept as a fixed example of its suite (the `examples` of {@link params}), so it runs every time.
 */
import fc from 'fast-check';

const runsFromEnv = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : undefined;

/** The seed of this run: FUZZ_SEED, else a fresh one under `npm run fuzz`, else 11 (so `npm test` is repeatable). */
export const FUZZ_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : runsFromEnv ? Date.now() % 2 ** 31 : 11;

if (runsFromEnv) process.stderr.write(`fuzz: seed ${FUZZ_SEED}, ${runsFromEnv} runs per property (replay: FUZZ_SEED=${FUZZ_SEED})\n`);

/**
 * fast-check parameters for one property: `defaultRuns` under `npm test` (kept small: the whole fuzz suite
 * takes seconds), FUZZ_RUNS otherwise; the fixed `examples` always run first.
 */
export function params<T>(defaultRuns: number, examples: T[] = []): fc.Parameters<T> {
  return {
    seed: FUZZ_SEED,
    numRuns: runsFromEnv ?? defaultRuns,
    ...(process.env.FUZZ_PATH ? { path: process.env.FUZZ_PATH } : {}),
    examples,
    endOnFailure: true,
  };
}
