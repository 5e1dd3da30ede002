// The YAML reader's own floor under the deploy benchmark (bench/deploy.bench.ts): js-yaml as published, in a
// process that does nothing else, reading the definition on standard input. Prints one JSON line: the wall-clock
// and CPU milliseconds (every thread's, process.cpuUsage) of its first read in this process, and the median
// wall-clock milliseconds of the 11th to the 40th read.
import { load } from 'js-yaml';

let source = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) source += chunk;

const c0 = process.cpuUsage();
const t0 = performance.now();
load(source);
const firstMs = performance.now() - t0;
const c = process.cpuUsage(c0);
const later = [];
for (let i = 1; i < 40; i++) {
  const t = performance.now();
  load(source);
  if (i >= 10) later.push(performance.now() - t);
}
later.sort((a, b) => a - b);
console.log(JSON.stringify({ firstMs, firstCpuMs: (c.user + c.system) / 1000, steadyMs: later[later.length >> 1] }));
