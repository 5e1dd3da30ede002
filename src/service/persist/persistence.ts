/**
 * A data directory attached to the service core (docs/persistence.md): at start-up its state is put back into
 * the core (workflows, executions with their histories, calls, logs and recordings), executions that were
 * ACTIVE when the emulator stopped end FAILED or, with `--resume`, run again; from then on every change the
 * core tells is appended to the journal (journal.ts), and the journal is compacted into a new snapshot once
 * it has grown past twice the last snapshot's size (at least {@link MIN_COMPACT_BYTES}).
 */
import * as fs from 'node:fs';
import { join } from 'node:path';
import type { CallbackHub } from '../../stdlib/types.ts';
import { isMap } from '../../lang/value.ts';
import { decodeBody } from '../callbacks/callback-registry.ts';
import type { CallbackRequest, Execution } from '../model.ts';
import type { ExecutionRecord } from '../executions/execution-store.ts';
import type { RecordedCallback } from '../recording/recording.ts';
import { DataDirError, directoryBytes, journalPath, releaseLock, snapshotText, SNAPSHOT_NAME, syncDirectory, type OpenedDataDir } from './data-dir.ts';
import { Journal } from './journal.ts';
import { lazyExecution, restoreExecution, saveExecution, type SavedWorkflow } from './records.ts';
import type { ActiveCallbacks, LoadedState, SavedDelivery } from './state.ts';
import type { CoreInternals, PersistenceAttach, StateSink } from './hooks.ts';
import { writeError } from '../../platform/std-streams.ts';

/** The journal is compacted once it is past this many bytes (and past twice the last snapshot): 64 MB. */
export const MIN_COMPACT_BYTES = 64 * 1024 * 1024;

/** Options of a {@link Persistence}. */
export interface PersistenceOptions {
  /** Run executions that were ACTIVE when the emulator stopped again (`--resume`) instead of failing them. */
  readonly resume?: boolean;
  /** Compact the journal once it is past this many bytes; default {@link MIN_COMPACT_BYTES}. */
  readonly compactBytes?: number;
}

/** The error an execution ACTIVE when the emulator stopped ends with (docs/persistence.md). */
export function stoppedError(): NonNullable<Execution['error']> {
  const message =
    'the emulator stopped during the run: the execution was ACTIVE when its process ended, and was not run again ' +
    '(start the emulator with --resume to run such executions again; docs/persistence.md#executions-running-when-the-emulator-stopped)';
  return { payload: JSON.stringify({ message, code: 0, tags: ['SystemError'] }), context: '' };
}

/** The data directory's side of the service core: restore at attach, then journal every change. */
export class Persistence implements PersistenceAttach, StateSink {
  #core: CoreInternals | undefined;
  #journal: Journal;
  #generation: number;
  #snapshotBytes: number;
  /** The journal before a compaction, until what was appended to it is on disk. */
  #draining: Promise<void> | undefined;
  #closed = false;
  /** The compaction under way, if one is. */
  #compacting: Promise<void> | undefined;
  /** Callback URLs created and requests acknowledged, per ACTIVE execution ID (what `--resume` needs). */
  readonly #active = new Map<string, ActiveCallbacks>();

  constructor(
    private readonly opened: OpenedDataDir,
    private readonly options: PersistenceOptions = {},
  ) {
    this.#journal = opened.journal;
    this.#generation = opened.generation;
    this.#snapshotBytes = opened.snapshotBytes;
  }

  /** The data directory's path. */
  get dir(): string {
    return this.opened.dir;
  }

  attach(core: CoreInternals): StateSink {
    this.#core = core;
    return this;
  }

