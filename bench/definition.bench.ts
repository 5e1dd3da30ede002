// Benchmark (docs/architecture.md#compile-time: target <= 20 ms): parse, validate and compile a 128 KB workflow.
// Generates a realistic definition just under the 128 KB limit with steps of every kind (assign, call of
// stdlib, http and subworkflows, switch, for, parallel branches and for, try/retry/except, raise, return,
// nested steps, jumps) spread over a main workflow and subworkflows, then times compileDefinition on it.
// Usage: node --expose-gc --import tsx bench/definition.bench.ts
import { compileDefinition } from '../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../src/stdlib/index.ts';
import { loadSource, utf8Length } from '../src/lang/definition/load.ts';
import { generate } from './support/bench-definition.ts';
import { report } from './report.ts';

const source = generate();
const bytes = utf8Length(source);
// Warm up (JIT), collect garbage once, then measure back to back: the garbage each compile makes is part of
// its cost. (A forced GC before every run measures a colder start: expect up to 2x then.)
for (let i = 0; i < 10; i++) compileDefinition(source, DEFINITION_LIBRARY);
(globalThis as { gc?: () => void }).gc?.();
const times: number[] = [];
// CPU time of the process (all its threads: the garbage collector's helpers too) per compile, beside the
// wall-clock time: on a shared machine the wall clock also counts the time other processes held the CPU.
const cpuTimes: number[] = [];
for (let i = 0; i < 30; i++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  compileDefinition(source, DEFINITION_LIBRARY);
  times.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpuTimes.push((c.user + c.system) / 1000);
}
times.sort((a, b) => a - b);
cpuTimes.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)]!;
report(`compile a ${(bytes / 1024).toFixed(0)} KB workflow (median of 30)`, median, 'ms', { value: 20, higherIsBetter: false });
report(`compile a ${(bytes / 1024).toFixed(0)} KB workflow, CPU time (median of 30)`, cpuTimes[Math.floor(cpuTimes.length / 2)]!, 'ms');

// The YAML reader's share of it (the reader was chosen on this number: docs/architecture.md#reading-definitions-the-yaml-reader).
for (let i = 0; i < 10; i++) loadSource(source);
const readTimes: number[] = [];
for (let i = 0; i < 30; i++) {
  const t0 = performance.now();
  loadSource(source);
  readTimes.push(performance.now() - t0);
}
readTimes.sort((a, b) => a - b);
report(`read the ${(bytes / 1024).toFixed(0)} KB workflow's YAML (median of 30)`, readTimes[15]!, 'ms');
