/**
 * What the engine needs from its host and what it gives back (spec "States and transitions": error
 * propagation; "Errors"). The service, the one-shot `run` command and tests all run executions through
 * `runExecution(definition, argument, deps, signal)` in src/engine/run.ts.
 */
import type { CallContext } from '../stdlib/types.ts';
import type { ExecutionHooks } from './hooks.ts';

/**
 * The injected world of one execution: clock, fetch, environment (CLOUD_* and GOOGLE_CLOUD_* values), log
 * sink and callback hub, and the optional hooks (a step observer, a call interceptor; see hooks.ts). The
 * cancellation signal is passed separately to `runExecution`.
 */
export type ExecutionDeps = Omit<CallContext, 'signal'> & { readonly hooks?: ExecutionHooks };
