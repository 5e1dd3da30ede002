/**
 * A run becomes a test (docs/recording.md): an execution's recording turned into a case of a `*.test.yaml`
 * file (docs/testing.md "The test command"), which the `test` command runs with no network. The case holds
 * the argument; mocks built from the recorded calls, matched on method, URL and body (a connector on its name
 * and args) as recorded, with one answer per call in order where the same request was answered differently,
 * and `unmatched: {http: error}` so nothing reaches the network; the callback requests as delivered; the
 * user environment variables the workflow read; the times it read and the UUIDs it drew (`playback`); and
 * `expect` from the outcome: the result or the error, and the steps when history was recorded.
 *
 * Written with the `yaml` package's Document API, so appending a case to an existing file keeps its comments
 * and formatting (https://eemeli.org/yaml/#documents).
 */
import { Document, isMap as isYamlMap, isSeq, Pair, parseDocument, Scalar, YAMLMap, YAMLSeq, type Node } from 'yaml';
import { parseJson, jsonSafe } from '../../lang/json.ts';
import { isMap, type Value, type WMap } from '../../lang/value.ts';
import type { CallRecord } from '../../mocks/call-log.ts';
import { executionEnv } from '../../stdlib/sys.ts';
import type { RecordedExecution } from '../model.ts';

/** Response headers a mock does not repeat: the transport's, which the emulator's fetch sets itself. */
const TRANSPORT_HEADERS = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'date', 'content-encoding']);
/** Callback request headers a case does not repeat (the delivering client's own: fetch and curl send them). */
const CALLBACK_TRANSPORT_HEADERS = new Set([...TRANSPORT_HEADERS, 'host', 'accept', 'accept-encoding', 'accept-language', 'user-agent', 'sec-fetch-mode']);
/** Keys an error map a connector mock raises may have (src/mocks/mock-file.ts). */
const RAISE_KEYS = ['tags', 'message', 'code', 'headers', 'body'];

/**
 * How test files are written: no line folding (long URLs and bodies stay on their line) and flow collections
 * without inner padding (`{n: 1}`, as the docs write them).
 */
export const YAML_OUTPUT = { lineWidth: 0, flowCollectionPadding: false } as const;

/** A problem turning an execution into a test case (an unreadable file, or one testing another workflow). */
export class TestCaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TestCaseError';
  }
}

/**
 * The case of one recorded execution as an ordered workflow map (ints and doubles distinct):
 * `{name, argument?, env?, mocks?, callbacks?, playback?, expect}`.
 * @param name the case's name (unique in its file: see {@link appendTestCase}).
 */
export function testCaseOf(rec: RecordedExecution, name: string): WMap {
  const c: WMap = new Map([['name', name]]);
  const ex = rec.execution;
  if (ex.argument !== undefined && ex.argument !== '') c.set('argument', parseJson(ex.argument));
  const env = userEnvRead(rec);
  if (env.size > 0) c.set('env', env);
  const mocks = mocksOf(rec.calls);
  c.set('mocks', mocks);
  const inputs = rec.inputs;
  if (inputs && inputs.callbacks.length > 0) {
    c.set('callbacks', inputs.callbacks.map((cb) => {
      const m: WMap = new Map<string, Value>([['method', cb.method]]);
      const headers = new Map<string, Value>(Object.entries(cb.headers).filter(([k]) => !CALLBACK_TRANSPORT_HEADERS.has(k)));
      if (headers.size > 0) m.set('headers', headers);
      if (Object.keys(cb.query).length > 0) m.set('query', new Map(Object.entries(cb.query)));
      if (cb.body !== undefined && cb.body !== null) m.set('body', jsonSafe(cb.body));
      return m;
    }));
  }
  const urls = (inputs?.callbacksCreated ?? []).map((c) => (isMap(c) ? c.get('url') : undefined)).filter((u): u is string => typeof u === 'string');
  if (inputs && (inputs.times.length > 0 || inputs.uuids.length > 0 || urls.length > 0)) {
    const p: WMap = new Map();
    if (inputs.times.length > 0) p.set('times', inputs.times.slice());
    if (inputs.uuids.length > 0) p.set('uuids', inputs.uuids.slice());
    if (urls.length > 0) p.set('callbacks', urls);
    c.set('playback', p);
  }
  const expect: WMap = new Map();
  if (ex.state === 'SUCCEEDED') expect.set('result', ex.result !== undefined ? parseJson(ex.result) : null);
  else if (ex.error) expect.set('error', parseJson(ex.error.payload));
  if (rec.steps) expect.set('steps', rec.steps.slice());
  c.set('expect', expect);
  return c;
}

