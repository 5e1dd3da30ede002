// Workflow sources as the real service reads them, over the REST API against the built bundle (docs/architecture.md#reading-definitions-the-yaml-reader: YAML
// as libyaml reads it; docs/api-resources.md#limits: an alias bomb is a 400, not a frozen or dead server).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startEmulator, type EmulatorProcess } from '../support/emulator.ts';
import { runToEnd as runOn } from '../support/run-to-end.ts';

const s = suite('REST API: YAML sources (black-box)');

let emu: EmulatorProcess;
s.before(async () => {
  emu = await startEmulator({ workflowsDir: false });
});
s.after(async () => {
  await emu.close();
});

/** Nine anchors, each a list of ten aliases of the previous one: 10^9 nodes in about 600 bytes. */
function aliasBomb(item: (prev: string) => string): string {
  let src = 'l0: &l0 [lol]\n';
  for (let i = 1; i <= 9; i++) src += `l${i}: &l${i} [${Array.from({ length: 10 }, () => item(`*l${i - 1}`)).join(', ')}]\n`;
  return `${src}main:\n  steps:\n    - r:\n        return: 1\n`;
}

s('an alias bomb (lists or maps) is a 400 naming the limit, and the server goes on answering (docs/api-resources.md#limits)', async () => {
  for (const [id, src] of [
    ['bomb-lists', aliasBomb((p) => p)],
    ['bomb-maps', aliasBomb((p) => `{k: ${p}}`)],
  ] as const) {
    assert.ok(src.length < 2048, `${src.length} bytes`);
    const r = await emu.request('POST', `/workflows?workflowId=${id}`, { sourceContents: src });
    assert.is(r.status, 400, r.text);
    assert.is(r.body.error.status, 'INVALID_ARGUMENT');
    assert.match(r.body.error.message, /more than 200000 nodes with its aliases expanded/);
    assert.match(r.body.error.message, /line \d+, column \d+/);
    assert.is((await emu.request('GET', `/workflows/${id}`)).status, 404, 'nothing was deployed');
  }
  const ok = await emu.request('POST', '/workflows?workflowId=after-bomb', {
    sourceContents: 'main:\n  steps:\n    - r:\n        return: 7\n',
  });
  assert.is(ok.status, 200, ok.text);
  assert.is((await runOn(emu, 'after-bomb')).result, '7');
});

s('constructs libyaml accepts deploy and run with libyaml\'s values: flow collections and quoted scalars continued at a lower indentation (docs/architecture.md#reading-definitions-the-yaml-reader)', async () => {
  const src = [
    'main:',
    '  params: [args]',
    '  steps:',
    '    - build:',
    '        assign:',
    '          - cols: ["id",',
    '  "name", "email"]',
    '          - sql: "SELECT ${cols}',
    'FROM t',
    '   WHERE id = @id"',
    '          - opts: {limit: 10,',
    '        exact: 12345678901234567}',
    '    - done:',
    '        return: ${[cols, sql, opts.exact + args.n, type(opts.limit)]}',
    '',
  ].join('\n');
  const r = await emu.request('POST', '/workflows?workflowId=lenient', { sourceContents: src });
  assert.is(r.status, 200, r.text);
  const e = await runOn(emu, 'lenient', { argument: JSON.stringify({ n: 1 }) });
  assert.is(e.state, 'SUCCEEDED', JSON.stringify(e.error));
  assert.is(e.result, '[["id","name","email"],"SELECT ${cols} FROM t WHERE id = @id",12345678901234568,"int"]');
});

s('what libyaml rejects stays a 400 with line and column: a tab indenting, a repeated key, an unclosed flow list (docs/architecture.md#reading-definitions-the-yaml-reader)', async () => {
  const cases: [string, RegExp][] = [
    ['main:\n\tsteps: []\n', /line 2, column 1: YAML syntax error: tab/],
    ['main:\n  steps:\n    - a:\n        return: 1\n        return: 2\n', /line 5, column 9: YAML syntax error: Map keys must be unique/],
    ['main:\n  steps:\n    - a:\n        return: [1, 2\n    - b: 1\n', /line 5, column 5: YAML syntax error/],
  ];
  for (const [i, [src, want]] of cases.entries()) {
    const r = await emu.request('POST', `/workflows?workflowId=bad-${i}`, { sourceContents: src });
    assert.is(r.status, 400, r.text);
    assert.match(r.body.error.message, want);
  }
});

s.run();
