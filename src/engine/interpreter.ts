/**
 * The step interpreter (docs/language.md#step-types; docs/api-resources.md#states-and-transitions: error
 * propagation order).
 *
 * It runs synchronously until something actually waits, then continues asynchronously ("sync until async"):
 * every function here returns its outcome directly, or a promise only when a step below it returned one (a
 * blocking stdlib call such as http.get or sys.sleep, a callback wait, a retry backoff, a parallel step). So a
 * plain assign, switch or loop iteration costs no promise and no microtask. The one exception: after a few
 * milliseconds of steps without a wait, a step list pauses for a turn of the event loop (scope.ts
 * `Execution.shouldPause`), so a long computation never holds the API, the UI or other executions.
 *
 * Control flow travels as a {@link Completion}: `undefined` (go on to the step's `next` or the following
 * step), a {@link JumpTarget} (a named step `depth` step lists up, `end`, `break`, `continue`), or a return
 * with its value. Errors travel as thrown {@link WorkflowError}s (or rejected promises); the step that first
 * sees an error stamps its name on it (`error.context` = `step: <name>`). A cancellation reason (the abort
 * signal's) is never caught by `try`: it passes through untouched.
 *
 * This module runs step lists and workflows and dispatches each step by kind; the kinds live in their own
 * modules (assign.ts, calls.ts for `call`, loop.ts for `for`, parallel.ts, try.ts for `try`), `switch` here.
 * Those that run nested step lists or workflows reach {@link runList} and {@link runBody} through the
 * execution's {@link ENGINE} rather than by importing this module, so the engine's imports form no cycle.
 */
import { WorkflowError, typeError } from '../lang/errors.ts';
import type { Step, StepList, WorkflowDef } from '../lang/definition/ast.ts';
import { JsonEncodeError, toJson } from '../lang/json.ts';
import { checkValue } from '../lang/size-checks.ts';
import { typeName, type Value } from '../lang/value.ts';
import { execAssign } from './assign.ts';
import { callFunction, execCall } from './calls.ts';
import { isPromise, type Completion, type Outcome } from './completion.ts';
import { evalTemplate } from './eval-template.ts';
import { execFor } from './loop.ts';
import { EntryEvent, observe, stepTypeOf } from './observe.ts';
import { execParallel } from './parallel.ts';
import { execTry } from './try.ts';
import type { Engine, Scope } from './scope.ts';

// ---------------------------------------------------------------------------------------------------------
// Workflows and step lists

/**
 * Runs a workflow (`main` or a subworkflow) in its fresh root `scope`: declares its params from `args`
 * (positional, already bound), runs its steps, and returns the returned value (null when it ends without one,
 * by `next: end` or by running off its last step). The scope is released however it ends.
 * @internal
 */
