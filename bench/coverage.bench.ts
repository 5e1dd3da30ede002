// Coverage of a running emulator (docs/coverage.md): after 10,000 executions of a workflow with branches, loops,
// a try and a subworkflow, GET /emulator/v1/coverage answers within 50 ms (median of 21 requests over loopback,
// against the built bundle in this process: its counts are kept as executions run, so the answer costs the size
// of the source, not the number of executions). Also the executions' throughput with coverage counted.
// Usage: npm run build && node --import tsx bench/coverage.bench.ts
import { report } from './report.ts';

const { startEmulator } = (await import(new URL('../dist/emulator.js', import.meta.url).href)) as typeof import('../src/index.ts');

const EXECUTIONS = 10_000;
const WORKFLOW = `main:
  params: [args]
  steps:
    - init:
        assign:
          - total: 0
    - pick:
        switch:
          - condition: \${args.n % 3 == 0}
            next: loop
          - condition: \${args.n % 3 == 1}
            assign:
              - total: 1
    - loop:
        for:
          value: i
          range: [1, "\${args.n % 4}"]
          steps:
            - add:
                call: plus
                args:
                  a: \${total}
                  b: \${i}
                result: total
    - guarded:
        try:
          steps:
            - risky:
                switch:
                  - condition: \${args.n % 5 == 0}
                    raise: odd
        except:
          as: e
          steps:
            - recover:
                assign:
                  - total: -1
    - done:
        return: \${total}
plus:
  params: [a, b]
  steps:
    - sum:
        return: \${a + b}
`;

const e = await startEmulator({ clock: 'virtual' });
try {
  await e.deploy('flow', WORKFLOW);
  const started = performance.now();
  const batch = 200;
  for (let n = 0; n < EXECUTIONS; n += batch) {
    await Promise.all(Array.from({ length: batch }, (_, i) => e.run('flow', { n: n + i })));
  }
  const runSec = (performance.now() - started) / 1000;
  const times: number[] = [];
  let body: { coverage: { executions: number; steps: { percent: number } }[] } | undefined;
  for (let i = 0; i < 21; i++) {
    const t = performance.now();
    const r = await fetch(`${e.url}/emulator/v1/coverage`);
    body = (await r.json()) as typeof body;
    times.push(performance.now() - t);
  }
  const c = body!.coverage[0]!;
  if (c.executions !== EXECUTIONS || c.steps.percent !== 100) throw new Error(`unexpected coverage: ${JSON.stringify(c)}`);
  times.sort((a, b) => a - b);
  report(`coverage: executions/s with coverage counted (${EXECUTIONS}, 200 at once, in process)`, EXECUTIONS / runSec, '/s');
  report(`coverage: GET /emulator/v1/coverage after ${EXECUTIONS} executions (median of 21)`, times[10]!, 'ms', { value: 50, higherIsBetter: false });
} finally {
  await e.close();
}
