/**
 * The step interpreter (spec "Workflow definition language": step types; "States and transitions": error
 * propagation order).
 *
 * It runs synchronously until something actually waits, then continues asynchronously ("sync until async"):
 * every function here returns its outcome directly, or a promise only when a step below it returned one (a
 * blocking stdlib call such as http.get or sys.sleep, a callback wait, a retry backoff, a parallel step). So a
 * plain assign, switch or loop iteration costs no promise and no microtask.
 *
 * Control flow travels as a {@link Completion}: `undefined` (go on to the step's `next` or the following
 * step), a {@link JumpTarget} (a named step `depth` step lists up, `end`, `break`, `continue`), or a return
 * with its value. Errors travel as thrown {@link WorkflowError}s (or rejected promises); the step that first
 * sees an error stamps its name on it (`error.context` = `step: <name>`). A cancellation reason (the abort
 * signal's) is never caught by `try`: it passes through untouched.
 */
import { WorkflowError, indexError, keyError, typeError } from '../lang/errors.ts';
import type {
  AssignTarget,
  ForSpec,
  JumpTarget,
  Step,
  StepList,
  Template,
  WorkflowDef,
} from '../lang/definition/ast.ts';
import type { CompiledExpression } from '../lang/expr/ast.ts';
import { isList, isMap, typeName, type Value, type WMap } from '../lang/value.ts';
import { bindNamedArgs, STDLIB } from '../stdlib/index.ts';
import { bindSubworkflowNamed, callSubworkflow, intercepted, unsupportedCallError } from './calls.ts';
import { EntryEvent, observe, stepTypeOf } from './observe.ts';
import { execParallel } from './parallel.ts';
import { execTry } from './retry.ts';
import { Scope } from './scope.ts';

/** A `return` travelling up to the workflow that runs it. @internal */
export interface ReturnCompletion {
  readonly kind: 'return';
  readonly value: Value;
}

/** How a step or step list finished; see the module header. @internal */
export type Completion = undefined | JumpTarget | ReturnCompletion;

/** A completion now, or later. @internal */
export type Outcome = Completion | Promise<Completion>;

/** True for a promise (the only thenables the engine produces or accepts from functions). @internal */
export function isPromise<T>(x: unknown): x is Promise<T> {
  return x instanceof Promise;
}

// ---------------------------------------------------------------------------------------------------------
// Workflows and step lists

/**
 * Runs a workflow (`main` or a subworkflow) in its fresh root `scope`: declares its params from `args`
 * (positional, already bound), runs its steps, and returns the returned value (null when it ends without one,
 * by `next: end` or by running off its last step). The scope is released however it ends.
 * @internal
 */
export function runBody(wf: WorkflowDef, scope: Scope, args: readonly Value[]): Value | Promise<Value> {
  let r: Outcome;
  try {
    for (let i = 0; i < wf.params.length; i++) scope.declare(wf.params[i]!.name, args[i] ?? null);
    r = runList(wf.steps, 0, scope);
  } catch (e) {
    scope.release();
    throw e;
  }
  if (isPromise<Completion>(r)) {
    return r.then(
      (c) => {
        scope.release();
        return resultOf(c);
      },
      (e: unknown) => {
        scope.release();
        throw e;
      },
    );
  }
  scope.release();
  return resultOf(r);
}

function resultOf(c: Completion): Value {
  return c !== undefined && c.kind === 'return' ? c.value : null;
}

/**
 * Runs a step list from index `start`. Jumps within the list are followed here; anything else (a jump to an
 * outer list, with its depth reduced by one; `break`, `continue`, `end`, return) is handed to the caller.
 * @internal
 */
