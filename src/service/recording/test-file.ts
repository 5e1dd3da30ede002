/**
 * Test files of `workflows-emulator test` (docs/testing.md#the-test-command): `*.test.yaml` / `*.test.json` files that
 * name a workflow, optional mocks, and cases with an argument and expectations. This module reads one file
 * into a {@link TestFile}, checking every key, so a test file that is itself invalid is reported with file,
 * line and column ({@link TestFileError}) and never runs as a pass. The `test` command reads test files with it,
 * and so does the control API's replay of a saved case (docs/recording.md#replaying-a-saved-case), so a
 * recording sent to the server is checked as `test` checks it.
 *
 * Shape (YAML shown; JSON is the same tree):
 * ```yaml
 * workflow: ../workflows/order-saga.yaml   # required: relative to this file
 * mocks: ./mocks/shop.yaml                 # optional: a mock file (relative) or an inline mock map
 * env: {NAME: value}                       # optional: user env vars for every case
 * project: my-project                      # optional: CLOUD_PROJECT_ID (default my-project)
 * location: us-central1                    # optional: CLOUD_LOCATION (default us-central1)
 * compat: google                           # optional: spec (default) or google (docs/compat.md)
 * cases:                                   # required, at least one
 *   - name: ships an order                 # required, unique in the file
 *     argument: {orderId: ord-1}           # optional: the execution argument (default: none)
 *     mocks: {...}                         # optional, inline, laid over the file's mocks
 *     callbacks: [{body: {approved: true}}]  # optional: delivered in order as the workflow awaits callbacks
 *     env: {NAME: value}                   # optional, laid over the file's env
 *     routine: total                       # optional: run this subworkflow instead of main
 *     args: {items: [], tax: 0.2}          # optional, with routine: its parameters by name
 *     skip: true                           # optional: true or a reason; the case is reported as skipped
 *     only: true                           # optional: when any case of the run has it, only those run
 *     timeout: 30                          # optional: seconds of wall time before the case fails (default 30)
 *     playback: {times: [1764111111000.5], uuids: [...], callbacks: [URL]}  # optional: what sys.now (ms),
 *                                          # uuid.generate and events.create_callback_endpoint give first
 *     expect:                              # optional (default: the execution succeeds)
 *       result: {status: SHIPPED}          # the result equals this (ints and doubles distinct)
 *       error: {tags: [HttpError]}         # or: the execution fails with an error containing this map
 *       steps: [reserve, charge]           # these steps ran, in this order (a subsequence)
 *       calls: [{method: POST, url: ...}]  # these outbound calls were made, in order (each a subset)
 *       logs: ["started", {level: 2}]      # these sys.log payloads were written, in order (string: exact text)
 *       callbacks: 1                       # exactly this many callback endpoints were created
 * ```
 */
import type { SourcePos } from '../../lang/definition/ast.ts';
import { DefinitionError } from '../../lang/definition/errors.ts';
import { loadSource, type LoadedSource, type SMap, type SNode } from '../../lang/definition/load.ts';
import { INT_MAX, INT_MIN, type Value, type WMap } from '../../lang/value.ts';
import { MockFileError, mocksFromNode, type MockSet } from '../../mocks/mock-file.ts';
import { parseCompat, type Compat } from '../../lang/compat.ts';
import type { PlaybackValues } from './recording.ts';

/** A problem in a test file: where it is and what it is. The message reads `file:line:col: problem`. */
export class TestFileError extends Error {
  constructor(
    readonly file: string,
    readonly pos: SourcePos | undefined,
    readonly reason: string,
  ) {
    super(`${file}${pos ? `:${pos.line}:${pos.col}` : ''}: ${reason}`);
    this.name = 'TestFileError';
  }
}

/** A value of the test file with where it is written (for messages). */
export interface Located<T> {
  readonly value: T;
  readonly pos: SourcePos;
}

/** One callback request a case delivers, in order, each time the workflow awaits a callback. */
export interface CallbackDelivery {
  /** The request body (a JSON value; a string is sent as text). Default: none. */
  readonly body?: Value;
  /** The HTTP method (default: the callback's own method). */
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
}

