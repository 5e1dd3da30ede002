/**
 * The compiled workflow definition (docs/language.md#definitions): what `compileDefinition` produces
 * from YAML or JSON source and what the engine runs. Steps are a union tagged by `kind`; every step keeps its
 * name and source position so runtime errors can say `step: <name>` and validation errors `line:col`.
 *
 * Everything here is built once, at deploy time, and never changed afterwards: executions share it.
 */
import type { CompiledExpression } from '../expr/ast.ts';
import type { Value } from '../value.ts';

/** A 1-based line and column in the workflow source. */
export interface SourcePos {
  readonly line: number;
  readonly col: number;
}

/**
 * A value as written in the source, with expressions compiled: a constant, one `${...}` expression (only a
 * whole string value is an expression; text around `${...}` stays literal), or a list or map holding such
 * values. Map keys are literal strings, except computed keys (`keyExprs`).
 */
export type Template =
  | { readonly kind: 'const'; readonly value: Value }
  | { readonly kind: 'expr'; readonly expr: CompiledExpression; readonly pos: SourcePos }
  | { readonly kind: 'list'; readonly items: readonly Template[]; readonly isAsync: boolean }
  | {
      readonly kind: 'map';
      readonly entries: readonly (readonly [string, Template])[];
      readonly isAsync: boolean;
      /**
       * Computed keys (Google's "dynamic keys": `${key}: value`, or `{"${k + 'x'}": v}`): when present, entry
       * `i` whose `keyExprs[i]` is not null takes its key from that expression (which must yield a string);
       * `entries[i][0]` then holds the key as written. Absent when every key is literal.
       */
      readonly keyExprs?: readonly (CompiledExpression | null)[];
    };

/**
 * An assignment target: a variable name and a path below it (`a`, `a.b`, `a[i]`, `a['k']`, `a.b[0].c`).
 * An index segment holds a compiled expression (`a[i + 1]`); a key segment a literal name.
 */
export interface AssignTarget {
  readonly root: string;
  readonly path: readonly (
    | { readonly kind: 'key'; readonly name: string }
    | { readonly kind: 'index'; readonly expr: CompiledExpression }
  )[];
  /** The target as written, for messages. */
  readonly text: string;
}

/** One entry of an assign step. */
export interface Assignment {
  readonly target: AssignTarget;
  readonly value: Template;
  /**
   * Set when the entry is Google's accumulator idiom `l: ${list.concat(l, x)}` (a plain variable, the same
   * variable as the first argument, an element expression that does not wait): the element `x` alone, so
   * the engine can append in place to a list only `l` holds. `value` still says what the entry means.
   */
  readonly append?: CompiledExpression;
}

/**
 * Where a `next` goes: `end` (stop the current workflow, result null), `break` / `continue` (the enclosing
 * for loop), or a named step. For a named step, `depth` is how many step lists up from the jumping step's own
 * list the target's list is (0: same list), and `index` is the target's index in that list.
 */
export type JumpTarget =
  | { readonly kind: 'end' }
  | { readonly kind: 'break' }
  | { readonly kind: 'continue' }
  | {
      readonly kind: 'step';
      readonly name: string;
      readonly depth: number;
      readonly index: number;
      /**
       * A jump into plain nested `steps:` blocks: the step at `index` is a `steps` step, and the jump goes on
       * to index `into[0]` of its list (and, for deeper blocks, `into[1]` of the `steps` step found there...).
       */
      readonly into?: readonly number[];
    };

/** How a `call` step's name resolved at deploy time. */
export type CallTarget =
  /** A standard-library function (`http.get`, `sys.log`, `text.split`, ...). */
  | { readonly kind: 'stdlib'; readonly name: string }
  /** A subworkflow of the same definition. */
  | { readonly kind: 'subworkflow'; readonly name: string }
  /**
   * A connector or another namespace of the real service that the emulator does not emulate
   * (`googleapis.*`): it deploys, and running it raises a clear error (docs/differences.md#the-service).
   */
  | { readonly kind: 'unsupported'; readonly name: string };

/** A loop spec shared by `for` and parallel `for`. Exactly one of `in` and `range` is set. */
export interface ForSpec {
  readonly value: string;
  readonly index?: string;
  readonly in?: Template;
  /** `range`: a value yielding the list `[start, end]` (a list of two values, or one expression). */
  readonly range?: Template;
  readonly steps: StepList;
}

