// The deploy check and the lint warnings of one source (docs/lint.md), in process: each warning on a small
// workflow that has it and not on its fixed version; deploy errors keep their code, step and position; every
// example and published sample deploys.
import { readdirSync, readFileSync } from 'node:fs';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkSource, looksLikeWorkflow } from '../../src/lint/check.ts';
import { loadSource } from '../../src/lang/definition/load.ts';
import { DEFINITION_LIBRARY } from '../../src/stdlib/index.ts';
import { CORPUS, skipWithoutCorpus } from '../support/corpus.ts';

const s = suite('lint check');

const codes = (source: string): string[] => checkSource(source, DEFINITION_LIBRARY).problems.map((p) => p.code);
const problem = (source: string, code: string) => checkSource(source, DEFINITION_LIBRARY).problems.find((p) => p.code === code);

s('a step after a return that no next names is UNREACHABLE_STEP (docs/lint.md#unreachable_step)', () => {
  const src = `main:\n  steps:\n    - done:\n        return: 1\n    - never:\n        return: 2\n`;
  const p = problem(src, 'UNREACHABLE_STEP');
  assert.ok(p);
  assert.is(p!.step, 'never');
  assert.equal([p!.line, p!.col, p!.endCol], [5, 7, 12]);
  assert.not.ok(codes(src.replace('return: 1', 'next: never')).includes('UNREACHABLE_STEP'));
});

s('steps reached only by a next, by an except or out of a nested list are not UNREACHABLE_STEP (docs/lint.md#unreachable_step)', () => {
  const src = [
    'main:',
    '  steps:',
    '    - first:',
    '        next: third',
    '    - second:',
    '        return: 2',
    '    - third:',
    '        try:',
    '          steps:',
    '            - boom:',
    '                raise: x',
    '        except:',
    '          as: e',
    '          steps:',
    '            - handled:',
    '                next: second',
  ].join('\n');
  assert.equal(codes(src).filter((c) => c === 'UNREACHABLE_STEP'), []);
});

s('a variable assigned and never read is UNUSED_VARIABLE; one read in a later expression is not (docs/lint.md#unused_variable)', () => {
  const src = `main:\n  steps:\n    - init:\n        assign:\n          - a: 1\n          - b: 2\n    - out:\n        return: \${a}\n`;
  const p = problem(src, 'UNUSED_VARIABLE');
  assert.ok(p);
  assert.match(p!.message, /'b'/);
  assert.is(checkSource(src, DEFINITION_LIBRARY).problems.filter((x) => x.code === 'UNUSED_VARIABLE').length, 1);
  assert.not.ok(codes(src.replace('_b_', '').replace('${a}', '${a + b}')).includes('UNUSED_VARIABLE'));
});

s('a call result never read is UNUSED_VARIABLE; a name starting with _ is not (docs/lint.md#unused_variable)', () => {
  const src = `- get:\n    call: http.get\n    args: {url: "https://example.com"}\n    result: resp\n`;
  assert.ok(codes(src).includes('UNUSED_VARIABLE'));
  assert.not.ok(codes(src.replace('resp', '_resp')).includes('UNUSED_VARIABLE'));
});

s('next to the step that follows anyway is REDUNDANT_NEXT (docs/lint.md#redundant_next)', () => {
  const src = `- a:\n    assign:\n      - x: 1\n    next: b\n- b:\n    return: \${x}\n`;
  const p = problem(src, 'REDUNDANT_NEXT');
  assert.ok(p);
  assert.is(p!.step, 'a');
  assert.equal([p!.line, p!.col], [4, 11]);
  assert.not.ok(codes(src.replace('next: b', 'next: end')).includes('REDUNDANT_NEXT'));
});

s("an assignment to a workflow's parameter is SHADOWED_PARAMETER (docs/lint.md#shadowed_parameter)", () => {
  const src = `main:\n  params: [input]\n  steps:\n    - fix:\n        assign:\n          - input: \${default(input, 1)}\n    - out:\n        return: \${input}\n`;
  const p = problem(src, 'SHADOWED_PARAMETER');
  assert.ok(p);
  assert.equal([p!.line, p!.col], [6, 13]);
  assert.not.ok(codes(src.replace('- input: ${default', '- value: ${default').replace('return: ${input}', 'return: ${value}')).includes('SHADOWED_PARAMETER'));
});

s('http.post under http.default_retry is NON_IDEMPOTENT_RETRY; under the non-idempotent policy it is not (docs/lint.md#non_idempotent_retry)', () => {
  const src = [
    '- charge:',
    '    try:',
    '      call: http.post',
    '      args: {url: "https://example.com/charge"}',
    '      result: r',
    '    retry: ${http.default_retry}',
    '- out:',
    '    return: ${r}',
  ].join('\n');
  const p = problem(src, 'NON_IDEMPOTENT_RETRY');
  assert.ok(p);
  assert.equal([p!.line, p!.col], [3, 13]);
  assert.equal(codes(src.replace('http.default_retry}', 'http.default_retry_non_idempotent}')), []);
  assert.equal(codes(src.replace('http.post', 'http.get')), []);
  const request = src.replace('call: http.post', 'call: http.request').replace('args: {', 'args: {method: PATCH, ');
  assert.ok(codes(request).includes('NON_IDEMPOTENT_RETRY'));
});

