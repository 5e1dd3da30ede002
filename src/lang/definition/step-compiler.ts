/**
 * What the compilers of single step fields (`for`, `parallel`, `switch`, `try`) need from the definition
 * compiler: step lists with their jump frames, step bodies, jumps, names, positions and errors.
 */
import type { JumpTarget, SourcePos, Step, StepList } from './ast.ts';
import type { DefinitionErrorCode } from './errors.ts';
import type { SMap, SNode, SScalar } from './load.ts';
import type { RetryContext } from './retry.ts';

/** A step list being compiled, for jump resolution: its step names and what it is the body of. */
export interface Frame {
  readonly names: ReadonlyMap<string, number>;
  readonly parent: Frame | undefined;
  /**
   * `plain`: jumps may go on to the enclosing list; `block`: the list of a `steps:` step, like `plain`, and a
   * jump from its enclosing lists may also go into it; `for` / `branch`: a loop body or parallel branch (jumps
   * stop here; `for` allows break/continue); `workflow`: the top list of a workflow.
   */
  readonly kind: 'plain' | 'block' | 'for' | 'branch' | 'workflow';
  /** For a `block`: the index, in the parent list, of the `steps:` step that holds it. */
  readonly holder?: number;
}

/** The definition compiler as the step-field compilers see it. @internal */
export interface StepCompiler {
  readonly cx: RetryContext;
  /** Parallel steps enclosing the one being compiled. */
  parallelDepth: number;
  /** The `line:col` of a node. */
  pos(node: SNode | SScalar): SourcePos;
  /** @throws DefinitionError at the node, naming the current step, with `code` (default INVALID_DEFINITION). */
  fail(node: SNode | SScalar, reason: string, code?: DefinitionErrorCode): never;
  /** Compiles a list of steps; `what` names it in messages. */
  stepList(node: SNode, parent: Frame | undefined, kind: Frame['kind'], what: string): StepList;
  /** A variable name, or a DefinitionError naming `what`. */
  ident(node: SNode, what: string): string;
  /**
   * Compiles the fields of a step named `name` (at `at`) in `frame`: a step's content written inline (in a
   * switch condition, a one-step `try`).
   */
  stepBody(name: string, at: SScalar, body: SMap, frame: Frame): Step;
  /** The target of a `next` in `frame`, resolved once the workflow's steps are known. */
  jump(node: SNode, frame: Frame): JumpTarget;
}
