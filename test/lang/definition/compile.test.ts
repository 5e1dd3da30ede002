// compileDefinition: both document forms, YAML and JSON, every step kind and field compiled to its ast.ts
// node, templates, jumps as (depth, index), and source positions (docs/language.md#definitions).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Definition, JumpTarget, Step, StepList, Template } from '../../../src/lang/definition/ast.ts';
import { compileDefinition } from '../../../src/lang/definition/compile.ts';
import { DEFINITION_LIBRARY } from '../../../src/stdlib/index.ts';

import type { Value } from '../../../src/lang/value.ts';

const s = suite('definition compiler');

/** The main workflow's steps. */
function mainSteps(src: string, format?: 'yaml' | 'json'): readonly Step[] {
  return compileDefinition(src, DEFINITION_LIBRARY, format ? { format } : {}).main.steps.steps;
}

/** A step by kind, failing the test when the kind differs. */
function as<K extends Step['kind']>(step: Step | undefined, kind: K): Extract<Step, { kind: K }> {
  assert.ok(step, 'missing step');
  assert.is(step.kind, kind);
  return step as Extract<Step, { kind: K }>;
}

function constOf(t: Template | undefined): Value {
  assert.ok(t, 'missing template');
  assert.is(t.kind, 'const');
  return (t as { value: Value }).value;
}

function exprOf(t: Template | undefined): string {
  assert.ok(t, 'missing template');
  assert.is(t.kind, 'expr');
  return (t as { expr: { source: string } }).expr.source;
}

function names(list: StepList): string[] {
  return list.steps.map((x) => x.name);
}

// ---------------------------------------------------------------------------------------------------------
// Document forms

s('a map with main and subworkflows compiles every workflow with its params (docs/language.md#definitions)', () => {
  const d = compileDefinition(`
main:
  params: [args]
  steps:
    - r:
        return: \${sub(1)}
sub:
  params: [a, b: 10, c: null]
  steps:
    - r:
        return: \${a + b}
`, DEFINITION_LIBRARY);
  assert.equal([...d.workflows.keys()], ['main', 'sub']);
  assert.is(d.main, d.workflows.get('main'));
  assert.equal(d.main.params, [{ name: 'args', hasDefault: false }]);
  assert.equal(d.workflows.get('sub')!.params, [
    { name: 'a', hasDefault: false },
    { name: 'b', hasDefault: true, default: 10n },
    { name: 'c', hasDefault: true, default: null },
  ]);
  assert.equal(d.workflows.get('sub')!.pos, { line: 7, col: 1 });
});

s('a document that is only a list of steps is main without params (docs/language.md#definitions)', () => {
  const d = compileDefinition('- a:\n    return: 1\n', DEFINITION_LIBRARY);
  assert.equal([...d.workflows.keys()], ['main']);
  assert.equal(d.main.params, []);
  assert.equal(names(d.main.steps), ['a']);
});

s('JSON sources compile like YAML, with exact ints and distinct doubles (docs/language.md#data-types)', () => {
  const src = JSON.stringify({ main: { steps: [{ a: { assign: [{ i: 1 }, { d: 1.5 }] } }, { r: { return: '${i}' } }] } })
    .replace('1.5', '2.0')
    .replace('"i":1', '"i":9007199254740993');
  for (const format of ['json', undefined] as const) {
    const a = as(mainSteps(src, format)[0], 'assign');
    assert.is(constOf(a.assignments[0]!.value), 9007199254740993n);
    const d = constOf(a.assignments[1]!.value);
    assert.is(typeof d, 'number');
    assert.is(d, 2);
  }
});

s('JSON semantics: a repeated key keeps the last value (docs/language.md#definitions)', () => {
  const steps = mainSteps('{"main": {"steps": [{"a": {"return": 1, "return": 2}}]}}', 'json');
  assert.is(constOf(as(steps[0], 'return').value), 2n);
});

s('a .json source that is not strict JSON is rejected with its position (docs/api-resources.md#errors)', () => {
  try {
    compileDefinition('{"main": {"steps": [{"a": {"return": 1}}]},}', DEFINITION_LIBRARY, { format: 'json' });
    assert.unreachable();
  } catch (e) {
    assert.match((e as Error).message, /^invalid workflow definition: line 1, column 44: JSON syntax error/);
  }
});

