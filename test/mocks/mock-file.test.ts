// The mock file (docs/mocks-and-clock.md#mocks): what it accepts, and every refusal naming file, line and
// column.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { MockFileError, mocksFromData, overlayMocks, parseMocks } from '../../src/mocks/mock-file.ts';
import { compileUrlPattern, type UrlPattern } from '../../src/mocks/url-pattern.ts';
import { runWorkflowInProcess } from '../../src/cli/run-workflow.ts';

function refusal(text: string): MockFileError {
  try {
    parseMocks(text, 'mocks.yaml');
  } catch (e) {
    if (e instanceof MockFileError) return e;
    throw e;
  }
  throw new Error('expected a MockFileError');
}

test('the short form of the issue reads: http respond, a sequence, a raise, connectors, unmatched', () => {
  const m = parseMocks(
    `http:
  - match: {method: GET, url: "https://api.example.com/users/*"}
    respond: {status: 200, headers: {x-a: b}, body: {id: 1}}
  - match: {url: "https://pay.example.com/charge", body: {currency: EUR}}
    respond: [{status: 503}, {status: 200, body: {ok: true}}]
  - match: {url: "https://slow.example.com/*"}
    raise: {tags: [TimeoutError], message: "slow"}
connectors:
  - call: googleapis.bigquery.v2.jobs.query
    args: {projectId: my-project}
    result: {rows: []}
  - call: googleapis.pubsub.v1.projects.topics.publish
    raise: {code: 403, message: "denied", tags: [HttpError]}
unmatched: {http: error}
`,
    'mocks.yaml',
  );
  assert.is(m.http.length, 3);
  assert.equal(m.http[0]!.methods, ['GET']);
  assert.is(m.http[1]!.outcomes.length, 2);
  assert.is(m.http[2]!.outcomes[0]!.kind, 'raise');
  assert.is(m.http[0]!.where, 'mocks.yaml:2:5');
  assert.is(m.connectors.length, 2);
  assert.is(m.unmatchedHttp, 'error');
  assert.equal(JSON.parse(JSON.stringify(m.content)).unmatched, { http: 'error' });
});

test('an empty file is no mocks; JSON files read the same', () => {
  assert.is(parseMocks('', 'm.yaml').http.length, 0);
  const m = parseMocks('{"http": [{"match": {"url": "https://a.test/x"}, "respond": {"status": 201}}]}', 'm.json');
  assert.is(m.http[0]!.where, 'm.json:1:11');
});

test('an unknown key is refused with its line and column and the keys allowed', () => {
  const e = refusal('http:\n  - match: {url: "https://a.test/"}\n    respnd: {status: 200}\n');
  assert.is(e.line, 3);
  assert.is(e.col, 5);
  assert.match(e.message, /^mocks\.yaml:3:5: unknown key 'respnd' in an http mock \(expected match, respond, raise, delay\)/);
  assert.match(refusal('htp: []\n').message, /^mocks\.yaml:1:1: unknown key 'htp'/);
  assert.match(refusal('http:\n  - match: {uri: x}\n    respond: {}\n').message, /mocks\.yaml:2:13: unknown key 'uri' in match/);
});

test('a YAML syntax error names its line', () => {
  const e = refusal('http:\n  - match: {url: "x"\n');
  assert.match(e.message, /^mocks\.yaml:\d+:\d+: YAML syntax error/);
});

test('bad URL patterns and RE2 regexes are refused at the pattern', () => {
  assert.match(refusal('http:\n  - match: {url: "not a url"}\n    respond: {}\n').message, /mocks\.yaml:2:18: match\.url: 'not a url' is not a URL/);
  assert.match(refusal('http:\n  - match: {url: "/a(b/"}\n    respond: {}\n').message, /2:18: match\.url: '\/a\(b\/' is not a valid RE2/);
  // A backreference is Perl, not RE2.
  assert.match(refusal('http:\n  - match: {url: "/(a)\\\\1/"}\n    respond: {}\n').message, /not a valid RE2/);
  assert.match(refusal('http:\n  - match: {url: "ftp://x/*"}\n    respond: {}\n').message, /not an http or https URL/);
});

