/**
 * The mock file (docs/mocks-and-clock.md#mocks): what `--mocks FILE`, `run --mocks FILE`, the JS API's `mocks` option and
 * `PUT /emulator/v1/mocks` accept, read into a {@link MockSet}. YAML or JSON, read with the workflow loader
 * (src/lang/definition/load.ts) so every error names the file, line and column.
 *
 * ```yaml
 * http:
 *   - match: {method: GET, url: "https://api.example.com/users/*"}  # method optional; url exact, * glob, /re2/
 *     respond: {status: 200, headers: {...}, body: {...}}           # body: a JSON value or a string
 *   - match: {url: "https://pay.example.com/charge", body: {currency: EUR}}  # query/headers/body: subset
 *     respond: [{status: 503}, {status: 200, body: {ok: true}}]     # a list: one per call, the last repeats
 *   - match: {url: "https://slow.example.com/*"}
 *     delay: 2                                                       # seconds before the outcome
 *     raise: {tags: [TimeoutError], message: "..."}
 *   - match: {url: "https://echo.example.com/*"}
 *     respond: {status: 200, echo: true}                             # the body is the request
 * connectors:
 *   - call: googleapis.bigquery.v2.jobs.query
 *     args: {projectId: my-project}        # optional subset match on the call's args
 *     result: {rows: []}                   # or results: [..], one per call, the last repeats ({raise} items too)
 *   - call: googleapis.pubsub.v1.projects.topics.publish
 *     raise: {code: 403, message: "...", tags: [HttpError]}
 *   - call: "googleapis.firestore.v1.*"     # a glob; "*" alone answers every connector call
 * unmatched: {http: passthrough}           # passthrough (default) or error
 * ```
 *
 * Checked at load, so that a mock that could never be produced is refused at once: unknown keys, a `url`
 * pattern that is not a valid URL, glob or RE2 regex, a status outside 200..599 (what a fetch Response can
 * carry), both or neither of `respond` and `raise`, an http `raise` with a tag `http.*` never raises (an
 * HttpError is a `respond` with a 4xx/5xx status), a raise without tags or a message, a negative delay.
 */
import { loadSource, type SEntry, type SMap, type SNode } from '../lang/definition/load.ts';
import { DefinitionError } from '../lang/definition/errors.ts';
import type { Value, WMap } from '../lang/value.ts';
import { compileUrlPattern, type UrlPattern } from './url-pattern.ts';
import { NO_MOCKS, type ConnectorMock, type ConnectorOutcome, type HttpMock, type HttpOutcome, type MockSet } from './mock-set.ts';

export { NO_MOCKS, overlayMocks, type ConnectorMock, type ConnectorOutcome, type HttpMock, type HttpOutcome, type MockSet } from './mock-set.ts';

/**
 * A mock file that cannot be used. `message` reads `mocks.yaml:4:7: unknown key 'mathc' (expected match,
 * respond, raise, delay)`; `file`, `line`, `col` and `reason` hold the parts.
 */
export class MockFileError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly col: number,
    readonly reason: string,
  ) {
    super(`${file}:${line}:${col}: ${reason}`);
    this.name = 'MockFileError';
  }
}

/**
 * Reads a mock file. `file` names it in messages (a path, `request body`, `mocks option`).
 * @throws MockFileError naming file, line and column for a YAML/JSON syntax error or any problem of the
 *   module header.
 */
export function parseMocks(text: string, file: string): MockSet {
  if (text.trim() === '') return NO_MOCKS;
  let root: SNode;
  let posAt: (offset: number) => { line: number; col: number };
  try {
    const loaded = loadSource(text);
    root = loaded.root;
    posAt = loaded.posAt;
  } catch (e) {
    if (e instanceof DefinitionError) throw new MockFileError(file, e.line ?? 1, e.col ?? 1, e.reason);
    throw e;
  }
  return new Reader(file, posAt).mockSet(root);
}

/**
 * Reads mocks that are part of a larger loaded file (a test file's inline `mocks:` map): `root` is their node
 * and `posAt` the file's own position mapping, so errors name the file's line and column.
 * @throws MockFileError as {@link parseMocks} does.
 */