s('YAML scalars: True/FALSE are booleans, ints stay bigint (exact), floats numbers, ~ is null (docs/language.md#data-types)', () => {
  const a = as(
    mainSteps(`
- a:
    assign:
      - t: True
      - f: FALSE
      - big: 9223372036854775807
      - neg: -9223372036854775808
      - huge: 18446744073709551616
      - hex: 0x1F
      - d: 1.0
      - e: 2e3
      - n: ~
      - s: "1"
      - y: yes
`)[0],
    'assign',
  );
  const v = a.assignments.map((x) => constOf(x.value));
  assert.equal(v, [true, false, 9223372036854775807n, -9223372036854775808n, 18446744073709551616, 31n, 1, 2000, null, '1', 'yes']);
});

s('maps are Maps: __proto__ and constructor are plain keys (docs/language.md#data-types)', () => {
  const a = as(mainSteps('- a:\n    assign:\n      - m: {__proto__: 1, constructor: 2}\n')[0], 'assign');
  const m = constOf(a.assignments[0]!.value) as Map<string, Value>;
  assert.ok(m instanceof Map);
  assert.equal([...m.entries()], [
    ['__proto__', 1n],
    ['constructor', 2n],
  ]);
});

s('anchors and aliases are resolved (YAML 1.2 via the yaml package)', () => {
  const a = as(mainSteps('- a:\n    assign:\n      - x: &v [1, 2]\n      - y: *v\n')[0], 'assign');
  assert.equal(constOf(a.assignments[1]!.value), [1n, 2n]);
});

s('block scalars, folded and literal, read as the yaml package reads them', () => {
  const a = as(mainSteps('- a:\n    assign:\n      - x: |\n          line 1\n          line 2\n      - y: >-\n          folded\n          text\n')[0], 'assign');
  assert.is(constOf(a.assignments[0]!.value), 'line 1\nline 2\n');
  assert.is(constOf(a.assignments[1]!.value), 'folded text');
});

// ---------------------------------------------------------------------------------------------------------
// Templates

s('a string that is exactly one ${...} is an expression; text around it stays literal (docs/language.md#expressions)', () => {
  const a = as(
    mainSteps(`
- a:
    assign:
      - e: \${1 + 2}
      - lit: "Hello \${name}"
      - lit2: "\${a} and \${b}x"
      - nested:
          k: [1, '\${x}']
      - c: {k: [1, 2]}
`)[0],
    'assign',
  );
  assert.is(exprOf(a.assignments[0]!.value), '1 + 2');
  assert.is(constOf(a.assignments[1]!.value), 'Hello ${name}');
  assert.is(constOf(a.assignments[2]!.value), '${a} and ${b}x');
  const nested = a.assignments[3]!.value;
  assert.is(nested.kind, 'map');
  const inner = (nested as Extract<Template, { kind: 'map' }>).entries[0]![1];
  assert.is(inner.kind, 'list');
  assert.is(exprOf((inner as Extract<Template, { kind: 'list' }>).items[1]), 'x');
  // A list or map without expressions folds into one constant.
  const c = constOf(a.assignments[4]!.value) as Map<string, Value>;
  assert.equal(c.get('k'), [1n, 2n]);
});

s('an expression keeps the position of its scalar (docs/language.md#expressions)', () => {
  const r = as(mainSteps('- a:\n    return: ${x}\n')[0], 'return');
  assert.equal((r.value as Extract<Template, { kind: 'expr' }>).pos, { line: 2, col: 13 });
});

s('an expression written several times is compiled once per definition, and each use keeps its own position (docs/language.md#expressions)', () => {
  const d = compileDefinition('main:\n  steps:\n    - a:\n        assign:\n          - x: ${len("ab") + 1}\n          - y: ${len("ab") + 1}\n    - b:\n        return: ${len("ab") + 1}\nsub:\n  steps:\n    - c:\n        return: ${len("ab") + 1}\n', DEFINITION_LIBRARY);
  const [x, y] = as(d.main.steps.steps[0], 'assign').assignments;
  const r = as(d.main.steps.steps[1], 'return').value as Extract<Template, { kind: 'expr' }>;
  const sub = as(d.workflows.get('sub')!.steps.steps[0], 'return').value as Extract<Template, { kind: 'expr' }>;
  const uses = [x!.value, y!.value, r, sub] as Extract<Template, { kind: 'expr' }>[];
  assert.equal(uses.map((t) => t.pos), [{ line: 5, col: 16 }, { line: 6, col: 16 }, { line: 8, col: 17 }, { line: 12, col: 17 }]);
  for (const t of uses) assert.is(t.expr, uses[0]!.expr);
  assert.is(uses[0]!.expr.evaluate({ lookup: () => undefined, call: (_name, args) => BigInt((args[0] as string).length) }), 3n);
});

