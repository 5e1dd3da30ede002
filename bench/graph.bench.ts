// Benchmark of the graphs (docs/graph.md; targets: the 126 KB definition laid out and rendered within 200 ms,
// cached per revision; the execution page with its run overlay for a 10,000-entry history within 100 ms of
// server time).
// 1. The 126 KB benchmark definition (bench/support/bench-definition.ts): graph model, layout and SVG of every
//    workflow, wall clock and CPU time, median of 15 after warm-up; then the cached drawing (a second page
//    view of the same revision).
// 2. An execution whose history holds 10,000 entries (the per-execution cap), in process over a real service
//    core and the UI handler on a loopback HTTP server: the time to answer its execution page (graph with the
//    overlay, source, timeline), median of 15, measured inside the handler's process.
// Usage: node --expose-gc --import tsx bench/graph.bench.ts
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compileDefinition } from '../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../src/stdlib/index.ts';
import { definitionGraph } from '../src/graph/model.ts';
import { layoutGraph } from '../src/graph/layout.ts';
import { renderSvg } from '../src/graph/svg.ts';
import { drawnDefinition, workflowGraph } from '../src/ui/graph-view.ts';
import { createServiceCore } from '../src/service/core.ts';
import { createUi } from '../src/ui/routes.ts';
import { utf8Length } from '../src/lang/definition/load.ts';
import { generate } from './support/bench-definition.ts';
import { report } from './report.ts';

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// 1. Layout and render of the 126 KB definition.
const source = generate();
const kb = (utf8Length(source) / 1024).toFixed(0);
const definition = compileDefinition(source, DEFINITION_LIBRARY);
const drawAll = (): number => {
  let bytes = 0;
  for (const w of definitionGraph(definition).workflows) bytes += renderSvg(layoutGraph(w)).length;
  return bytes;
};
for (let i = 0; i < 5; i++) drawAll();
(globalThis as { gc?: () => void }).gc?.();
const wall: number[] = [];
const cpu: number[] = [];
let svgBytes = 0;
for (let i = 0; i < 15; i++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  svgBytes = drawAll();
  wall.push(performance.now() - t0);
  const c = process.cpuUsage(c0);
  cpu.push((c.user + c.system) / 1000);
}
const graph = definitionGraph(definition).workflows[0]!;
report(`graph of the ${kb} KB definition (${graph.nodes.length} nodes, ${graph.edges.length} edges in main): model, layout and SVG (median of 15)`, median(wall), 'ms', { value: 200, higherIsBetter: false });
report(`graph of the ${kb} KB definition, CPU time (median of 15)`, median(cpu), 'ms');
report(`graph of the ${kb} KB definition, SVG size`, svgBytes / 1024, 'KB');
workflowGraph(source);
drawnDefinition(source);
const cached: number[] = [];
for (let i = 0; i < 15; i++) {
  const t0 = performance.now();
  workflowGraph(source);
  cached.push(performance.now() - t0);
}
report(`graph of the ${kb} KB definition, a second view of the same revision (cached)`, median(cached), 'ms');

// 2. The execution page of a 10,000-entry history.
const LOOP = `main:
  steps:
    - loop:
        for:
          value: i
          range: [1, 3400]
          steps:
            - a:
                assign:
                  - x: \${i}
            - b:
                assign:
                  - y: \${i * 2}
    - done:
        return: \${x + y}
`;
let ui: ReturnType<typeof createUi> | undefined;
const server = createServer((req, res) => {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  res.on('finish', () => {
    serverTimes.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    serverCpu.push((c.user + c.system) / 1000);
  });
  void ui!(req, res, new URL(req.url ?? '/', 'http://localhost'));
});
const serverTimes: number[] = [];
// CPU time of the process while answering (the wall clock also counts other processes of a shared machine).
const serverCpu: number[] = [];
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const core = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: url, log: () => {} });
ui = createUi(core);
core.createWorkflow('loop', { sourceContents: LOOP });
const name = core.createExecution('loop', {}).name;
const id = name.split('/').pop()!;
for (;;) {
  if (core.getExecution('loop', id).state !== 'ACTIVE') break;
  await new Promise((r) => setTimeout(r, 20));
}
const total = core.listStepEntries('loop', id, { pageSize: 1 }).totalSize;
const page = `${url}/ui/executions/loop/${id}`;
let size = 0;
for (let i = 0; i < 5; i++) size = (await (await fetch(page)).text()).length;
if (!size || !(await (await fetch(page)).text()).includes('g-state-succeeded')) throw new Error('the execution page shows no overlay');
(globalThis as { gc?: () => void }).gc?.();
serverTimes.length = 0;
serverCpu.length = 0;
for (let i = 0; i < 15; i++) await (await fetch(page)).text();
report(`execution page with the run overlay, ${total}-entry history: server time (median of 15)`, median(serverTimes), 'ms', { value: 100, higherIsBetter: false });
report(`execution page with the run overlay, ${total}-entry history: CPU time (median of 15)`, median(serverCpu), 'ms');
report(`execution page with the run overlay, ${total}-entry history: page size`, size / 1024, 'KB');
(core as unknown as { close(): void }).close();
server.close();
