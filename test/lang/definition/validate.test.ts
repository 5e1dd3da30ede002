// Deploy-time validation of definitions: every refusal is a DefinitionError naming the step, the line:col
// and the problem (docs/api-resources.md#errors: invalid workflow definition, 400; docs/api-resources.md#limits).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { compileDefinition } from '../../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../../src/stdlib/index.ts';
import { DefinitionError } from '../../../src/lang/definition/errors.ts';

const s = suite('definition validation');

interface Expect {
  /** The step the message names; null: the message names none. */
  readonly step: string | null;
  /** 1-based line and column; null: none (the size limit). */
  readonly at: readonly [number, number] | null;
  readonly reason: RegExp;
}

function rejects(src: string, want: Expect, format?: 'yaml' | 'json'): void {
  let err: unknown;
  try {
    compileDefinition(src, DEFINITION_LIBRARY, format ? { format } : {});
  } catch (e) {
    err = e;
  }
  assert.instance(err, DefinitionError, 'expected a DefinitionError');
  const e = err as DefinitionError;
  assert.match(e.reason, want.reason);
  assert.is(e.step, want.step ?? undefined, `step of: ${e.message}`);
  if (want.at) {
    assert.equal([e.line, e.col], [...want.at], `position of: ${e.message}`);
    const where = want.step !== null ? `step "${want.step}" (line ${want.at[0]}, column ${want.at[1]}): ` : `line ${want.at[0]}, column ${want.at[1]}: `;
    assert.is(e.message, `invalid workflow definition: ${where}${e.reason}`);
  } else {
    assert.is(e.line, undefined);
    assert.is(e.message, `invalid workflow definition: ${e.reason}`);
  }
}

function accepts(src: string): void {
  compileDefinition(src, DEFINITION_LIBRARY);
}

/** A step list with `n` assignments / conditions / branches. */
const repeat = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('');

// ---------------------------------------------------------------------------------------------------------
// Fields

s('an unknown field names the step and the field\'s line:col (docs/language.md#step-types)', () => {
  rejects('- check:\n    assign:\n      - x: 1\n    nxt: end\n', { step: 'check', at: [4, 5], reason: /^unknown field 'nxt'$/ });
});

s('two kinds in one step are conflicting fields (docs/language.md#step-types)', () => {
  rejects('- a:\n    assign:\n      - x: 1\n    call: sys.now\n', { step: 'a', at: [4, 5], reason: /^conflicting fields 'assign' and 'call'/ });
});

s('a field of another kind is refused: args without call, retry without try (docs/language.md#step-types, docs/language.md#try-retry-and-except)', () => {
  rejects('- a:\n    return: 1\n    args: {}\n', { step: 'a', at: [3, 5], reason: /'args' is only allowed with 'call', not with 'return'/ });
  rejects('- a:\n    retry: ${http.default_retry}\n', { step: 'a', at: [2, 5], reason: /'retry' is only allowed with 'try'/ });
});

s('a step with fields indented too little gets a hint (docs/language.md#definitions)', () => {
  rejects('- a:\n  assign:\n    - x: 1\n', { step: 'a', at: [2, 3], reason: /indented too little/ });
});

s('an empty step body is refused (docs/language.md#step-types)', () => {
  rejects('- a:\n- b:\n    return: 1\n', { step: 'a', at: [1, 3], reason: /must be a map of fields/ });
});

s('a workflow without steps, with empty steps, or with an unknown field is refused (docs/language.md#definitions)', () => {
  rejects('main:\n  params: [a]\n', { step: null, at: [1, 1], reason: /workflow 'main' has no 'steps'/ });
  rejects('main:\n  steps: []\n', { step: null, at: [2, 10], reason: /'steps' must not be empty/ });
  rejects('main:\n  steps:\n    - a:\n        return: 1\n  stepz: []\n', { step: null, at: [5, 3], reason: /unknown field 'stepz' in workflow 'main'/ });
});

s('a map without main is refused (docs/language.md#definitions)', () => {
  rejects('sub:\n  steps:\n    - a:\n        return: 1\n', { step: null, at: [1, 1], reason: /missing 'main' workflow/ });
});

s('a scalar document is refused (docs/language.md#definitions)', () => {
  rejects('hello\n', { step: null, at: [1, 1], reason: /must be a map of workflows or a list of steps/ });
});