/** What a case expects; every field optional (none: the execution succeeds). */
export interface Expectations {
  readonly result?: Located<Value>;
  readonly error?: Located<Value>;
  readonly steps?: Located<readonly string[]>;
  readonly calls?: Located<readonly WMap[]>;
  readonly logs?: Located<readonly Value[]>;
  readonly callbacks?: Located<number>;
}

/** One case of a test file. */
export interface TestCase {
  readonly name: string;
  readonly pos: SourcePos;
  /** The execution argument; undefined when the case gives none (or when it calls a routine). */
  readonly argument?: Value;
  /**
   * The subworkflow the case runs instead of `main`, with where it is written, and its parameters by name
   * (`args`, or `argument` as a map): docs/testing.md#calling-one-subworkflow.
   */
  readonly routine?: Located<string>;
  readonly args?: WMap;
  /** Inline mocks laid over the file's. */
  readonly mocks?: MockSet;
  readonly callbacks: readonly CallbackDelivery[];
  readonly env: Readonly<Record<string, string>>;
  /** A reason when the case is skipped (`skip: true` gives "skipped"). */
  readonly skip?: string;
  readonly only: boolean;
  /** Wall-time limit of the case, seconds. */
  readonly timeoutSec: number;
  /** Times (ms since the epoch) and UUIDs the execution reads first, in order (a recorded run's: docs/recording.md). */
  readonly playback?: PlaybackValues;
  readonly expect: Expectations;
}

/** A test file, read and checked. Paths are as written (relative to the test file's directory). */
export interface TestFile {
  readonly file: string;
  readonly workflow: Located<string>;
  /** A mock file path (relative to the test file, with where it is written) or inline mocks, when given. */
  readonly mocks?: Located<string> | MockSet;
  readonly env: Readonly<Record<string, string>>;
  /** CLOUD_PROJECT_ID and CLOUD_LOCATION of its executions, when the file sets them. */
  readonly project?: string;
  readonly location?: string;
  /** `google`: the workflow is read and run with Google's behaviour where it and the spec differ. */
  readonly compat?: Compat;
  readonly cases: readonly TestCase[];
}

/** Largest test file read, in UTF-8 bytes (workflow sources have their own 128 KB limit). */
const MAX_TEST_FILE_BYTES = 8 * 1024 * 1024;

/** Default wall-time limit of a case, seconds. */
export const DEFAULT_CASE_TIMEOUT_SEC = 30;

const FILE_KEYS = new Set(['workflow', 'mocks', 'env', 'project', 'location', 'compat', 'cases']);
const CASE_KEYS = new Set(['name', 'argument', 'routine', 'args', 'mocks', 'callbacks', 'env', 'skip', 'only', 'timeout', 'playback', 'expect']);
const PLAYBACK_KEYS = new Set(['times', 'uuids', 'callbacks']);
const EXPECT_KEYS = new Set(['result', 'error', 'steps', 'calls', 'logs', 'callbacks']);
const CALLBACK_KEYS = new Set(['body', 'method', 'headers', 'query']);

/**
 * The keys a test file may have, by where they are written (any other is refused at its line and column); the
 * JSON Schema of test files (schemas/test.schema.json, docs/editor.md) declares the same ones.
 */
export const TEST_FILE_KEYS: {
  readonly file: ReadonlySet<string>;
  readonly case: ReadonlySet<string>;
  readonly playback: ReadonlySet<string>;
  readonly expect: ReadonlySet<string>;
  readonly callback: ReadonlySet<string>;
} = { file: FILE_KEYS, case: CASE_KEYS, playback: PLAYBACK_KEYS, expect: EXPECT_KEYS, callback: CALLBACK_KEYS };

/**
 * Reads a test file's text. `file` names it in messages; `format` defaults from its extension.
 * @throws TestFileError for a YAML/JSON syntax error, a missing or unknown key, or a value of the wrong type.
 */