/** The user environment variables the execution read that were set (built-in ones come from the run). */
function userEnvRead(rec: RecordedExecution): WMap {
  const builtIn = executionEnv({ project: 'p', location: 'l', workflowId: 'w', revisionId: 'r', executionId: 'e' });
  const out: WMap = new Map();
  for (const [k, v] of rec.inputs?.env ?? []) if (v !== null && !builtIn.has(k)) out.set(k, v);
  return out;
}

/** The mocks answering the recorded calls, one entry per distinct request, with its answers in order. */
export function mocksOf(calls: readonly CallRecord[]): WMap {
  const groups = new Map<string, { match: CallRecord; answers: Value[] }>();
  for (const call of calls) {
    const answer = call.kind === 'http' ? httpAnswer(call) : connectorAnswer(call);
    if (answer === undefined) continue;
    const key = JSON.stringify([call.kind, call.name, call.method, call.url, call.kind === 'http' ? jsonKey(call.requestBody) : jsonKey(call.args)]);
    const g = groups.get(key) ?? { match: call, answers: [] };
    groups.set(key, g);
    g.answers.push(answer);
  }
  const http: WMap[] = [];
  const connectors: WMap[] = [];
  for (const { match, answers } of groups.values()) {
    const same = answers.every((a) => jsonKey(a) === jsonKey(answers[0]!));
    const list = same ? [answers[0]!] : answers;
    if (match.kind === 'http') {
      const m: WMap = new Map<string, Value>([['method', match.method ?? 'GET'], ['url', match.url ?? '']]);
      if (match.requestBody !== undefined && match.requestBody !== null) m.set('body', jsonSafe(match.requestBody));
      const entry: WMap = new Map<string, Value>([['match', m]]);
      const only = list.length === 1 ? list[0]! : undefined;
      if (only !== undefined && isMap(only) && only.has('raise')) entry.set('raise', only.get('raise')!);
      else entry.set('respond', only ?? list);
      http.push(entry);
    } else {
      const entry: WMap = new Map<string, Value>([['call', match.name]]);
      if (isMap(match.args) && match.args.size > 0) entry.set('args', jsonSafe(match.args));
      const only = list.length === 1 ? list[0]! : undefined;
      if (only !== undefined && isMap(only) && only.has('raise') && only.size === 1) entry.set('raise', only.get('raise')!);
      else if (only !== undefined) entry.set('result', (only as WMap).get('result')!);
      else entry.set('results', list.map((a) => ((a as WMap).has('raise') ? a : (a as WMap).get('result')!)));
      connectors.push(entry);
    }
  }
  const out: WMap = new Map();
  if (http.length > 0) out.set('http', http);
  if (connectors.length > 0) out.set('connectors', connectors);
  out.set('unmatched', new Map([['http', 'error']]));
  return out;
}

/** What an http mock answers to repeat a recorded call: a response, or `{raise}`; undefined when it never ended. */
function httpAnswer(call: CallRecord): Value | undefined {
  const res = isMap(call.response) ? call.response : isMap(call.error) && isHttpError(call.error) ? call.error : undefined;
  if (res) {
    const r: WMap = new Map<string, Value>([['status', res.get('code') ?? 200n]]);
    const headers = res.get('headers');
    if (isMap(headers)) {
      const kept = new Map([...headers].filter(([k]) => !TRANSPORT_HEADERS.has(k.toLowerCase())).map(([k, v]) => [k, String(v)] as [string, Value]));
      if (kept.size > 0) r.set('headers', kept);
    }
    const body = res.get('body');
    if (body !== undefined && body !== null && !(typeof body === 'string' && body === '')) r.set('body', jsonSafe(body));
    return r;
  }
  if (isMap(call.error)) return new Map([['raise', raiseOf(call.error, ['tags', 'message'])]]);
  return undefined;
}