export function runList(list: StepList, start: number, scope: Scope, into?: readonly number[]): Outcome {
  const steps = list.steps;
  const frame = scope.frame;
  const exec = frame.exec;
  let i = start;
  let entry = into !== undefined && into.length > 0 ? into : undefined;
  while (i < steps.length) {
    const step = steps[i]!;
    // Cancellation: nothing runs after the signal fires, not even a step that would not wait.
    if (frame.signal.aborted) throw frame.signal.reason;
    let c: Outcome;
    try {
      exec.countStep();
      if (entry !== undefined) c = enter(step, entry, scope);
      else c = exec.hooked ? execStepHooked(step, scope) : execStep(step, scope);
    } catch (e) {
      throw stamp(e, step, scope);
    }
    if (isPromise<Completion>(c)) return runListAsync(list, i, scope, c);
    const next = follow(step, c, i);
    if (typeof next === 'number') {
      i = next;
      entry = undefined;
    } else if (next !== undefined && next.kind === 'enter') {
      i = next.index;
      entry = next.into;
    } else return next;
  }
  return undefined;
}

/**
 * Runs a `steps` step from inside: its list from `into[0]`, going on into deeper blocks with the rest (a
 * jump into a plain nested `steps:` block; the compiler only makes such jumps to `steps` steps).
 */
function enter(step: Step, into: readonly number[], scope: Scope): Outcome {
  if (step.kind !== 'steps') return execStep(step, scope);
  return runList(step.steps, into[0]!, scope, into.slice(1));
}

/**
 * The rest of {@link runList} once step `i` returned a promise: the same loop in one async function, so a
 * long-running list (a polling loop that sleeps) holds one promise rather than a chain of them, and the
 * steps that do not wait still cost no await.
 */
async function runListAsync(list: StepList, i: number, scope: Scope, pending: Promise<Completion>): Promise<Completion> {
  const steps = list.steps;
  const frame = scope.frame;
  let step = steps[i]!;
  let c: Completion;
  try {
    c = await pending;
  } catch (e) {
    throw stamp(e, step, scope);
  }
  for (;;) {
    const next = follow(step, c, i);
    let entry: readonly number[] | undefined;
    if (typeof next === 'number') i = next;
    else if (next !== undefined && next.kind === 'enter') {
      i = next.index;
      entry = next.into;
    } else return next;
    if (i >= steps.length) return undefined;
    step = steps[i]!;
    if (frame.signal.aborted) throw frame.signal.reason;
    try {
      frame.exec.countStep();
      const r =
        entry !== undefined ? enter(step, entry, scope) : frame.exec.hooked ? execStepHooked(step, scope) : execStep(step, scope);
      c = isPromise<Completion>(r) ? await r : r;
    } catch (e) {
      throw stamp(e, step, scope);
    }
  }
}

/** A jump into the plain nested `steps:` block of the step at `index` of the same list. */
interface Enter {
  readonly kind: 'enter';
  readonly index: number;
  readonly into: readonly number[];
}

/**
 * Where a list goes after `step` (at `index`) completed with `c`: an index in the list, a step of the list
 * to enter at a nested position, or a completion up.
 */
function follow(step: Step, c: Completion, index: number): number | Enter | Completion {
  if (c === undefined) {
    if (step.next === undefined) return index + 1;
    c = step.next;
  }
  if (c.kind !== 'step') return c;
  if (c.depth === 0) return c.into === undefined || c.into.length === 0 ? c.index : { kind: 'enter', index: c.index, into: c.into };
  return c.into === undefined
    ? { kind: 'step', name: c.name, depth: c.depth - 1, index: c.index }
    : { kind: 'step', name: c.name, depth: c.depth - 1, index: c.index, into: c.into };
}

/**
 * Makes anything thrown at `step` a WorkflowError that names the step where it was first raised, except a
 * cancellation, which passes untouched.
 */
function stamp(e: unknown, step: Step, scope: Scope): unknown {
  if (scope.frame.signal.aborted && !(e instanceof WorkflowError)) return e;
  const we = WorkflowError.from(e);
  if (we.stepName === undefined) we.stepName = step.name;
  return we;
}

/**
 * Runs one step when hooks are attached: records it as the frame's current step (for the interceptor's
 * `OutboundCall.step`) and, with an observer, brackets it in its step entry.
 */
function execStepHooked(step: Step, scope: Scope): Outcome {
  const frame = scope.frame;
  frame.step = step.name;
  if (frame.exec.observer === undefined) return execStep(step, scope);
  const event = new EntryEvent(step.name, stepTypeOf(step), step.pos, scope);
  return observe(frame, event, () => execStep(step, scope, event));
}

