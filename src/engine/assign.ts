/**
 * The assign step (docs/language.md#step-types: assign): each assignment in order, through target
 * paths (`a.b[i]`) with path copying, so values stay immutable to everyone who can see them. A container only
 * one variable holds (scope.ts `Execution.owned`) is changed in place instead, so filling a map key by key
 * (`m[key]: v`) or a list item by item (`l: ${list.concat(l, x)}`) costs O(1) per step, not O(size).
 */
import { indexError, keyError, typeError } from '../lang/errors.ts';
import type { AssignTarget, Assignment } from '../lang/definition/ast.ts';
import { checkValue } from '../lang/size-checks.ts';
import { isList, isMap, remeasure, sizeOf, typeName, type Value, type WMap } from '../lang/value.ts';
import { isPromise, type Outcome } from './completion.ts';
import { evalTemplate } from './eval-template.ts';
import type { Scope } from './scope.ts';

/** Runs an assign step's assignments from index `from`. @internal */
export function execAssign(
  assignments: readonly Assignment[],
  from: number,
  scope: Scope,
): Outcome {
  for (let i = from; i < assignments.length; i++) {
    const a = assignments[i]!;
    // The accumulator idiom, when nothing in it waits (the compiler marks only such ones; a definition
    // rebuilt with waiting expressions takes the general path).
    if (a.append !== undefined && !a.append.isAsync && a.value.kind === 'expr' && !a.value.expr.isAsync) {
      if (appendInPlace(scope, a)) continue;
      const v = a.value.expr.evaluate(scope);
      scope.assign(a.target.root, v);
      // list.concat built a fresh list that only this variable holds.
      if (isList(v)) scope.frame.exec.owned = v;
      continue;
    }
    const v = evalTemplate(a.value, scope);
    const done = isPromise<Value>(v) ? v.then((x) => assignTo(scope, a.target, x)) : assignTo(scope, a.target, v);
    if (isPromise<void>(done)) return done.then(() => execAssign(assignments, i + 1, scope));
  }
  return undefined;
}

/**
 * Assigns through a target path with path copying: the containers along the path are copied with the one
 * change, never mutated, so every other holder of the old value keeps it (values are immutable). Missing map
 * keys along the path are created as empty maps (docs/language.md#step-types: "creates the intermediate maps").
 *
 * @throws WorkflowError tagged KeyError when the root variable of a path is missing, IndexError for a list
 *   index out of range, TypeError when a segment does not fit the value (a key into a list, an index into a
 *   string...).
 * @internal
 */
function assignTo(scope: Scope, target: AssignTarget, value: Value): void | Promise<void> {
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
  const exec = scope.frame.exec;
  if (exec.owned !== undefined) {
    const slot = scope.slotOf(target.root);
    const held = slot?.vars.get(target.root);
    if (held !== undefined && held === exec.owned) {
      if (keys.length === 1 ? setInPlace(slot!, held, keys[0]!, value) : setNestedInPlace(slot!, held, keys, value)) return;
    }
  }
  const root = scope.lookup(target.root);
  if (root === undefined) throw keyError(`variable '${target.root}' is not defined (assigning ${target.text})`);
  const copy = withPath(root, keys, 0, value, target);
  scope.assign(target.root, copy);
  // The copy is fresh and only this variable holds it: the next assignment into it may change it in place,
  // and so may one into the containers along the path, which withPath built fresh as well.
  exec.owned = copy as object;
  exec.ownedInner = keys.length > 1 ? freshAlong(copy, keys) : undefined;
}

/** The containers strictly between the root `copy` and the value at the end of `keys` (withPath made them). */
function freshAlong(copy: Value, keys: readonly Value[]): Set<object> {
  const out = new Set<object>();
  let c: Value | undefined = copy;
  for (let i = 0; i < keys.length - 1 && c !== undefined; i++) {
    c = childOf(c, keys[i]!);
    if (c !== null && typeof c === 'object') out.add(c);
  }
  return out;
}