test('a costly RE2 regex (a large compiled program) is refused when the mocks load, naming its size (docs/limits.md "Mocks")', () => {
  assert.throws(() => parseMocks('http:\n  - match: {url: "/.{1,1000}x/"}\n    respond: {status: 200}\n', 'mocks.yaml'), /compiles to 2002 RE2 instructions, over the limit of 400/);
  const ok = compileUrlPattern('/https://api\\..*\\/v1\\/.*/');
  assert.type(ok, 'object');
});

test('a respond or raise that could never be produced is refused', () => {
  assert.match(refusal('http:\n  - match: {url: "https://a.test/"}\n    respond: {status: 700}\n').message, /3:23: respond\.status 700 can never be produced/);
  assert.match(refusal('http:\n  - match: {url: "https://a.test/"}\n    respond: {status: 101}\n').message, /can never be produced/);
  assert.match(refusal('http:\n  - match: {url: "https://a.test/"}\n    respond: {status: 204, body: x}\n').message, /a 204 response can never carry a body/);
  assert.match(refusal('http:\n  - match: {url: "https://a.test/"}\n    raise: {tags: [HttpError]}\n').message, /3:20: an http mock raises HttpError through respond/);
  assert.match(refusal('http:\n  - match: {url: "https://a.test/"}\n    raise: {tags: [KeyError]}\n').message, /http\.\* never raises 'KeyError'/);
  assert.match(refusal('http:\n  - match: {url: "https://a.test/"}\n    raise: {tags: [TimeoutError], code: 5}\n').message, /has no 'code'/);
  assert.match(refusal('http:\n  - match: {url: "https://a.test/"}\n    raise: {message: x}\n').message, /raise needs tags/);
  assert.match(refusal('http:\n  - match: {url: "https://a.test/"}\n    respond: {}\n    raise: {tags: [TimeoutError]}\n').message, /4:5: 'respond' and 'raise' exclude each other/);
  assert.match(refusal('http:\n  - match: {url: "https://a.test/"}\n').message, /2:5: a mock needs 'respond' or 'raise'/);
  assert.match(refusal('http:\n  - match: {url: "https://a.test/"}\n    respond: []\n').message, /respond is an empty list/);
  assert.match(refusal('http:\n  - match: {url: "https://a.test/"}\n    respond: {}\n    delay: -1\n').message, /4:12: delay must be 0 or more/);
  assert.match(refusal('connectors:\n  - call: googleapis.x.get\n').message, /needs one of 'result', 'results' or 'raise'/);
  assert.match(refusal('connectors:\n  - call: "not a name"\n    result: 1\n').message, /2:11: call 'not a name' is not a dotted connector name/);
  assert.match(refusal('unmatched: {http: drop}\n').message, /1:19: unmatched\.http must be passthrough or error/);
});

test('inline data is read as JSON; an overlay tries its own entries first and keeps its unmatched mode', () => {
  const base = mocksFromData({ http: [{ match: { url: 'https://a.test/' }, respond: { status: 200 } }], unmatched: { http: 'error' } }, 'file');
  const over = mocksFromData({ http: [{ match: { url: 'https://b.test/' }, respond: { status: 201 } }] }, 'case');
  const both = overlayMocks(base, over);
  assert.equal(both.http.map((h) => h.url!.text), ['https://b.test/', 'https://a.test/']);
  assert.is(both.unmatchedHttp, 'error');
  assert.throws(() => mocksFromData({ http: [{ match: { url: 'x' }, respond: {} }] }, 'mocks option'), /^mocks option:\d+:\d+: match\.url/);
});

