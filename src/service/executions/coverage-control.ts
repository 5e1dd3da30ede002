/**
 * The service's coverage (docs/coverage.md): counts per workflow revision, kept by every execution's step
 * observer as it runs, and the control methods that read and reset them (`GET` and `DELETE
 * /emulator/v1/coverage`, the JS API's `coverage()`).
 */
import { CoverageStore, type CoverageCounts } from '../../coverage/counts.ts';
import { summarize } from '../../coverage/summary.ts';
import type { EmulatorControl } from '../model.ts';
import type { WorkflowRecord, WorkflowStore } from '../store/workflow-store.ts';

/** The coverage half of the service core: where executions count, and the {@link EmulatorControl} methods. */
export interface ServiceCoverage extends Pick<EmulatorControl, 'coverage' | 'workflowCoverage' | 'resetCoverage'> {
  /** The counts an execution of `wf`'s current revision adds to. */
  countsOf(wf: WorkflowRecord): CoverageCounts;
  /** Forgets every revision counted (the control API's reset). */
  clear(): void;
}

/** Coverage over the workflows of `store` (see the module header). */
export function serviceCoverage(store: Pick<WorkflowStore, 'records' | 'find'>): ServiceCoverage {
  const counts = new CoverageStore();
  const countsOf = (wf: WorkflowRecord): CoverageCounts => {
    const r = wf.resource;
    return counts.countsFor(`${wf.id}@${r.revisionId}`, wf.definition, { name: wf.id, revisionId: r.revisionId, sourceContents: r.sourceContents });
  };
  return {
    countsOf,
    clear: () => counts.clear(),
    coverage() {
      for (const wf of store.records()) countsOf(wf);
      return counts.all().map(summarize);
    },
    workflowCoverage: (workflowId) => summarize(countsOf(store.find(workflowId))),
    resetCoverage: () => counts.reset(),
  };
}
