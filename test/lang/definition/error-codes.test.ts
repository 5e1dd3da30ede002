// Definition errors carry a stable code beside the message (docs/architecture.md#layers-and-where-things-are), so tests and tools
// assert the kind of problem while messages improve. Each code is pinned on a source that shows it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileDefinition } from '../../../src/lang/definition/compile.ts';
import { DefinitionError, type DefinitionErrorCode } from '../../../src/lang/definition/errors.ts';
import { DEFINITION_LIBRARY } from '../../../src/stdlib/index.ts';

const test = suite('definition error codes');

function codeOf(source: string, format?: 'yaml' | 'json'): DefinitionErrorCode | string {
  try {
    compileDefinition(source, DEFINITION_LIBRARY, format ? { format } : {});
  } catch (e) {
    if (e instanceof DefinitionError) return e.code;
    throw e;
  }
  return 'compiled';
}

const step = (body: string): string => `main:\n  steps:\n    - s:\n${body}`;
const cases: [string, string, DefinitionErrorCode, ('yaml' | 'json')?][] = [
  ['YAML syntax', 'main:\n  steps:\n    - s:\n      return: [1,\n', 'YAML_SYNTAX'],
  ['a repeated YAML key', 'main:\n  steps: []\n  steps: []\n', 'YAML_SYNTAX'],
  ['JSON syntax (a .json file)', '{"main": {"steps": [}}', 'JSON_SYNTAX', 'json'],
  ['an empty source', '   \n', 'EMPTY_SOURCE'],
  ['a source over 128 KB', `# ${'x'.repeat(130 * 1024)}\n- s:\n    return: 1\n`, 'SOURCE_TOO_LARGE'],
  ['no main', 'other:\n  steps:\n    - s:\n        return: 1\n', 'MISSING_MAIN'],
  ['a step name used twice', 'main:\n  steps:\n    - a:\n        return: 1\n    - a:\n        return: 2\n', 'DUPLICATE_STEP'],
  ['an unknown field', step('        return: 1\n        nxt: end\n'), 'UNKNOWN_FIELD'],
  ['two kinds in one step', step('        return: 1\n        raise: x\n'), 'CONFLICTING_FIELDS'],
  ['next to a missing step', step('        next: nowhere\n'), 'BAD_JUMP'],
  ['break outside a loop', step('        next: break\n'), 'BAD_JUMP'],
  ['an unknown function in call', step('        call: no.such_function\n'), 'UNKNOWN_FUNCTION'],
  ['an unknown function in an expression', step('        return: ${no_such(1)}\n'), 'UNKNOWN_FUNCTION'],
  ['an unknown retry policy', step('        try:\n          return: 1\n        retry: ${http.no_such_retry}\n'), 'UNKNOWN_RETRY'],
  ['an expression that does not parse', step('        return: ${1 +}\n'), 'BAD_EXPRESSION'],
  ['an empty expression', step('        return: ${}\n'), 'BAD_EXPRESSION'],
  ['too many branches', step(`        parallel:\n          branches:\n${Array.from({ length: 11 }, (_, i) => `            - b${i}:\n                steps:\n                  - r${i}:\n                      return: 1\n`).join('')}`), 'LIMIT_EXCEEDED'],
  ['an expression over 400 characters', step(`        return: \${${'1 + '.repeat(120)}1}\n`), 'LIMIT_EXCEEDED'],
  ['a value of the wrong shape', step('        assign: 3\n'), 'INVALID_DEFINITION'],
];

for (const [what, source, code, format] of cases) {
  test(`${what}: ${code}`, () => assert.is(codeOf(source, format), code));
}

test('the code sits beside an unchanged message with step, line and column', () => {
  try {
    compileDefinition(step('        return: 1\n        nxt: end\n'), DEFINITION_LIBRARY);
    assert.unreachable('compiled');
  } catch (e) {
    assert.instance(e, DefinitionError);
    const err = e as DefinitionError;
    assert.is(err.code, 'UNKNOWN_FIELD');
    assert.is(err.message, `invalid workflow definition: step "s" (line 5, column 9): unknown field 'nxt'`);
  }
});

test.run();
