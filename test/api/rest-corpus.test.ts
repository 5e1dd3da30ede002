// Real workflows written by others (the published-samples corpus, test/support/corpus.ts: Google's 94
// published samples, in YAML and JSON): Google deploys every one nightly, so every one must deploy here too, through the REST API
// and from a watched directory (docs/rest-api.md#endpoints and docs/cli.md#directory-watching). Those SOURCE.tsv marks as runnable
// locally as they are also run to a terminal state.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS, skipWithoutCorpus } from '../support/corpus.ts';
import { startEmulator, until, type EmulatorProcess } from '../support/emulator.ts';

const s = suite('workflows-samples corpus over REST (black-box)');


const files = (sub: 'yaml' | 'json'): string[] => (CORPUS ? readdirSync(join(CORPUS, sub)).filter((f) => /\.(yaml|json)$/.test(f)).sort() : []);

/** runnable_locally per corpus file (`yaml/args.yaml` → `yes` | `mock` | `no`). */
function runnable(): Map<string, string> {
  const out = new Map<string, string>();
  if (!CORPUS) return out;
  const lines = readFileSync(join(CORPUS, 'SOURCE.tsv'), 'utf8').trim().split('\n');
  const head = lines[0]!.split('\t');
  const col = head.indexOf('runnable_locally');
  for (const line of lines.slice(1)) {
    const cells = line.split('\t');
    out.set(cells[0]!, cells[col]!);
  }
  return out;
}

if (!skipWithoutCorpus(s, 'every corpus file deploys over REST and from a watched directory, and the runnable ones run')) {
  let api: EmulatorProcess;
  s.before(async () => {
    api = await startEmulator({ workflowsDir: false });
  });
  s.after(async () => {
    await api.close();
  });

  s('the corpus holds 94 workflows in YAML and 94 in JSON', () => {
    assert.is(files('yaml').length, 94);
    assert.is(files('json').length, 94);
  });

  s('every corpus file deploys through POST {prefix}/workflows (docs/rest-api.md#endpoints)', async () => {
    const failures: string[] = [];
    for (const sub of ['yaml', 'json'] as const) {
      for (const f of files(sub)) {
        const id = `${sub}-${f.replace(/\.(yaml|json)$/, '')}`.replace(/_/g, '-');
        const sourceContents = readFileSync(join(CORPUS!, sub, f), 'utf8');
        const r = await api.request('POST', `/workflows?workflowId=${id}`, { sourceContents });
        if (r.status !== 200) failures.push(`${sub}/${f}: ${r.status} ${r.body?.error?.message}`);
      }
    }
    assert.equal(failures, [], failures.join('\n'));
    assert.is((await api.request('GET', '/workflows')).body.workflows.length, 188);
  });

  s('corpus workflows runnable as they are run to a terminal state; the plain ones succeed (docs/api-resources.md#states-and-transitions)', async () => {
    const marks = runnable();
    const names: [string, string][] = [];
    for (const [file, mark] of marks) {
      if (mark !== 'yes') continue;
      const [sub, f] = file.split('/') as ['yaml' | 'json', string];
      const id = `${sub}-${f.replace(/\.(yaml|json)$/, '')}`.replace(/_/g, '-');
      // args.yaml and friends read fields of their argument; give them a typical one.
      const r = await api.request('POST', `/workflows/${id}/executions`, { argument: JSON.stringify({ firstName: 'Ada', lastName: 'Lovelace' }) });
      assert.is(r.status, 200, `${file}: ${r.text}`);
      names.push([file, r.body.name]);
    }
    assert.ok(names.length >= 20);
    const failed: string[] = [];
    for (const [file, name] of names) {
      const done = await until(async () => {
        const r = await api.request('GET', `/v1/${name}`);
        return r.body.state === 'ACTIVE' ? undefined : r.body;
      }, `${file} to finish`, 20_000);
      if (done.state !== 'SUCCEEDED') failed.push(`${file}: ${done.state} ${done.error?.payload}`);
    }
    // parallel_error_handling raises on purpose (its point is the UnhandledBranchError).
    const unexpected = failed.filter((f) => !f.includes('parallel_error_handling'));
    assert.equal(unexpected, [], unexpected.join('\n'));
  });

  for (const sub of ['yaml', 'json'] as const) {
    s(`every file of corpus ${sub}/ loads from a watched directory (docs/cli.md#directory-watching rule 1)`, async () => {
      const emu = await startEmulator({ workflowsDir: join(CORPUS!, sub) });
      try {
        const listed = (await emu.request('GET', '/workflows')).body.workflows.map((w: any) => w.name.split('/').pop()).sort();
        const expected = files(sub).map((f) => f.replace(/\.(yaml|json)$/, '')).sort();
        assert.equal(listed, expected, emu.stderr());
        assert.not.match(emu.stderr(), /invalid workflow definition/);
      } finally {
        await emu.close();
      }
    });
  }
}

s.run();