s('a map key written ${...} is a computed key (Google "Maps": dynamic keys)', () => {
  const a = as(mainSteps('- a:\n    assign:\n      - k: K\n      - m:\n          ${k}: 1\n          fixed: 2\n')[0], 'assign');
  const m = a.assignments[1]!.value as Extract<Template, { kind: 'map' }>;
  assert.is(m.kind, 'map');
  assert.ok(m.keyExprs);
  assert.is(m.keyExprs[0]!.source, 'k');
  assert.is(m.keyExprs[1], null);
  assert.equal(m.entries.map(([k]) => k), ['${k}', 'fixed']);
});

s('calls of subworkflows and blocking functions make the template async (docs/language.md#expressions)', () => {
  const d = compileDefinition(`
main:
  steps:
    - a:
        assign:
          - x: \${len("ab")}
          - y: ['\${sub()}']
          - z: \${http.get("http://x")}
    - r:
        return: \${x}
sub:
  steps:
    - r:
        return: 1
`, DEFINITION_LIBRARY);
  const a = as(d.main.steps.steps[0], 'assign');
  assert.is((a.assignments[0]!.value as Extract<Template, { kind: 'expr' }>).expr.isAsync, false);
  assert.is((a.assignments[1]!.value as Extract<Template, { kind: 'list' }>).isAsync, true);
  assert.is((a.assignments[2]!.value as Extract<Template, { kind: 'expr' }>).expr.isAsync, true);
});

// ---------------------------------------------------------------------------------------------------------
// Steps

s('assign targets: name, a.b, a[i], a["k"], a[\'k\'] and nested paths (docs/language.md#step-types)', () => {
  const a = as(
    mainSteps(`
- a:
    assign:
      - x: 1
      - m.b: 2
      - l[i + 1]: 3
      - m["k"]: 4
      - m['q'].r[0].s: 5
`)[0],
    'assign',
  );
  const t = a.assignments.map((x) => x.target);
  assert.equal(t[0], { root: 'x', path: [], text: 'x' });
  assert.equal(t[1], { root: 'm', path: [{ kind: 'key', name: 'b' }], text: 'm.b' });
  assert.is(t[2]!.root, 'l');
  assert.is(t[2]!.path[0]!.kind, 'index');
  assert.is((t[2]!.path[0] as { expr: { source: string } }).expr.source, 'i + 1');
  assert.equal(t[3]!.path, [{ kind: 'key', name: 'k' }]);
  assert.is(t[4]!.root, 'm');
  assert.equal(
    t[4]!.path.map((p) => (p.kind === 'key' ? p.name : (p.expr as { source: string }).source)),
    ['q', 'r', '0', 's'],
  );
  assert.equal(a.assignments.map((x) => constOf(x.value)), [1n, 2n, 3n, 4n, 5n]);
});

s('call: stdlib, subworkflow and connector targets with args and result (docs/language.md#step-types)', () => {
  const d = compileDefinition(`
main:
  steps:
    - a:
        call: http.get
        args:
          url: \${"http://x/" + id}
          timeout: 10
        result: r
    - b:
        call: sub
        args: {x: 1}
    - c:
        call: googleapis.storage.v1.objects.get
        args:
          bucket: b
    - d:
        call: sys.log
        args:
          text: hi
sub:
  params: [x]
  steps:
    - r:
        return: \${x}
`, DEFINITION_LIBRARY);
  const [a, b, c, dd] = d.main.steps.steps;
  const ca = as(a, 'call');
  assert.equal(ca.target, { kind: 'stdlib', name: 'http.get' });
  assert.equal(ca.args!.map(([k]) => k), ['url', 'timeout']);
  assert.is(exprOf(ca.args![0]![1]), '"http://x/" + id');
  assert.is(ca.result, 'r');
  assert.equal(as(b, 'call').target, { kind: 'subworkflow', name: 'sub' });
  assert.is(as(b, 'call').result, undefined);
  assert.equal(as(c, 'call').target, { kind: 'unsupported', name: 'googleapis.storage.v1.objects.get' });
  assert.equal(as(dd, 'call').target, { kind: 'stdlib', name: 'sys.log' });
});

