// Differential test of the REST port's kept answers to GET of an execution (src/api/execution-answers.ts, the
// fast path of a client polling one URL) against the general path they stand in for (rest-plain.ts
// GetExecution: route match, IDs, lookup, JSON text). Generated sequences of starting executions (that end at
// once or wait), reading them (full, `?view=BASIC`, `?view=FULL`, a trailing slash), cancelling them and
// resetting the service, on two service cores with the same project and location (so the same URLs), with
// their handlers in this process: every read, asked twice, answers as the same read through a URL never asked
// before (the execution ID percent-encoded differently, which the route decodes to the same ID) does; and an
// ended execution's answer is kept, and let go once the execution is gone or asked by another core.
// https://cloud.google.com/workflows/docs/reference/executions/rest/v1/projects.locations.workflows.executions/get
//
// FUZZ_RUNS / FUZZ_SEED / FUZZ_PATH replay as in test/fuzz (test/fuzz/config.ts).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { createRestHandler } from '../../src/api/rest.ts';
import { executionAnswers, KEPT_ANSWERS } from '../../src/api/execution-answers.ts';
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
  readonly base: string;
  readonly server: Server;
}

async function startPort(): Promise<Port> {
  const core = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost', log: () => {} });
  const server = createServer(createRestHandler(core));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port: Port = { core, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
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
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
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

s('every read, asked twice, answers as the same read through a URL never asked before', async () => {
  await assertSame(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 14 }), async (ops) => {
      const ports = [await startPort(), await startPort()];
      const started: { port: Port; name: string }[] = [];
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
            const base = ports[o.port]!.base;
            const url = `${base}/v1/${name}${o.suffix}`;
            const general = await call(`${base}/v1/${encodedVariant(name, fresh++)}${o.suffix}`);
            assert.equal(await call(url), general, `first read of ${url}`);
            assert.equal(await call(url), general, `second read of ${url}`);
          } else if (o.kind === 'cancel' && started.length > 0) {
            const { port, name } = started[o.pick % started.length]!;
            await call(`${port.base}/v1/${name}:cancel`, 'POST', '{}');
            await until(async () => stateOf(port, name) !== 'ACTIVE' || undefined, 'the execution to end');
          } else if (o.kind === 'reset') {
            const port = ports[o.port]!;
            port.core.reset();
            await deployAll(port);
          }
        }
      } finally {
        for (const port of ports) await closePort(port);
      }
    }),
    params(40),
  );
});

s('the answer to a GET of an ended execution is kept, and let go once the execution is gone', async () => {
  const port = await startPort();
  try {
    const name = await endedExecution(port);
    for (const suffix of ['', '?view=BASIC']) {
      const path = `/v1/${name}${suffix}`;
      assert.is(executionAnswers.answer(port.core, path), undefined, `${suffix}: nothing kept before the first read`);
      const first = await call(`${port.base}${path}`);
      assert.is(first.status, 200);
      assert.is(executionAnswers.answer(port.core, path), first.text, `${suffix}: the answer is kept`);
      assert.equal(await call(`${port.base}${path}`), first);
    }
    const other = createServiceCore({ project: 'p', location: 'l', callbackBaseUrl: 'http://localhost', log: () => {} });
    assert.is(executionAnswers.answer(other, `/v1/${name}`), undefined, 'another service core is not answered');
    other.close();
    const again = await call(`${port.base}/v1/${name}`);
    assert.is(executionAnswers.answer(port.core, `/v1/${name}`), again.text, 'kept again');
    port.core.reset();
    assert.is(executionAnswers.answer(port.core, `/v1/${name}`), undefined, 'a gone execution is not answered');
    assert.is((await call(`${port.base}/v1/${name}`)).status, 404);
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