s("a googleapis.* call that is no method of Google's connectors is UNKNOWN_CONNECTOR, with the closest name (docs/lint.md#unknown_connector)", () => {
  const src = '- read:\n    call: googleapis.storage.v1.objects.gett\n    args: {bucket: b, object: o}\n    result: r\n- out:\n    return: ${r}\n';
  const p = problem(src, 'UNKNOWN_CONNECTOR');
  assert.ok(p);
  assert.equal([p!.severity, p!.step, p!.line, p!.col, p!.endCol], ['warning', 'read', 2, 11, 11 + 'googleapis.storage.v1.objects.gett'.length]);
  assert.match(p!.message, /googleapis\.storage\.v1 has no method objects\.gett \(did you mean 'objects\.get'\?\)/);
  assert.equal(codes(src.replace('objects.gett', 'objects.get')), []);
  const api = problem(src.replace('googleapis.storage.', 'googleapis.storag.'), 'UNKNOWN_CONNECTOR');
  assert.match(api!.message, /'googleapis\.storag\.v1' is not a connector .*did you mean 'storage\.v1'/);
  // The connector of a Workflows helper that is in no discovery document is known too.
  const run = '- run:\n    call: googleapis.workflowexecutions.v1.projects.locations.workflows.executions.run\n    args: {workflow_id: child}\n';
  assert.equal(codes(run), []);
});

s('a connector call without an argument its method requires is MISSING_CONNECTOR_ARG (docs/lint.md#missing_connector_arg)', () => {
  const src = '- read:\n    call: googleapis.storage.v1.objects.get\n    args:\n      bucket: b\n    result: r\n- out:\n    return: ${r}\n';
  const p = problem(src, 'MISSING_CONNECTOR_ARG');
  assert.ok(p);
  assert.equal([p!.step, p!.line, p!.col], ['read', 2, 11]);
  assert.match(p!.message, /needs argument 'object'/);
  assert.equal(codes(src.replace('bucket: b', 'bucket: b\n      object: o')), []);
  const none = problem('- list:\n    call: googleapis.pubsub.v1.projects.topics.publish\n', 'MISSING_CONNECTOR_ARG');
  assert.match(none!.message, /needs argument 'topic'/);
});

if (!skipWithoutCorpus(s, "every connector call of the published samples is a method of the catalog with its required arguments (docs/lint.md#unknown_connector)")) {
  s("every connector call of the published samples is a method of the catalog with its required arguments (docs/lint.md#unknown_connector)", () => {
    let calls = 0;
    for (const sub of ['yaml', 'json']) {
      for (const f of readdirSync(`${CORPUS}/${sub}`)) {
        const text = readFileSync(`${CORPUS}/${sub}/${f}`, 'utf8');
        calls += (text.match(/"?call"?: *"?googleapis\./g) ?? []).length;
        const r = checkSource(text, DEFINITION_LIBRARY, sub === 'json' ? 'json' : 'yaml');
        assert.equal(r.problems.filter((p) => p.code === 'UNKNOWN_CONNECTOR' || p.code === 'MISSING_CONNECTOR_ARG'), [], `${sub}/${f}`);
      }
    }
    assert.ok(calls > 100, `${calls} connector calls`);
  });
}

s('a deploy error is one problem with its code, step, position and did-you-mean, and no warnings (docs/lint.md)', () => {
  const src = `main:\n  steps:\n    - get:\n        call: http.gett\n        args: {url: x}\n        result: unused\n`;
  const r = checkSource(src, DEFINITION_LIBRARY);
  assert.is(r.deploys, false);
  assert.is(r.problems.length, 1);
  const p = r.problems[0]!;
  assert.equal([p.severity, p.code, p.step, p.line, p.col, p.endCol], ['error', 'UNKNOWN_FUNCTION', 'get', 4, 15, 24]);
  assert.match(p.message, /did you mean 'http\.get'/);
  assert.is(checkSource('main:\n  steps:\n    - a: [\n', DEFINITION_LIBRARY).problems[0]!.code, 'YAML_SYNTAX');
});

s('test files and mock files do not look like workflows; workflow definitions do (docs/lint.md "Files")', () => {
  const shape = (path: string) => looksLikeWorkflow(loadSource(readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8')).root);
  assert.is(shape('examples/tests/hello.test.yaml'), false);
  assert.is(shape('examples/tests/mocks/shop.yaml'), false);
  assert.is(shape('examples/workflows/hello.yaml'), true);
});

s('every example workflow deploys with no lint error (docs/lint.md)', () => {
  const dir = new URL('../../examples/workflows/', import.meta.url);
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.yaml'))) {
    const r = checkSource(readFileSync(new URL(f, dir), 'utf8'), DEFINITION_LIBRARY);
    assert.ok(r.deploys, `${f}: ${JSON.stringify(r.problems)}`);
  }
});

if (!skipWithoutCorpus(s, 'every published sample deploys with no lint error (docs/lint.md)')) {
  s('every published sample deploys with no lint error (docs/lint.md)', () => {
    let n = 0;
    for (const sub of ['yaml', 'json']) {
      for (const f of readdirSync(`${CORPUS}/${sub}`)) {
        const r = checkSource(readFileSync(`${CORPUS}/${sub}/${f}`, 'utf8'), DEFINITION_LIBRARY, sub === 'json' ? 'json' : 'yaml');
        assert.ok(r.deploys, `${sub}/${f}: ${JSON.stringify(r.problems)}`);
        n++;
      }
    }
    assert.ok(n > 100, `${n} samples`);
  });
}

s.run();
