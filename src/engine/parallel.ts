/**
 * Parallel steps (docs/language.md#parallel-steps; docs/api-resources.md#limits): `branches` or a
 * parallel `for`, each branch or iteration in its own frame and scope, at most `concurrency_limit` running at
 * once (default and maximum 20).
 *
 * Variables: a branch reads every parent variable; it writes the parent's copy only of those listed in
 * `shared` (JS runs one branch at a time between waits, so each single read or write is atomic); writing any
 * other parent variable makes a branch-local copy (see scope.ts). Errors: under `unhandled` the first error
 * cancels the other branches (their waits end at once and they run no further step) and is re-raised
 * unchanged; under `continueAll` every branch runs to its end and the errors, up to 100, are raised together
 * as one UnhandledBranchError.
 *
 * UnhandledBranchError shape (Google documents the tag but not the payload): `{message, code: 0,
 * tags: ["UnhandledBranchError"], branches: [{id, error}]}`, where `id` is the branch name, or the iteration
 * index (int) of a parallel for, and `error` the branch's error value as `except` would have caught it; the
 * list is in the order the errors happened.
 */
import { WorkflowError, typeError } from '../lang/errors.ts';
import type { Step, StepList } from '../lang/definition/ast.ts';
import { typeName, type Value, type WMap } from '../lang/value.ts';
import { MAX_BRANCH_ERRORS, MAX_BRANCHES, MAX_CONCURRENCY, MAX_PARALLEL_DEPTH } from '../lang/language-limits.ts';
import { isPromise, type Completion, type Outcome } from './completion.ts';
import { evalTemplate } from './eval-template.ts';
import { declareLoopVars, loopItems, type LoopItems } from './loop.ts';
import { EntryEvent, observe } from './observe.ts';
import { Frame, Scope } from './scope.ts';
import { Cancellation } from '../platform/cancellation.ts';

type ParallelStep = Extract<Step, { kind: 'parallel' }>;

/**
 * One unit of parallel work: its id for error reports, how to start it in a branch scope, and how its
 * STEP_PARALLEL_BRANCH_ENTRY is labelled (a branch's name, or an iteration's number).
 */
interface Work {
  readonly count: number;
  id(i: number): Value;
  start(i: number, scope: Scope): Outcome;
  label(i: number, event: EntryEvent): void;
}

/** Starts branch or iteration `i` of `work` in `scope` (for {@link observe}, which takes no closure). */
function startBranch(work: Work, i: number, scope: Scope): Outcome {
  return work.start(i, scope);
}

/**
 * Runs a parallel step. Always asynchronous (branches interleave at their waits).
 *
 * @throws WorkflowError tagged ParallelNestingError when nested deeper than 2 (also through subworkflow
 *   calls); ResourceLimitError for more than 10 branches or a concurrency_limit over 20; ValueError for a
 *   concurrency_limit below 1; KeyError for a `shared` variable not declared before the step; under
 *   `unhandled` the first branch error unchanged; under `continueAll` UnhandledBranchError.
 * @internal
 */
export function execParallel(step: ParallelStep, scope: Scope, event?: EntryEvent): Outcome {
  const frame = scope.frame;
  if (frame.parallelDepth >= MAX_PARALLEL_DEPTH) {
    throw WorkflowError.of(
      'ParallelNestingError',
      `parallel step '${step.name}' is nested deeper than ${MAX_PARALLEL_DEPTH} parallel steps`,
    );
  }
  for (const name of step.shared) {
    if (scope.lookup(name) === undefined) {
      throw WorkflowError.of('KeyError', `shared variable '${name}' must be declared before parallel step '${step.name}'`);
    }
  }
  const limit = step.concurrencyLimit === undefined ? MAX_CONCURRENCY : evalTemplate(step.concurrencyLimit, scope);
  const shared = new Set(step.shared);
  const go = (lim: Value, work: Work): Promise<Completion> => runAll(step, scope, shared, checkLimit(lim), work);

  if (step.branches !== undefined) {
    const branches = step.branches;
    if (branches.length > MAX_BRANCHES) {
      throw WorkflowError.of(
        'ResourceLimitError',
        `parallel step '${step.name}' has ${branches.length} branches, over the limit of ${MAX_BRANCHES}`,
      );
    }
    const work: Work = {
      count: branches.length,
      id: (i) => branches[i]!.name,
      start: (i, s) => s.frame.exec.engine.runList(branches[i]!.steps, 0, s),
      label: (i, e) => {
        e.branch = branches[i]!.name;
      },
    };
    return isPromise<Value>(limit) ? limit.then((l) => go(l, work)) : go(limit, work);
  }

  const loop = step.for!;
  const items = loopItems(loop, scope);
  const forWork = (it: LoopItems): Work => {
    if (event !== undefined) event.expectedIterations = it.count;
    return {
      count: it.count,
      id: (i) => BigInt(i),
      start: (i, s) => {
        declareLoopVars(loop, it, i, s);
        return s.frame.exec.engine.runList(loop.steps as StepList, 0, s);
      },
      label: (i, e) => {
        e.iteration = i + 1;
        e.expectedIterations = it.count;
      },
    };
  };
  return Promise.all([limit, items]).then(([l, it]) => go(l, forWork(it)));
}