/** `{result}` or `{raise}` for a connector call; undefined when it never ended. */
function connectorAnswer(call: CallRecord): Value | undefined {
  if (isMap(call.error)) return new Map([['raise', raiseOf(call.error, RAISE_KEYS)]]);
  if (call.response !== undefined) return new Map([['result', jsonSafe(call.response)]]);
  return undefined;
}

function isHttpError(e: WMap): boolean {
  const tags = e.get('tags');
  return Array.isArray(tags) && tags.includes('HttpError') && typeof e.get('code') === 'bigint';
}

function raiseOf(e: WMap, keys: readonly string[]): WMap {
  const out: WMap = new Map();
  for (const k of keys) {
    const v = e.get(k);
    if (v !== undefined && v !== null) out.set(k, jsonSafe(v));
  }
  return out;
}

function jsonKey(v: Value | undefined): string {
  return v === undefined ? '' : JSON.stringify(jsonSafe(v), (_k, x: unknown) => (typeof x === 'bigint' ? `${x}n` : x instanceof Map ? Object.fromEntries(x) : x));
}

/**
 * The text of a test file with `testCase` added: a new file `{workflow, cases: [testCase]}` when `existing`
 * is undefined, else `existing` with the case appended to its `cases` (comments and formatting kept). A name
 * already used in the file gets ` (2)`, ` (3)`, ... appended.
 * @param workflow the workflow's path relative to the test file, as the file writes it.
 * @throws TestCaseError when `existing` is not YAML, has no `cases` list, or tests another workflow.
 */
export function appendTestCase(existing: string | undefined, workflow: string, testCase: WMap, fileName: string): string {
  if (existing === undefined || existing.trim() === '') {
    const doc = new Document();
    doc.contents = yamlNode(new Map<string, Value>([['workflow', workflow], ['cases', [testCase]]])) as YAMLMap;
    return doc.toString(YAML_OUTPUT);
  }
  const doc = parseDocument(existing);
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const at = e.linePos?.[0];
    throw new TestCaseError(`${fileName}${at ? `:${at.line}:${at.col}` : ''}: ${e.message.split('\n')[0]}`);
  }
  const root: unknown = doc.contents;
  if (!isYamlMap(root)) throw new TestCaseError(`${fileName}: a test file must be a map with 'workflow' and 'cases'`);
  const written = root.get('workflow');
  const plain = (p: unknown): string => String(p).replace(/^(\.\/)+/, '');
  if (written !== undefined && plain(written) !== plain(workflow)) {
    throw new TestCaseError(`${fileName}: the file tests ${JSON.stringify(written)}, not ${JSON.stringify(workflow)}`);
  }
  let cases: unknown = root.get('cases', true);
  if (cases === undefined) {
    cases = new YAMLSeq();
    root.set('cases', cases);
  }
  if (!isSeq(cases)) throw new TestCaseError(`${fileName}: 'cases' must be a list of cases`);
  const names = new Set(cases.items.map((i) => (isYamlMap(i) ? String(i.get('name')) : '')));
  const base = String(testCase.get('name'));
  let name = base;
  for (let n = 2; names.has(name); n++) name = `${base} (${n})`;
  const named = new Map(testCase);
  named.set('name', name);
  cases.items.push(yamlNode(named));
  return doc.toString(YAML_OUTPUT);
}

/** Not a list or map, or an empty one: written inline in flow style. */
function isScalar(v: Value): boolean {
  return Array.isArray(v) ? v.length === 0 : isMap(v) ? v.size === 0 : true;
}

/** A workflow value as a YAML node: doubles keep a fraction digit (`1.0`), so they read back as doubles. */
export function yamlNode(v: Value): Node {
  if (Array.isArray(v)) {
    const s = new YAMLSeq();
    for (const i of v) s.items.push(yamlNode(i));
    s.flow = v.every(isScalar);
    return s;
  }
  if (isMap(v)) {
    const m = new YAMLMap();
    for (const [k, x] of v) m.items.push(new Pair(new Scalar(k), yamlNode(x)));
    m.flow = v.size <= 5 && [...v.values()].every(isScalar);
    return m;
  }
  if (v instanceof Uint8Array) return new Scalar(jsonSafe(v));
  const s = new Scalar(v);
  if (typeof v === 'number' && Number.isInteger(v) && Math.abs(v) < 1e21) s.minFractionDigits = 1;
  return s;
}
