// Benchmark (docs/editor.md; targets: diagnostics within 50 ms of a change, completion within 20 ms): the
// language server of the built dist/emulator.js, driven over stdio by vscode-jsonrpc as an editor drives it, on
// the 126 KB bench definition (bench/support/bench-definition.ts). Times are what the client sees, from sending
// the change (or request) to receiving the diagnostics (or answer): the pipe and JSON-RPC included.
// Usage: npm run build && node --import tsx bench/lsp.bench.ts
import { readFileSync } from 'node:fs';
import { utf8Length } from '../src/lang/definition/load.ts';
import { positionOf, startLspClient, type LspClient } from '../test/support/lsp-client.ts';
import { report } from './report.ts';
import { generate } from './support/bench-definition.ts';

const source = generate();
const kb = (utf8Length(source) / 1024).toFixed(0);
const uri = 'file:///bench/definition.yaml';
const client = await startLspClient();
const opened = await client.open(uri, source);
if (opened.diagnostics.some((d) => d.severity === 1)) throw new Error(`the bench definition has errors: ${JSON.stringify(opened.diagnostics[0])}`);

/** A server process's CPU time (user + system) in ms, from /proc (NaN where there is no /proc). */
function serverCpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return Number.NaN;
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const digit = positionOf(source, 'retries: 2', 9);

/**
 * Each change edits one value in the middle of the file (a typed digit), as typing does: sent as an editor with
 * incremental sync sends it (the range and the new character); every change is a full check: the deploy compile
 * and the lint rules. After 30 changes to warm up, reported: the client's wait (median of 60) and the server's
 * CPU time per change (mean of 60; on a shared machine the wall clock also counts the time other processes held the CPU).
 */
async function singleChanges(c: LspClient, how: string): Promise<void> {
  const ms: number[] = [];
  let cpuStart = 0;
  for (let i = 0; i < 90; i++) {
    if (i === 30) cpuStart = serverCpuMs(c.child.pid);
    const t0 = performance.now();
    await c.edit(uri, [{ range: { start: digit, end: { line: digit.line, character: digit.character + 1 } }, text: String(2 + (i % 2)) }]);
    if (i >= 30) ms.push(performance.now() - t0);
  }
  const cpu = (serverCpuMs(c.child.pid) - cpuStart) / 60;
  report(`lsp diagnostics after a change of the ${kb} KB definition${how} (median of 60)`, median(ms), 'ms', { value: 50, higherIsBetter: false });
  if (!Number.isNaN(cpu)) report(`lsp diagnostics after a change, server CPU time${how} (mean of 60)`, cpu, 'ms', { value: 50, higherIsBetter: false });
}
await singleChanges(client, '');
// As the VS Code extension runs the server (editors/vscode/src/language-client.ts: Node's young generation at 32 MB).
const tuned = await startLspClient(['--max-semi-space-size=32']);
await tuned.open(uri, source);
await singleChanges(tuned, ', --max-semi-space-size=32');
await tuned.close();

// Fast typing: five keystrokes sent back to back (five digits typed into one value, each an incremental edit).
// The server checks a burst once it has handled the changes already read, so the last version's diagnostics do
// not wait for a check of every version before it. Times run from sending the first keystroke to the last
// version's diagnostics.
const burstMs: number[] = [];
const checkedPerBurst: number[] = [];
for (let i = 0; i < 20; i++) {
  // Each burst types five digits after the value's digit and the next one deletes them again first.
  const after = { line: digit.line, character: digit.character + 1 };
  const keys = [0, 1, 2, 3, 4].map((k) => [{ range: { start: { ...after, character: after.character + k }, end: { ...after, character: after.character + k } }, text: String(k) }]);
  const undo = [{ range: { start: after, end: { ...after, character: after.character + 5 } }, text: '' }];
  const t0 = performance.now();
  const { earlier } = await client.changeBurst(uri, i === 0 ? keys : [[...undo, ...keys[0]!], ...keys.slice(1)]);
  if (i >= 5) {
    burstMs.push(performance.now() - t0);
    checkedPerBurst.push(earlier + 1);
  }
}
report(`lsp diagnostics of the last of 5 changes sent at once (median of 15)`, median(burstMs), 'ms', { value: 50, higherIsBetter: false });
report(`lsp versions checked per burst of 5 changes (median of 15)`, median(checkedPerBurst), 'checks');

const last = source.replace('retries: 2', 'retries: 3');
await client.change(uri, last);
const places = [
  ['inside ${...}', positionOf(last, '${total_40 + i}', 2)],
  ['after next:', positionOf(last, 'next: loop_40', 6)],
  ['after call:', positionOf(last, 'call: helper', 6, 40)],
] as const;
/** Completion at `position`: 40 requests, the median of the last 30 reported. */
async function completionAt(where: string, position: { line: number; character: number }): Promise<void> {
  const ms: number[] = [];
  for (let i = 0; i < 40; i++) {
    const t0 = performance.now();
    await client.request('textDocument/completion', { textDocument: { uri }, position });
    if (i >= 10) ms.push(performance.now() - t0);
  }
  report(`lsp completion ${where} in the ${kb} KB definition (median of 30)`, median(ms), 'ms', { value: 20, higherIsBetter: false });
}
for (const [where, position] of places) await completionAt(where, position);
// A connector name being written: the methods of Compute Engine's instances (the largest connector's).
const connector = last.replace('call: helper', 'call: googleapis.compute.v1.instances.');
await client.change(uri, connector);
await completionAt('after call: googleapis.compute.v1.instances.', positionOf(connector, 'instances.', 10));
await client.close();
