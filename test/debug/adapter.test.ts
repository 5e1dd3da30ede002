// The debugger over the Debug Adapter Protocol (docs/debugging.md), driven by Microsoft's DebugClient
// (@vscode/debugadapter-testsupport) over TCP against the adapter the `debug` command runs on stdio: breakpoints,
// stepping, parallel threads, variables, evaluate, error breakpoints, disconnect, and nonsense from a client.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, connect, type Server, type AddressInfo, type Socket } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DebugClient } from '@vscode/debugadapter-testsupport';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { WorkflowDebugAdapter, type DebugTarget } from '../../src/debug/adapter.ts';
import { fileHost } from '../../src/cli/debug.ts';

const SOURCE = `main:
  params: [args]
  steps:
    - init:
        assign:
          - x: 1
          - out: 0
          - items: [1, 2, 3]
          - conf: {name: demo, sizes: [4, 5]}
          - ratio: 0.5
          - pending: null
    - call_sub:
        call: twice
        args:
          n: \${x}
        result: y
    - loop:
        for:
          value: i
          in: \${items}
          steps:
            - visit:
                assign:
                  - last: \${i}
    - fan_out:
        parallel:
          shared: [out]
          branches:
            - b1:
                steps:
                  - one:
                      assign:
                        - out: \${out + 1}
            - b2:
                steps:
                  - two:
                      assign:
                        - out: \${out + 10}
    - guarded:
        try:
          steps:
            - fail:
                raise:
                  message: nope
                  tags: [KeyError]
        except:
          as: e
          steps:
            - handled:
                assign:
                  - caught: \${e.message}
    - done:
        return: \${y + x}
twice:
  params: [n]
  steps:
    - mul:
        assign:
          - r: \${n * 2}
    - back:
        return: \${r}
`;

/** The 1-based column where step `name` is written in SOURCE (its name, after the list's dash). */
function columnOf(name: string): number {
  return SOURCE.split('\n')[lineOf(name) - 1]!.indexOf(name) + 1;
}

/** The 1-based line of step `name` in SOURCE. */
function lineOf(name: string): number {
  return SOURCE.split('\n').findIndex((l) => l.trim() === `- ${name}:`) + 1;
}

interface Ctx {
  dir: string;
  file: string;
  server: Server;
  port: number;
  targets: DebugTarget[];
  dc: DebugClient;
  stops: DebugProtocol.StoppedEvent[];
  waiters: (() => void)[];
  outputs: string[];
}

const s = suite<Ctx>('debug: the Debug Adapter Protocol (docs/debugging.md)');

s.before((c) => {
  c.dir = mkdtempSync(join(tmpdir(), 'wfe-debug-'));
  c.file = join(c.dir, 'demo.yaml');
  writeFileSync(c.file, SOURCE);
  c.targets = [];
  const host = fileHost({});
  c.server = createServer((socket) => {
    const adapter = new WorkflowDebugAdapter({
      launch: async (args, events, gone) => {
        const t = await host.launch!(args, events, gone);
        c.targets.push(t);
        return t;
      },
    });
    adapter.setRunAsServer(true);
    adapter.start(socket, socket);
  });
  return new Promise<void>((r) => c.server.listen(0, '127.0.0.1', () => {
    c.port = (c.server.address() as AddressInfo).port;
    r();
  }));
});

s.after((c) => {
  c.server.close();
  rmSync(c.dir, { recursive: true, force: true });
});

/** A new DebugClient on the adapter's port, adding its stops and output lines to the test's (which go on). */
async function connectClient(c: Ctx): Promise<void> {
  c.dc = new DebugClient('node', 'unused', 'workflows');
  c.dc.defaultTimeout = 8000;
  await c.dc.start(c.port);
  c.dc.on('stopped', (e: DebugProtocol.StoppedEvent) => {
    c.stops.push(e);
    c.waiters.splice(0).forEach((w) => w());
  });
  c.dc.on('output', (e: DebugProtocol.OutputEvent) => {
    c.outputs.push(e.body.output);
    c.waiters.splice(0).forEach((w) => w());
  });
}

