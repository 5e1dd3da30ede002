// Differential test of the REST port's kept answers to GET of an execution (src/api/execution-answers.ts, the
// fast path of a client polling one URL) against the general path they stand in for (rest-plain.ts
// GetExecution: route match, IDs, lookup, JSON text). Generated sequences of starting executions (that end at
// once or wait), reading them (full, `?view=BASIC`, `?view=FULL`, a trailing slash), cancelling them and
// resetting the service, on two service cores with the same project and location (so the same URLs), with
// their handlers in this process: every URL read so far, read twice after each step, answers as the same read
// through a URL never asked before (the execution ID percent-encoded differently, which the route decodes to the
// same ID) does; and a
// second read is answered from what the handler kept, until the execution changes or is gone.
// https://cloud.google.com/workflows/docs/reference/executions/rest/v1/projects.locations.workflows.executions/get
//
// FUZZ_RUNS / FUZZ_SEED / FUZZ_PATH replay as in test/fuzz (test/fuzz/config.ts).
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { createRestHandler } from '../../src/api/rest.ts';
import { ExecutionAnswers, KEPT_ANSWERS } from '../../src/api/execution-answers.ts';
import { createServiceCore } from '../../src/service/core.ts';
import type { EmulatorControl, ServiceCore } from '../../src/service/model.ts';
import { params, FUZZ_SEED } from '../fuzz/config.ts';
import { assertSame } from '../support/differential.ts';
import { until } from '../support/emulator.ts';

const s = suite(`api: kept answers to GET of an execution against the general path (seed ${FUZZ_SEED})`);

const WORKFLOWS = {
  quick: 'main:\n  steps:\n    - done:\n        return: {"n": 1, "s": "é"}\n',
  wait: 'main:\n  steps:\n    - nap:\n        call: sys.sleep\n        args: {seconds: 3600}\n',
};

interface Port {
  readonly core: ServiceCore & EmulatorControl & { close(): void };
  readonly answers: ExecutionAnswers;
  readonly base: string;
  readonly server: Server;
}

/**
 * A service core and its REST handler on a free port, with `quick` and `wait` deployed. With step history off
 * (`history: 'none'`) an ACTIVE execution's resource is the frozen resource itself, so its answer is kept too,
 * and a cancel replaces it under a kept answer.
 */
async function startPort(history: 'none' | 'basic' = 'basic'): Promise<Port> {
  const core = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost', log: () => {}, defaultHistory: history });
  const answers = new ExecutionAnswers();
  const server = createServer(createRestHandler(core, { executionAnswers: answers }));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port: Port = { core, answers, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
  await deployAll(port);
  return port;
}

async function deployAll(port: Port): Promise<void> {
  for (const [id, sourceContents] of Object.entries(WORKFLOWS)) {
    const r = await call(`${port.base}/v1/projects/p/locations/l/workflows?workflowId=${id}`, 'POST', JSON.stringify({ sourceContents }));
    assert.is(r.status, 200, r.text);
  }
}

async function closePort(port: Port): Promise<void> {
  port.core.close();
  port.server.closeAllConnections();
  await new Promise((resolve) => port.server.close(resolve));
}

async function call(url: string, method = 'GET', body?: string): Promise<{ status: number; text: string }> {
  const r = await fetch(url, { method, ...(body ? { body, headers: { 'content-type': 'application/json' } } : {}) });
  return { status: r.status, text: await r.text() };
}

/** `name` with the characters of its last segment percent-encoded where the bits of `n` say. */
function encodedVariant(name: string, n: number): string {
  const cut = name.lastIndexOf('/') + 1;
  const id = [...name.slice(cut)].map((c, i) => ((n >> i) & 1 ? `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}` : c)).join('');
  return name.slice(0, cut) + id;
}

type Op =
  | { kind: 'start'; port: number; wait: boolean }
  | { kind: 'get'; port: number; pick: number; suffix: string }
  | { kind: 'cancel'; pick: number }
  | { kind: 'reset'; port: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('start' as const), port: fc.nat(1), wait: fc.boolean() }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('get' as const), port: fc.nat(1), pick: fc.nat(), suffix: fc.constantFrom('', '?view=BASIC', '?view=FULL', '/', '?view=NOPE') }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), port: fc.nat(1) }) },
);