s('switch: conditions with next, steps, inline content, steps plus next, and the switch next (docs/language.md#step-types)', () => {
  const steps = mainSteps(`
- s:
    switch:
      - condition: \${x > 1}
        next: done
      - condition: \${x == 1}
        steps:
          - inner:
              assign:
                - y: 1
      - condition: true
        assign:
          - y: 2
        next: done
      - condition: \${x < 0}
        return: neg
      - condition: \${x == 0}
        steps:
          - inner2:
              assign:
                - y: 0
        next: done
    next: done
- done:
    return: \${y}
`);
  const sw = as(steps[0], 'switch');
  assert.equal(sw.next, { kind: 'step', name: 'done', depth: 0, index: 1 });
  const [c0, c1, c2, c3, c4] = sw.cases;
  assert.equal(c0!.next, { kind: 'step', name: 'done', depth: 0, index: 1 });
  assert.is(exprOf(c0!.condition), 'x > 1');
  assert.equal(names(c1!.steps!), ['inner']);
  assert.is(constOf(c2!.condition), true);
  // Inline content with a next runs as the one step of a list of its own (with no names to jump to): its
  // next climbs out of that list into the switch's.
  assert.is(c2!.step, undefined);
  assert.equal(c2!.steps!.index.size, 0);
  const inline = as(c2!.steps!.steps[0], 'assign');
  assert.is(inline.name, 's');
  assert.equal(inline.next, { kind: 'step', name: 'done', depth: 1, index: 1 });
  // Inline content without a next is the case's step.
  assert.is(constOf(as(c3!.step, 'return').value), 'neg');
  const group = as(c4!.steps!.steps[0], 'steps');
  assert.equal(names(group.steps), ['inner2']);
  assert.equal(group.next, { kind: 'step', name: 'done', depth: 1, index: 1 });
  assert.equal(c0!.pos, { line: 4, col: 9 });
});

s('for: value, index, in; and range as a list or as one ${[a, b]} expression (docs/language.md#jumps-loops-and-scopes)', () => {
  const steps = mainSteps(`
- f1:
    for:
      value: v
      index: i
      in: \${items}
      steps:
        - a:
            next: continue
- f2:
    for:
      value: v
      range: [1, '\${n}']
      steps:
        - b:
            next: break
- f3:
    for:
      value: v
      range: \${[0, len(items) - 1]}
      steps:
        - c:
            assign:
              - x: \${v}
`);
  const f1 = as(steps[0], 'for').loop;
  assert.is(f1.value, 'v');
  assert.is(f1.index, 'i');
  assert.is(exprOf(f1.in), 'items');
  assert.equal(f1.steps.steps[0]!.next, { kind: 'continue' });
  const f2 = as(steps[1], 'for').loop;
  assert.is(f2.in, undefined);
  const r2 = f2.range as Extract<Template, { kind: 'list' }>;
  assert.is(r2.kind, 'list');
  assert.is(constOf(r2.items[0]), 1n);
  assert.is(exprOf(r2.items[1]), 'n');
  assert.equal(f2.steps.steps[0]!.next, { kind: 'break' });
  // One expression for the whole range: evaluated once per loop, to the list [start, end].
  const f3 = as(steps[2], 'for').loop;
  assert.is(exprOf(f3.range), '[0, len(items) - 1]');
  const env = { lookup: (n: string) => (n === 'items' ? ['a', 'b', 'c'] : undefined), call: (_n: string, a: Value[]) => BigInt((a[0] as Value[]).length) };
  assert.equal((f3.range as Extract<Template, { kind: 'expr' }>).expr.evaluate(env), [0n, 2n]);
});