/**
 * Runs one step. `event` is the step's entry when an observer is attached (a loop fills in its expected
 * iterations and brackets each iteration). @internal
 */
export function execStep(step: Step, scope: Scope, event?: EntryEvent): Outcome {
  switch (step.kind) {
    case 'assign':
      return execAssign(step.assignments, 0, scope);
    case 'call':
      return execCall(step, scope);
    case 'switch':
      return execSwitch(step, 0, scope);
    case 'for':
      return execFor(step, scope, event);
    case 'parallel':
      return execParallel(step, scope, event);
    case 'try':
      return execTry(step, scope);
    case 'raise': {
      const v = evalTemplate(step.value, scope);
      if (isPromise<Value>(v)) {
        return v.then((x) => {
          throw WorkflowError.raised(x);
        });
      }
      throw WorkflowError.raised(v);
    }
    case 'return': {
      if (step.value === undefined) return { kind: 'return', value: null };
      const v = evalTemplate(step.value, scope);
      if (isPromise<Value>(v)) return v.then((x): Completion => ({ kind: 'return', value: x }));
      return { kind: 'return', value: v };
    }
    case 'steps':
      return runList(step.steps, 0, scope);
    case 'jump':
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Templates

/**
 * Evaluates a value as written in the source: constants as they are, `${...}` expressions (synchronously
 * unless the expression may wait), lists and maps element by element.
 * @internal
 */
export function evalTemplate(t: Template, scope: Scope): Value | Promise<Value> {
  switch (t.kind) {
    case 'const':
      return t.value;
    case 'expr':
      return t.expr.isAsync ? t.expr.evaluateAsync(scope) : t.expr.evaluate(scope);
    case 'list': {
      if (t.isAsync) return evalListAsync(t.items, scope);
      const out: Value[] = new Array(t.items.length);
      for (let i = 0; i < t.items.length; i++) out[i] = evalTemplate(t.items[i]!, scope) as Value;
      return out;
    }
    case 'map': {
      const keyExprs = t.keyExprs;
      if (t.isAsync || keyExprs?.some((k) => k?.isAsync)) return evalMapAsync(t.entries, keyExprs, scope);
      const m: WMap = new Map();
      const entries = t.entries;
      for (let i = 0; i < entries.length; i++) {
        const ke = keyExprs?.[i];
        const key = ke ? keyString(ke.evaluate(scope)) : entries[i]![0];
        m.set(key, evalTemplate(entries[i]![1], scope) as Value);
      }
      return m;
    }
  }
}

/** A computed map key (Google's dynamic keys) must be a string. */
function keyString(k: Value): string {
  if (typeof k !== 'string') throw typeError(`a map key must be a string, not a ${typeName(k)}`);
  return k;
}

async function evalListAsync(items: readonly Template[], scope: Scope): Promise<Value> {
  const out: Value[] = [];
  for (const t of items) out.push(await evalTemplate(t, scope));
  return out;
}

async function evalMapAsync(
  entries: readonly (readonly [string, Template])[],
  keyExprs: readonly (CompiledExpression | null)[] | undefined,
  scope: Scope,
): Promise<Value> {
  const m: WMap = new Map();
  for (let i = 0; i < entries.length; i++) {
    const ke = keyExprs?.[i];
    const key = ke ? keyString(await ke.evaluateAsync(scope)) : entries[i]![0];
    m.set(key, await evalTemplate(entries[i]![1], scope));
  }
  return m;
}

/** Applies `f` to a value now or when it arrives. @internal */
export function then<T, R>(v: T | Promise<T>, f: (x: T) => R | Promise<R>): R | Promise<R> {
  return isPromise<T>(v) ? v.then(f) : f(v);
}

// ---------------------------------------------------------------------------------------------------------
// assign

function execAssign(
  assignments: readonly { readonly target: AssignTarget; readonly value: Template }[],
  from: number,
  scope: Scope,
): Outcome {
  for (let i = from; i < assignments.length; i++) {
    const a = assignments[i]!;
    const v = evalTemplate(a.value, scope);
    const done = isPromise<Value>(v) ? v.then((x) => assignTo(scope, a.target, x)) : assignTo(scope, a.target, v);
    if (isPromise<void>(done)) return done.then(() => execAssign(assignments, i + 1, scope));
  }
  return undefined;
}

/**
 * Assigns through a target path with path copying: the containers along the path are copied with the one
 * change, never mutated, so every other holder of the old value keeps it (values are immutable). Missing map
 * keys along the path are created as empty maps (spec "assign": "creates the intermediate maps").
 *
 * @throws WorkflowError tagged KeyError when the root variable of a path is missing, IndexError for a list
 *   index out of range, TypeError when a segment does not fit the value (a key into a list, an index into a
 *   string...).
 * @internal
 */
export function assignTo(scope: Scope, target: AssignTarget, value: Value): void | Promise<void> {
  const path = target.path;
  if (path.length === 0) return scope.assign(target.root, value);
  // Index expressions are evaluated first, left to right; only an index that may wait makes this async.
  const keys: (string | Value)[] = new Array(path.length);
  for (let i = 0; i < path.length; i++) {
    const seg = path[i]!;
    if (seg.kind === 'key') keys[i] = seg.name;
    else if (seg.expr.isAsync) return assignToAsync(scope, target, value);
    else keys[i] = seg.expr.evaluate(scope);
  }
  setPath(scope, target, keys, value);
}

async function assignToAsync(scope: Scope, target: AssignTarget, value: Value): Promise<void> {
  const keys: Value[] = [];
  for (const seg of target.path) keys.push(seg.kind === 'key' ? seg.name : await seg.expr.evaluateAsync(scope));
  setPath(scope, target, keys, value);
}

function setPath(scope: Scope, target: AssignTarget, keys: readonly Value[], value: Value): void {
  const root = scope.lookup(target.root);
  if (root === undefined) throw keyError(`variable '${target.root}' is not defined (assigning ${target.text})`);
  scope.assign(target.root, withPath(root, keys, 0, value, target));
}

function withPath(container: Value, keys: readonly Value[], i: number, value: Value, target: AssignTarget): Value {
  if (i === keys.length) return value;
  const key = keys[i]!;
  if (typeof key === 'string') {
    if (!isMap(container)) {
      throw typeError(`cannot assign ${target.text}: key '${key}' of a ${typeName(container)}, not a map`);
    }
    let child = container.get(key);
    if (child === undefined) {
      // A missing key on the way down becomes an empty map when the path continues with a key.
      if (i + 1 < keys.length && typeof keys[i + 1] !== 'string') {
        throw keyError(`cannot assign ${target.text}: key '${key}' not found`);
      }
      child = new Map();
    }
    const copy: WMap = new Map(container);
    copy.set(key, withPath(child, keys, i + 1, value, target));
    return copy;
  }
  if (typeof key === 'bigint' || (typeof key === 'number' && Number.isInteger(key))) {
    if (!isList(container)) {
      throw typeError(`cannot assign ${target.text}: index of a ${typeName(container)}, not a list`);
    }
    const n = Number(key);
    if (n < 0 || n >= container.length) {
      throw indexError(`cannot assign ${target.text}: index ${n} out of range for a list of ${container.length}`);
    }
    const copy = container.slice();
    copy[n] = withPath(container[n]!, keys, i + 1, value, target);
    return copy;
  }
  throw typeError(`cannot assign ${target.text}: an index must be an int or a string, not ${typeName(key)}`);
}

// ---------------------------------------------------------------------------------------------------------
// call

function execCall(step: Extract<Step, { kind: 'call' }>, scope: Scope): Outcome {
  const args = step.args ? evalArgs(step.args, scope) : undefined;
  const r = isPromise<WMap>(args) ? args.then((a) => invoke(step, scope, a)) : invoke(step, scope, args);
  if (step.result === undefined) return isPromise(r) ? r.then(() => undefined) : undefined;
  const name = step.result;
  if (isPromise<Value>(r)) {
    return r.then((v) => {
      scope.assign(name, v);
      return undefined;
    });
  }
  scope.assign(name, r);
  return undefined;
}

function evalArgs(args: readonly (readonly [string, Template])[], scope: Scope): WMap | Promise<WMap> {
  const m: WMap = new Map();
  for (let i = 0; i < args.length; i++) {
    const [k, t] = args[i]!;
    const v = evalTemplate(t, scope);
    if (isPromise<Value>(v)) return evalArgsAsync(args, i, m, v, scope);
    m.set(k, v);
  }
  return m;
}

async function evalArgsAsync(
  args: readonly (readonly [string, Template])[],
  from: number,
  m: WMap,
  pending: Promise<Value>,
  scope: Scope,
): Promise<WMap> {
  m.set(args[from]![0], await pending);
  for (let i = from + 1; i < args.length; i++) m.set(args[i]![0], await evalTemplate(args[i]![1], scope));
  return m;
}

function invoke(step: Extract<Step, { kind: 'call' }>, scope: Scope, args: WMap | undefined): Value | Promise<Value> {
  const target = step.target;
  const frame = scope.frame;
  switch (target.kind) {
    case 'stdlib': {
      const fn = STDLIB.get(target.name);
      if (!fn) throw unsupportedCallError(target.name);
      const bound = bindNamedArgs(fn, args);
      if (fn.blocking === true && frame.exec.interceptor !== undefined) {
        return intercepted(frame, fn.name, args ?? new Map(), () => fn.impl(bound, frame.callContext()));
      }
      return fn.impl(bound, frame.callContext());
    }
    case 'subworkflow': {
      const wf = frame.exec.definition.workflows.get(target.name);
      if (!wf) throw unsupportedCallError(target.name);
      return callSubworkflow(frame, wf, bindSubworkflowNamed(wf, args));
    }
    case 'unsupported':
      if (frame.exec.interceptor !== undefined) {
        return intercepted(frame, target.name, args ?? new Map(), () => {
          throw unsupportedCallError(target.name);
        });
      }
      throw unsupportedCallError(target.name);
  }
}

// ---------------------------------------------------------------------------------------------------------
// switch

function execSwitch(step: Extract<Step, { kind: 'switch' }>, from: number, scope: Scope): Outcome {
  const cases = step.cases;
  for (let i = from; i < cases.length; i++) {
    const cond = evalTemplate(cases[i]!.condition, scope);
    if (isPromise<Value>(cond)) {
      return cond.then((v) => (checkCondition(v, i) ? runCase(step, i, scope) : execSwitch(step, i + 1, scope)));
    }
    if (checkCondition(cond, i)) return runCase(step, i, scope);
  }
  return undefined;
}

function checkCondition(v: Value, i: number): boolean {
  if (typeof v !== 'boolean') throw typeError(`switch condition ${i + 1} is a ${typeName(v)}, not a bool`);
  return v;
}

function runCase(step: Extract<Step, { kind: 'switch' }>, i: number, scope: Scope): Outcome {
  if (scope.frame.exec.observer !== undefined) {
    const event = new EntryEvent(step.name, 'STEP_CONDITION', step.cases[i]!.pos, scope);
    return observe(scope.frame, event, () => runCaseBody(step, i, scope));
  }
  return runCaseBody(step, i, scope);
}

function runCaseBody(step: Extract<Step, { kind: 'switch' }>, i: number, scope: Scope): Outcome {
  const c = step.cases[i]!;
  if (c.next !== undefined) return c.next;
  if (c.steps !== undefined) return runList(c.steps, 0, scope);
  if (c.step !== undefined) return execStep(c.step, scope);
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// for

/** The values a loop runs over: `count` of them, the i-th from `at(i)`. @internal */
export interface LoopItems {
  readonly count: number;
  at(i: number): Value;
}

/**
 * Evaluates a loop's `in` (a list; a map's keys come through `keys()`) or `range` (inclusive at both ends;
 * ints when `start` is an int, else doubles).
 * @throws WorkflowError tagged TypeError when `in` is not a list or a range bound is not a number.
 * @internal
 */
export function loopItems(loop: ForSpec, scope: Scope): LoopItems | Promise<LoopItems> {
  if (loop.in !== undefined) return then(evalTemplate(loop.in, scope), listItems);
  return then(evalTemplate(loop.range!, scope), rangeItems);
}

function listItems(v: Value): LoopItems {
  if (!isList(v)) {
    throw typeError(`for: 'in' must be a list, not a ${typeName(v)}${isMap(v) ? ' (use keys() for its keys)' : ''}`);
  }
  return { count: v.length, at: (i) => v[i]! };
}

function rangeItems(range: Value): LoopItems {
  if (!isList(range) || range.length !== 2) {
    const what = isList(range) ? `a list of ${range.length}` : `a ${typeName(range)}`;
    throw typeError(`for: range must be a list of two numbers [start, end], not ${what}`);
  }
  const [start, end] = range as [Value, Value];
  const isNum = (x: Value): x is bigint | number => typeof x === 'bigint' || typeof x === 'number';
  if (!isNum(start) || !isNum(end)) {
    throw typeError(`for: range bounds must be numbers, not ${typeName(start)} and ${typeName(end)}`);
  }
  const span = Number(end) - Number(start);
  // The step limit stops a huge range long before it could be counted out, so a double count is enough.
  const count = span < 0 || Number.isNaN(span) ? 0 : Math.floor(span) + 1;
  if (typeof start === 'bigint') return { count, at: (i) => start + BigInt(i) };
  return { count, at: (i) => start + i };
}

function execFor(step: Extract<Step, { kind: 'for' }>, scope: Scope, event: EntryEvent | undefined): Outcome {
  const loop = step.loop;
  const items = loopItems(loop, scope);
  const body = new Scope(scope, scope.frame);
  const run = (it: LoopItems): Outcome => {
    if (event !== undefined) event.expectedIterations = it.count;
    let r: Outcome;
    try {
      r = iterate(loop, it, 0, body, event);
    } catch (e) {
      body.release();
      throw e;
    }
    if (isPromise<Completion>(r)) {
      return r.then(
        (c) => {
          body.release();
          return c;
        },
        (e: unknown) => {
          body.release();
          throw e;
        },
      );
    }
    body.release();
    return r;
  };
  return isPromise<LoopItems>(items) ? items.then(run) : run(items);
}

function iterate(loop: ForSpec, items: LoopItems, from: number, body: Scope, event: EntryEvent | undefined): Outcome {
  for (let i = from; i < items.count; i++) {
    body.declare(loop.value, items.at(i));
    if (loop.index !== undefined) body.declare(loop.index, BigInt(i));
    const c = event === undefined ? runList(loop.steps, 0, body) : runIteration(loop, i, items.count, body, event);
    if (isPromise<Completion>(c)) return iterateAsync(loop, items, i, body, c, event);
    const r = afterIteration(c);
    if (r !== NEXT) return r;
  }
  return undefined;
}

/** The rest of {@link iterate} once iteration `i` waits: one async function for the rest of the loop. */
async function iterateAsync(
  loop: ForSpec,
  items: LoopItems,
  i: number,
  body: Scope,
  pending: Promise<Completion>,
  event: EntryEvent | undefined,
): Promise<Completion> {
  let r = afterIteration(await pending);
  if (r !== NEXT) return r;
  for (i++; i < items.count; i++) {
    body.declare(loop.value, items.at(i));
    if (loop.index !== undefined) body.declare(loop.index, BigInt(i));
    const c = event === undefined ? runList(loop.steps, 0, body) : runIteration(loop, i, items.count, body, event);
    r = afterIteration(isPromise<Completion>(c) ? await c : c);
    if (r !== NEXT) return r;
  }
  return undefined;
}

/** Runs iteration `i` (0-based) of a loop in its STEP_FOR_ITERATION entry. */
function runIteration(loop: ForSpec, i: number, count: number, body: Scope, loopEvent: EntryEvent): Outcome {
  const event = new EntryEvent(loopEvent.step, 'STEP_FOR_ITERATION', loopEvent.pos, body);
  event.iteration = i + 1;
  event.expectedIterations = count;
  return observe(body.frame, event, () => runList(loop.steps, 0, body));
}

const NEXT = Symbol('next iteration');

function afterIteration(c: Completion): Completion | typeof NEXT {
  if (c === undefined || c.kind === 'continue') return NEXT;
  if (c.kind === 'break') return undefined;
  return c;
}