export function runBody(wf: WorkflowDef, scope: Scope, args: readonly Value[]): Value | Promise<Value> {
  const r = scope.releasing(() => {
    for (let i = 0; i < wf.params.length; i++) scope.declare(wf.params[i]!.name, args[i] ?? null);
    return runList(wf.steps, 0, scope);
  });
  return isPromise<Completion>(r) ? r.then(resultOf) : resultOf(r);
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
  let i = start;
  let entry = into !== undefined && into.length > 0 ? into : undefined;
  while (i < steps.length) {
    const step = steps[i]!;
    const c = runStep(step, entry, scope);
    if (isPromise<Completion>(c)) return runListAsync(list, i, scope, c);
    // A long run of steps that never wait gives the event loop a turn every few milliseconds.
    if ((scope.frame.exec.steps & 31) === 0 && scope.frame.exec.shouldPause()) return pauseList(list, i, scope, c);
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

/** The rest of {@link runList} after a pause for the event loop (kept out of the hot loop). */
function pauseList(list: StepList, i: number, scope: Scope, c: Completion): Promise<Completion> {
  return runListAsync(list, i, scope, scope.frame.exec.pause(c));
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
  let step = steps[i]!;
  let c: Completion;
  let r: Outcome = pending;
  for (;;) {
    // Awaited here, not in a helper: a waiting list holds one async function and one promise, no more.
    try {
      c = isPromise<Completion>(r) ? await r : r;
    } catch (e) {
      throw stamp(e, step, scope);
    }
    const next = follow(step, c, i);
    let entry: readonly number[] | undefined;
    if (typeof next === 'number') i = next;
    else if (next !== undefined && next.kind === 'enter') {
      i = next.index;
      entry = next.into;
    } else return next;
    if (i >= steps.length) return undefined;
    step = steps[i]!;
    r = runStep(step, entry, scope);
    // A long run of steps that never wait gives the event loop a turn every few milliseconds.
    if (!isPromise<Completion>(r) && (scope.frame.exec.steps & 31) === 0 && scope.frame.exec.shouldPause()) {
      r = scope.frame.exec.pause(r);
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
 * Starts one step of a list (both {@link runList} and its async rest): stops at once when the execution is
 * cancelled, counts the step against the limit, runs it (entering a nested block when `into` says so; with
 * its hooks when any are attached), and stamps the step's name on an error it raises.
 */
function runStep(step: Step, into: readonly number[] | undefined, scope: Scope): Outcome {
  const frame = scope.frame;
  // Cancellation: nothing runs after the signal fires, not even a step that would not wait.
  if (frame.signal.aborted) throw frame.signal.reason;
  try {
    frame.exec.countStep();
    if (into !== undefined) return enter(step, into, scope);
    return frame.exec.hooked ? execStepHooked(step, scope) : execStep(step, scope);
  } catch (e) {
    throw stamp(e, step, scope);
  }
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
  return observe(frame, event, frame.exec.gate === undefined ? execStep : gatedStep, step, scope, event);
}

/**
 * Runs one step under a debugger's gate (hooks.ts `StepGate`, docs/debugging.md): holds it while the gate
 * says so, then runs it, and shows the gate an error the step raises before it travels on. Reached only
 * with a gate attached; the plain and observed paths never come here.
 */
function gatedStep(step: Step, scope: Scope, event?: EntryEvent): Outcome {
  const entry = scope.frame.entry;
  const held = scope.frame.exec.gate!.before(event!, entry);
  if (isPromise<void>(held)) return held.then(() => runGated(step, scope, event!, entry));
  return runGated(step, scope, event!, entry);
}

/** The gated step's run: its error shown to the gate (and held while the gate says so), then rethrown. */
function runGated(step: Step, scope: Scope, event: EntryEvent, entry: unknown): Outcome {
  let r: Outcome;
  try {
    r = execStep(step, scope, event);
  } catch (e) {
    return raisedAt(e, scope, event, entry);
  }
  return isPromise<Completion>(r) ? r.catch((e: unknown) => raisedAt(e, scope, event, entry)) : r;
}

function raisedAt(e: unknown, scope: Scope, event: EntryEvent, entry: unknown): Promise<never> {
  if (scope.frame.signal.aborted && !(e instanceof WorkflowError)) throw e;
  const held = scope.frame.exec.gate!.raised(event, entry, e);
  if (isPromise<void>(held)) {
    return held.then(() => {
      throw e;
    });
  }
  throw e;
}

/**
 * Runs one step. `event` is the step's entry when an observer is attached (a loop fills in its expected
 * iterations and brackets each iteration). @internal
 */
function execStep(step: Step, scope: Scope, event?: EntryEvent): Outcome {
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
          throw WorkflowError.raised(checkValue('raise', x));
        });
      }
      // The raised value is shown, logged and stored as JSON: it is held to the value limits like any other.
      throw WorkflowError.raised(checkValue('raise', v));
    }
    case 'return': {
      if (step.value === undefined) return { kind: 'return', value: null };
      const v = evalTemplate(step.value, scope);
      if (isPromise<Value>(v)) return v.then((x): Completion => ({ kind: 'return', value: checkResult(x, scope) }));
      return { kind: 'return', value: checkResult(v, scope) };
    }
    case 'steps':
      return runList(step.steps, 0, scope);
    case 'jump':
      return undefined;
  }
}


/**
 * The value a `return` of `main` itself (not of a subworkflow or a parallel branch) hands back as the
 * execution's result: it must be writable as JSON, or the return step fails with a TypeError, so the error
 * names that step (docs/language.md#data-types).
 */
function checkResult(v: Value, scope: Scope): Value {
  const frame = scope.frame;
  if (frame.callDepth !== 0 || frame.parallelDepth !== 0) return v;
  if (v === null || (typeof v !== 'object' && (typeof v !== 'number' || Number.isFinite(v)))) return v;
  try {
    toJson(v);
  } catch (e) {
    if (!(e instanceof JsonEncodeError)) throw e;
    throw WorkflowError.of('TypeError', `the result cannot be encoded as JSON: ${e.message}`);
  }
  return v;
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
    return observe(scope.frame, event, runCaseBody, step, i, scope);
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

/**
 * The interpreter's entry points, handed to each execution (scope.ts {@link Engine}) so the step kinds that
 * run nested step lists or workflows (loops, parallel, try, calls) reach them without importing this module.
 * @internal
 */
export const ENGINE: Engine = { runList, runBody, callFunction };
