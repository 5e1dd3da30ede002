/**
 * The `for` step (docs/language.md#jumps-loops-and-scopes; Google's loop-scope sample): the values a loop
 * runs over (`in` a list, or `range` [start, end]) and its iterations, in one scope for all of them. The loop
 * body's step list runs through the interpreter the execution was given (`Execution.engine.runList`).
 */
import { typeError } from '../lang/errors.ts';
import type { ForSpec, Step } from '../lang/definition/ast.ts';
import { isList, isMap, typeName, type Value } from '../lang/value.ts';
import { isPromise, then, type Completion, type Outcome } from './completion.ts';
import { evalTemplate } from './eval-template.ts';
import { EntryEvent, observe } from './observe.ts';
import { Scope } from './scope.ts';

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

/** Runs a for step; `event` is its entry when an observer is attached. @internal */
export function execFor(step: Extract<Step, { kind: 'for' }>, scope: Scope, event: EntryEvent | undefined): Outcome {
  const loop = step.loop;
  const items = loopItems(loop, scope);
  const body = new Scope(scope, scope.frame);
  const run = (it: LoopItems): Outcome => {
    if (event !== undefined) event.expectedIterations = it.count;
    return body.releasing(() => iterate(loop, it, 0, body, event));
  };
  return isPromise<LoopItems>(items) ? items.then(run) : run(items);
}

function iterate(loop: ForSpec, items: LoopItems, from: number, body: Scope, event: EntryEvent | undefined): Outcome {
  for (let i = from; i < items.count; i++) {
    const c = startIteration(loop, items, i, body, event);
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
    const c = startIteration(loop, items, i, body, event);
    r = afterIteration(isPromise<Completion>(c) ? await c : c);
    if (r !== NEXT) return r;
  }
  return undefined;
}

/**
 * Declares the loop variables of iteration `i` (0-based: the value, and the index when the loop names one) in
 * `scope`. Also the first thing each iteration of a parallel for does, in its branch scope. @internal
 */
export function declareLoopVars(loop: ForSpec, items: LoopItems, i: number, scope: Scope): void {
  scope.declare(loop.value, items.at(i));
  if (loop.index !== undefined) scope.declare(loop.index, BigInt(i));
}

/** Starts iteration `i` of a loop (both {@link iterate} and its async rest): its variables, then its body. */
function startIteration(loop: ForSpec, items: LoopItems, i: number, body: Scope, event: EntryEvent | undefined): Outcome {
  declareLoopVars(loop, items, i, body);
  if (event === undefined) return body.frame.exec.engine.runList(loop.steps, 0, body);
  return runIteration(loop, i, items.count, body, event);
}

/** Runs iteration `i` (0-based) of a loop in its STEP_FOR_ITERATION entry. */
function runIteration(loop: ForSpec, i: number, count: number, body: Scope, loopEvent: EntryEvent): Outcome {
  const event = new EntryEvent(loopEvent.step, 'STEP_FOR_ITERATION', loopEvent.pos, body, i + 1, count);
  return observe(body.frame, event, body.frame.exec.engine.runList, loop.steps, 0, body);
}

const NEXT = Symbol('next iteration');

function afterIteration(c: Completion): Completion | typeof NEXT {
  if (c === undefined || c.kind === 'continue') return NEXT;
  if (c.kind === 'break') return undefined;
  return c;
}