// ---------------------------------------------------------------------------------------------------------
// Source

s('a YAML syntax error names its line and column (docs/api-resources.md#errors)', () => {
  rejects('main:\n  steps:\n    - a:\n        return: [1, 2\n    - b: 1\n', { step: null, at: [5, 5], reason: /^YAML syntax error: / });
});

s('a repeated YAML key is an error (YAML 1.2)', () => {
  rejects('- a:\n    return: 1\n    return: 2\n', { step: null, at: [3, 5], reason: /YAML syntax error: Map keys must be unique/ });
});

s('an empty source is refused (docs/api-resources.md#errors)', () => {
  rejects('# nothing\n', { step: null, at: [1, 1], reason: /empty/ });
});

s('a source over 128 KB of UTF-8 is refused, counting bytes not characters (docs/api-resources.md#limits)', () => {
  const pad = '# ' + 'é'.repeat(40 * 1024) + '\n'; // 80 KB of UTF-8 in 40 K characters
  accepts(pad + '- a:\n    return: 1\n');
  rejects(pad + pad + '- a:\n    return: 1\n', { step: null, at: null, reason: /^source is 16\d{4} bytes; the limit is 131072 bytes \(128 KB\)$/ });
});

s('a source of exactly 128 KB is accepted and one byte more refused, whatever its characters (docs/api-resources.md#limits)', () => {
  const body = '- a:\n    return: 1\n';
  // Filled up to the limit with a comment of 1-, 2-, 3- and 4-byte characters (emoji: a surrogate pair), and a
  // lone surrogate, which counts 3 bytes (U+FFFD).
  for (const [ch, size] of [['x', 1], ['é', 2], ['€', 3], ['😀', 4], ['\ud800', 3]] as const) {
    const room = 131072 - body.length - 3; // '# ' and '\n'
    const fill = ch.repeat(Math.floor(room / size)) + 'x'.repeat(room % size);
    const exact = `# ${fill}\n${body}`;
    accepts(exact);
    rejects(`# ${fill}x\n${body}`, { step: null, at: null, reason: /^source is 131073 bytes; the limit is 131072 bytes \(128 KB\)$/ });
    if (size > 1) rejects(`# ${ch}${fill}\n${body}`, { step: null, at: null, reason: new RegExp(`^source is ${131072 + size} bytes;`) });
  }
});

// ---------------------------------------------------------------------------------------------------------
// Jumps

s('next to a missing step is refused at the next value (docs/language.md#jumps-loops-and-scopes)', () => {
  rejects('- a:\n    next: nowhere\n- b:\n    return: 1\n', { step: 'a', at: [2, 11], reason: /^next: step 'nowhere' not found$/ });
});