export function mocksFromNode(root: SNode, file: string, posAt: (offset: number) => { line: number; col: number }): MockSet {
  return new Reader(file, posAt).mockSet(root);
}

/**
 * Reads mocks given as data (the JS API's inline map): encoded as JSON and read by {@link parseMocks}, so
 * positions refer to that JSON text.
 */
export function mocksFromData(data: unknown, name: string): MockSet {
  let text: string;
  try {
    text = JSON.stringify(data ?? {}, null, 1);
  } catch (e) {
    throw new MockFileError(name, 1, 1, `mocks cannot be encoded as JSON: ${(e as Error).message}`);
  }
  return parseMocks(text, name);
}

/** Tags an `http.*` call can raise besides HttpError (src/stdlib/http.ts). */
/** The longest mock delay, seconds: one year, the longest an execution may run (Google's quotas page). */
const MAX_DELAY_SEC = 31_536_000;

const HTTP_RAISE_TAGS = new Set(['ConnectionError', 'ConnectionFailedError', 'TimeoutError', 'ResourceLimitError']);

class Reader {
  constructor(
    private readonly file: string,
    private readonly posAt: (offset: number) => { line: number; col: number },
  ) {}

  fail(node: SNode | SEntry['keyNode'], reason: string): never {
    const p = this.posAt(node.offset);
    throw new MockFileError(this.file, p.line, p.col, reason);
  }

  where(node: SNode): string {
    const p = this.posAt(node.offset);
    return `${this.file}:${p.line}:${p.col}`;
  }

  map(node: SNode, what: string, keys: readonly string[]): Map<string, SEntry> {
    if (node.kind !== 'map') this.fail(node, `${what} must be a map`);
    const out = new Map<string, SEntry>();
    for (const e of (node as SMap).entries) {
      if (!keys.includes(e.key)) this.fail(e.keyNode, `unknown key '${e.key}' in ${what} (expected ${keys.join(', ')})`);
      out.set(e.key, e);
    }
    return out;
  }

  list(node: SNode, what: string): readonly SNode[] {
    if (node.kind !== 'seq') this.fail(node, `${what} must be a list`);
    return node.items;
  }

  string(node: SNode, what: string): string {
    if (node.kind !== 'scalar' || typeof node.value !== 'string') this.fail(node, `${what} must be a string`);
    return node.value;
  }

  mockSet(root: SNode): MockSet {
    if (root.kind === 'scalar' && root.value === null) return NO_MOCKS;
    const top = this.map(root, 'the mock file', ['http', 'connectors', 'unmatched']);
    const http: HttpMock[] = [];
    const connectors: ConnectorMock[] = [];
    const content: MockSet['content'] = { http: [], connectors: [] };
    const h = top.get('http');
    if (h && !isNull(h.value)) {
      for (const item of this.list(h.value, 'http')) {
        http.push(this.httpMock(item));
        content.http.push(plain(item));
      }
    }
    const c = top.get('connectors');
    if (c && !isNull(c.value)) {
      for (const item of this.list(c.value, 'connectors')) {
        connectors.push(this.connectorMock(item));
        content.connectors.push(plain(item));
      }
    }
    let unmatchedHttp: 'passthrough' | 'error' = 'passthrough';
    const u = top.get('unmatched');
    if (u && !isNull(u.value)) {
      const m = this.map(u.value, 'unmatched', ['http']);
      const mode = m.get('http');
      if (mode) {
        const v = this.string(mode.value, 'unmatched.http');
        if (v !== 'passthrough' && v !== 'error') this.fail(mode.value, `unmatched.http must be passthrough or error, got '${v}'`);
        unmatchedHttp = v;
        content.unmatched = { http: v };
      }
    }
    return { http, connectors, unmatchedHttp, content };
  }