s('parallel: branches with shared, concurrency_limit and exception_policy; parallel for (docs/language.md#parallel-steps)', () => {
  const steps = mainSteps(`
- p:
    parallel:
      shared: [total, seen]
      concurrency_limit: 2
      exception_policy: continueAll
      branches:
        - b1:
            steps:
              - x:
                  assign:
                    - total: 1
        - b2:
            steps:
              - y:
                  return: 2
- q:
    parallel:
      for:
        value: v
        in: [1, 2]
        steps:
          - z:
              assign:
                - a: \${v}
`);
  const p = as(steps[0], 'parallel');
  assert.equal(p.shared, ['total', 'seen']);
  assert.is(constOf(p.concurrencyLimit), 2n);
  assert.is(p.exceptionPolicy, 'continueAll');
  assert.equal(p.branches!.map((b) => [b.name, names(b.steps)]), [
    ['b1', ['x']],
    ['b2', ['y']],
  ]);
  assert.equal(p.branches![0]!.pos, { line: 8, col: 11 });
  assert.is(p.for, undefined);
  const q = as(steps[1], 'parallel');
  assert.equal(q.shared, []);
  assert.is(q.concurrencyLimit, undefined);
  assert.is(q.exceptionPolicy, 'unhandled');
  assert.is(q.for!.value, 'v');
  assert.equal(constOf(q.for!.in), [1n, 2n]);
});

s('try with one step, or with steps; retry as a policy or a map; except with as (docs/language.md#try-retry-and-except)', () => {
  const d = compileDefinition(`
main:
  steps:
    - t1:
        try:
          call: http.get
          args:
            url: http://x
          result: r
        retry: \${http.default_retry}
    - t2:
        try:
          steps:
            - a:
                assign:
                  - x: 1
            - b:
                raise: oops
        retry:
          predicate: \${pred}
          max_retries: 3
          backoff:
            initial_delay: 1
            max_delay: 10.5
            multiplier: 2
        except:
          as: e
          steps:
            - h:
                return: \${e.message}
    - t3:
        try:
          raise: x
        retry:
          predicate: \${http.default_retry_predicate}
          max_retries: \${n}
        except:
          steps:
            - h2:
                return: 0
pred:
  params: [e]
  steps:
    - r:
        return: true
`, DEFINITION_LIBRARY);
  const [t1, t2, t3] = d.main.steps.steps;
  const a = as(t1, 'try');
  assert.equal(names(a.body), ['t1']);
  assert.equal(as(a.body.steps[0], 'call').target, { kind: 'stdlib', name: 'http.get' });
  assert.equal(a.retry, { kind: 'policy', name: 'http.default_retry', pos: { line: 10, col: 16 } });
  assert.is(a.except, undefined);
  const b = as(t2, 'try');
  assert.equal(names(b.body), ['a', 'b']);
  const r = b.retry as Extract<NonNullable<typeof b.retry>, { kind: 'custom' }>;
  assert.is(r.kind, 'custom');
  assert.equal(r.predicate, { kind: 'subworkflow', name: 'pred' });
  assert.is(constOf(r.maxRetries), 3n);
  assert.is(constOf(r.initialDelaySec), 1n);
  assert.is(constOf(r.maxDelaySec), 10.5);
  assert.is(constOf(r.multiplier), 2n);
  assert.is(b.except!.as, 'e');
  assert.equal(names(b.except!.steps), ['h']);
  const c = as(t3, 'try');
  const r3 = c.retry as Extract<NonNullable<typeof c.retry>, { kind: 'custom' }>;
  assert.equal(r3.predicate, { kind: 'stdlib', name: 'http.default_retry_predicate' });
  assert.is(exprOf(r3.maxRetries), 'n');
  // Without backoff, the default backoff (retry.default_backoff: 1 s, 60 s, x1.25).
  assert.equal([constOf(r3.initialDelaySec), constOf(r3.maxDelaySec), constOf(r3.multiplier)], [1, 60, 1.25]);
  assert.is(c.except!.as, undefined);
});

s('backoff may name the default backoff: ${retry.default_backoff} (Google standard library "retry")', () => {
  const t = as(
    mainSteps('- t:\n    try:\n      raise: x\n    retry:\n      predicate: ${retry.always}\n      max_retries: 2\n      backoff: ${retry.default_backoff}\n')[0],
    'try',
  );
  const r = t.retry as Extract<NonNullable<typeof t.retry>, { kind: 'custom' }>;
  assert.equal(r.predicate, { kind: 'stdlib', name: 'retry.always' });
  assert.equal([constOf(r.initialDelaySec), constOf(r.maxDelaySec), constOf(r.multiplier)], [1, 60, 1.25]);
});