s('next may jump into a plain nested steps block, not into a switch condition\'s steps (docs/language.md#jumps-loops-and-scopes)', () => {
  const d = compileDefinition('- a:\n    next: inner\n- g:\n    steps:\n      - inner:\n          return: 1\n', DEFINITION_LIBRARY);
  assert.equal(d.main.steps.steps[0]!.next, { kind: 'step', name: 'inner', depth: 0, index: 1, into: [0] });
  rejects('- a:\n    next: inner\n- g:\n    switch:\n      - condition: true\n        steps:\n          - inner:\n              return: 1\n', {
    step: 'a',
    at: [2, 11],
    reason: /step 'inner' not found \(next may only target a step of the same list, of an enclosing list or of a plain nested steps block/,
  });
});

s('next may not leave a for loop; break does (Google "Iteration")', () => {
  rejects('- f:\n    for:\n      value: v\n      in: [1]\n      steps:\n        - s:\n            next: after\n- after:\n    return: 1\n', {
    step: 's',
    at: [7, 19],
    reason: /may not leave a for loop/,
  });
});

s('next may not leave a parallel branch (docs/language.md#parallel-steps)', () => {
  rejects(
    '- p:\n    parallel:\n      branches:\n        - b1:\n            steps:\n              - x:\n                  next: after\n        - b2:\n            steps:\n              - y:\n                  return: 1\n- after:\n    return: 1\n',
    { step: 'x', at: [7, 25], reason: /may not leave a for loop or a parallel branch/ },
  );
});

s('break and continue outside a for loop are refused (docs/language.md#jumps-loops-and-scopes)', () => {
  rejects('- a:\n    next: break\n', { step: 'a', at: [2, 11], reason: /^next: break is only allowed inside a for loop$/ });
  rejects(
    '- f:\n    for:\n      value: v\n      in: [1]\n      steps:\n        - p:\n            parallel:\n              branches:\n                - b:\n                    steps:\n                      - c:\n                          next: continue\n',
    { step: 'c', at: [12, 33], reason: /continue is only allowed inside a for loop/ },
  );
});

s('next must be a step name (docs/language.md#jumps-loops-and-scopes)', () => {
  rejects('- a:\n    next: [x]\n', { step: 'a', at: [2, 11], reason: /next must be a step name/ });
});

s('duplicate step names in one workflow are refused, in the same list or nested (Google "Steps": unique at the subworkflow level)', () => {
  rejects('- a:\n    assign:\n      - x: 1\n- a:\n    return: 1\n', { step: 'a', at: [4, 3], reason: /^duplicate step name 'a'/ });
  rejects('- a:\n    steps:\n      - b:\n          steps:\n            - a:\n                return: 1\n', { step: 'a', at: [5, 15], reason: /^duplicate step name 'a'/ });
});

s('the same step name in two workflows is allowed, in two parallel branches it is not (Google "Steps")', () => {
  accepts('main:\n  steps:\n    - init:\n        call: sub\n    - r:\n        return: 1\nsub:\n  steps:\n    - init:\n        return: 2\n');
  rejects(
    '- p:\n    parallel:\n      branches:\n        - b1:\n            steps:\n              - x:\n                  assign:\n                    - a: 1\n        - b2:\n            steps:\n              - x:\n                  assign:\n                    - a: 2\n',
    { step: 'x', at: [11, 17], reason: /^duplicate step name 'x'/ },
  );
});

// ---------------------------------------------------------------------------------------------------------
// Calls

s('a call of an unknown function or subworkflow is refused at its name (docs/language.md#step-types)', () => {
  rejects('- a:\n    call: nosuch\n', { step: 'a', at: [2, 11], reason: /^unknown function or subworkflow 'nosuch'$/ });
  rejects('- a:\n    call: text.nosuch\n', { step: 'a', at: [2, 11], reason: /^unknown function or subworkflow 'text.nosuch'$/ });
});

s('an expression calling an unknown function is refused at the call (docs/language.md#expressions)', () => {
  rejects('- a:\n    return: ${1 + nosuch(2)}\n', { step: 'a', at: [2, 19], reason: /^unknown function or subworkflow 'nosuch' in expression$/ });
  rejects('- a:\n    assign:\n      - x: ${[len("a"), map.nosuch(1)]}\n', { step: 'a', at: [3, 25], reason: /'map.nosuch'/ });
});

s('connectors and non-emulated namespaces deploy, in calls and expressions (docs/differences.md#the-service)', () => {
  accepts(
    '- a:\n    call: googleapis.run.v1.namespaces.services.get\n    args: {name: x}\n- b:\n    return: ${googleapis.x.y(1) + experimental.executions.run(1) + gke.request(1)}\n',
  );
});

s('if(), not() and subworkflows are known in expressions (docs/language.md#expressions)', () => {
  accepts('main:\n  steps:\n    - a:\n        return: ${if(not(true), sub(1), get_type(1))}\nsub:\n  params: [x]\n  steps:\n    - r:\n        return: ${x}\n');
});

s("'call' takes a name, not an expression, and 'result' a variable name (spec \"call\")", () => {
  rejects('- a:\n    call: ${f}\n', { step: 'a', at: [2, 11], reason: /not an expression/ });
  rejects('- a:\n    call: sys.now\n    result: a.b\n', { step: 'a', at: [3, 13], reason: /'result' must be a variable name/ });
  rejects('main:\n  steps:\n    - a:\n        call: sub\n        args: [1]\nsub:\n  steps:\n    - r:\n        return: 1\n', { step: 'a', at: [5, 15], reason: /'args' must be a map/ });
  rejects('- a:\n    call: sys.now\n    args: [1]\n', { step: 'a', at: [3, 12], reason: /takes at most 0 values/ });
});

s("a standard-library call's 'args' may be a list, bound by position (https://cloud.google.com/workflows/docs/reference/stdlib/sys/log)", () => {
  accepts('- v:\n    assign:\n      - myVar: x\n- a:\n    call: sys.log\n    args: [\'${myVar}\', "ERROR"]\n- b:\n    call: sys.log\n    args:\n      - ${null}\n      - ERROR\n      - text\n');
});

// ---------------------------------------------------------------------------------------------------------
// Params

s('bad params are refused: not a list, a bad entry, a bad or repeated name, more than one for main (docs/language.md#definitions)', () => {
  rejects('main:\n  params: x\n  steps:\n    - a:\n        return: 1\n', { step: null, at: [2, 11], reason: /params of workflow 'main' must be a list/ });
  rejects('main:\n  steps:\n    - a:\n        return: 1\nsub:\n  params: [[x]]\n  steps:\n    - a:\n        return: 1\n', {
    step: null,
    at: [6, 12],
    reason: /bad parameter in workflow 'sub'/,
  });
  rejects('main:\n  steps:\n    - a:\n        return: 1\nsub:\n  params: [a, 2b]\n  steps:\n    - a:\n        return: 1\n', {
    step: null,
    at: [6, 15],
    reason: /bad parameter name '2b'/,
  });
  rejects('main:\n  steps:\n    - a:\n        return: 1\nsub:\n  params: [a, a: 1]\n  steps:\n    - a:\n        return: 1\n', {
    step: null,
    at: [6, 15],
    reason: /duplicate parameter 'a'/,
  });
  rejects('main:\n  params: [a, b]\n  steps:\n    - a:\n        return: 1\n', { step: null, at: [2, 11], reason: /'main' takes at most one parameter/ });
});

// ---------------------------------------------------------------------------------------------------------
// Limits

s('50 assignments in a step are allowed, 51 are refused (docs/api-resources.md#limits)', () => {
  accepts('- a:\n    assign:\n' + repeat(50, (i) => `      - x${i}: ${i}\n`));
  rejects('- a:\n    assign:\n' + repeat(51, (i) => `      - x${i}: ${i}\n`), {
    step: 'a',
    at: [2, 5],
    reason: /^too many assignments in one step: 51 \(the limit is 50\)$/,
  });
});

s('50 switch conditions are allowed, 51 are refused (docs/api-resources.md#limits)', () => {
  const sw = (n: number) => '- s:\n    switch:\n' + repeat(n, (i) => `      - condition: \${x == ${i}}\n        next: end\n`);
  accepts(sw(50));
  rejects(sw(51), { step: 's', at: [3, 7], reason: /^too many conditions in one switch: 51 \(the limit is 50\)$/ });
});

s('10 parallel branches are allowed, 11 are refused (docs/api-resources.md#limits)', () => {
  const p = (n: number) =>
    '- p:\n    parallel:\n      branches:\n' + repeat(n, (i) => `        - b${i}:\n            steps:\n              - s${i}:\n                  return: ${i}\n`);
  accepts(p(10));
  rejects(p(11), { step: 'p', at: [4, 9], reason: /^too many branches in one parallel step: 11 \(the limit is 10\)$/ });
});

s('an expression of 400 characters is allowed, 401 is refused (docs/api-resources.md#limits)', () => {
  const e = (n: number) => '"' + 'x'.repeat(n - 2) + '"';
  accepts(`- a:\n    return: \${${e(400)}}\n`);
  rejects(`- a:\n    return: \${${e(401)}}\n`, { step: 'a', at: [2, 15], reason: /^expression is 401 characters long; the limit is 400$/ });
});

s('parallel nesting of 2 is allowed, 3 is refused where visible in the source (docs/api-resources.md#limits: ParallelNestingError)', () => {
  // `depth` parallel steps, each inside a branch of the one before.
  const nest = (depth: number): string => {
    const lines: string[] = [];
    for (let d = 0; d < depth; d++) {
      const i = ' '.repeat(12 * d);
      lines.push(`${i}- p${d}:`, `${i}    parallel:`, `${i}      branches:`, `${i}        - c${d}:`, `${i}            steps:`);
      lines.push(`${i}              - q${d}:`, `${i}                  return: 0`, `${i}        - b${d}:`, `${i}            steps:`);
    }
    lines.push(' '.repeat(12 * depth) + '- leaf:', ' '.repeat(12 * depth) + '    return: 1');
    return lines.join('\n') + '\n';
  };
  accepts(nest(2));
  rejects(nest(3), { step: 'p2', at: [20, 29], reason: /^parallel steps nested more than 2 deep \(ParallelNestingError\)$/ });
});

// ---------------------------------------------------------------------------------------------------------
// Expressions

s('an empty ${} is refused (docs/language.md#expressions)', () => {
  rejects('- a:\n    return: ${}\n', { step: 'a', at: [2, 13], reason: /^empty expression '\$\{\}'$/ });
  rejects('- a:\n    return: "${  }"\n', { step: 'a', at: [2, 14], reason: /^empty expression/ });
});

s('a nested ${${x}} is refused (docs/language.md#expressions)', () => {
  rejects("- a:\n    return: '${${x}}'\n", { step: 'a', at: [2, 16], reason: /^nested expression/ });
  rejects("- a:\n    return: '${1 + ${x}}'\n", { step: 'a', at: [2, 20], reason: /^nested expression/ });
});

s('an expression syntax error points at the offending character (docs/language.md#expressions)', () => {
  rejects('- a:\n    return: ${1 + * 2}\n', { step: 'a', at: [2, 19], reason: /^invalid expression '\$\{1 \+ \* 2\}': / });
  rejects('- a:\n    assign:\n      - x: "${(1 + 2}"\n', { step: 'a', at: [3, 21], reason: /^invalid expression/ });
});

s('an expression in a quoted scalar with escapes maps past the escapes (docs/language.md#expressions)', () => {
  rejects('- a:\n    return: "${\\"a\\" + * 2}"\n', { step: 'a', at: [2, 24], reason: /^invalid expression/ });
  rejects("- a:\n    return: '${''a'' + nosuch()}'\n", { step: 'a', at: [2, 24], reason: /'nosuch'/ });
});

s('an invalid assignment target is refused at its key (docs/language.md#step-types)', () => {
  rejects('- a:\n    assign:\n      - 1x: 1\n', { step: 'a', at: [3, 9], reason: /^invalid assignment target '1x'/ });
  rejects('- a:\n    assign:\n      - a + b: 1\n', { step: 'a', at: [3, 9], reason: /^invalid assignment target 'a \+ b'/ });
  rejects("- a:\n    assign:\n      - '${x}': 1\n", { step: 'a', at: [3, 9], reason: /not an expression/ });
  rejects('- a:\n    assign:\n      - m[nosuch(1)]: 1\n', { step: 'a', at: [3, 11], reason: /unknown function or subworkflow 'nosuch'/ });
  rejects('- a:\n    assign:\n      - x\n', { step: 'a', at: [3, 9], reason: /each assignment must be a map with exactly one entry/ });
  rejects('- a:\n    assign: []\n', { step: 'a', at: [2, 13], reason: /'assign' must not be empty/ });
});

// ---------------------------------------------------------------------------------------------------------
// for, parallel, try/retry/except, switch

s('for needs value, steps and exactly one of in and range (docs/language.md#jumps-loops-and-scopes)', () => {
  rejects('- f:\n    for:\n      in: [1]\n      steps:\n        - a:\n            return: 1\n', { step: 'f', at: [3, 7], reason: /needs 'value'/ });
  rejects('- f:\n    for:\n      value: v\n      in: [1]\n', { step: 'f', at: [3, 7], reason: /needs 'steps'/ });
  rejects('- f:\n    for:\n      value: v\n      steps:\n        - a:\n            return: 1\n', { step: 'f', at: [3, 7], reason: /needs 'in'/ });
  rejects('- f:\n    for:\n      value: v\n      in: [1]\n      range: [1, 2]\n      steps:\n        - a:\n            return: 1\n', {
    step: 'f',
    at: [5, 7],
    reason: /conflicting fields 'in' and 'range'/,
  });
  rejects('- f:\n    for:\n      value: v\n      range: [1, 2, 3]\n      steps:\n        - a:\n            return: 1\n', { step: 'f', at: [4, 14], reason: /two values/ });
  rejects('- f:\n    for:\n      value: v.w\n      in: [1]\n      steps:\n        - a:\n            return: 1\n', { step: 'f', at: [3, 14], reason: /'value' must be a variable name/ });
  rejects('- f:\n    for:\n      value: v\n      in: [1]\n      step: []\n', { step: 'f', at: [5, 7], reason: /unknown field 'step' in 'for'/ });
});

s('parallel needs branches or for, a known exception_policy, shared names and a positive concurrency_limit (docs/language.md#parallel-steps)', () => {
  const tail = '      branches:\n        - b:\n            steps:\n              - x:\n                  return: 1\n';
  rejects('- p:\n    parallel:\n      shared: [a]\n', { step: 'p', at: [3, 7], reason: /needs 'branches' or 'for'/ });
  rejects('- p:\n    parallel:\n      exception_policy: stopAll\n' + tail, { step: 'p', at: [3, 25], reason: /'unhandled' or 'continueAll'/ });
  rejects('- p:\n    parallel:\n      shared: [a.b]\n' + tail, { step: 'p', at: [3, 16], reason: /each shared variable must be a variable name/ });
  rejects('- p:\n    parallel:\n      concurrency_limit: 0\n' + tail, { step: 'p', at: [3, 26], reason: /positive integer/ });
  rejects('- p:\n    parallel:\n      branches:\n        - b:\n            stepz: []\n', { step: 'p', at: [5, 13], reason: /unknown field 'stepz' in branch 'b'/ });
  rejects(
    '- p:\n    parallel:\n      branches:\n        - b:\n            steps:\n              - x:\n                  return: 1\n        - b:\n            steps:\n              - y:\n                  return: 1\n',
    { step: 'p', at: [8, 11], reason: /duplicate branch name 'b'/ },
  );
});

s('retry must name a known policy, or give a known predicate and max_retries (docs/language.md#try-retry-and-except)', () => {
  const t = '- t:\n    try:\n      raise: x\n';
  rejects(t + '    retry: ${nosuch.policy}\n', { step: 't', at: [4, 12], reason: /^unknown retry policy 'nosuch.policy'/ });
  rejects(t + '    retry: http.default_retry\n', { step: 't', at: [4, 12], reason: /must be an expression naming it/ });
  rejects(t + '    retry:\n      predicate: ${nosuch}\n      max_retries: 1\n', { step: 't', at: [5, 18], reason: /^unknown retry predicate 'nosuch'/ });
  rejects(t + '    retry:\n      max_retries: 1\n', { step: 't', at: [5, 7], reason: /needs a 'predicate'/ });
  rejects(t + '    retry:\n      predicate: ${http.default_retry_predicate}\n', { step: 't', at: [5, 7], reason: /needs 'max_retries'/ });
  rejects(t + '    retry:\n      predicate: ${http.default_retry_predicate}\n      max_retries: 1.5\n', {
    step: 't',
    at: [6, 20],
    reason: /'max_retries' must be a non-negative integer/,
  });
  rejects(t + '    retry:\n      predicate: ${http.default_retry_predicate}\n      max_retries: 1\n      backoff:\n        delay: 1\n', {
    step: 't',
    at: [8, 9],
    reason: /unknown field 'delay' in 'backoff'/,
  });
});

s('a subworkflow used as a retry predicate must take one parameter (docs/language.md#try-retry-and-except)', () => {
  rejects(
    'main:\n  steps:\n    - t:\n        try:\n          raise: x\n        retry:\n          predicate: ${p}\n          max_retries: 1\np:\n  steps:\n    - r:\n        return: true\n',
    { step: 't', at: [7, 22], reason: /must be a subworkflow taking one parameter/ },
  );
});

s('except takes as and steps only (docs/language.md#try-retry-and-except)', () => {
  rejects('- t:\n    try:\n      raise: x\n    except:\n      as: e\n', { step: 't', at: [4, 5], reason: /'except' needs 'steps'/ });
  rejects('- t:\n    try:\n      raise: x\n    except:\n      as: e\n      error: x\n      steps:\n        - a:\n            return: 1\n', {
    step: 't',
    at: [6, 7],
    reason: /unknown field 'error' in 'except'/,
  });
});

s('switch must be a list of conditions, each with condition (docs/language.md#step-types)', () => {
  rejects('- s:\n    switch:\n      - next: end\n', { step: 's', at: [3, 9], reason: /must have a 'condition'/ });
  rejects('- s:\n    switch: []\n', { step: 's', at: [2, 13], reason: /at least one condition/ });
  rejects('- s:\n    switch:\n      - condition: true\n        nope: 1\n', { step: 's', at: [4, 9], reason: /unknown field 'nope'/ });
});

s.run();