s.before.each(async (c) => {
  c.stops = [];
  c.waiters = [];
  c.outputs = [];
  await connectClient(c);
});

s.after.each(async (c) => {
  await c.dc.stop().catch(() => {});
});

/** Launches SOURCE with `setup` (breakpoints) done between `initialized` and `configurationDone`. */
async function launch(c: Ctx, setup: () => Promise<unknown>, extra: Record<string, unknown> = {}): Promise<void> {
  const initialized = c.dc.waitForEvent('initialized');
  await c.dc.initializeRequest();
  const launched = c.dc.launchRequest({ program: c.file, ...extra } as DebugProtocol.LaunchRequestArguments);
  await initialized;
  await setup();
  await c.dc.configurationDoneRequest();
  await launched;
}

/** Waits until `n` stops have been seen in all; returns the nth (1-based). */
async function stop(c: Ctx, n: number): Promise<DebugProtocol.StoppedEvent> {
  while (c.stops.length < n) await new Promise<void>((r) => c.waiters.push(r));
  return c.stops[n - 1]!;
}

/** Waits for an output line containing `text`. */
async function output(c: Ctx, text: string): Promise<string> {
  for (;;) {
    const hit = c.outputs.find((o) => o.includes(text));
    if (hit !== undefined) return hit;
    await new Promise<void>((r) => c.waiters.push(r));
  }
}

async function topFrame(c: Ctx, threadId: number): Promise<DebugProtocol.StackFrame[]> {
  return (await c.dc.stackTraceRequest({ threadId })).body.stackFrames;
}

async function variables(c: Ctx, frameId: number): Promise<Map<string, DebugProtocol.Variable>> {
  const scopes = (await c.dc.scopesRequest({ frameId })).body.scopes;
  const out = new Map<string, DebugProtocol.Variable>();
  for (const sc of scopes) for (const v of (await c.dc.variablesRequest({ variablesReference: sc.variablesReference })).body.variables) if (!out.has(v.name)) out.set(v.name, v);
  return out;
}

function lineBps(...lines: number[]): DebugProtocol.SetBreakpointsArguments {
  return { source: { path: '' }, breakpoints: lines.map((line) => ({ line })) };
}

s('line breakpoints stop in the order the steps run, a body line moves to its step, and a line past the end is unverified with a reason', async (c) => {
  let bps: DebugProtocol.Breakpoint[] = [];
  await launch(c, async () => {
    const args = lineBps(lineOf('done'), lineOf('init') + 1, lineOf('mul'), 999);
    args.source.path = c.file;
    bps = (await c.dc.setBreakpointsRequest(args)).body.breakpoints;
  });
  assert.equal(bps.map((b) => [b.verified, b.line]), [[true, lineOf('done')], [true, lineOf('init')], [true, lineOf('mul')], [false, undefined]]);
  assert.match(bps[3]!.message ?? '', /outside the file/);
  const seen: number[] = [];
  for (let n = 1; n <= 3; n++) {
    const e = await stop(c, n);
    assert.is(e.body.reason, 'breakpoint');
    seen.push((await topFrame(c, e.body.threadId!))[0]!.line);
    await c.dc.continueRequest({ threadId: e.body.threadId! });
  }
  assert.equal(seen, [lineOf('init'), lineOf('mul'), lineOf('done')]);
  assert.match(await output(c, 'execution succeeded'), /succeeded: 3/);
});

s('step into a subworkflow call shows both frames; step out returns to the caller; step over does not enter', async (c) => {
  await launch(c, () => c.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'init' }] }));
  const first = await stop(c, 1);
  const t = first.body.threadId!;
  await c.dc.nextRequest({ threadId: t });
  assert.is((await stop(c, 2)).body.reason, 'step');
  assert.is((await topFrame(c, t))[0]!.name, 'main.call_sub');
  await c.dc.stepInRequest({ threadId: t });
  await stop(c, 3);
  const inside = await topFrame(c, t);
  assert.equal(inside.map((f) => [f.name, f.line, f.column]), [['twice.mul', lineOf('mul'), columnOf('mul')], ['main.call_sub', lineOf('call_sub'), columnOf('call_sub')]]);
  const vars = await variables(c, inside[0]!.id);
  assert.is(vars.get('n')?.value, '1');
  assert.not.ok(vars.has('x'), 'a subworkflow sees its own variables only');
  await c.dc.stepOutRequest({ threadId: t });
  await stop(c, 4);
  assert.is((await topFrame(c, t))[0]!.name, 'main.loop');
  await c.dc.continueRequest({ threadId: t });
  await output(c, 'execution succeeded');
});

