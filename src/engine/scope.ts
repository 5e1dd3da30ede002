/**
 * Variables of a running workflow (docs/language.md#jumps-loops-and-scopes: variables, for-loop scoping, parallel
 * `shared`): parent-linked scopes, the execution-wide counters (steps, memory) and the frame each thread of
 * control runs in.
 *
 * Scoping rules, each a scope boundary:
 * - a workflow invocation (`main` or a subworkflow call) starts a root scope: the caller's variables are
 *   invisible;
 * - a `for` loop and an `except` block open a child scope: the loop or error variable and any variable first
 *   assigned inside live there and are gone afterwards, while assigning a variable that already exists outside
 *   changes it in place;
 * - a parallel branch or iteration opens a child scope with a barrier: reading a parent variable sees it, but
 *   writing one that is not `shared` makes a branch-local copy (the write does not leak out), while `shared`
 *   variables are written in the parent. Values are immutable, so the read-only copies cost nothing.
 */
import type { Env } from '../lang/expr/ast.ts';
import { sizeOf, type Value } from '../lang/value.ts';
import type { Definition, StepList, WorkflowDef } from '../lang/definition/ast.ts';
import { MAX_MEMORY_BYTES, MAX_STEPS } from '../lang/language-limits.ts';
import type { CallContext, RetryPolicy, StdlibFunction } from '../stdlib/types.ts';
import { isPromise, type Outcome } from './completion.ts';
import type { CallInterceptor, CallStepObserver, StepGate, StepObserver } from './hooks.ts';
import { memoryLimitError, stepLimitError } from './limit-errors.ts';
import type { ExecutionDeps } from './types.ts';
import type { CancelSignal } from '../platform/cancellation.ts';

/**
 * The interpreter's entry points an execution runs with (interpreter.ts `ENGINE`): how a step list, a whole
 * workflow and a function call by name are run. Handed to each {@link Execution} rather than imported, so the
 * modules of the step kinds that recurse into step lists and workflows (loop, parallel, try, calls) and this
 * one do not import the interpreter that imports them. @internal
 */
export interface Engine {
  /** Runs a step list from index `start` in `scope` (interpreter.ts `runList`). */
  runList(list: StepList, start: number, scope: Scope): Outcome;
  /** Runs a workflow in its fresh root scope with bound positional arguments (interpreter.ts `runBody`). */
  runBody(wf: WorkflowDef, scope: Scope, args: readonly Value[]): Value | Promise<Value>;
  /** Calls a function by dotted name with positional arguments, as an expression does (calls.ts). */
  callFunction(frame: Frame, name: string, args: Value[]): Value | Promise<Value>;
}

/** The state one execution shares across all its frames: definition, host dependencies, counters. @internal */
export class Execution {
  /** Steps started so far (docs/api-resources.md#limits: 100,000). */
  steps = 0;
  /** Bytes of all live variables, as {@link sizeOf} estimates them (docs/api-resources.md#limits: 512 KB). */
  memoryBytes = 0;
  /** The step observer of `deps.hooks`, if any. */
  readonly observer: StepObserver | undefined;
  /** The call interceptor of `deps.hooks`, if any. */
  readonly interceptor: CallInterceptor | undefined;
  /**
   * The call-step observer of `deps.hooks`, if any: checked by `call` steps only (calls.ts), so it does not
   * make {@link hooked} true.
   */
  readonly callSteps: CallStepObserver | undefined;
  /** A debugger's gate of `deps.hooks` (only with an observer): checked on the hooked path only. */
  readonly gate: StepGate | undefined;
  /** True when a step observer or an interceptor is attached: the one field the hot path checks per step. */
  readonly hooked: boolean;
  /** The functions calls resolve to: `deps.library.functions`, one load away. */
  readonly functions: ReadonlyMap<string, StdlibFunction>;
  /** The named retry policies: `deps.library.retryPolicies`. */
  readonly retryPolicies: ReadonlyMap<string, RetryPolicy>;

  constructor(
    readonly definition: Definition,
    readonly deps: ExecutionDeps,
    readonly engine: Engine,
  ) {
    this.observer = deps.hooks?.observer;
    this.interceptor = deps.hooks?.interceptor;
    this.callSteps = deps.hooks?.callSteps;
    this.gate = this.observer !== undefined ? deps.hooks?.gate : undefined;
    this.hooked = this.observer !== undefined || this.interceptor !== undefined;
    this.functions = deps.library.functions;
    this.retryPolicies = deps.library.retryPolicies;
  }

  /** Counts one step. @throws WorkflowError tagged ResourceLimitError past {@link MAX_STEPS}. */
  countStep(): void {
    if (++this.steps > MAX_STEPS) throw stepLimitError();
  }