export function parseTestFile(file: string, text: string): TestFile {
  let loaded: LoadedSource;
  try {
    loaded = loadSource(text, file.endsWith('.json') ? 'json' : 'yaml', MAX_TEST_FILE_BYTES);
  } catch (e) {
    if (e instanceof DefinitionError) {
      const pos = e.line !== undefined ? { line: e.line, col: e.col ?? 1 } : undefined;
      throw new TestFileError(file, pos, e.reason);
    }
    throw e;
  }
  const r = new Reader(file, loaded);
  const root = r.map(loaded.root, 'a test file');
  r.keys(root, FILE_KEYS, 'test file');
  const workflowNode = r.required(root, 'workflow', loaded.root);
  const workflow = { value: r.string(workflowNode, 'workflow'), pos: r.pos(workflowNode) };
  const mocksNode = r.get(root, 'mocks');
  const env = r.env(r.get(root, 'env'));
  const projectNode = r.get(root, 'project');
  const locationNode = r.get(root, 'location');
  const compatNode = r.get(root, 'compat');
  const compat = compatNode ? parseCompat(r.string(compatNode, 'compat')) : 'spec';
  if (compat === undefined) r.fail(compatNode!, "'compat' must be spec or google");
  const casesNode = r.required(root, 'cases', loaded.root);
  if (casesNode.kind !== 'seq' || casesNode.items.length === 0) return r.fail(casesNode, "'cases' must be a non-empty list of cases");
  const names = new Set<string>();
  const cases = casesNode.items.map((n) => {
    const c = r.testCase(n, env);
    if (names.has(c.name)) r.fail(n, `two cases are named ${JSON.stringify(c.name)}`);
    names.add(c.name);
    return c;
  });
  return {
    file,
    workflow,
    ...(mocksNode ? { mocks: r.mocks(mocksNode) } : {}),
    env,
    ...(projectNode ? { project: r.string(projectNode, 'project') } : {}),
    ...(locationNode ? { location: r.string(locationNode, 'location') } : {}),
    ...(compat === 'google' ? { compat } : {}),
    cases,
  };
}

/** Walks the loaded tree with positions; every check fails with a {@link TestFileError}. */
class Reader {
  constructor(
    private readonly file: string,
    private readonly loaded: LoadedSource,
  ) {}

  pos(n: SNode): SourcePos {
    return this.loaded.posAt(n.offset);
  }

  fail(n: SNode, reason: string): never {
    throw new TestFileError(this.file, this.pos(n), reason);
  }

  map(n: SNode, what: string): SMap {
    if (n.kind !== 'map') this.fail(n, `${what} must be a map`);
    return n;
  }

  get(m: SMap, key: string): SNode | undefined {
    return m.entries.find((e) => e.key === key)?.value;
  }

  required(m: SMap, key: string, at: SNode): SNode {
    const v = this.get(m, key);
    if (v === undefined) this.fail(at, `missing required key '${key}'`);
    return v;
  }

  keys(m: SMap, allowed: ReadonlySet<string>, what: string): void {
    for (const e of m.entries) {
      if (!allowed.has(e.key)) {
        throw new TestFileError(
          this.file,
          this.pos(e.keyNode),
          `unknown key '${e.key}' in ${what} (expected one of: ${[...allowed].join(', ')})`,
        );
      }
    }
  }

  string(n: SNode, what: string): string {
    if (n.kind !== 'scalar' || typeof n.value !== 'string' || n.value === '') this.fail(n, `'${what}' must be a non-empty string`);
    return n.value;
  }

  env(n: SNode | undefined, base: Readonly<Record<string, string>> = {}): Readonly<Record<string, string>> {
    if (!n) return base;
    const m = this.map(n, "'env'");
    const out: Record<string, string> = Object.create(null);
    Object.assign(out, base);
    for (const e of m.entries) {
      const v = e.value;
      if (v.kind !== 'scalar' || v.value === null || typeof v.value === 'boolean') {
        this.fail(v, `env variable '${e.key}' must be a string or a number`);
      }
      out[e.key] = String(v.value);
    }
    return out;
  }

