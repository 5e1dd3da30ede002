/**
 * The assign step (spec "Workflow definition language": assign): each assignment in order, through target
 * paths (`a.b[i]`) with path copying, so values stay immutable.
 */
import { indexError, keyError, typeError } from '../lang/errors.ts';
import type { AssignTarget, Template } from '../lang/definition/ast.ts';
import { isList, isMap, typeName, type Value, type WMap } from '../lang/value.ts';
import { isPromise, type Outcome } from './completion.ts';
import { evalTemplate } from './eval-template.ts';
import type { Scope } from './scope.ts';

/** Runs an assign step's assignments from index `from`. @internal */
export function execAssign(
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