  restore(): void {
    restoreInto(this.#core!, this.opened.state, this.#active, this.options.resume === true, this.opened.dir);
  }

  checkWritable(): void {
    this.#journal.checkWritable();
  }

  workflowChanged(workflowId: string): void {
    const store = this.#core!.store;
    if (store.has(workflowId)) {
      const wf = store.find(workflowId);
      this.#append({ t: 'w', id: workflowId, res: wf.resource, n: wf.counter } satisfies SavedWorkflow);
    } else this.#append({ t: 'd', id: workflowId, n: store.deletedCounters().get(workflowId) ?? 0 });
  }

  executionChanged(ex: ExecutionRecord): void {
    this.#append(saveExecution(ex, ex.resource.state === 'ACTIVE' ? [] : this.#core!.logsOf(ex)));
    if (ex.resource.state === 'ACTIVE') {
      if (!this.#active.has(ex.executionId)) this.#active.set(ex.executionId, { urls: [], deliveries: [] });
    } else this.#active.delete(ex.executionId);
  }

  executionForgotten(ex: ExecutionRecord): void {
    this.#active.delete(ex.executionId);
    this.#append({ t: 'xd', id: ex.executionId });
  }

  hubOf(hub: CallbackHub, ex: ExecutionRecord): CallbackHub {
    return {
      create: (method) => {
        const made = hub.create(method);
        const url = isMap(made) ? made.get('url') : undefined;
        const active = this.#active.get(ex.executionId);
        if (typeof url === 'string' && active && !active.urls.includes(url)) {
          active.urls.push(url);
          this.#append({ t: 'c', x: ex.executionId, u: url });
        }
        return made;
      },
      await: (callback, timeoutMs, signal) => hub.await(callback, timeoutMs, signal),
    };
  }

  callbackDelivered(executionName: string | undefined, callbackId: string, request: CallbackRequest): void {
    const executionId = executionName?.slice(executionName.lastIndexOf('/') + 1);
    const active = executionId === undefined ? undefined : this.#active.get(executionId);
    if (!active) return;
    const r: SavedDelivery = { id: callbackId, method: request.method, headers: { ...request.headers }, query: { ...request.query }, body: Buffer.from(request.body).toString('base64') };
    active.deliveries.push(r);
    this.#append({ t: 'cb', x: executionId, r });
  }

  reset(): void {
    this.#active.clear();
    this.#append({ t: 'r' });
  }

  whenDurable(): Promise<void> | undefined {
    const current = this.#journal.whenDurable();
    if (this.#draining === undefined) return current;
    return Promise.all([this.#draining, current]).then(() => undefined);
  }

  storage(): { dataDir: string; bytes: number } {
    return { dataDir: this.opened.dir, bytes: directoryBytes(this.opened.dir) };
  }

  activeCallbacks(): ReadonlyMap<string, ActiveCallbacks> {
    return this.#active;
  }

  /** Writes a snapshot of the state now (after an import, so the imported state is on disk before start-up ends). */
  compactNow(): Promise<void> {
    return (this.#compacting = this.#compact().finally(() => (this.#compacting = undefined)));
  }

  /** Writes what is pending, then lets the directory go (at exit). */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#compacting;
    try {
      await this.#journal.drain();
    } finally {
      this.#journal.close();
      releaseLock(this.opened.dir);
    }
  }

  #append(record: unknown): void {
    // After close (the executions cancelled as the process stops stay ACTIVE on disk).
    if (this.#closed) return;
    this.#journal.append(record);
    if (!this.#compacting && this.#journal.size > Math.max(this.options.compactBytes ?? MIN_COMPACT_BYTES, 2 * this.#snapshotBytes)) {
      this.#compacting = this.#compact()
        .catch((e: unknown) => {
          writeError(`workflows-emulator: compacting the data directory failed: ${(e as Error).message}; the journal goes on\n`);
        })
        .finally(() => (this.#compacting = undefined));
    }
  }

  /**
   * Starts a new journal and writes the state as of that moment as the new snapshot (a temporary file, fsync,
   * rename, fsync of the directory); then the journals before it are deleted. A crash at any point leaves
   * either the old snapshot with every journal since it, or the new one with the new journal.
   */
  async #compact(): Promise<void> {
    const dir = this.opened.dir;
    const generation = this.#generation + 1;
    const path = journalPath(dir, generation);
    const next = new Journal(fs.openSync(path, 'a'), 0, path);
    syncDirectory(dir);
    const old = this.#journal;
    const text = snapshotText(generation, stateLines(this.#core!, this.#active));
    this.#journal = next;
    this.#generation = generation;
    // Answers of changes appended to the old journal still wait for it (whenDurable).
    const drained = (this.#draining = old.drain().finally(() => old.close()));
    await drained;
    this.#draining = undefined;
    await writeDurably(dir, SNAPSHOT_NAME, text);
    this.#snapshotBytes = Buffer.byteLength(text);
    for (const f of fs.readdirSync(dir)) {
      const m = /^journal-(\d+)\.log$/.exec(f);
      if (m && Number(m[1]) < generation) fs.rmSync(join(dir, f), { force: true });
    }
  }

}

/** The core's whole state as saved records, one JSON line each: workflows, deleted counters, executions. */
export function stateLines(core: CoreInternals, active: ReadonlyMap<string, ActiveCallbacks>): string[] {
  const lines: string[] = [];
  for (const wf of core.store.records()) lines.push(JSON.stringify({ t: 'w', id: wf.id, res: wf.resource, revs: wf.revisions, n: wf.counter } satisfies SavedWorkflow));
  for (const [id, n] of core.store.deletedCounters()) lines.push(JSON.stringify({ t: 'd', id, n }));
  for (const ex of core.executions.list()) {
    lines.push(JSON.stringify(saveExecution(ex, ex.resource.state === 'ACTIVE' ? [] : core.logsOf(ex))));
    const cbs = ex.resource.state === 'ACTIVE' ? active.get(ex.executionId) : undefined;
    for (const u of cbs?.urls ?? []) lines.push(JSON.stringify({ t: 'c', x: ex.executionId, u }));
    for (const r of cbs?.deliveries ?? []) lines.push(JSON.stringify({ t: 'cb', x: ex.executionId, r }));
  }
  return lines;
}

/** Writes a file whole or not at all, without blocking: temporary file, fsync, rename, fsync of the directory. */
async function writeDurably(dir: string, name: string, text: string): Promise<void> {
  const tmp = join(dir, `${name}.tmp`);
  const handle = await fs.promises.open(tmp, 'w');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.promises.rename(tmp, join(dir, name));
  syncDirectory(dir);
}

/**
 * Puts `state` into the core: workflows (compiled again), deleted revision counters, executions oldest first;
 * then each execution that was ACTIVE either ends FAILED ({@link stoppedError}) or, with `resume`, runs again
 * with the callback URLs it had created and the callback requests acknowledged to it.
 * @throws DataDirError naming the file (`state.sources`, else the directory `origin`) of a workflow whose
 *   current source does not load (an export edited by hand, or a stricter emulator than the one that wrote it),
 *   or of an execution whose saved form does not
 */
export function restoreInto(core: CoreInternals, state: LoadedState, active: Map<string, ActiveCallbacks>, resume: boolean, origin: string): void {
  for (const [id, w] of state.workflows) {
    try {
      core.store.restore(id, w.res, w.revs, w.n);
    } catch (e) {
      throw new DataDirError(state.sources.get(id) ?? origin, undefined, `workflow ${id} (revision ${w.res.revisionId}) cannot be loaded: ${(e as Error).message}`);
    }
  }
  for (const [id, n] of state.deleted) core.store.restoreDeleted(id, n);
  const running: ExecutionRecord[] = [];
  for (const saved of state.executions.values()) {
    if ('lazy' in saved) {
      core.adopt(lazyExecution(saved, core.parent), [], false);
      continue;
    }
    let restored: ReturnType<typeof restoreExecution>;
    try {
      restored = restoreExecution(saved);
    } catch (e) {
      throw new DataDirError(origin, undefined, `execution ${saved.w}/${saved.id} cannot be loaded: ${(e as Error).message}`);
    }
    const { record, logs } = restored;
    const active = record.resource.state === 'ACTIVE';
    core.adopt(record, logs, active);
    if (active) running.push(record);
  }
  for (const ex of running) {
    const callbacks = state.active.get(ex.executionId) ?? { urls: [], deliveries: [] };
    if (!resume) {
      core.fail(ex, stoppedError());
      continue;
    }
    // The journal holds these already: the run again creates the same URLs, and is handed the same requests.
    active.set(ex.executionId, { urls: callbacks.urls.slice(), deliveries: callbacks.deliveries.slice() });
    core.rerun(ex, { playback: { times: [], uuids: [], callbacks: callbacks.urls }, callbacks: callbacks.deliveries.map(recordedCallback) });
  }
}

/** A saved callback request as a recording holds it (its body decoded as the workflow saw it). */
function recordedCallback(d: SavedDelivery): RecordedCallback {
  const body = decodeBody(Buffer.from(d.body, 'base64'), d.headers['content-type']);
  return { method: d.method, headers: d.headers, query: d.query, body };
}