  mocks(n: SNode): Located<string> | MockSet {
    if (n.kind === 'scalar' && typeof n.value === 'string' && n.value !== '') return { value: n.value, pos: this.pos(n) };
    if (n.kind !== 'map') this.fail(n, "'mocks' must be a mock file path or a map of mocks");
    return this.inlineMocks(n);
  }

  /** Inline mocks, read by the mock reader with this file's positions. */
  inlineMocks(n: SNode): MockSet {
    try {
      return mocksFromNode(n, this.file, (o) => this.loaded.posAt(o));
    } catch (e) {
      if (e instanceof MockFileError) throw new TestFileError(this.file, { line: e.line, col: e.col }, e.reason);
      throw e;
    }
  }

  testCase(n: SNode, fileEnv: Readonly<Record<string, string>>): TestCase {
    const m = this.map(n, 'a case');
    this.keys(m, CASE_KEYS, 'a case');
    const name = this.string(this.required(m, 'name', n), 'name');
    const argNode = this.get(m, 'argument');
    const mocksNode = this.get(m, 'mocks');
    if (mocksNode && mocksNode.kind !== 'map') this.fail(mocksNode, "a case's 'mocks' must be an inline map of mocks");
    const skipNode = this.get(m, 'skip');
    let skip: string | undefined;
    if (skipNode) {
      if (skipNode.kind === 'scalar' && typeof skipNode.value === 'boolean') skip = skipNode.value ? 'skipped' : undefined;
      else skip = this.string(skipNode, 'skip');
    }
    const onlyNode = this.get(m, 'only');
    if (onlyNode && !(onlyNode.kind === 'scalar' && typeof onlyNode.value === 'boolean')) this.fail(onlyNode, "'only' must be true or false");
    const timeoutNode = this.get(m, 'timeout');
    let timeoutSec = DEFAULT_CASE_TIMEOUT_SEC;
    if (timeoutNode) {
      const v = timeoutNode.kind === 'scalar' ? timeoutNode.value : undefined;
      const t = typeof v === 'bigint' ? Number(v) : v;
      if (typeof t !== 'number' || !(t > 0) || t > 3600) this.fail(timeoutNode, "'timeout' must be a number of seconds from 1 to 3600");
      timeoutSec = t;
    }
    const expectNode = this.get(m, 'expect');
    const playbackNode = this.get(m, 'playback');
    return {
      name,
      pos: this.pos(n),
      ...this.entry(m, argNode),
      ...(mocksNode ? { mocks: this.inlineMocks(mocksNode) } : {}),
      callbacks: this.callbacks(this.get(m, 'callbacks')),
      env: this.env(this.get(m, 'env'), fileEnv),
      ...(skip !== undefined ? { skip } : {}),
      only: onlyNode?.kind === 'scalar' && onlyNode.value === true,
      timeoutSec,
      ...(playbackNode ? { playback: this.playback(playbackNode) } : {}),
      expect: expectNode ? this.expect(expectNode) : {},
    };
  }

  /**
   * The case's entry: `argument` for main, or `routine` with its parameters by name (`args`, or `argument`
   * as a map, as the call step's `args`).
   */
  entry(m: SMap, argNode: SNode | undefined): { argument?: Value; routine?: Located<string>; args?: WMap } {
    const routineNode = this.get(m, 'routine');
    const argsNode = this.get(m, 'args');
    if (!routineNode) {
      if (argsNode) this.fail(argsNode, "'args' goes with 'routine' (the subworkflow's parameters); give main's argument as 'argument'");
      return argNode ? { argument: toValue(argNode) } : {};
    }
    const routine = { value: this.string(routineNode, 'routine'), pos: this.pos(routineNode) };
    if (argsNode && argNode) this.fail(argNode, "give the routine's parameters as 'args' or as 'argument', not both");
    const params = argsNode ?? argNode;
    if (!params) return { routine };
    if (params.kind !== 'map') this.fail(params, `the parameters of routine '${routine.value}' must be a map of parameter names to values`);
    return { routine, args: toValue(params) as WMap };
  }