/** A retry predicate: a named stdlib policy predicate or a subworkflow taking the error map. */
export type PredicateRef =
  | { readonly kind: 'stdlib'; readonly name: string }
  | { readonly kind: 'subworkflow'; readonly name: string };

/** A `retry` block: either a named policy, or a map with predicate, max_retries and backoff. */
export type RetrySpec =
  /** `retry: ${http.default_retry}` and the other named policies of the stdlib (src/stdlib/retry.ts). */
  | { readonly kind: 'policy'; readonly name: string; readonly pos: SourcePos }
  | {
      readonly kind: 'custom';
      readonly predicate: PredicateRef;
      /** `max_retries`: 1 initial attempt plus this many retries. */
      readonly maxRetries: Template;
      readonly initialDelaySec: Template;
      readonly maxDelaySec: Template;
      readonly multiplier: Template;
      readonly pos: SourcePos;
    };

/** One switch condition. Exactly one of `next`, `steps`, `step` is set (or none: a condition that does nothing). */
export interface SwitchCase {
  readonly condition: Template;
  readonly next?: JumpTarget;
  readonly steps?: StepList;
  /** Inline step content: an assign, call, return or raise written directly in the condition. */
  readonly step?: Step;
  readonly pos: SourcePos;
}

/** Fields every step has. */
interface StepBase {
  /** The step's name (for inline switch content, the switch step's name). */
  readonly name: string;
  readonly pos: SourcePos;
  /** Where to go after this step; absent: the next step in the list. */
  readonly next?: JumpTarget;
}

/** A step, tagged by `kind`. */
export type Step =
  | (StepBase & { readonly kind: 'assign'; readonly assignments: readonly Assignment[] })
  | (StepBase & {
      readonly kind: 'call';
      readonly target: CallTarget;
      /** Named arguments; absent when the step has no `args`. */
      readonly args?: readonly (readonly [string, Template])[];
      readonly result?: string;
    })
  | (StepBase & { readonly kind: 'switch'; readonly cases: readonly SwitchCase[] })
  | (StepBase & { readonly kind: 'for'; readonly loop: ForSpec })
  | (StepBase & {
      readonly kind: 'parallel';
      readonly shared: readonly string[];
      /** Absent: the default (20). */
      readonly concurrencyLimit?: Template;
      readonly exceptionPolicy: 'unhandled' | 'continueAll';
      /** Exactly one of `branches` and `for` is set. */
      readonly branches?: readonly { readonly name: string; readonly steps: StepList; readonly pos: SourcePos }[];
      readonly for?: ForSpec;
    })
  | (StepBase & {
      readonly kind: 'try';
      /** The try body (a single step is wrapped in a list of one). */
      readonly body: StepList;
      readonly retry?: RetrySpec;
      readonly except?: { readonly as?: string; readonly steps: StepList };
    })
  | (StepBase & { readonly kind: 'raise'; readonly value: Template })
  | (StepBase & { readonly kind: 'return'; readonly value?: Template })
  | (StepBase & { readonly kind: 'steps'; readonly steps: StepList })
  /** A step with only `next` (a pure jump). */
  | (StepBase & { readonly kind: 'jump' });

/** The kinds of steps. */
export type StepKind = Step['kind'];

/** A list of steps with a name index for jumps. */
export interface StepList {
  readonly steps: readonly Step[];
  /** Step name to index in `steps`. */
  readonly index: ReadonlyMap<string, number>;
}

/** A parameter of a workflow. */
export interface Param {
  readonly name: string;
  /** True when a default was given (`optional: <default>`), even a null one. */
  readonly hasDefault: boolean;
  readonly default?: Value;
}

/** `main` or a subworkflow. */
export interface WorkflowDef {
  readonly name: string;
  readonly params: readonly Param[];
  readonly steps: StepList;
  readonly pos: SourcePos;
}

/** A compiled, validated definition, ready to run any number of times. */
export interface Definition {
  /** `main`. */
  readonly main: WorkflowDef;
  /** Every workflow of the definition by name, `main` included. */
  readonly workflows: ReadonlyMap<string, WorkflowDef>;
}
