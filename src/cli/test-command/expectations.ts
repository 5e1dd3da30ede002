/**
 * Checking a case's expectations against what an execution did (docs/testing.md#the-test-command: `expect`). Each check
 * gives the problems it found as readable lines, with a structural difference for values, so the report says
 * exactly what differs (`result.items[0].qty: expected 1 (int), got 1.0 (double)`).
 *
 * Equality is the workflow language's value equality made strict for tests: ints and doubles are different
 * values (`1` is not `1.0`), maps compare by keys whatever their order, lists element by element.
 * Subset matching (error payloads, calls, logged maps) is the mocks' `match` rule: a map matches when each
 * expected key is present and matches; a list when it has as many items and each matches; numbers by value.
 */
import { formatDouble, isList, isMap, typeName, type Value, type WMap } from '../../lang/value.ts';
import { toJson } from '../../lang/json.ts';
import { subsetMismatch } from '../../mocks/mock-session.ts';
import type { Expectations } from '../../service/recording/test-file.ts';

/** What an execution did, as the checks read it. */
export interface CaseOutcome {
  readonly state: 'SUCCEEDED' | 'FAILED' | 'CANCELLED';
  /** The result on SUCCEEDED. */
  readonly result?: Value;
  /** The error payload map on FAILED (`{message, code, tags, ...}`), and the failing step. */
  readonly error?: Value;
  readonly failedStep?: string;
  /** Names of the steps that ran, in the order they started. */
  readonly steps: readonly string[];
  /** Each outbound call as a map (`kind`, `method`, `url`, `name`, `args`, `body`, `response`, `mocked`, `step`, ...). */
  readonly calls: readonly WMap[];
  /** The payload of each sys.log call, in order. */
  readonly logs: readonly Value[];
  /** How many callback endpoints were created. */
  readonly callbacksCreated: number;
}

/** One failed expectation: which (`result`, `error`, `steps`, ...) and the lines that say why. */
export interface Mismatch {
  readonly expectation: string;
  readonly lines: readonly string[];
}

/** Checks every expectation of a case; an empty list means the case passed. */
export function checkExpectations(expect: Expectations, outcome: CaseOutcome): Mismatch[] {
  const out: Mismatch[] = [];
  const add = (expectation: string, lines: readonly string[]): void => {
    if (lines.length) out.push({ expectation, lines });
  };
  if (expect.error) {
    if (outcome.state !== 'FAILED') add('error', [`expected the execution to fail, but it ${describeEnd(outcome)}`]);
    else add('error', subsetDiff(expect.error.value, outcome.error ?? null, 'error'));
  } else if (outcome.state !== 'SUCCEEDED') {
    add('result', [`expected the execution to succeed, but it ${describeEnd(outcome)}`]);
  } else if (expect.result) {
    add('result', equalDiff(expect.result.value, outcome.result ?? null, 'result'));
  }
  if (expect.steps) add('steps', subsequence('step', expect.steps.value, outcome.steps, (e, a) => e === a, (s) => s));
  if (expect.calls) {
    add(
      'calls',
      subsequence('call', expect.calls.value, outcome.calls, (e, a) => subsetDiff(e, a, '').length === 0, showCall),
    );
  }
  if (expect.logs) {
    add(
      'logs',
      subsequence('log', expect.logs.value, outcome.logs, (e, a) => (typeof e === 'string' ? e === a : subsetDiff(e, a, '').length === 0), show),
    );
  }
  if (expect.callbacks && expect.callbacks.value !== outcome.callbacksCreated) {
    add('callbacks', [`expected ${expect.callbacks.value} callback endpoint(s) created, got ${outcome.callbacksCreated}`]);
  }
  return out;
}

function describeEnd(o: CaseOutcome): string {
  if (o.state === 'FAILED') {
    const e = o.error;
    const tags = isMap(e) && isList(e.get('tags')) ? (e.get('tags') as Value[]).map(String).join(', ') : '';
    const msg = isMap(e) ? String(e.get('message') ?? '') : show(e ?? null);
    return `failed${o.failedStep ? ` at step ${o.failedStep}` : ''}: ${tags ? `[${tags}] ` : ''}${msg}`;
  }
  if (o.state === 'CANCELLED') return 'was cancelled';
  return `succeeded with ${show(o.result ?? null)}`;
}

/** The differences between an expected and an actual value, one line per differing path. */
export function equalDiff(expected: Value, actual: Value, path: string, max = 20): string[] {
  const out: string[] = [];
  walkEqual(expected, actual, path, out, max);
  return out;
}

