// `workflows-emulator mocks FILE` (docs/mocks-and-clock.md "A mock file to start from"): a mock file with an entry
// for every http.* and connector call step, each limited to its step and routine, with a placeholder answer;
// the file loads as mocks as printed; a workflow that does not deploy is exit 2 with file:line:col. In process.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mocksCommand } from '../../src/cli/mocks-skeleton.ts';
import { parseMocks } from '../../src/mocks/mock-file.ts';
import { runWorkflowInProcess } from '../../src/cli/run-workflow.ts';

const s = suite<{ dir: string }>('cli: workflows-emulator mocks prints a mock file to start from');

const WORKFLOW = `main:
  steps:
    - fetch:
        call: http.get
        args:
          url: https://api.test/items
        result: items
    - in_parallel:
        parallel:
          branches:
            - one:
                steps:
                  - query:
                      call: googleapis.bigquery.v2.jobs.query
                      args:
                        projectId: p
                      result: rows
    - saved:
        call: save
        result: saved
    - done:
        return: ok

save:
  steps:
    - send:
        try:
          call: http.request
          args:
            method: put
            url: \${"https://api.test/items/" + "1"}
        retry: \${http.default_retry}
    - out:
        return: 1
`;

s.before.each((ctx) => {
  ctx.dir = mkdtempSync(join(tmpdir(), 'mocks-skeleton-'));
});
s.after.each((ctx) => rmSync(ctx.dir, { recursive: true, force: true }));

async function mocks(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await mocksCommand(args, { stdout: (t) => void (out += t), stderr: (t) => void (err += t) });
  return { code, out, err };
}

s('every http.* and connector call step is listed with its step, routine and a placeholder answer', async (ctx) => {
  const file = join(ctx.dir, 'flow.yaml');
  writeFileSync(file, WORKFLOW);
  const r = await mocks(file);
  assert.is(r.code, 0, r.err);
  assert.match(r.out, /- match: \{method: GET, url: https:\/\/api\.test\/items, step: fetch, routine: main\}\n {4}respond: \{status: 200, body: \{\}\}/);
  assert.match(r.out, /- match: \{method: PUT, url: "\*", step: send, routine: save\}/);
  assert.match(r.out, /- \{call: googleapis\.bigquery\.v2\.jobs\.query, step: query, routine: main, result: \{\}\}/);
  const set = parseMocks(r.out, 'skeleton.yaml');
  assert.is(set.http.length, 2);
  assert.is(set.connectors.length, 1);
  writeFileSync(join(ctx.dir, 'mocks.yaml'), r.out);
  const run = await runWorkflowInProcess({ source: WORKFLOW, mocks: join(ctx.dir, 'mocks.yaml') });
  assert.is(run.state, 'SUCCEEDED', JSON.stringify(run.error));
});

s('a workflow that does not deploy, a missing file or no file is exit 2', async (ctx) => {
  const bad = join(ctx.dir, 'bad.yaml');
  writeFileSync(bad, 'main:\n  steps:\n    - x:\n        nonsense: 1\n');
  const r = await mocks(bad);
  assert.is(r.code, 2);
  assert.match(r.err, /bad\.yaml:\d+:\d+: /);
  assert.is((await mocks(join(ctx.dir, 'none.yaml'))).code, 2);
  assert.is((await mocks()).code, 2);
});

s.run();