/** `container[key]` for a map and a string key or a list and an index in range; undefined otherwise. */
function childOf(container: Value, key: Value): Value | undefined {
  if (typeof key === 'string') return isMap(container) ? container.get(key) : undefined;
  if ((typeof key === 'bigint' || typeof key === 'number') && isList(container)) return container[Number(key)];
  return undefined;
}

/**
 * `root[k1]...[kn] = value` in place when every container along the path is one an earlier path assignment
 * built fresh inside the owned `root` (Execution.ownedInner): the leaf is set in place and the size of each
 * container above it is kept exact. Returns false, changing nothing, when any of them is not (the copying
 * path then runs, and raises any error).
 */
function setNestedInPlace(slot: Scope, root: Value, keys: readonly Value[], value: Value): boolean {
  const inner = slot.frame.exec.ownedInner;
  if (inner === undefined) return false;
  const chain: Value[] = [root];
  let c: Value = root;
  for (let i = 0; i < keys.length - 1; i++) {
    const child = childOf(c, keys[i]!);
    if (child === undefined || child === null || typeof child !== 'object' || !inner.has(child)) return false;
    chain.push(child);
    c = child;
  }
  const before = sizeOf(c);
  if (!setInPlace(slot, c, keys[keys.length - 1]!, value)) return false;
  const delta = sizeOf(c) - before;
  // The containers above the leaf's hold it unchanged in identity; their measure follows its size and depth.
  for (let i = chain.length - 2; i >= 0; i--) remeasure(chain[i] as Value[] | WMap, delta, chain[i + 1]!, undefined);
  return true;
}

/**
 * `container[key] = value` in place, for a container only the variable in `slot` holds (Execution.owned), with
 * the size bookkeeping done incrementally: O(1) where a copy is O(size) (docs/architecture.md#running-fairness-and-value-semantics). Returns false,
 * changing nothing, when the key does not fit the container (the copying path then raises the error).
 */
function setInPlace(slot: Scope, container: Value, key: Value, value: Value): boolean {
  let old: Value | undefined;
  let delta: number;
  if (typeof key === 'string' && isMap(container)) {
    old = container.get(key);
    delta = sizeOf(value) - (old === undefined ? -key.length : sizeOf(old));
    slot.grow(delta);
    remeasure(container, delta, value, old);
    container.set(key, value);
  } else if ((typeof key === 'bigint' || (typeof key === 'number' && Number.isInteger(key))) && isList(container)) {
    const n = Number(key);
    if (n < 0 || n >= container.length) return false;
    old = container[n]!;
    delta = sizeOf(value) - sizeOf(old);
    slot.grow(delta);
    remeasure(container, delta, value, old);
    container[n] = value;
  } else return false;
  return true;
}

/**
 * `l: ${list.concat(l, x)}` (Google's accumulator idiom) when the compiler marked it (`Assignment.append`):
 * appends `x` in place to a list only the variable holds, O(1) instead of a copy of the whole list. Returns
 * false, having done nothing, when the plain evaluation must run (the variable holds no list of its own).
 */
function appendInPlace(scope: Scope, a: Assignment): boolean {
  const exec = scope.frame.exec;
  const name = a.target.root;
  const slot = scope.slotOf(name);
  const list = slot?.vars.get(name);
  if (list === undefined || list !== exec.owned || !isList(list)) return false;
  const item = a.append!.evaluate(scope);
  if (exec.owned !== list) {
    // The element's expression read the list: someone may hold it now, so build a new one as list.concat does.
    const fresh = checkValue('list.concat', [...list, item]) as Value[];
    scope.assign(name, fresh);
    exec.owned = fresh;
    return true;
  }
  const delta = sizeOf(item);
  slot!.grow(delta);
  remeasure(list, delta, item, undefined);
  list.push(item);
  return true;
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