s('raise, return, nested steps and a pure jump (docs/language.md#step-types)', () => {
  const steps = mainSteps(`
- r1:
    raise:
      code: 400
      message: bad
- g:
    steps:
      - inner:
          return: \${x}
- j:
    next: r1
- r2:
    return:
`);
  const r1 = as(steps[0], 'raise');
  const m = constOf(r1.value) as Map<string, Value>;
  assert.equal([...m.entries()], [
    ['code', 400n],
    ['message', 'bad'],
  ]);
  assert.equal(names(as(steps[1], 'steps').steps), ['inner']);
  const j = as(steps[2], 'jump');
  assert.equal(j.next, { kind: 'step', name: 'r1', depth: 0, index: 0 });
  assert.is(constOf(as(steps[3], 'return').value), null);
});

s('steps keep their name and line:col (docs/language.md#definitions)', () => {
  const steps = mainSteps('main:\n  steps:\n    - first:\n        assign:\n          - x: 1\n    - second:\n        return: ${x}\n');
  assert.equal(steps.map((x) => [x.name, x.pos]), [
    ['first', { line: 3, col: 7 }],
    ['second', { line: 6, col: 7 }],
  ]);
});

// ---------------------------------------------------------------------------------------------------------
// Jumps

function jumpOf(d: Definition, ...path: number[]): JumpTarget | undefined {
  let list: StepList = d.main.steps;
  let step: Step | undefined;
  for (let i = 0; i < path.length; i++) {
    step = list.steps[path[i]!];
    if (i === path.length - 1) break;
    if (step?.kind === 'steps') list = step.steps;
    else if (step?.kind === 'try') list = step.except && path[i + 1]! < 0 ? step.except.steps : step.body;
    else if (step?.kind === 'for') list = step.loop.steps;
  }
  return step?.next;
}

s('next: end, a later step, an earlier step (docs/language.md#jumps-loops-and-scopes)', () => {
  const d = compileDefinition('- a:\n    next: c\n- b:\n    next: end\n- c:\n    next: a\n', DEFINITION_LIBRARY);
  assert.equal(jumpOf(d, 0), { kind: 'step', name: 'c', depth: 0, index: 2 });
  assert.equal(jumpOf(d, 1), { kind: 'end' });
  assert.equal(jumpOf(d, 2), { kind: 'step', name: 'a', depth: 0, index: 0 });
});

s('next into an enclosing list counts the lists climbed as depth (docs/language.md#jumps-loops-and-scopes)', () => {
  const d = compileDefinition(`
- top:
    steps:
      - mid:
          steps:
            - deep:
                next: out
      - sibling:
          next: top
- out:
    return: 1
`, DEFINITION_LIBRARY);
  const top = as(d.main.steps.steps[0], 'steps');
  const mid = as(top.steps.steps[0], 'steps');
  assert.equal(mid.steps.steps[0]!.next, { kind: 'step', name: 'out', depth: 2, index: 1 });
  assert.equal(top.steps.steps[1]!.next, { kind: 'step', name: 'top', depth: 1, index: 0 });
});

s('next from except steps and from a switch inside them reaches the enclosing list (Google sample error_catch)', () => {
  const d = compileDefinition(`
- t:
    try:
      raise: x
    except:
      as: e
      steps:
        - k:
            switch:
              - condition: true
                next: handled
        - again:
            next: t
- handled:
    return: ok
`, DEFINITION_LIBRARY);
  const t = as(d.main.steps.steps[0], 'try');
  const k = as(t.except!.steps.steps[0], 'switch');
  assert.equal(k.cases[0]!.next, { kind: 'step', name: 'handled', depth: 1, index: 1 });
  assert.equal(t.except!.steps.steps[1]!.next, { kind: 'step', name: 't', depth: 1, index: 0 });
});

s('break and continue inside a for body, also from nested steps and switches (docs/language.md#jumps-loops-and-scopes)', () => {
  const d = compileDefinition(`
- f:
    for:
      value: v
      in: [1]
      steps:
        - g:
            steps:
              - s:
                  switch:
                    - condition: true
                      next: break
        - c:
            next: continue
`, DEFINITION_LIBRARY);
  const body = as(d.main.steps.steps[0], 'for').loop.steps;
  const g = as(body.steps[0], 'steps');
  assert.equal(as(g.steps.steps[0], 'switch').cases[0]!.next, { kind: 'break' });
  assert.equal(body.steps[1]!.next, { kind: 'continue' });
});

s.run();