test('url patterns: * spans any characters, / included; exact URLs are normalized; a regex must match the whole URL', () => {
  const p = (t: string) => compileUrlPattern(t) as UrlPattern;
  assert.ok(p('https://a.test/*/items/*').test('https://a.test/v1/x/items/7'));
  assert.not.ok(p('https://a.test/*/items/*').test('https://a.test/items/7'));
  assert.ok(p('https://a.test/*x*x').test('https://a.test/xx'));
  assert.not.ok(p('https://a.test/*ab*ab').test('https://a.test/ab'));
  assert.ok(p('https://*.a.test/*').test('https://eu.a.test/z'));
  assert.ok(p('https://A.test').test('https://a.test/'));
  assert.ok(p('/https://a\\.test/[0-9]+/').test('https://a.test/42'));
  assert.not.ok(p('/a\\.test/').test('https://a.test/42'));
});

test('url: "*" matches every URL, its query included (docs/mocks-and-clock.md#mocks)', () => {
  const star = compileUrlPattern('*') as UrlPattern;
  assert.is(typeof star, 'object');
  assert.ok(star.test('https://a.test/x?y=1'));
  assert.ok(star.test('http://127.0.0.1:8080/'));
  const set = mocksFromData({ http: [{ match: { url: '*' }, respond: { status: 200 } }] }, 'mocks option');
  assert.is(set.http.length, 1);
});

test('connector names may be globs and call: "*" answers every connector; first match wins (docs/mocks-and-clock.md#mocks)', async () => {
  const source = `main:
  steps:
    - doc:
        call: googleapis.firestore.v1.projects.databases.documents.get
        args:
          name: d1
        result: doc
    - other:
        call: googleapis.pubsub.v1.projects.topics.publish
        args:
          topic: t
        result: sent
    - done:
        return:
          - \${doc}
          - \${sent}
`;
  const run = await runWorkflowInProcess({
    source,
    mocks: { connectors: [{ call: 'googleapis.firestore.v1.*', result: 'firestore' }, { call: '*', result: 'default' }] },
  });
  assert.is(run.state, 'SUCCEEDED', JSON.stringify(run.error));
  assert.equal(run.result, ['firestore', 'default']);
  assert.match(refusal('connectors:\n  - call: "googleapis..*"\n    result: 1\n').message, /2:11: call 'googleapis\.\.\*' is not a dotted connector name .*a glob of one/);
});

test('a mock may match on the calling step and routine; an invalid one is refused at load (docs/mocks-and-clock.md#mocks)', async () => {
  const source = `main:
  steps:
    - first:
        call: http.get
        args:
          url: https://api.test/x
        result: a
    - second:
        call: fetch_it
        result: b
    - third:
        call: googleapis.pubsub.v1.projects.topics.publish
        args:
          topic: t
        result: c
    - done:
        return:
          - \${a.body}
          - \${b}
          - \${c}

fetch_it:
  steps:
    - first:
        call: http.get
        args:
          url: https://api.test/x
        result: r
    - out:
        return: \${r.body}
`;
  const run = await runWorkflowInProcess({
    source,
    mocks: {
      http: [
        { match: { url: 'https://api.test/x', step: 'first', routine: 'fetch_it' }, respond: { body: 'from the subworkflow' } },
        { match: { url: 'https://api.test/x', routine: 'main' }, respond: { body: 'from main' } },
      ],
      connectors: [
        { call: '*', step: 'other', result: 'wrong step' },
        { call: '*', step: 'third', routine: 'main', result: 'published' },
      ],
    },
  });
  assert.is(run.state, 'SUCCEEDED', JSON.stringify(run.error));
  assert.equal(run.result, ['from main', 'from the subworkflow', 'published']);
  assert.match(refusal('http:\n  - match: {url: "*", step: "no such-step"}\n    respond: {}\n').message, /mocks\.yaml:2:\d+: match\.step 'no such-step' is not a step name/);
  assert.match(refusal('connectors:\n  - call: "*"\n    routine: 7\n    result: 1\n').message, /3:14: .*routine/);
  const miss = await runWorkflowInProcess({
    source,
    mocks: { http: [{ match: { url: 'https://api.test/x', step: 'elsewhere' }, respond: {} }], unmatched: { http: 'error' } },
  });
  assert.match(String(miss.error?.message), /the calling step is "first", not "elsewhere"/);
});

test.run();