  httpMock(node: SNode): HttpMock {
    const m = this.map(node, 'an http mock', ['match', 'respond', 'raise', 'delay']);
    const match = m.get('match');
    if (!match) this.fail(node, "an http mock needs 'match' (at least {url: ...})");
    const mm = this.map(match.value, 'match', ['method', 'url', 'query', 'headers', 'body', 'step', 'routine']);
    let methods: string[] | undefined;
    const method = mm.get('method');
    if (method) {
      const items = method.value.kind === 'seq' ? method.value.items : [method.value];
      methods = items.map((i) => {
        const s = this.string(i, 'match.method').toUpperCase();
        if (!/^[A-Z]+$/.test(s)) this.fail(i, `match.method '${s}' is not an HTTP method`);
        return s;
      });
    }
    let url: UrlPattern | undefined;
    const u = mm.get('url');
    if (u) {
      const text = this.string(u.value, 'match.url');
      const compiled = compileUrlPattern(text);
      if (typeof compiled === 'string') this.fail(u.value, compiled);
      url = compiled;
    }
    let query: Map<string, string[]> | undefined;
    const q = mm.get('query');
    if (q) {
      if (q.value.kind !== 'map') this.fail(q.value, 'match.query must be a map of parameter names to values');
      query = new Map();
      for (const e of q.value.entries) {
        const items = e.value.kind === 'seq' ? e.value.items : [e.value];
        query.set(
          e.key,
          items.map((i) => this.scalarText(i, `match.query.${e.key}`)),
        );
      }
    }
    let headers: Map<string, string> | undefined;
    const hd = mm.get('headers');
    if (hd) {
      if (hd.value.kind !== 'map') this.fail(hd.value, 'match.headers must be a map of header names to values');
      headers = new Map();
      for (const e of hd.value.entries) headers.set(e.key.toLowerCase(), this.scalarText(e.value, `match.headers.${e.key}`));
    }
    const body = mm.get('body');
    const outcomes = this.outcomes(node, m, 'respond', (n) => this.response(n), (n) => this.httpRaise(n));
    return {
      where: this.where(node),
      ...(methods ? { methods } : {}),
      ...(url ? { url } : {}),
      ...(query ? { query } : {}),
      ...(headers ? { headers } : {}),
      ...(body ? { body: value(body.value) } : {}),
      ...this.caller(mm, 'match.'),
      outcomes: outcomes as HttpOutcome[],
      delayMs: this.delay(m.get('delay')),
    };
  }

  connectorMock(node: SNode): ConnectorMock {
    const m = this.map(node, 'a connector mock', ['call', 'args', 'step', 'routine', 'result', 'results', 'raise', 'delay']);
    const call = m.get('call');
    if (!call) this.fail(node, "a connector mock needs 'call' (the connector's dotted name)");
    const name = this.string(call.value, 'call');
    // A name, a glob over names (each * stands for any characters, dots included), or * for every connector.
    if (name !== '*' && !/^[A-Za-z_*][A-Za-z0-9_*]*(\.[A-Za-z_*][A-Za-z0-9_*]*)+$/.test(name)) {
      this.fail(call.value, `call '${name}' is not a dotted connector name (e.g. googleapis.bigquery.v2.jobs.query), a glob of one (googleapis.firestore.v1.*) or *`);
    }
    const args = m.get('args');
    if (args && args.value.kind !== 'map') this.fail(args.value, 'args must be a map (a subset of the call\'s args)');
    const given = ['result', 'results', 'raise'].filter((k) => m.has(k));
    if (given.length !== 1) {
      this.fail(node, given.length === 0 ? "a connector mock needs one of 'result', 'results' or 'raise'" : `'${given.join("' and '")}' exclude each other`);
    }
    let outcomes: ConnectorOutcome[];
    const results = m.get('results');
    if (m.has('result')) outcomes = [{ kind: 'result', value: value(m.get('result')!.value) }];
    else if (results) {
      const items = this.list(results.value, 'results');
      if (items.length === 0) this.fail(results.value, 'results is empty: give at least one result');
      // An item may be {raise: ...}, as in an http `respond` list: a connector can fail first and answer later.
      outcomes = items.map((i): ConnectorOutcome => {
        if (i.kind === 'map' && i.entries.length === 1 && i.entries[0]!.key === 'raise') return { kind: 'raise', error: this.raise(i.entries[0]!.value, false) };
        return { kind: 'result', value: value(i) };
      });
    } else outcomes = [{ kind: 'raise', error: this.raise(m.get('raise')!.value, false) }];
    return {
      where: this.where(node),
      call: name,
      ...(name.includes('*') ? { callGlob: name.split('*') } : {}),
      ...this.caller(m, ''),
      ...(args ? { args: value(args.value) } : {}),
      outcomes,
      delayMs: this.delay(m.get('delay')),
    };
  }

