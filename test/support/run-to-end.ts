/** Starting an execution over REST and waiting for its end: one helper for the black-box REST tests. */
import * as assert from 'uvu/assert';
import { until, type EmulatorProcess } from './emulator.ts';

/**
 * POSTs `body` to `{prefix}/workflows/{id}/executions` (200 expected) and polls the execution until its state
 * is no longer ACTIVE; resolves to the execution resource as REST returns it.
 */
export async function runToEnd(emu: EmulatorProcess, id: string, body: unknown = {}): Promise<any> {
  const r = await emu.request('POST', `/workflows/${id}/executions`, body);
  assert.is(r.status, 200, r.text);
  return until(async () => {
    const e = (await emu.request('GET', `/v1/${r.body.name}`)).body;
    return e.state !== 'ACTIVE' ? e : undefined;
  }, `execution of ${id} ended`);
}

/** Polls the execution `name` (its full resource name) until it is no longer ACTIVE; resolves to its resource. */
export function untilEnded(emu: EmulatorProcess, name: string, timeoutMs = 20_000): Promise<any> {
  return until(async () => {
    const g = await emu.request('GET', `/v1/${name}`);
    return g.body.state === 'ACTIVE' ? undefined : g.body;
  }, `${name} to end`, timeoutMs);
}