  playback(n: SNode): PlaybackValues {
    const m = this.map(n, "'playback'");
    this.keys(m, PLAYBACK_KEYS, "'playback'");
    const list = (key: string): readonly SNode[] => {
      const v = this.get(m, key);
      if (v && v.kind !== 'seq') this.fail(v, `'playback.${key}' must be a list`);
      return v ? v.items : [];
    };
    return {
      times: list('times').map((t) => {
        const v = t.kind === 'scalar' ? t.value : undefined;
        const x = typeof v === 'bigint' ? Number(v) : v;
        if (typeof x !== 'number' || !Number.isFinite(x) || x < 0) this.fail(t, "'playback.times' holds milliseconds since the epoch (numbers of 0 or more)");
        return x;
      }),
      uuids: list('uuids').map((u) => this.string(u, 'playback.uuids[]')),
      callbacks: list('callbacks').map((u) => {
        const url = this.string(u, 'playback.callbacks[]');
        if (!/^https?:\/\/[^/]+\/callbacks\/[0-9A-Za-z_-]+$/.test(url)) this.fail(u, "'playback.callbacks' holds callback URLs (http://host/callbacks/ID)");
        return url;
      }),
    };
  }

  callbacks(n: SNode | undefined): CallbackDelivery[] {
    if (!n) return [];
    if (n.kind !== 'seq') this.fail(n, "'callbacks' must be a list of requests ({body, method, headers, query})");
    return n.items.map((item) => {
      const m = this.map(item, 'a callback request');
      this.keys(m, CALLBACK_KEYS, 'a callback request');
      const body = this.get(m, 'body');
      const method = this.get(m, 'method');
      const headers = this.get(m, 'headers');
      const query = this.get(m, 'query');
      return {
        ...(body ? { body: toValue(body) } : {}),
        ...(method ? { method: this.string(method, 'method').toUpperCase() } : {}),
        ...(headers ? { headers: this.env(headers) } : {}),
        ...(query ? { query: this.env(query) } : {}),
      };
    });
  }

  expect(n: SNode): Expectations {
    const m = this.map(n, "'expect'");
    this.keys(m, EXPECT_KEYS, "'expect'");
    const at = <T>(key: string, f: (v: SNode) => T): { [k: string]: Located<T> } => {
      const v = this.get(m, key);
      return v ? { [key]: { value: f(v), pos: this.pos(v) } } : {};
    };
    const result = this.get(m, 'result');
    const error = this.get(m, 'error');
    if (result && error) this.fail(error, "'expect' takes 'result' or 'error', not both");
    if (error && error.kind !== 'map') this.fail(error, "'error' must be a map (a subset of the error payload, e.g. {tags: [HttpError], code: 503})");
    return {
      ...at('result', toValue),
      ...at('error', toValue),
      ...at('steps', (v) => {
        if (v.kind !== 'seq') this.fail(v, "'steps' must be a list of step names");
        return v.items.map((s) => this.string(s, 'steps[]'));
      }),
      ...at('calls', (v) => {
        if (v.kind !== 'seq') this.fail(v, "'calls' must be a list of maps (e.g. {method: POST, url: ...})");
        return v.items.map((c) => toValue(this.map(c, 'an expected call')) as WMap);
      }),
      ...at('logs', (v) => {
        if (v.kind !== 'seq') this.fail(v, "'logs' must be a list of logged values");
        return v.items.map(toValue);
      }),
      ...at('callbacks', (v) => {
        const x = v.kind === 'scalar' ? v.value : undefined;
        if (typeof x !== 'bigint' || x < 0n) this.fail(v, "'callbacks' must be a whole number (callback endpoints created)");
        return Number(x);
      }),
    } as Expectations;
  }
}

/** A node of the test file as a workflow value (ints exact, ints and doubles distinct, maps ordered). */
export function toValue(n: SNode): Value {
  switch (n.kind) {
    case 'scalar': {
      const v = n.value;
      if (typeof v === 'bigint') return v >= INT_MIN && v <= INT_MAX ? v : Number(v);
      return v;
    }
    case 'seq':
      return n.items.map(toValue);
    case 'map': {
      const m: WMap = new Map();
      for (const e of n.entries) m.set(e.key, toValue(e.value));
      return m;
    }
  }
}