/** The state of the execution `name` on `port`, read from its core; undefined when it is gone. */
function stateOf(port: Port, name: string): string | undefined {
  const [, , , , , workflowId, , executionId] = name.split('/');
  try {
    return port.core.getExecution(workflowId!, executionId!).state;
  } catch {
    return undefined;
  }
}

/** Starts an execution of `quick` on `port` and waits for it to succeed; its name. */
async function endedExecution(port: Port): Promise<string> {
  const r = await call(`${port.base}/v1/projects/p/locations/l/workflows/quick/executions`, 'POST', '{}');
  const name = (JSON.parse(r.text) as { name: string }).name;
  await until(async () => stateOf(port, name) === 'SUCCEEDED' || undefined, 'the execution to end');
  return name;
}

s('every URL read, read again after each change, answers as the same read through a URL never asked before', async () => {
  await assertSame(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), async (ops) => {
      const ports = [await startPort('none'), await startPort()];
      const started: { port: Port; name: string }[] = [];
      const read = new Map<string, { base: string; name: string; suffix: string }>();
      let fresh = 1;
      try {
        for (const o of ops) {
          if (o.kind === 'start') {
            const port = ports[o.port]!;
            const r = await call(`${port.base}/v1/projects/p/locations/l/workflows/${o.wait ? 'wait' : 'quick'}/executions`, 'POST', '{}');
            assert.is(r.status, 200, r.text);
            const name = (JSON.parse(r.text) as { name: string }).name;
            started.push({ port, name });
            // Each read below happens while the execution stands still: ended, or waiting in its hour's sleep.
            await until(async () => (o.wait ? stateOf(port, name) === 'ACTIVE' : stateOf(port, name) !== 'ACTIVE') || undefined, 'the execution to settle');
          } else if (o.kind === 'get' && started.length > 0) {
            const { name } = started[o.pick % started.length]!;
            read.set(`${ports[o.port]!.base}\n${name}\n${o.suffix}`, { base: ports[o.port]!.base, name, suffix: o.suffix });
          } else if (o.kind === 'cancel' && started.length > 0) {
            const { port, name } = started[o.pick % started.length]!;
            await call(`${port.base}/v1/${name}:cancel`, 'POST', '{}');
            await until(async () => stateOf(port, name) !== 'ACTIVE' || undefined, 'the execution to end');
          } else if (o.kind === 'reset') {
            const port = ports[o.port]!;
            port.core.reset();
            await deployAll(port);
          }
          // Every URL read so far, after every step: as the general path answers now.
          for (const { base, name, suffix } of read.values()) {
            const url = `${base}/v1/${name}${suffix}`;
            const general = await call(`${base}/v1/${encodedVariant(name, fresh++)}${suffix}`);
            assert.equal(await call(url), general, `a read of ${url}`);
            assert.equal(await call(url), general, `the read again of ${url}`);
          }
        }
      } finally {
        for (const port of ports) await closePort(port);
      }
    }),
    // An execution read while ACTIVE without step history (its answer kept), then cancelled.
    params<[Op[]]>(40, [[[{ kind: 'start', port: 0, wait: true }, { kind: 'get', port: 0, pick: 0, suffix: '' }, { kind: 'cancel', pick: 0 }]]]),
  );
});

