// Differential (model-based) test of the step history's ring of records (src/service/history/step-ring.ts StepRing,
// read through src/service/history/step-history.ts StepHistory) against a plain array of every entry ever recorded:
// fast-check generates sequences of enter/leave commands (nested and parallel entries, failures and
// cancellations, loops, retries, branches, detailed-level variables), with small entry and byte caps so the
// ring wraps, drops entries, pins entries still in progress and truncates variables; after every command the
// ring's entries, find, droppedEntries, currentSteps and variablesTruncated must equal the model's.
// The behaviour both implement: Google's "View history of execution steps"
// (https://cloud.google.com/workflows/docs/debug-steps), with the emulator's caps as the ring documents them.
//
// FUZZ_RUNS / FUZZ_SEED / FUZZ_PATH replay as in test/fuzz (test/fuzz/config.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import type { StepEnd, StepEvent, StepType } from '../../../src/engine/hooks.ts';
import { toJson } from '../../../src/lang/json.ts';
import type { Value, WMap } from '../../../src/lang/value.ts';
import { StepHistory } from '../../../src/service/history/step-history.ts';
import type { HistoryEntry, StepEntryState } from '../../../src/service/history/step-ring.ts';
import { params, FUZZ_SEED } from '../../fuzz/config.ts';
import { assertSame } from '../../support/differential.ts';

const s = suite(`step history: the ring against a plain-array model (seed ${FUZZ_SEED})`);

/** The model: every entry ever entered, in entryId order, with what the ring should show of it. */
interface Model {
  readonly maxEntries: number;
  readonly maxVariableBytes: number;
  readonly detailed: boolean;
  readonly all: HistoryEntry[];
  lastEntered: number;
  variablesTruncated: boolean;
}

/** An entry is kept while among the last `maxEntries` entered, or while still in progress. */
function kept(m: Model): HistoryEntry[] {
  const counter = m.all.length;
  return m.all.filter((e) => e.id > counter - m.maxEntries || e.state === 'STATE_IN_PROGRESS');
}

/** Kept entries with their previous and next sibling: the nearest kept entries with the same parent. */
function linked(m: Model): HistoryEntry[] {
  const out = kept(m).map((e) => ({ ...e, previous: 0, next: 0 }));
  const last = new Map<number, (typeof out)[number]>();
  for (const e of out) {
    const before = last.get(e.parentId);
    if (before) {
      e.previous = before.id;
      before.next = e.id;
    }
    last.set(e.parentId, e);
  }
  return out;
}

const TIME = Date.parse('2026-01-01T00:00:00.000Z');
const TYPES: readonly StepType[] = ['STEP_ASSIGN', 'STEP_CALL', 'STEP_SUBWORKFLOW_CALL', 'STEP_FOR', 'STEP_FOR_ITERATION', 'STEP_PARALLEL_BRANCH_ENTRY', 'STEP_RETRY', 'STEP_SWITCH'];

/** What one Enter command enters: which entry in progress is its parent (by position, or none), and the event. */
interface EnterSpec {
  readonly parent: number | undefined;
  readonly step: string;
  readonly stepType: StepType;
  readonly threadId: string;
  readonly callDepth: number;
  readonly progress: number | undefined;
  readonly expectedIterations: number | undefined;
  readonly branch: string | undefined;
  readonly text: string;
}

class Enter implements fc.AsyncCommand<Model, StepHistory> {
  constructor(readonly spec: EnterSpec) {}
  check(): boolean {
    return true;
  }
  async run(m: Model, h: StepHistory): Promise<void> {
    const open = m.all.filter((e) => e.state === 'STATE_IN_PROGRESS');
    const parent = this.spec.parent === undefined || open.length === 0 ? undefined : open[this.spec.parent % open.length]!.id;
    const sp = this.spec;
    const vars = new Map<string, Value>([['text', sp.text]]);
    const event: StepEvent = {
      routine: sp.callDepth === 0 ? 'main' : 'sub',
      step: sp.step,
      stepType: sp.stepType,
      pos: { line: sp.step.length, col: 3 },
      threadId: sp.threadId,
      callDepth: sp.callDepth,
      ...(sp.stepType === 'STEP_RETRY' ? { retryAttempt: sp.progress } : { iteration: sp.progress }),
      expectedIterations: sp.expectedIterations,
      branch: sp.branch,
      variables: () => vars,
    };
    const id = h.enter(event, parent);
    const entry: HistoryEntry = {
      id: m.all.length + 1,
      parentId: parent ?? 0,
      routine: event.routine,
      step: sp.step,
      stepType: sp.stepType,
      pos: event.pos,
      threadId: sp.threadId,
      callDepth: sp.callDepth,
      state: 'STATE_IN_PROGRESS',
      createMs: TIME,
      updateMs: TIME,
      previous: 0,
      next: 0,
      progress: sp.progress,
      // Google gives the expected count only at the detailed level (https://cloud.google.com/workflows/docs/debug-steps#execution-history-level).
      expectedIterations: m.detailed ? sp.expectedIterations : undefined,
      branch: sp.branch,
      error: undefined,
      variables: undefined,
    };
    m.all.push(entry);
    m.lastEntered = entry.id;
    assert.is(id, entry.id, 'entryIds count from 1');
    compare(m, h);
  }
  toString(): string {
    return `enter(${JSON.stringify(this.spec)})`;
  }
}

/** The JSON of the variables a step left, as the detailed level records them. */
function variablesJson(text: string): string {
  const vars: WMap = new Map([['text', text]]);
  return toJson(vars);
}