  /**
   * A list or map that exactly one variable holds and nothing else can see: the copy the last path
   * assignment made (`m[key]: v`) or the list the last `l: ${list.concat(l, x)}` built. The next such
   * assignment to that variable may change it in place instead of copying it (assign.ts), which makes them
   * O(1) rather than O(size). Reading the variable (Scope.lookup, the only way an expression, a branch or a
   * call can get hold of a value) gives the ownership up, so a value anyone else holds never changes under
   * it (docs/language.md#data-types: values; parallel branches' copies). @internal
   */
  owned: object | undefined = undefined;
  /**
   * The containers inside {@link owned} that the last path assignments built fresh (the maps and lists along
   * `m["a"]["b"]` below `m`): only `owned` reaches them, so a nested path assignment may change them in place
   * too (assign.ts), linear where copying the path each time is quadratic. Dropped with `owned`. @internal
   */
  ownedInner: Set<object> | undefined = undefined;

  /** When this execution last started running without giving the event loop a turn (performance.now(), ms). */
  private sliceStart = performance.now();

  /**
   * True when this execution has run {@link SLICE_MS} without a break, so it should give the event loop a turn
   * (see {@link pause}): one execution must not hold the API and the other executions (docs/architecture.md#running-fairness-and-value-semantics). The
   * interpreter asks every 32 steps only (by the step count), which keeps the clock off the hot path.
   */
  shouldPause(): boolean {
    return performance.now() - this.sliceStart >= SLICE_MS;
  }

  /**
   * Resolves to `value` at this execution's next slice (see {@link waitForSlice}): the event loop has had a
   * turn (pending I/O and timers run) and every execution that paused before this one has had its slice.
   */
  pause<T>(value: T): Promise<T> {
    return new Promise((resolve) =>
      waitForSlice(() => {
        this.sliceStart = performance.now();
        resolve(value);
      }),
    );
  }
}

/**
 * Executions waiting for their next slice, oldest first (`slices[sliceHead]` is next). One slice runs per turn
 * of the event loop, so pending I/O (a request to the API, the UI, a cancel) waits for at most one slice
 * however many executions compute at once; all of them resuming in the same turn would make it wait for every
 * one of them (200 executions: about a second).
 */
const slices: (() => void)[] = [];
let sliceHead = 0;
let sliceTurnPending = false;

/** Runs `resume` at a later turn of the event loop, after every slice queued before it. */
function waitForSlice(resume: () => void): void {
  slices.push(resume);
  if (!sliceTurnPending) {
    sliceTurnPending = true;
    nextTurn(nextSlice);
  }
}

/** Starts the oldest waiting slice (its execution runs once this returns) and, if more wait, the next turn. */
function nextSlice(): void {
  const resume = slices[sliceHead]!;
  slices[sliceHead++] = undefined as unknown as () => void;
  if (sliceHead === slices.length) {
    slices.length = 0;
    sliceHead = 0;
    sliceTurnPending = false;
  } else {
    if (sliceHead > 1024 && sliceHead * 2 > slices.length) {
      slices.splice(0, sliceHead);
      sliceHead = 0;
    }
    nextTurn(nextSlice);
  }
  resume();
}

/**
 * Longest an execution runs without a break, in milliseconds: a few, so a request to the API or another
 * execution's timer waits at most about this long per running execution (docs/architecture.md#running-fairness-and-value-semantics: "no execution delays
 * another request by more than ~50 ms").
 */
const SLICE_MS = 4;

/** Runs `f` after the event loop's I/O phase: setImmediate where the runtime has it (Node, Bun, Deno), else a timer. */
const nextTurn: (f: () => void) => void =
  typeof setImmediate === 'function' ? (f) => void setImmediate(f) : (f) => void setTimeout(f, 0);

/**
 * One thread of control: `main`, a subworkflow call, or a parallel branch or iteration. It carries the
 * cancellation signal its waits obey (a branch's signal also fires when a sibling fails under `unhandled`),
 * the subworkflow call depth, the parallel nesting depth, the routine (workflow name) it runs and its parallel
 * thread id (hooks.ts `StepEvent.threadId`). A frame runs one step at a time, so the hooks' bookkeeping lives
 * here: the handle of the innermost open step entry and the step being run (kept only when hooks are
 * attached). @internal
 */
export class Frame {
  private ctx: CallContext | undefined;
  /** The name of the step this frame runs now (set only when hooks are attached; '' before the first). */
  step = '';

  constructor(
    readonly exec: Execution,
    readonly signal: CancelSignal,
    readonly callDepth: number,
    readonly parallelDepth: number,
    readonly routine: string,
    readonly threadId: string,
    /** The observer's handle of the innermost open entry: the `parent` of the next entry entered here. */
    public entry: unknown,
  ) {}

  /** The context stdlib functions called from this frame receive (its signal, the execution's deps). */
  callContext(): CallContext {
    if (this.ctx) return this.ctx;
    const deps = this.exec.deps;
    this.ctx = {
      clock: deps.clock,
      fetch: deps.fetch,
      env: deps.env,
      signal: this.signal,
      log: deps.log,
      callbacks: deps.callbacks,
      uuid: deps.uuid,
      ...(deps.compat !== undefined ? { compat: deps.compat } : {}),
    };
    return this.ctx;
  }
}