s("step into enters a for body, a parallel branch (on the branch's thread) and an except block", async (c) => {
  await launch(c, () => c.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'loop' }, { name: 'fan_out' }, { name: 'guarded' }] }));
  let n = 1;
  const t = (await stop(c, n)).body.threadId!;
  const stepIn = async (threadId: number): Promise<{ threadId: number; frames: DebugProtocol.StackFrame[] }> => {
    await c.dc.stepInRequest({ threadId });
    const e = await stop(c, ++n);
    return { threadId: e.body.threadId!, frames: await topFrame(c, e.body.threadId!) };
  };
  // A for step: into its body, with the loop variable.
  const body = await stepIn(t);
  assert.equal(body.frames.map((f) => f.name), ['main.visit']);
  assert.is((await variables(c, body.frames[0]!.id)).get('i')?.value, '1');
  await c.dc.continueRequest({ threadId: t });
  assert.is((await topFrame(c, (await stop(c, ++n)).body.threadId!))[0]!.name, 'main.fan_out');
  // A parallel step: into its first branch, a thread of its own whose stack ends at the parallel step.
  const branch = await stepIn(t);
  assert.is.not(branch.threadId, t);
  assert.equal(branch.frames.map((f) => f.name), ['main.one', 'main.fan_out']);
  assert.ok((await c.dc.threadsRequest()).body.threads.some((x) => x.id === branch.threadId && x.name === 'branch 1 (b1)'));
  await c.dc.continueRequest({ threadId: branch.threadId });
  assert.is((await topFrame(c, (await stop(c, ++n)).body.threadId!))[0]!.name, 'main.guarded');
  // A try step: into its body; from the step that raises, into the except block, with the caught error.
  assert.equal((await stepIn(t)).frames.map((f) => f.name), ['main.fail']);
  const handler = await stepIn(t);
  assert.equal(handler.frames.map((f) => f.name), ['main.handled']);
  assert.match((await variables(c, handler.frames[0]!.id)).get('e')?.value ?? '', /nope/);
  await c.dc.continueRequest({ threadId: t });
  await output(c, 'execution succeeded');
});

s('two parallel branches are threads of their own, paused and continued independently', async (c) => {
  await launch(c, () => c.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'one' }, { name: 'two' }] }));
  const a = await stop(c, 1);
  const b = await stop(c, 2);
  assert.is.not(a.body.threadId, b.body.threadId);
  const threads = (await c.dc.threadsRequest()).body.threads.map((t) => t.name);
  assert.ok(threads.includes('main') && threads.some((n) => n.startsWith('branch 1')) && threads.some((n) => n.startsWith('branch 2')), threads.join());
  const names = new Set([(await topFrame(c, a.body.threadId!))[0]!.name, (await topFrame(c, b.body.threadId!))[0]!.name]);
  assert.equal([...names].sort(), ['main.one', 'main.two']);
  // One branch runs on to its end while the other stays held.
  await c.dc.continueRequest({ threadId: a.body.threadId! });
  await c.dc.waitForEvent('thread');
  const stack = await topFrame(c, b.body.threadId!);
  assert.ok(stack[0]!.name === 'main.one' || stack[0]!.name === 'main.two');
  assert.is(stack[1]!.name, 'main.fan_out', 'a branch stack ends at the parallel step that started it');
  await c.dc.continueRequest({ threadId: b.body.threadId! });
  await output(c, 'execution succeeded');
});

