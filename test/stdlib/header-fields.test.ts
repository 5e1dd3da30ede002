// HeaderFields (src/stdlib/header-fields.ts), the header fields http.* builds without the platform's Headers,
// against the platform's Headers itself (the Fetch standard's Headers class, https://fetch.spec.whatwg.org/#headers-class):
// the same sequence of set and append calls, with names and values generated to hit the edges (case, tokens and
// non-tokens, surrounding whitespace, NUL, CR and LF, set-cookie), must leave the same fields, read the same way,
// and fail at the same calls. A child process checks that a fully mocked `run` never loads the platform's fetch.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { HeaderFields } from '../../src/stdlib/header-fields.ts';
import { params } from '../fuzz/config.ts';
import { EMULATOR_JS } from '../support/emulator.ts';

const s = suite('HeaderFields: the Fetch standard\'s Headers rules, checked against the platform\'s Headers');

const name = fc.oneof(
  fc.constantFrom('Content-Type', 'content-type', 'CONTENT-TYPE', 'set-cookie', 'Set-Cookie', 'x-a', 'X-A', 'accept', 'a', 'Z', '_', '~', '!#$%&\'*+-.^_`|~'),
  fc.string({ unit: fc.constantFrom('a', 'B', '-', ' ', ':', '(', 'é', '\t', '0', '\u0000', '\n'), maxLength: 6 }),
);
const value = fc.oneof(
  fc.constantFrom('', ' ', 'text/plain', ' padded\t', '\r\nlead', 'trail\n', 'in\nside', 'nul\u0000', 'a, b', 'é', '\u00ff', 'x'.repeat(50)),
  fc.string({ unit: fc.constantFrom('a', ' ', '\t', '\r', '\n', '\u0000', ',', '=', ';', 'ü', '\u000b'), maxLength: 8 }),
);
const op = fc.tuple(fc.constantFrom('set' as const, 'append' as const), name, value);

/** The outcome of each call (`ok` or the error's class) and what the fields then read, through one interface. */
function play(target: { set(n: string, v: string): void; append(n: string, v: string): void; get(n: string): string | null; forEach(f: (v: string, n: string) => void): void }, ops: readonly (readonly ['set' | 'append', string, string])[], probes: readonly string[]) {
  const outcomes = ops.map(([method, n, v]) => {
    try {
      target[method](n, v);
      return 'ok';
    } catch (e) {
      return (e as Error).constructor.name;
    }
  });
  const fields: [string, string][] = [];
  target.forEach((v, n) => fields.push([n, v]));
  return { outcomes, fields, gets: probes.map((p) => target.get(p)) };
}

s('the same calls leave the same fields, read the same way (forEach order, get, set-cookie) and fail alike', () => {
  fc.assert(
    fc.property(fc.array(op, { maxLength: 12 }), fc.array(name, { maxLength: 4 }), (ops, probes) => {
      const probeNames = [...probes, ...ops.map(([, n]) => n.toUpperCase())].filter((p) => /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(p));
      assert.equal(play(new HeaderFields(), ops, probeNames), play(new Headers(), ops, probeNames));
    }),
    params(400),
  );
});

s('built from pairs, as a mock\'s response headers are, it appends each pair in order as Headers does', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(name, value), { maxLength: 8 }), (pairs) => {
      const read = (make: () => { forEach(f: (v: string, n: string) => void): void }) => {
        try {
          const h = make();
          const out: [string, string][] = [];
          h.forEach((v, n) => out.push([n, v]));
          return out;
        } catch (e) {
          return (e as Error).constructor.name;
        }
      };
      assert.equal(read(() => new HeaderFields(pairs)), read(() => new Headers(pairs)));
    }),
    params(300),
  );
});

s('entries() are forEach\'s pairs, which a fetch takes as its headers', () => {
  const h = new HeaderFields([['B', '2'], ['set-cookie', 'a=1'], ['a', ' 1 '], ['Set-Cookie', 'b=2'], ['b', '3']]);
  assert.equal(h.entries(), [['a', '1'], ['b', '2, 3'], ['set-cookie', 'a=1'], ['set-cookie', 'b=2']]);
  assert.equal([...new Headers(h.entries())], h.entries());
  assert.is(h.get('SET-COOKIE'), 'a=1, b=2');
  assert.ok(h.has('A'));
  assert.not.ok(h.has('c'));
});

s('a run whose http.* calls are all mocked never loads Node\'s fetch (undici), and reads the mocked headers', () => {
  const script = `
    const { runWorkflow } = await import(${JSON.stringify(pathToFileURL(EMULATOR_JS).href)});
    const run = await runWorkflow({
      source: 'main:\\n  steps:\\n    - get:\\n        call: http.post\\n        args:\\n          url: https://shop.example.com/a\\n          headers: {X-Trace: " t1 "}\\n          body: {a: 1}\\n        result: r\\n    - done:\\n        return: \${r.headers}\\n',
      mocks: { http: [{ match: { url: 'https://shop.example.com/a', headers: { 'x-trace': 't1' } }, respond: { status: 200, headers: { 'X-B': 'b', 'x-a': 'a' }, body: 'ok' } }] },
    });
    console.log(JSON.stringify({ state: run.state, result: run.result, undici: process.moduleLoadList.filter((m) => /undici/.test(m)) }));
  `;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
  assert.is(r.status, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout), {
    state: 'SUCCEEDED',
    result: { 'content-type': 'text/plain; charset=utf-8', 'x-a': 'a', 'x-b': 'b' },
    undici: [],
  });
});

s.run();
