// The VS Code extension's debugger (docs/debugging.md, editors/vscode): what VS Code does with it, without VS Code
// (none runs here). Its package.json contributes the `workflows` debugger type whose launch attributes are the
// ones the adapter reads and whose initial configuration is a valid launch; its debug-adapter.js, started as VS
// Code starts an adapter (Microsoft's DebugClient spawns it with Node and speaks the protocol on its stdio),
// runs `workflows-emulator debug` and stops at a breakpoint. Built bundle: run `npm run build` first.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { EMULATOR_JS } from '../support/emulator.ts';

const EXTENSION = new URL('../../editors/vscode/', import.meta.url).pathname;
const manifest = JSON.parse(readFileSync(join(EXTENSION, 'package.json'), 'utf8')) as {
  contributes: { debuggers: { type: string; program: string; runtime: string; configurationAttributes: Record<string, { properties: Record<string, unknown> }>; initialConfigurations: Record<string, unknown>[] }[] };
};
const debuggerOf = () => manifest.contributes.debuggers.find((d) => d.type === 'workflows')!;

const s = suite<{ dir: string }>('editors/vscode: the extension\'s debugger as VS Code drives it (docs/debugging.md)');

s.before((c) => {
  c.dir = mkdtempSync(join(tmpdir(), 'wfe-vscode-'));
});
s.after((c) => rmSync(c.dir, { recursive: true, force: true }));

s('the workflows debugger type declares the launch fields the debug command reads, and attach by workflow or execution', () => {
  const d = debuggerOf();
  assert.ok(d, 'a workflows debugger');
  assert.equal(Object.keys(d.configurationAttributes['launch']!.properties).sort(), ['argument', 'clock', 'mocks', 'program', 'stopOnEntry']);
  assert.equal(Object.keys(d.configurationAttributes['attach']!.properties).sort(), ['execution', 'workflow']);
  // The fields the debug command reads from a launch request (src/cli/debug.ts).
  const reads = readFileSync(new URL('../../src/cli/debug.ts', import.meta.url), 'utf8');
  for (const field of ['program', 'argument', 'mocks', 'clock', 'stopOnEntry']) assert.match(reads, new RegExp(`args\\.${field}\\b`), field);
  assert.ok(d.initialConfigurations.some((x) => x['request'] === 'launch' && x['type'] === 'workflows' && x['program'] === '${file}'));
});

s('debug-adapter.js, started as VS Code starts it, runs the debug command and stops at a breakpoint', async (c) => {
  const file = join(c.dir, 'greet.yaml');
  writeFileSync(file, 'main:\n  params: [args]\n  steps:\n    - hello:\n        assign:\n          - who: ${args.name}\n    - done:\n        return: ${"Hello, " + who}\n');
  const previous = process.env['WORKFLOWS_EMULATOR_COMMAND'];
  process.env['WORKFLOWS_EMULATOR_COMMAND'] = `${process.execPath} ${EMULATOR_JS}`;
  const dc = new DebugClient(process.execPath, join(EXTENSION, debuggerOf().program), 'workflows');
  dc.defaultTimeout = 15_000;
  try {
    await dc.start();
    const outputs: string[] = [];
    dc.on('output', (e: DebugProtocol.OutputEvent) => void outputs.push(e.body.output));
    const launch = { ...debuggerOf().initialConfigurations[0], program: file, argument: { name: 'Ada' } } as DebugProtocol.LaunchRequestArguments;
    await dc.hitBreakpoint(launch, { path: file, line: 7 });
    const threads = (await dc.threadsRequest()).body.threads;
    const frames = (await dc.stackTraceRequest({ threadId: threads[0]!.id })).body.stackFrames;
    assert.is(frames[0]!.name, 'main.done');
    const ev = await dc.evaluateRequest({ expression: 'who', frameId: frames[0]!.id });
    assert.is(ev.body.result, '"Ada"');
    // Listening first: the end may come in the same read as the answer to continue.
    const terminated = dc.waitForEvent('terminated');
    await dc.continueRequest({ threadId: threads[0]!.id });
    await terminated;
    assert.match(outputs.join(''), /execution succeeded: Hello, Ada/);
  } finally {
    await dc.stop().catch(() => {});
    if (previous === undefined) delete process.env['WORKFLOWS_EMULATOR_COMMAND'];
    else process.env['WORKFLOWS_EMULATOR_COMMAND'] = previous;
  }
});

s.run();