/** Launches with a breakpoint on `done` and waits there: the stop, the top frame and its routine's variables. */
async function stoppedAtDone(c: Ctx): Promise<{ e: DebugProtocol.StoppedEvent; frame: DebugProtocol.StackFrame; root: number }> {
  await launch(c, () => c.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'done' }] }));
  const e = await stop(c, 1);
  const frame = (await topFrame(c, e.body.threadId!))[0]!;
  const scopes = (await c.dc.scopesRequest({ frameId: frame.id })).body.scopes;
  return { e, frame, root: scopes[scopes.length - 1]!.variablesReference };
}

s('setting a variable (read as a workflow expression) changes the result', async (c) => {
  const { e, frame, root } = await stoppedAtDone(c);
  const set = await c.dc.setVariableRequest({ variablesReference: root, name: 'x', value: '40 + 1' });
  assert.is(set.body.value, '41');
  // A map's item, through its own reference.
  const conf = (await c.dc.variablesRequest({ variablesReference: root })).body.variables.find((v) => v.name === 'conf')!;
  assert.ok(conf.variablesReference > 0, 'a map is expandable');
  await c.dc.setVariableRequest({ variablesReference: conf.variablesReference, name: 'name', value: '"changed"' });
  const ev = await c.dc.evaluateRequest({ expression: 'conf.name', frameId: frame.id, context: 'watch' });
  assert.is(ev.body.result, '"changed"');
  const bad = await c.dc.setVariableRequest({ variablesReference: root, name: 'x', value: '1 +' }).catch((err: Error) => err);
  assert.instance(bad, Error, 'a value that is not an expression is refused');
  await c.dc.continueRequest({ threadId: e.body.threadId! });
  assert.match(await output(c, 'execution succeeded'), /succeeded: 43/);
});

s('setting a variable is type-checked against what it holds: other types refused naming both, an int widened for a double, null takes any', async (c) => {
  const { e, frame, root } = await stoppedAtDone(c);
  const refused = (name: string, value: string, ref = root): Promise<string> =>
    c.dc.setVariableRequest({ variablesReference: ref, name, value }).then(
      () => assert.unreachable(`${name} = ${value} was taken`) as never,
      (err: Error) => err.message,
    );
  assert.match(await refused('x', '"41"'), /x holds an int; the new value is a string: give an int/);
  assert.match(await refused('x', '2.5'), /x holds an int; the new value is a double/);
  assert.match(await refused('items', '{"a": 1}'), /items holds a list; the new value is a map: give a list/);
  // An item of a map is checked against the item.
  const conf = (await c.dc.variablesRequest({ variablesReference: root })).body.variables.find((v) => v.name === 'conf')!;
  assert.match(await refused('name', '5', conf.variablesReference), /conf\["name"\] holds a string; the new value is an int: give a string/);
  // A double takes an int as the double of the same number; null takes any type; a type error in the expression is refused.
  const ratio = await c.dc.setVariableRequest({ variablesReference: root, name: 'ratio', value: '2' });
  assert.equal([ratio.body.value, ratio.body.type], ['2.0', 'double']);
  const pending = await c.dc.setVariableRequest({ variablesReference: root, name: 'pending', value: '["a"]' });
  assert.is(pending.body.type, 'list');
  assert.match(await refused('x', '1 + "a"'), /TypeError/);
  const ev = await c.dc.evaluateRequest({ expression: '[x, ratio, pending, conf.name]', frameId: frame.id, context: 'watch' });
  assert.is(ev.body.result, '[1,2.0,["a"],"demo"]', 'refused values left every variable as it was');
  await c.dc.continueRequest({ threadId: e.body.threadId! });
  assert.match(await output(c, 'execution succeeded'), /succeeded: 3\b/);
});