  /** The calling `step` and `routine` a mock is limited to (names as the workflow writes them). */
  caller(m: Map<string, SEntry>, prefix: string): { step?: string; routine?: string } {
    const out: { step?: string; routine?: string } = {};
    for (const k of ['step', 'routine'] as const) {
      const e = m.get(k);
      if (!e) continue;
      const v = this.string(e.value, `${prefix}${k}`);
      if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(v)) this.fail(e.value, `${prefix}${k} '${v}' is not a ${k} name (letters, digits and _)`);
      out[k] = v;
    }
    return out;
  }

  outcomes<T>(
    node: SNode,
    m: Map<string, SEntry>,
    respondKey: string,
    one: (n: SNode) => T,
    raise: (n: SNode) => T,
  ): T[] {
    const respond = m.get(respondKey);
    const r = m.get('raise');
    if (respond && r) this.fail(r.keyNode, `'${respondKey}' and 'raise' exclude each other`);
    if (r) return [raise(r.value)];
    if (!respond) this.fail(node, `a mock needs '${respondKey}' or 'raise'`);
    if (respond.value.kind === 'seq') {
      if (respond.value.items.length === 0) this.fail(respond.value, `${respondKey} is an empty list: give at least one`);
      // An item may itself be {raise: ...}: a sequence can fail first and answer later.
      return respond.value.items.map((i) => {
        if (i.kind === 'map' && i.entries.length === 1 && i.entries[0]!.key === 'raise') return raise(i.entries[0]!.value);
        return one(i);
      });
    }
    return [one(respond.value)];
  }

  response(node: SNode): HttpOutcome {
    const m = this.map(node, 'respond', ['status', 'headers', 'body', 'echo']);
    let status = 200;
    const s = m.get('status');
    if (s) {
      if (s.value.kind !== 'scalar' || typeof s.value.value !== 'bigint') this.fail(s.value, 'respond.status must be an integer');
      status = Number(s.value.value);
      if (status < 200 || status > 599) {
        this.fail(s.value, `respond.status ${status} can never be produced: an HTTP response status is 200 to 599 here`);
      }
    }
    const headers: [string, string][] = [];
    const hd = m.get('headers');
    if (hd) {
      if (hd.value.kind !== 'map') this.fail(hd.value, 'respond.headers must be a map');
      for (const e of hd.value.entries) {
        const v = this.scalarText(e.value, `respond.headers.${e.key}`);
        if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(e.key)) this.fail(e.keyNode, `respond.headers: '${e.key}' is not a valid header name`);
        if (/[\r\n\0]/.test(v)) this.fail(e.value, `respond.headers.${e.key}: a header value cannot hold a line break`);
        headers.push([e.key, v]);
      }
    }
    let echo = false;
    const ec = m.get('echo');
    if (ec) {
      if (ec.value.kind !== 'scalar' || typeof ec.value.value !== 'boolean') this.fail(ec.value, 'respond.echo must be true or false');
      echo = ec.value.value;
      if (echo && m.has('body')) this.fail(ec.keyNode, "respond: 'echo' and 'body' exclude each other");
    }
    const b = m.get('body');
    if ((status === 204 || status === 205 || status === 304) && (b || echo)) {
      this.fail((b ?? ec)!.keyNode, `respond: a ${status} response can never carry a body`);
    }
    return { kind: 'respond', status, headers, body: b ? value(b.value) : undefined, echo };
  }

  httpRaise(node: SNode): HttpOutcome {
    return { kind: 'raise', error: this.raise(node, true) };
  }

  raise(node: SNode, http: boolean): WMap {
    const m = this.map(node, 'raise', ['tags', 'message', 'code', 'headers', 'body']);
    const t = m.get('tags');
    if (!t) this.fail(node, 'raise needs tags (e.g. [ConnectionError])');
    const tags = this.list(t.value, 'raise.tags').map((i) => this.string(i, 'a tag'));
    if (tags.length === 0) this.fail(t.value, 'raise.tags is empty: give at least one tag');
    if (http) {
      for (const [i, tag] of tags.entries()) {
        if (tag === 'HttpError') {
          this.fail(t.value.kind === 'seq' ? t.value.items[i]! : t.value, 'an http mock raises HttpError through respond with a 4xx or 5xx status (then headers and body are set as http.* sets them)');
        }
        if (!HTTP_RAISE_TAGS.has(tag)) {
          this.fail(t.value.kind === 'seq' ? t.value.items[i]! : t.value, `http.* never raises '${tag}' (it raises ${[...HTTP_RAISE_TAGS].join(', ')}, or HttpError through respond)`);
        }
      }
      for (const k of ['code', 'headers', 'body']) {
        const e = m.get(k);
        if (e) this.fail(e.keyNode, `an http mock's raise has no '${k}': http.* sets it only on HttpError (use respond with a 4xx or 5xx status)`);
      }
    }
    const msg = m.get('message');
    const message = msg ? this.string(msg.value, 'raise.message') : `mocked ${tags.join(', ')}`;
    let code = 0n;
    const c = m.get('code');
    if (c) {
      if (c.value.kind !== 'scalar' || typeof c.value.value !== 'bigint') this.fail(c.value, 'raise.code must be an integer');
      code = c.value.value;
    }
    const err: WMap = new Map<string, Value>([
      ['message', message],
      ['code', code],
      ['tags', tags],
    ]);
    for (const k of ['headers', 'body']) {
      const e = m.get(k);
      if (e) err.set(k, value(e.value));
    }
    return err;
  }

  delay(e: SEntry | undefined): number {
    if (!e) return 0;
    const v = e.value;
    if (v.kind !== 'scalar' || (typeof v.value !== 'bigint' && typeof v.value !== 'number')) this.fail(v, 'delay must be a number of seconds');
    const sec = Number(v.value);
    if (!(sec >= 0) || !Number.isFinite(sec)) this.fail(v, `delay must be 0 or more seconds, got ${sec}`);
    // No call waits longer than an execution may last (docs/limits.md "Clock").
    if (sec > MAX_DELAY_SEC) this.fail(v, `delay must be at most ${MAX_DELAY_SEC} seconds (one year, the longest execution), got ${sec}`);
    return sec * 1000;
  }

  scalarText(node: SNode, what: string): string {
    if (node.kind !== 'scalar' || node.value === null) this.fail(node, `${what} must be a string, number or bool`);
    const v = node.value;
    return typeof v === 'string' ? v : String(v);
  }
}

function isNull(n: SNode): boolean {
  return n.kind === 'scalar' && n.value === null;
}

/** A source node as a workflow value (ints as bigint). */
function value(n: SNode): Value {
  switch (n.kind) {
    case 'scalar':
      return n.value;
    case 'seq':
      return n.items.map(value);
    case 'map': {
      const m = new Map<string, Value>();
      for (const e of n.entries) m.set(e.key, value(e.value));
      return m;
    }
  }
}

/** A source node as plain JSON-ready data (ints beyond 2^53 as their decimal text). */
function plain(n: SNode): unknown {
  switch (n.kind) {
    case 'scalar':
      return typeof n.value === 'bigint' ? (Number.isSafeInteger(Number(n.value)) ? Number(n.value) : String(n.value)) : n.value;
    case 'seq':
      return n.items.map(plain);
    case 'map': {
      const o: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const e of n.entries) o[e.key] = plain(e.value);
      return o;
    }
  }
}
