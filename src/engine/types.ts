/**
 * What the engine needs from its host and what it gives back (docs/api-resources.md#states-and-transitions: error
 * propagation; docs/api-resources.md#errors). The service, the one-shot `run` command and tests all run executions through
 * `runExecution(definition, argument, deps, signal)` in src/engine/run.ts.
 */
import type { CallContext, FunctionLibrary } from '../stdlib/types.ts';
import type { ExecutionHooks } from './hooks.ts';

/**
 * The injected world of one execution: clock, fetch, environment (CLOUD_* and GOOGLE_CLOUD_* values), log
 * sink and callback hub, the function library its calls and retry policies resolve in (the one its
 * definition was compiled against), and the optional hooks (a step observer, a call interceptor; see
 * hooks.ts). The cancellation signal is passed separately to `runExecution`. Hosts build it with
 * `prepareExecution` (src/service/executions/prepare-execution.ts).
 */
export type ExecutionDeps = Omit<CallContext, 'signal'> & {
  readonly library: FunctionLibrary;
  readonly hooks?: ExecutionHooks;
};