s('a conditional breakpoint stops only where its expression is true; a hit count from the nth hit; a logpoint prints', async (c) => {
  await launch(c, async () => {
    const args: DebugProtocol.SetBreakpointsArguments = {
      source: { path: c.file },
      breakpoints: [{ line: lineOf('visit'), condition: 'i == 2' }, { line: lineOf('mul'), logMessage: 'doubling {n}' }],
    };
    await c.dc.setBreakpointsRequest(args);
    await c.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'visit', hitCondition: '3' }] });
  });
  assert.match(await output(c, 'doubling'), /doubling 1/);
  const a = await stop(c, 1);
  const fa = (await topFrame(c, a.body.threadId!))[0]!;
  assert.is((await c.dc.evaluateRequest({ expression: 'i', frameId: fa.id })).body.result, '2');
  await c.dc.continueRequest({ threadId: a.body.threadId! });
  const b = await stop(c, 2);
  const fb = (await topFrame(c, b.body.threadId!))[0]!;
  assert.is((await c.dc.evaluateRequest({ expression: 'i', frameId: fb.id })).body.result, '3');
  await c.dc.continueRequest({ threadId: b.body.threadId! });
  await output(c, 'execution succeeded');
  assert.is(c.stops.length, 2);
});

s('an error breakpoint by tag stops where the error is raised; the caught error is a variable of the except block', async (c) => {
  await launch(c, async () => {
    await c.dc.setExceptionBreakpointsRequest({ filters: ['uncaught'], filterOptions: [{ filterId: 'tags', condition: 'KeyError, HttpError' }] });
    await c.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'handled' }] });
  });
  const e = await stop(c, 1);
  assert.is(e.body.reason, 'exception');
  assert.match(e.body.text ?? '', /KeyError: nope/);
  assert.is((await topFrame(c, e.body.threadId!))[0]!.name, 'main.fail');
  const info = await c.dc.exceptionInfoRequest({ threadId: e.body.threadId! });
  assert.is(info.body.exceptionId, 'KeyError');
  await c.dc.continueRequest({ threadId: e.body.threadId! });
  const h = await stop(c, 2);
  const vars = await variables(c, (await topFrame(c, h.body.threadId!))[0]!.id);
  assert.ok(vars.get('e')!.variablesReference > 0);
  assert.match(vars.get('e')!.value, /nope/);
  await c.dc.continueRequest({ threadId: h.body.threadId! });
  await output(c, 'execution succeeded');
  assert.is(c.stops.length, 2, 'the uncaught filter does not stop on an error a try catches');
});

s('error breakpoints: "all" stops on an error a try catches; "uncaught" stops only on one nothing catches, before the execution fails', async (c) => {
  await launch(c, () => c.dc.setExceptionBreakpointsRequest({ filters: ['all'] }));
  const caught = await stop(c, 1);
  assert.is(caught.body.reason, 'exception');
  assert.is((await topFrame(c, caught.body.threadId!))[0]!.name, 'main.fail');
  await c.dc.continueRequest({ threadId: caught.body.threadId! });
  await output(c, 'execution succeeded');
  await c.dc.stop();
  // A file whose first error is caught and whose second is not.
  const file = join(c.dir, 'uncaught.yaml');
  writeFileSync(file, `main:
  steps:
    - guarded:
        try:
          raise: {message: caught one, tags: [ValueError]}
        except:
          as: e
          steps:
            - ignore:
                assign:
                  - seen: \${e.message}
    - boom:
        raise: {message: nobody catches this, tags: [ValueError]}
`);
  await connectClient(c);
  await launch(c, () => c.dc.setExceptionBreakpointsRequest({ filters: ['uncaught'] }), { program: file });
  const e = await stop(c, 2);
  assert.is(e.body.reason, 'exception');
  assert.match(e.body.text ?? '', /nobody catches this/);
  assert.is((await topFrame(c, e.body.threadId!))[0]!.name, 'main.boom');
  await c.dc.continueRequest({ threadId: e.body.threadId! });
  assert.match(await output(c, 'execution failed'), /nobody catches this/);
  assert.is(c.stops.length, 2, 'the caught error did not stop');
});

