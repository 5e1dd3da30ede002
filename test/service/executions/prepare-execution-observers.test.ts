// One execution's step observers side by side (docs/debugging.md, docs/coverage.md): the step history, the
// coverage counts and a debugger each see every step entry, and the debugger's gate is handed the debugger's
// own handle, whichever of the others the execution keeps.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { CoverageCounts } from '../../../src/coverage/counts.ts';
import { summarize } from '../../../src/coverage/summary.ts';
import { createVirtualTime } from '../../../src/engine/virtual-time.ts';
import type { StepGate, StepObserver } from '../../../src/engine/hooks.ts';
import { compileDefinition } from '../../../src/lang/definition/compile.ts';
import { NO_MOCKS } from '../../../src/mocks/mock-file.ts';
import { CallbackRegistry } from '../../../src/service/callbacks/callback-registry.ts';
import { prepareExecution, type HistoryLevel } from '../../../src/service/executions/prepare-execution.ts';
import { runToOutcome } from '../../../src/service/executions/run-to-outcome.ts';
import { DEFINITION_LIBRARY } from '../../../src/stdlib/index.ts';

const source = `main:
  steps:
    - first:
        assign:
          - a: 1
    - pick:
        switch:
          - condition: \${a == 1}
            next: last
    - skipped:
        assign:
          - a: 2
    - last:
        return: \${a}
`;
const definition = compileDefinition(source, DEFINITION_LIBRARY);

/** What a recording debugger saw: the steps it entered, the entries it left, what its gate was handed. */
interface Seen {
  readonly entered: string[];
  readonly left: object[];
  readonly gated: unknown[];
  readonly tokens: Set<object>;
}

/** A debugger's hooks that record what they see: each handle is a token of its own. */
function recordingDebugger(seen: Seen): { observer: StepObserver; gate: StepGate } {
  const observer: StepObserver<object> = {
    enter: (event) => {
      seen.entered.push(event.step);
      const token = { step: event.step };
      seen.tokens.add(token);
      return token;
    },
    leave: (token) => void seen.left.push(token),
  };
  const gate: StepGate = { before: (_step, entry) => void seen.gated.push(entry), raised: () => {} };
  return { observer: observer as StepObserver, gate };
}

async function run(history: HistoryLevel, counts: CoverageCounts | undefined, seen: Seen) {
  const clock = createVirtualTime();
  const prepared = prepareExecution({
    ids: { project: 'p', location: 'l', workflowId: 'w', revisionId: 'r', executionId: 'e' },
    clock,
    fetch,
    library: DEFINITION_LIBRARY,
    mocks: NO_MOCKS,
    history,
    log: () => {},
    callbacks: new CallbackRegistry('http://localhost', clock).hubFor({ executionName: 'x', isActive: () => true }),
    ...(counts ? { coverage: counts } : {}),
    debugger: recordingDebugger(seen),
  });
  const outcome = await runToOutcome(definition, undefined, prepared.deps, new AbortController().signal);
  return { outcome, history: prepared.history };
}

const s = suite('prepareExecution: the debugger beside the step history and coverage');

for (const history of ['none', 'basic', 'detailed'] as const) {
  for (const withCoverage of [false, true]) {
    s(`history ${history}${withCoverage ? ' and coverage' : ''}: every observer sees every entry, the gate gets the debugger's handle (docs/debugging.md)`, async () => {
      const d: Seen = { entered: [], left: [], gated: [], tokens: new Set() };
      const counts = withCoverage ? new CoverageCounts({ name: 'f', sourceContents: source }, definition) : undefined;
      const { outcome, history: recorded } = await run(history, counts, d);
      assert.is(outcome.state, 'SUCCEEDED');
      assert.ok(d.entered.includes('first') && d.entered.includes('pick') && d.entered.includes('last'));
      assert.not.ok(d.entered.includes('skipped'));
      assert.is(d.left.length, d.entered.length);
      for (const token of d.left) assert.ok(d.tokens.has(token), 'leave is handed the debugger\'s own handle');
      assert.ok(d.gated.length >= 3);
      for (const entry of d.gated) assert.ok(d.tokens.has(entry as object), 'the gate is handed the debugger\'s own handle');
      if (history === 'none') assert.is(recorded, undefined);
      else assert.equal(recorded!.entries().map((e) => e.step).filter((x) => x === 'first' || x === 'last'), ['first', 'last']);
      if (counts) assert.equal(summarize(counts).uncoveredSteps.map((u) => u.step), ['skipped']);
    });
  }
}

s.run();