/**
 * A scope of variables; also the {@link Env} expressions evaluate in. `shared` marks a parallel branch's root
 * scope (the barrier): the set of parent variables the branch may write. @internal
 */
export class Scope implements Env {
  readonly vars = new Map<string, Value>();
  /** The frame's execution (read on every lookup, so kept one load away). */
  private readonly exec: Execution;
  /** Bytes this scope's variables hold (names included), released with {@link release}. */
  private bytes = 0;

  constructor(
    readonly parent: Scope | undefined,
    readonly frame: Frame,
    readonly shared?: ReadonlySet<string>,
  ) {
    this.exec = frame.exec;
  }

  lookup(name: string): Value | undefined {
    const v = this.peek(name);
    // Whoever reads a value may keep it: it is no longer the variable's alone (Execution.owned).
    if (typeof v === 'object' && v === this.exec.owned) {
      this.exec.owned = undefined;
      this.exec.ownedInner = undefined;
    }
    return v;
  }

  /** A read that keeps no list or map of the value (Env.peek): the variable's sole hold stays. */
  peek(name: string): Value | undefined {
    let s: Scope | undefined = this;
    do {
      const v = s.vars.get(name);
      if (v !== undefined) return v;
      s = s.parent;
    } while (s);
    return undefined;
  }

  /**
   * The scope whose variable `name` an assignment from here would change in place: where it lives, unless a
   * branch barrier lies between (then the assignment makes a branch-local copy, and undefined is returned,
   * as it is for a variable that does not exist). Does not read the value. @internal
   */
  slotOf(name: string): Scope | undefined {
    let s: Scope = this;
    for (;;) {
      if (s.vars.has(name)) return s;
      if ((s.shared !== undefined && !s.shared.has(name)) || !s.parent) return undefined;
      s = s.parent;
    }
  }

  /**
   * Counts `delta` more bytes for a variable of this scope whose value is about to change in place
   * (assign.ts); call it before the change.
   * @throws WorkflowError tagged ResourceLimitError, counting nothing, when variable memory would go over
   *   512 KB (the change must then not be made: the variable keeps its value, as for any assignment).
   * @internal
   */
  grow(delta: number): void {
    const exec = this.frame.exec;
    if (delta > 0 && exec.memoryBytes + delta > MAX_MEMORY_BYTES) throw memoryLimitError(exec.memoryBytes + delta);
    this.bytes += delta;
    exec.memoryBytes += delta;
  }

  call(name: string, args: Value[]): Value | Promise<Value> {
    return this.frame.exec.engine.callFunction(this.frame, name, args);
  }

  /**
   * Assigns a variable by the scoping rules of the module header: an existing variable is changed where it
   * lives (a non-shared one above a branch barrier is copied into the branch instead); a new one is created
   * here. @throws WorkflowError tagged ResourceLimitError when variable memory goes over 512 KB.
   */
  assign(name: string, value: Value): void {
    let s: Scope = this;
    for (;;) {
      if (s.vars.has(name)) return s.declare(name, value);
      if (s.shared !== undefined && !s.shared.has(name)) {
        // At a branch barrier: a parent variable that is not shared gets a branch-local copy.
        return s.parent?.lookup(name) !== undefined ? s.declare(name, value) : this.declare(name, value);
      }
      if (!s.parent) return this.declare(name, value);
      s = s.parent;
    }
  }

  /**
   * Sets a variable in this very scope (loop variables, parameters, `except as`). Same error as
   * {@link assign}; a value over the limit is not assigned (the variable keeps its old value), so an `except`
   * that catches the error can bind it and go on.
   */
  declare(name: string, value: Value): void {
    const old = this.vars.get(name);
    const delta = old === undefined ? name.length + sizeOf(value) : sizeOf(value) - sizeOf(old);
    const exec = this.frame.exec;
    if (delta > 0 && exec.memoryBytes + delta > MAX_MEMORY_BYTES) throw memoryLimitError(exec.memoryBytes + delta);
    this.vars.set(name, value);
    this.bytes += delta;
    exec.memoryBytes += delta;
  }

  /**
   * Runs `run` (the steps that use this scope) and releases the scope when its outcome settles, however it
   * ends; returns the outcome unchanged.
   */
  releasing<T>(run: () => T | Promise<T>): T | Promise<T> {
    let r: T | Promise<T>;
    try {
      r = run();
    } catch (e) {
      this.release();
      throw e;
    }
    if (isPromise<T>(r)) {
      return r.then(
        (v) => {
          this.release();
          return v;
        },
        (e: unknown) => {
          this.release();
          throw e;
        },
      );
    }
    this.release();
    return r;
  }

  /** Gives this scope's bytes back to the execution when the scope ends (normally or by an error). */
  release(): void {
    this.frame.exec.memoryBytes -= this.bytes;
    this.bytes = 0;
  }
}