s('evaluate reads the scope and refuses calls with side effects', async (c) => {
  await launch(c, () => c.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'done' }] }));
  const e = await stop(c, 1);
  const frameId = (await topFrame(c, e.body.threadId!))[0]!.id;
  assert.is((await c.dc.evaluateRequest({ expression: 'x + y', frameId })).body.result, '3');
  assert.is((await c.dc.evaluateRequest({ expression: '${len(items)}', frameId })).body.result, '3');
  for (const expr of ['http.get("http://127.0.0.1:9/")', 'sys.log("x")', 'twice(2)', 'googleapis.storage.v1.objects.get("b", "o")']) {
    const err = await c.dc.evaluateRequest({ expression: expr, frameId }).catch((x: Error) => x);
    assert.instance(err, Error, expr);
    assert.match((err as Error).message, /side effects/, expr);
  }
  const missing = await c.dc.evaluateRequest({ expression: 'nope', frameId }).catch((x: Error) => x);
  assert.match((missing as Error).message, /KeyError/);
  await c.dc.continueRequest({ threadId: e.body.threadId! });
  await output(c, 'execution succeeded');
});

s('disconnecting resumes a held execution, which runs to its end', async (c) => {
  const before = c.targets.length;
  await launch(c, () => c.dc.setFunctionBreakpointsRequest({ breakpoints: [{ name: 'init' }, { name: 'done' }] }));
  await stop(c, 1);
  await c.dc.disconnectRequest({});
  const outcome = await c.targets[before]!.done;
  assert.equal(outcome.result, 3n);
});

s('stop on entry holds the first step; pause holds a running thread at its next step', async (c) => {
  await launch(c, async () => {}, { stopOnEntry: true });
  const e = await stop(c, 1);
  assert.is(e.body.reason, 'entry');
  assert.is((await topFrame(c, e.body.threadId!))[0]!.name, 'main.init');
  await c.dc.pauseRequest({ threadId: e.body.threadId! });
  await c.dc.continueRequest({ threadId: e.body.threadId! });
  assert.is((await stop(c, 2)).body.reason, 'pause');
  await c.dc.continueRequest({ threadId: e.body.threadId! });
  await output(c, 'execution succeeded');
});

/** Sends raw bytes to a fresh adapter connection and collects the messages it answers. */
async function raw(port: number, chunks: string[]): Promise<Record<string, unknown>[]> {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  let buf = '';
  socket.on('data', (d) => (buf += d.toString('utf8')));
  for (const chunk of chunks) socket.write(chunk);
  await new Promise((r) => setTimeout(r, 300));
  socket.destroy();
  return buf.split(/Content-Length: \d+\r\n\r\n/).filter(Boolean).map((m) => JSON.parse(m) as Record<string, unknown>);
}

const frame = (o: unknown): string => {
  const body = typeof o === 'string' ? o : JSON.stringify(o);
  return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
};

s('a client that sends nonsense gets protocol errors and the adapter keeps serving', async (c) => {
  const answers = await raw(c.port, [
    frame('{not json'),
    frame({ type: 'event', event: 'x' }),
    frame({ seq: 1, type: 'request', command: 'frobnicate' }),
    frame({ seq: 2, type: 'request', command: 'setBreakpoints', arguments: null }),
    frame({ seq: 3, type: 'request', command: 'stackTrace', arguments: { threadId: 'x' } }),
    frame({ seq: 4, type: 'request', command: 'variables', arguments: { variablesReference: 12345 } }),
    frame({ seq: 5, type: 'request', command: 'launch', arguments: { program: join(c.dir, 'missing.yaml') } }),
    frame({ seq: 6, type: 'request', command: 'initialize', arguments: { adapterID: 'workflows', pathFormat: 'path' } }),
  ]);
  const bySeq = (n: number) => answers.find((a) => a.type === 'response' && a.request_seq === n);
  for (const n of [1, 2, 3, 4, 5]) assert.is(bySeq(n)?.success, false, `request ${n} fails`);
  assert.match(String(bySeq(5)?.message), /cannot read/);
  assert.is(bySeq(6)?.success, true, 'the adapter still answers');
  // And the server still takes new debugging sessions.
  await launch(c, () => c.dc.setFunctionBreakpointsRequest({ breakpoints: [] }));
  await output(c, 'execution succeeded');
});

s.run();