function checkLimit(v: Value): number {
  if (typeof v !== 'bigint' && !(typeof v === 'number' && Number.isInteger(v))) {
    throw typeError(`concurrency_limit must be an int, not a ${typeName(v)}`);
  }
  const n = Number(v);
  if (n > MAX_CONCURRENCY) {
    throw WorkflowError.of('ResourceLimitError', `concurrency_limit ${n} is over the limit of ${MAX_CONCURRENCY}`);
  }
  if (n < 1) throw WorkflowError.of('ValueError', `concurrency_limit must be at least 1, got ${n}`);
  return n;
}

/** The reason a branch is cancelled with when a sibling failed under `unhandled`. */
class SiblingFailed extends Error {}

function runAll(step: ParallelStep, scope: Scope, shared: ReadonlySet<string>, limit: number, work: Work): Promise<Completion> {
  const parent = scope.frame;
  if (parent.signal.aborted) return Promise.reject(parent.signal.reason);
  return new Promise<Completion>((resolve, reject) => {
    new BranchRun(step, scope, shared, limit, work, resolve, reject).launch();
  });
}

/**
 * One run of a parallel step's branches or iterations: at most `limit` at once, each a thread of its own under
 * one abort signal; the first unhandled error stops the rest (or, under `continueAll`, errors are gathered).
 */
class BranchRun {
  readonly #ctrl = new Cancellation();
  readonly #parent: Frame;
  readonly #observed: boolean;
  readonly #continueAll: boolean;
  #next = 0;
  #active = 0;
  #stopped = false;
  #firstError: WorkflowError | undefined;
  readonly #errors: WMap[] = [];
  readonly #onParentAbort = (): void => this.#ctrl.abort(this.#parent.signal.reason);

  constructor(
    private readonly step: ParallelStep,
    private readonly scope: Scope,
    private readonly shared: ReadonlySet<string>,
    private readonly limit: number,
    private readonly work: Work,
    private readonly resolve: (c: Completion) => void,
    private readonly reject: (e: unknown) => void,
  ) {
    this.#parent = scope.frame;
    this.#parent.signal.addEventListener('abort', this.#onParentAbort, { once: true });
    this.#observed = this.#parent.exec.observer !== undefined;
    this.#continueAll = step.exceptionPolicy === 'continueAll';
  }

  #finish(): void {
    const parent = this.#parent;
    parent.signal.removeEventListener('abort', this.#onParentAbort);
    if (parent.signal.aborted) return this.reject(parent.signal.reason);
    if (this.#firstError) return this.reject(this.#firstError);
    if (this.#errors.length > 0) return this.reject(unhandledBranchError(this.step, this.#errors, this.work.count));
    this.resolve(undefined);
  }

  #settle(): void {
    this.#active--;
    this.launch();
  }

  #fail(i: number, e: unknown): void {
    if (this.#stopped || this.#ctrl.signal.aborted) return; // cancelled: the reason is the parent's or a sibling's
    const we = WorkflowError.from(e);
    if (!this.#continueAll) {
      this.#firstError = we;
      this.#stopped = true;
      this.#ctrl.abort(new SiblingFailed('a sibling branch failed'));
      return;
    }
    this.#errors.push(new Map<string, Value>([['id', this.work.id(i)], ['error', we.value]]));
    if (this.#errors.length >= MAX_BRANCH_ERRORS) {
      this.#stopped = true;
      this.#ctrl.abort(new SiblingFailed('too many branch errors'));
    }
  }

  /** Starts branches while the limit allows; finishes once none is running. */
  launch(): void {
    while (!this.#stopped && !this.#ctrl.signal.aborted && this.#active < this.limit && this.#next < this.work.count) {
      this.#startBranch(this.#next++);
    }
    if (this.#active === 0) this.#finish();
  }

  #startBranch(i: number): void {
    const parent = this.#parent;
    const { step, work } = this;
    this.#active++;
    // Each branch or iteration is a thread of its own (hooks.ts StepEvent.threadId).
    const threadId = parent.threadId === '' ? String(i + 1) : `${parent.threadId}.${i + 1}`;
    // The parallel step's own entry (parent.entry) is the parent of every branch entry.
    const frame = new Frame(parent.exec, this.#ctrl.signal, parent.callDepth, parent.parallelDepth + 1, parent.routine, threadId, parent.entry);
    const branchScope = new Scope(this.scope, frame, this.shared);
    let r: Outcome;
    try {
      if (this.#observed) {
        const ev = new EntryEvent(step.name, 'STEP_PARALLEL_BRANCH_ENTRY', step.pos, branchScope);
        work.label(i, ev);
        r = observe(frame, ev, startBranch, work, i, branchScope);
      } else {
        r = work.start(i, branchScope);
      }
    } catch (e) {
      branchScope.release();
      this.#fail(i, e);
      this.#active--;
      return;
    }
    if (isPromise<Completion>(r)) {
      r.then(
        () => {
          branchScope.release();
          this.#settle();
        },
        (e: unknown) => {
          branchScope.release();
          this.#fail(i, e);
          this.#settle();
        },
      );
    } else {
      branchScope.release();
      this.#active--;
    }
  }
}

function unhandledBranchError(step: ParallelStep, errors: WMap[], total: number): WorkflowError {
  return WorkflowError.of(
    'UnhandledBranchError',
    `UnhandledBranchError: ${errors.length} of ${total} branches or iterations of parallel step '${step.name}' ` +
      'raised unhandled errors',
    { branches: errors },
  );
}
