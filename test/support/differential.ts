/**
 * The runner of the differential tests (a fast path checked against the general path it stands in for, on
 * generated inputs): fast-check's `assert`, with the failing assertion's own message and uvu's diff of the
 * two answers added to fast-check's report (which otherwise shows only the counterexample), so a drift is
 * read straight from the test output.
 */
import fc from 'fast-check';

/** Runs `property` with `parameters`; on failure throws one Error with the counterexample and the diff. */
export async function assertSame<T>(property: fc.IAsyncProperty<T> | fc.IProperty<T>, parameters: fc.Parameters<T>): Promise<void> {
  const details = await fc.check(property as fc.IAsyncProperty<T>, parameters);
  if (!details.failed) return;
  const cause = details.errorInstance as { message?: string; details?: string } | undefined;
  const report = fc.defaultReportMessage(details) ?? 'property failed';
  const error = new Error(`${cause?.message ?? String(details.errorInstance)}\n${cause?.details ?? ''}\n${report}`);
  throw error;
}
