// The deploy-time scope checks of Google's service (src/lang/definition/scope-check.ts): a variable created in
// an except block and read after it (https://cloud.google.com/workflows/docs/reference/syntax/variables#variable-scope),
// a parallel branch assigning a parent variable not in `shared`, and a branch reading a variable only a sibling
// assigns (https://cloud.google.com/workflows/docs/samples/workflows-parallel-shared-variables, whose commented
// lines are marked "deployment error"). Each names its code, step and line:col; what Google deploys deploys.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compileDefinition } from '../../../src/lang/definition/compile.ts';
import { DefinitionError } from '../../../src/lang/definition/errors.ts';
import { DEFINITION_LIBRARY } from '../../../src/stdlib/index.ts';

const s = suite('definition scope checks (Google deploy-time rules)');

function error(src: string): DefinitionError {
  try {
    compileDefinition(src, DEFINITION_LIBRARY);
  } catch (e) {
    if (e instanceof DefinitionError) return e;
    throw e;
  }
  assert.unreachable('expected a DefinitionError');
  throw new Error('unreachable');
}

const deploys = (src: string): void => void compileDefinition(src, DEFINITION_LIBRARY);

const EXCEPT = `main:
  steps:
    - attempt:
        try:
          call: http.get
          args:
            url: https://example.com
          result: r
        except:
          as: e
          steps:
            - note:
                assign:
                  - failure: \${e.message}
    - after:
        return: \${failure}
`;

s('a variable created in an except block and read after it is refused at deploy: EXCEPT_VARIABLE_OUT_OF_SCOPE, step and line:col of the read', () => {
  const e = error(EXCEPT);
  assert.is(e.code, 'EXCEPT_VARIABLE_OUT_OF_SCOPE');
  assert.is(e.step, 'after');
  assert.equal([e.line, e.col], [16, 17]);
  assert.match(e.reason, /'failure' is created inside an except block/);
});

s('assigned before the try step ("Share a variable before an except block"), or only used inside, it deploys', () => {
  deploys(EXCEPT.replace('  steps:\n    - attempt:', '  steps:\n    - init:\n        assign:\n          - failure: null\n    - attempt:'));
  deploys(EXCEPT.replace('return: ${failure}', 'return: ${r}'));
  // A parameter of the same name is the outer variable.
  deploys(EXCEPT.replace('main:\n  steps:', 'main:\n  params: [failure]\n  steps:'));
  // The except block's `as` variable is local too, but reading another later except's own is fine.
  deploys(EXCEPT.replace('return: ${failure}', 'return: 1'));
});

// Google's sample as published (workflows-samples, Apache-2.0), its "deployment error" lines commented out.
const SHARED = `# [START workflows_parallel_shared_variables]
- assignStep:  # these variables can be read by any branch
    assign:
      - input: ["apples", "oranges"]
      - my_result: {}
- parallelStep:
    parallel:
      shared: [my_result]  # my_result is now writable by any branch
      branches:
        - getStock:
            steps:
              - callGetStock:
                  call: http.get
                  args:
                    url: \${"http://mystore.com/getStock/" + input[0]}
                  result: local_result  # local_result is local to this branch scope
              - assignResult1:
                  assign:
                    - my_result["getStock"]: \${local_result.body.some.entry}  # ok, my_result has shared scope and is writable
                    - temp: 1  # ok, variable is local to branch scope
                    - temp2: "foo"  # ok, variable is local to branch scope
                  # - input: 5  # deployment error, defined in the parent scope but not marked "shared"
        - orderStock:
            steps:
              - callOrderStock:
                  call: http.get
                  args:
                    url: \${"http://mystore.com/orderStock/" + input[1]}
                  result: local_result  # local_result is local to this branch
              - assignResult2:
                  assign:
                    - my_result["orderStock"]: \${local_result.body.some.entry}  # ok, my_result has shared scope and is writable
                    - temp: 2  # ok, variable is local to branch scope
                  # - temp: \${temp2}  # deployment error, temp2 is not defined in this branch
# [END workflows_parallel_shared_variables]
`;

s("Google's parallel sample deploys as published; each line it marks 'deployment error' is refused with its code", () => {
  deploys(SHARED);
  const unshared = error(SHARED.replace(/ {18}# - input: 5/, '                    - input: 5'));
  assert.is(unshared.code, 'UNSHARED_PARENT_ASSIGNMENT');
  assert.is(unshared.step, 'assignResult1');
  assert.match(unshared.reason, /'input' is a variable of the parent scope and parallel step 'parallelStep' does not list it in 'shared'/);
  const sibling = error(SHARED.replace(/ {18}# - temp: \$\{temp2\}/, '                    - temp: ${temp2}'));
  assert.is(sibling.code, 'SIBLING_BRANCH_VARIABLE');
  assert.is(sibling.step, 'assignResult2');
  assert.match(sibling.reason, /'temp2' is assigned only in branch 'getStock'/);
  assert.ok(sibling.line !== undefined && sibling.col !== undefined);
});

const PARALLEL_FOR = `main:
  params: [args]
  steps:
    - init:
        assign:
          - total: 0
    - loop:
        parallel:
          for:
            value: x
            in: [1, 2]
            steps:
              - add:
                  assign:
                    - total: \${total + x}
    - r:
        return: \${total}
`;

s('a parallel for iteration assigning a parent variable not in shared is refused; listed in shared it deploys', () => {
  const e = error(PARALLEL_FOR);
  assert.is(e.code, 'UNSHARED_PARENT_ASSIGNMENT');
  assert.is(e.step, 'add');
  deploys(PARALLEL_FOR.replace('parallel:\n          for:', 'parallel:\n          shared: [total]\n          for:'));
  // A parameter is a parent variable too.
  assert.is(error(PARALLEL_FOR.replace('- total: ${total + x}', '- args: ${x}')).code, 'UNSHARED_PARENT_ASSIGNMENT');
  // A variable assigned after the parallel step, or one local to the iteration, is not the parent's.
  deploys(PARALLEL_FOR.replace('- total: ${total + x}', '- local: ${x}'));
});

s('a branch reading a variable it assigns itself, or one the parent assigns, deploys', () => {
  deploys(`main:
  steps:
    - init:
        assign:
          - base: 1
    - p:
        parallel:
          branches:
            - a:
                steps:
                  - s1:
                      assign:
                        - t: \${base}
                  - s2:
                      return: \${t}
            - b:
                steps:
                  - s3:
                      assign:
                        - t: 2
`);
});

s('the examples deploy with the scope checks', () => {
  const dir = new URL('../../../examples/workflows', import.meta.url).pathname;
  for (const f of ['order-saga.yaml', 'fan-out-totals.yaml', 'error-handling.yaml', 'invoice.yaml', 'hello.yaml']) {
    deploys(readFileSync(join(dir, f), 'utf8'));
  }
});

s.run();