class Leave implements fc.AsyncCommand<Model, StepHistory> {
  constructor(
    readonly which: number,
    readonly end: StepEnd['state'],
  ) {}
  check(m: Readonly<Model>): boolean {
    return m.all.some((e) => e.state === 'STATE_IN_PROGRESS');
  }
  async run(m: Model, h: StepHistory): Promise<void> {
    // The engine leaves an entry after its inner entries: only entries without an inner entry in progress.
    const open = m.all.filter((e) => e.state === 'STATE_IN_PROGRESS');
    const leaves = open.filter((e) => !open.some((o) => o.parentId === e.id));
    const target = leaves[this.which % leaves.length]!;
    const error = this.end === 'succeeded' ? undefined : { tags: ['Fuzz'], message: `ended ${target.id}` };
    h.leave(target.id, this.end === 'succeeded' ? { state: 'succeeded' } : { state: this.end, error });
    const state: StepEntryState = this.end === 'succeeded' ? 'STATE_SUCCEEDED' : this.end === 'failed' ? 'STATE_FAILED' : 'STATE_CANCELLED';
    const index = m.all.indexOf(target);
    const ended: HistoryEntry = { ...target, state, error };
    m.all[index] = ended;
    // Detailed level: the variables the step left, unless the byte cap (over the entries kept) is reached;
    // once reached, no entry gets variables any more. An entry that is dropped as it ends keeps none.
    if (m.detailed && !m.variablesTruncated && kept(m).includes(ended)) {
      const json = variablesJson((target as { text?: string }).text ?? '');
      const used = kept(m).reduce((n, e) => n + (e.variables?.length ?? 0), 0);
      if (used + json.length > m.maxVariableBytes) m.variablesTruncated = true;
      else m.all[index] = { ...ended, variables: json };
    }
    compare(m, h);
  }
  toString(): string {
    return `leave(${this.which}, ${this.end})`;
  }
}

/** The ring and the model agree on everything StepHistory reads. */
function compare(m: Model, h: StepHistory): void {
  const want = linked(m).map(strip);
  const got = h.entries();
  assert.equal(got.map((e) => e.id), want.map((e) => e.id), 'the entryIds entries() lists');
  for (const [i, e] of got.entries()) assert.equal(e, want[i], `entries() entry ${e.id}`);
  for (const e of m.all) assert.equal(h.find(e.id), want.find((w) => w.id === e.id), `find(${e.id})`);
  assert.is(h.droppedEntries, m.all.length - want.length, 'droppedEntries');
  assert.is(h.recorded, m.all.length, 'recorded');
  assert.is(h.variablesTruncated, m.variablesTruncated, 'variablesTruncated');
  assert.equal(h.currentSteps(), currentSteps(m, want), 'currentSteps()');
}

/** A model entry without the test's own bookkeeping (the variables text it will leave). */
function strip(e: HistoryEntry): HistoryEntry {
  const { text: _t, ...rest } = e as HistoryEntry & { text?: string };
  return rest;
}

/** Execution.Status.currentSteps of the model: innermost entries in progress, else the last entered. */
function currentSteps(m: Model, entries: HistoryEntry[]): { routine: string; step: string }[] {
  const open = entries.filter((e) => e.state === 'STATE_IN_PROGRESS');
  const inner = open.filter((e) => !open.some((o) => o.parentId === e.id));
  if (inner.length) return inner.map((e) => ({ routine: e.routine, step: e.step }));
  const last = entries.find((e) => e.id === m.lastEntered);
  return last ? [{ routine: last.routine, step: last.step }] : [];
}

const enterSpec: fc.Arbitrary<EnterSpec> = fc.record({
  parent: fc.option(fc.nat(20), { nil: undefined, freq: 4 }),
  step: fc.constantFrom('init', 'loop', 'call', 'done', 'b1', 'a'),
  stepType: fc.constantFrom(...TYPES),
  threadId: fc.constantFrom('', '1', '2.1'),
  callDepth: fc.nat(3),
  progress: fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }),
  expectedIterations: fc.option(fc.nat(9), { nil: undefined, freq: 3 }),
  branch: fc.option(fc.constantFrom('left', 'right'), { nil: undefined, freq: 3 }),
  text: fc.string({ maxLength: 12 }),
});

/** Enter records the variables text for Leave to model (the ring reads it from the event at leave). */
class EnterWithText extends Enter {
  override async run(m: Model, h: StepHistory): Promise<void> {
    await super.run(m, h);
    const last = m.all[m.all.length - 1]!;
    m.all[m.all.length - 1] = Object.assign({ ...last }, { text: this.spec.text });
  }
}

const commands = fc.commands(
  [
    enterSpec.map((spec) => new EnterWithText(spec)),
    fc.tuple(fc.nat(20), fc.constantFrom<StepEnd['state']>('succeeded', 'succeeded', 'succeeded', 'failed', 'cancelled')).map(([which, end]) => new Leave(which, end)),
  ],
  { maxCommands: 80 },
);

const setup = fc.record({
  maxEntries: fc.integer({ min: 1, max: 20 }),
  maxVariableBytes: fc.integer({ min: 0, max: 400 }),
  detailed: fc.boolean(),
});

s('the ring keeps, drops, pins and reads entries, and caps variables, exactly as a plain array of every entry does (https://cloud.google.com/workflows/docs/debug-steps)', async () => {
  await assertSame(
    fc.asyncProperty(setup, commands, async (config, cmds) => {
      const model: Model = { ...config, all: [], lastEntered: 0, variablesTruncated: false };
      const history = new StepHistory({ ...config, now: () => TIME });
      await fc.asyncModelRun(() => ({ model, real: history }), cmds);
    }),
    // Shrunk: a command sequence is read best at its shortest.
    { ...params(300), endOnFailure: false },
  );
});

s.run();
