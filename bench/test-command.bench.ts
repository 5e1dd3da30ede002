// The test command (docs/testing.md#the-test-command): 1,000 cases of a 20-step workflow with mocked http calls, run by
// `workflows-emulator test` from the built bundle, end to end (process start, reading, compiling, running,
// reporting). Target: <= 2 s of wall time. The same run with `--coverage` (docs/coverage.md) costs at most 15% more
// wall time (the two are run alternately, 5 times each, and their medians compared). Usage: npm run bench -- test-command
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { report } from './report.ts';

const CASES = 1000;
const dir = mkdtempSync(join(tmpdir(), 'wfe-bench-test-'));
// 20 steps: an http call, a sleep of an hour, retried charge, a loop, assigns, a switch, a log, a return.
const workflow = `main:
  params: [args]
  steps:
    - s1:
        assign:
          - total: 0
          - items: \${args.items}
    - s2:
        call: http.get
        args:
          url: https://catalog.example.com/prices
        result: prices
    - s3:
        for:
          value: item
          in: \${items}
          steps:
            - s4:
                assign:
                  - total: \${total + prices.body[item]}
    - s5:
        call: sys.sleep
        args:
          seconds: 3600
    - s6:
        try:
          call: http.post
          args:
            url: https://pay.example.com/charge
            body:
              amount: \${total}
          result: paid
        retry: \${http.default_retry}
    - s7:
        switch:
          - condition: \${paid.body.ok}
            next: s8
        next: s9
    - s8:
        assign:
          - status: PAID
    - s9:
        call: sys.log
        args:
          text: \${"paid " + string(total)}
    - s10:
        assign:
          - a: 1
    - s11:
        assign:
          - b: \${a + 1}
    - s12:
        assign:
          - c: \${b + 1}
    - s13:
        assign:
          - d: \${c + 1}
    - s14:
        assign:
          - e: \${d + 1}
    - s15:
        assign:
          - f: \${e + 1}
    - s16:
        assign:
          - g: \${f + 1}
    - s17:
        assign:
          - h: \${g + 1}
    - s18:
        assign:
          - i: \${h + 1}
    - s19:
        assign:
          - j: \${i + 1}
    - s20:
        return:
          status: \${status}
          total: \${total}
`;
const mocks = `http:
  - match: {url: "https://catalog.example.com/prices"}
    respond: {status: 200, body: {a: 1, b: 2, c: 3}}
  - match: {method: POST, url: "https://pay.example.com/charge"}
    respond: [{status: 503}, {status: 200, body: {ok: true}}]
unmatched: {http: error}
`;
const cases = Array.from(
  { length: CASES },
  (_, i) => `  - name: case ${i}\n    argument: {items: [a, b, c]}\n    expect:\n      result: {status: PAID, total: 6}\n      steps: [s2, s5, s6, s20]\n`,
).join('');
writeFileSync(join(dir, 'flow.yaml'), workflow);
writeFileSync(join(dir, 'mocks.yaml'), mocks);
writeFileSync(join(dir, 'flow.test.yaml'), `workflow: flow.yaml\nmocks: mocks.yaml\ncases:\n${cases}`);

const emulator = new URL('../dist/emulator.js', import.meta.url).pathname;
const runs: number[] = [];
const covered: number[] = [];
for (let i = 0; i < 5; i++) {
  for (const [extra, into] of [[[], runs], [['--coverage'], covered]] as const) {
    const started = performance.now();
    const r = spawnSync(process.execPath, [emulator, 'test', dir, '--reporter', 'tap', ...extra], { encoding: 'utf8' });
    into.push(performance.now() - started);
    if (r.status !== 0 || !r.stdout.includes(`# ${CASES} passed, 0 failed`)) {
      process.stderr.write(r.stdout.slice(-2000) + r.stderr);
      throw new Error('the benchmark cases did not all pass');
    }
    if (extra.length && !r.stderr.includes('flow.yaml | 100% (20/20)')) throw new Error(`no coverage table: ${r.stderr}`);
  }
}
if (!process.env.KEEP) rmSync(dir, { recursive: true, force: true });
else process.stderr.write(dir + "\n");
runs.sort((a, b) => a - b);
covered.sort((a, b) => a - b);
report(`test command: ${CASES} cases of a 20-step workflow with mocks (median of 5, wall time)`, runs[2]! / 1000, 's', { value: 2, higherIsBetter: false });
report(`test command --coverage: the same (median of 5, wall time)`, covered[2]! / 1000, 's');
report('test command: wall time --coverage adds', Math.round((covered[2]! / runs[2]! - 1) * 1000) / 10, '%', { value: 15, higherIsBetter: false });
