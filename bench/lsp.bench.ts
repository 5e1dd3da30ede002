// Benchmark (docs/editor.md; targets: diagnostics within 50 ms of a change, completion within 20 ms): the
// language server of the built dist/emulator.js, driven over stdio by vscode-jsonrpc as an editor drives it, on
// the 126 KB bench definition (bench/support/bench-definition.ts). Times are what the client sees, from sending
// the change (or request) to receiving the diagnostics (or answer): the pipe and JSON-RPC included.
// Usage: npm run build && node --import tsx bench/lsp.bench.ts
import { readFileSync } from 'node:fs';
import { utf8Length } from '../src/lang/definition/load.ts';
import { positionOf, startLspClient } from '../test/support/lsp-client.ts';
import { report } from './report.ts';
import { generate } from './support/bench-definition.ts';

const source = generate();
const kb = (utf8Length(source) / 1024).toFixed(0);
const uri = 'file:///bench/definition.yaml';
const client = await startLspClient();
const opened = await client.open(uri, source);
if (opened.diagnostics.some((d) => d.severity === 1)) throw new Error(`the bench definition has errors: ${JSON.stringify(opened.diagnostics[0])}`);

/** The server process's CPU time (user + system) in ms, from /proc (NaN where there is no /proc). */
function serverCpuMs(): number {
  try {
    const fields = readFileSync(`/proc/${client.child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// Each change edits one value in the middle of the file (a typed digit), as typing does; every change is a
// full check: the deploy compile and the lint rules.
const diagnosticsMs: number[] = [];
let cpuStart = 0;
for (let i = 0; i < 40; i++) {
  if (i === 10) cpuStart = serverCpuMs();
  const text = source.replace('retries: 2', `retries: ${2 + (i % 2)}`);
  const t0 = performance.now();
  await client.change(uri, text);
  if (i >= 10) diagnosticsMs.push(performance.now() - t0);
}
const cpuPerChange = (serverCpuMs() - cpuStart) / 30;
report(`lsp diagnostics after a change of the ${kb} KB definition (median of 30)`, median(diagnosticsMs), 'ms', { value: 50, higherIsBetter: false });
// On a shared machine the wall clock also counts the time other processes held the CPU; the server's own CPU
// time per change (Linux: /proc/<pid>/stat, mean of 30) is what a change costs.
if (!Number.isNaN(cpuPerChange)) report(`lsp diagnostics after a change, server CPU time (mean of 30)`, cpuPerChange, 'ms', { value: 50, higherIsBetter: false });

// Fast typing: five changes sent back to back (five digits typed into one value). The server checks a burst
// once it has handled the changes already read, so the last version's diagnostics do not wait for a check of
// every version before it. Times run from sending the first change to the last version's diagnostics.
const burstMs: number[] = [];
const checkedPerBurst: number[] = [];
for (let i = 0; i < 20; i++) {
  const texts = [1, 2, 3, 4, 5].map((n) => source.replace('retries: 2', `retries: ${'9'.repeat(n)}${i % 2}`));
  const t0 = performance.now();
  const { earlier } = await client.changeBurst(uri, texts);
  if (i >= 5) {
    burstMs.push(performance.now() - t0);
    checkedPerBurst.push(earlier + 1);
  }
}
report(`lsp diagnostics of the last of 5 changes sent at once (median of 15)`, median(burstMs), 'ms', { value: 50, higherIsBetter: false });
report(`lsp versions checked per burst of 5 changes (median of 15)`, median(checkedPerBurst), 'checks');

const last = source.replace('retries: 2', 'retries: 3');
const places = [
  ['inside ${...}', positionOf(last, '${total_40 + i}', 2)],
  ['after next:', positionOf(last, 'next: loop_40', 6)],
  ['after call:', positionOf(last, 'call: helper', 6, 40)],
] as const;
for (const [where, position] of places) {
  const ms: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t0 = performance.now();
    await client.request('textDocument/completion', { textDocument: { uri }, position });
    if (i >= 10) ms.push(performance.now() - t0);
  }
  report(`lsp completion ${where} in the ${kb} KB definition (median of 30)`, median(ms), 'ms', { value: 20, higherIsBetter: false });
}
await client.close();