function walkEqual(e: Value, a: Value, path: string, out: string[], max: number): void {
  if (out.length >= max) return;
  const te = typeName(e);
  const ta = typeName(a);
  if (te !== ta) {
    out.push(`${path || 'value'}: expected ${show(e)} (${te}), got ${show(a)} (${ta})`);
    return;
  }
  if (isMap(e) && isMap(a)) {
    for (const [k, v] of e) {
      const w = a.get(k);
      if (w === undefined) out.push(`${join(path, k)}: expected ${show(v)}, but the key is missing`);
      else walkEqual(v, w, join(path, k), out, max);
    }
    for (const [k, w] of a) if (!e.has(k)) out.push(`${join(path, k)}: not expected, got ${show(w)}`);
    return;
  }
  if (isList(e) && isList(a)) {
    const n = Math.max(e.length, a.length);
    for (let i = 0; i < n; i++) {
      const p = `${path}[${i}]`;
      if (i >= a.length) out.push(`${p}: expected ${show(e[i]!)}, but the list has only ${a.length} item(s)`);
      else if (i >= e.length) out.push(`${p}: not expected, got ${show(a[i]!)} (the list has ${a.length} items, expected ${e.length})`);
      else walkEqual(e[i]!, a[i]!, p, out, max);
    }
    return;
  }
  if (!scalarEqual(e, a)) out.push(`${path || 'value'}: expected ${show(e)}, got ${show(a)}`);
}

function scalarEqual(e: Value, a: Value): boolean {
  if (typeof e === 'number' && typeof a === 'number') return e === a || (Number.isNaN(e) && Number.isNaN(a));
  if (e instanceof Uint8Array && a instanceof Uint8Array) return e.length === a.length && e.every((x, i) => x === a[i]);
  return e === a;
}

/**
 * The reasons `actual` does not contain `expected`: the mocks' subset match (src/mocks/mock-session.ts), the
 * one used for mock `match` rules too, so a map written in a mock and in an expectation means the same.
 */
export function subsetDiff(expected: Value, actual: Value, path: string): string[] {
  const m = subsetMismatch(expected, actual, path || 'value');
  return m === undefined ? [] : [m];
}

/**
 * Checks that `expected` is a subsequence of `actual` under `matches`; on failure says which expected item
 * was not found after the ones that were, and what actually happened.
 */
function subsequence<E, A>(
  what: string,
  expected: readonly E[],
  actual: readonly A[],
  matches: (e: E, a: A) => boolean,
  showItem: (x: A | E) => string,
): string[] {
  let j = 0;
  for (let i = 0; i < expected.length; i++) {
    const e = expected[i]!;
    while (j < actual.length && !matches(e, actual[j]!)) j++;
    if (j >= actual.length) {
      const seen = actual.length > 30 ? [...actual.slice(0, 30).map(showItem), `... (${actual.length} in all)`] : actual.map(showItem);
      return [
        `expected ${what} ${i + 1} of ${expected.length}, ${showItem(e)}, ${i > 0 ? 'after the ones before it, ' : ''}but it was not found`,
        `actual ${what}s: ${seen.length ? seen.join(', ') : '(none)'}`,
      ];
    }
    j++;
  }
  return [];
}

/** A recorded call in one line: `POST https://x/y → 503` or `googleapis.a.b.c → result`. */
function showCall(c: Value): string {
  if (!isMap(c)) return show(c);
  const outcome = (v: Value | undefined): Value | undefined => (isMap(v) ? v.get('code') : undefined);
  const code = outcome(c.get('response')) ?? outcome(c.get('error'));
  const end = c.has('error') ? `error${code !== undefined ? ` ${show(code)}` : ''}` : code !== undefined ? show(code) : 'ok';
  if (c.has('url')) return `${String(c.get('method') ?? '')} ${String(c.get('url'))} → ${end}`.trim();
  if (c.has('name') || c.has('kind')) return `${String(c.get('name') ?? c.get('kind'))} → ${end}`;
  return show(c);
}

function join(path: string, key: string): string {
  const k = /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : JSON.stringify(key);
  return path ? (k.startsWith('"') ? `${path}[${k}]` : `${path}.${k}`) : k;
}

/** A value as short JSON-like text for messages (doubles keep `.0`; bytes as `b"..."`; long text cut). */
export function show(v: Value): string {
  let s: string;
  if (typeof v === 'number') s = formatDouble(v);
  else if (v instanceof Uint8Array) s = `bytes(${v.length})`;
  else {
    try {
      s = toJson(v);
    } catch {
      s = String(v);
    }
  }
  return s.length > 200 ? s.slice(0, 197) + '...' : s;
}
