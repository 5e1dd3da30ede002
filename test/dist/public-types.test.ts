// The JS API's public types (src/index.ts) are written out in full so dist/index.d.ts stands alone; these
// compile-time checks (run by `tsc --noEmit` in `npm test`) keep them identical to the service's resources
// (docs/api-resources.md#resources-and-their-fields), so the two cannot drift apart.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type * as api from '../../src/index.ts';
import type * as model from '../../src/service/model.ts';

/** `true` only when A and B are mutually assignable. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const checks: { readonly [name: string]: true } = {
  Workflow: true satisfies Same<api.Workflow, model.Workflow>,
  Execution: true satisfies Same<api.Execution, model.Execution>,
  ExecutionState: true satisfies Same<api.ExecutionState, model.ExecutionState>,
  Callback: true satisfies Same<api.Callback, model.Callback>,
  StepEntry: true satisfies Same<api.StepEntry, model.StepEntry>,
  StackTraceElement: true satisfies Same<api.StackTraceElement, model.StackTraceElement>,
};

const s = suite('dist: public types (docs/testing.md#the-js-api)');

s('the JS API declares Workflow, Execution, ExecutionState, Callback, StepEntry and StackTraceElement exactly as the service resources (docs/api-resources.md#resources-and-their-fields)', () => {
  // The real check is the type-level `satisfies` above; this names it in the test report.
  assert.equal(Object.keys(checks).sort(), ['Callback', 'Execution', 'ExecutionState', 'StackTraceElement', 'StepEntry', 'Workflow']);
});

s.run();