s('a kept answer is what a second read gets, until the execution changes or is gone', async () => {
  const ports = [await startPort('none'), await startPort()];
  const [port, other] = ports as [Port, Port];
  try {
    const name = await endedExecution(port);
    for (const suffix of ['', '?view=BASIC']) {
      const path = `/v1/${name}${suffix}`;
      assert.is(port.answers.answer(port.core, path), undefined, `${suffix}: nothing kept before the first read`);
      const first = await call(`${port.base}${path}`);
      assert.is(first.status, 200);
      assert.is(port.answers.answer(port.core, path), first.text, `${suffix}: the answer is kept`);
      assert.equal(await call(`${port.base}${path}`), first);
      assert.is(other.answers.answer(other.core, path), undefined, `${suffix}: kept by its own handler only`);
    }
    // A second read is answered from what is kept: a text put there for the same resource is what it gets.
    const [, , , , , workflowId, , executionId] = name.split('/');
    const resource = port.core.getExecution(workflowId!, executionId!);
    port.answers.keep(`/v1/${name}`, workflowId!, executionId!, resource, '{"kept": true}');
    assert.is((await call(`${port.base}/v1/${name}`)).text, '{"kept": true}');
    // Kept while ACTIVE (step history off: the resource itself, frozen), then cancelled: the new resource's answer.
    const r = await call(`${port.base}/v1/projects/p/locations/l/workflows/wait/executions`, 'POST', '{}');
    const waiting = (JSON.parse(r.text) as { name: string }).name;
    await until(async () => stateOf(port, waiting) === 'ACTIVE' || undefined, 'the execution to start');
    const active = await call(`${port.base}/v1/${waiting}`);
    assert.is(port.answers.answer(port.core, `/v1/${waiting}`), active.text, 'an ACTIVE execution without step history is kept');
    await call(`${port.base}/v1/${waiting}:cancel`, 'POST', '{}');
    await until(async () => stateOf(port, waiting) === 'CANCELLED' || undefined, 'the execution to end');
    assert.is((JSON.parse((await call(`${port.base}/v1/${waiting}`)).text) as { state: string }).state, 'CANCELLED');
    // Gone: 404, and nothing kept answers.
    port.core.reset();
    assert.is(port.answers.answer(port.core, `/v1/${name}`), undefined, 'a gone execution is not answered');
    assert.is((await call(`${port.base}/v1/${name}`)).status, 404);
  } finally {
    for (const p of ports) await closePort(p);
  }
});

/** GET of `path` with the headers a browser page would send (node:http, so that `Host` can be any name). */
function browserGet(base: string, path: string, host: string): Promise<{ status: number; text: string }> {
  const u = new URL(base);
  const headers = { host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin', 'user-agent': 'Mozilla/5.0' };
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
    req.end();
  });
}

// docs/cli.md#safe-by-default: a page of another name re-pointed at the port (DNS rebinding) reads nothing.
s('a kept answer goes through the browser guard: a rebound host name is refused, the names of this server are answered', async () => {
  const port = await startPort();
  try {
    const name = await endedExecution(port);
    const path = `/v1/${name}`;
    const first = await call(`${port.base}${path}`);
    assert.is(port.answers.answer(port.core, path), first.text, 'the answer is kept');
    const own = `127.0.0.1:${new URL(port.base).port}`;
    for (const host of ['attacker.example', `attacker.example:${new URL(port.base).port}`]) {
      const refused = await browserGet(port.base, path, host);
      assert.is(refused.status, 403, host);
      assert.ok(refused.text.includes('PERMISSION_DENIED') && !refused.text.includes(name), `${host}: refused without the execution`);
    }
    assert.equal(await browserGet(port.base, path, own), first, 'the page of this server reads it');
    assert.equal(await browserGet(port.base, path, 'localhost'), first);
  } finally {
    await closePort(port);
  }
});

s('more URLs than are kept: each still answers as the general path', async () => {
  const port = await startPort();
  try {
    const name = await endedExecution(port);
    const general = await call(`${port.base}/v1/${name}`);
    assert.is(general.status, 200);
    const count = KEPT_ANSWERS + 40;
    for (let n = 1; n <= count; n++) assert.equal(await call(`${port.base}/v1/${encodedVariant(name, n)}`), general);
    for (let n = 1; n <= 40; n++) assert.equal(await call(`${port.base}/v1/${encodedVariant(name, n)}`), general);
  } finally {
    await closePort(port);
  }
});

s.run();
