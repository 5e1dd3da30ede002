// docs/standard-library.md: a misspelled function, subworkflow or step name at deploy time gets "did you mean ..." when a
// close name exists, and no suggestion when none does (so the message never points at an unrelated name).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileDefinition } from '../../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../../src/stdlib/index.ts';
import { DefinitionError } from '../../../src/lang/definition/errors.ts';
import { closestName } from '../../../src/lang/definition/suggest.ts';

const s = suite('definition: did you mean (docs/standard-library.md)');

function reason(src: string): string {
  try {
    compileDefinition(src, DEFINITION_LIBRARY);
  } catch (e) {
    assert.instance(e, DefinitionError);
    return (e as DefinitionError).reason;
  }
  throw new Error('expected a DefinitionError');
}

s('a misspelled standard-library function in a call step: the closest name is offered', () => {
  assert.match(reason('- a:\n    call: sys.lgo\n    args: {text: x}\n'), "unknown function or subworkflow 'sys.lgo' (did you mean 'sys.log'?)");
  assert.match(reason('- a:\n    call: http.gett\n    args: {url: x}\n'), "(did you mean 'http.get'?)");
  assert.match(reason('- a:\n    call: Text.Split\n'), "(did you mean 'text.split'?)");
});

s('a misspelled function in an expression, and a misspelled subworkflow name', () => {
  assert.match(reason('- a:\n    return: ${text.to_uper("x")}\n'), "'text.to_uper' in expression (did you mean 'text.to_upper'?)");
  const sub = 'main:\n  steps:\n    - a:\n        call: compute_totl\n        result: r\n    - b:\n        return: ${r}\ncompute_total:\n  steps:\n    - c:\n        return: 1\n';
  assert.match(reason(sub), "(did you mean 'compute_total'?)");
  assert.match(reason('main:\n  steps:\n    - a:\n        return: ${compute_totl()}\ncompute_total:\n  steps:\n    - c:\n        return: 1\n'), "(did you mean 'compute_total'?)");
});

s('a misspelled step name in next: the closest step of the workflow is offered', () => {
  assert.match(reason('- first:\n    next: fnish\n- finish:\n    return: 1\n'), "next: step 'fnish' not found (did you mean 'finish'?)");
  assert.match(reason('- a:\n    switch:\n      - condition: true\n        next: retrun_it\n- return_it:\n    return: 1\n'), "(did you mean 'return_it'?)");
});

s('no close name: no suggestion', () => {
  assert.not.match(reason('- a:\n    call: frobnicate.widgets\n'), 'did you mean');
  assert.not.match(reason('- first:\n    next: somewhere_else\n- finish:\n    return: 1\n'), 'did you mean');
});

s('closestName: distance grows with the name; a swap of neighbours costs 1; ties go to the first', () => {
  assert.is(closestName('lne', ['len', 'keys']), 'len');
  assert.is(closestName('ab', ['xy']), undefined);
  assert.is(closestName('sys.sleeep', ['sys.sleep', 'sys.sleep_until']), 'sys.sleep');
  assert.is(closestName('abcdefghijkl', ['abcdefghiXYZ']), 'abcdefghiXYZ');
  assert.is(closestName('abcdefghijkl', ['abcdefgWXYZl']), undefined);
  assert.is(closestName('cat', ['bat', 'cab']), 'bat');
});

s.run();
