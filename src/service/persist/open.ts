/**
 * What the server opens for `--data-dir`, `--import` and `--resume` (docs/persistence.md): the data directory
 * with its journal, or, for `--import` alone, the export's state put into an emulator that keeps it in memory
 * only. Loaded by src/server.ts only when one of those options is given.
 */
import { openDataDir } from './data-dir.ts';
import { readExport } from './export.ts';
import type { CoreInternals, PersistenceAttach, StateSink } from './hooks.ts';
import { Persistence, restoreInto } from './persistence.ts';
import type { LoadedState } from './state.ts';

export { DataDirError } from './data-dir.ts';
export { Persistence } from './persistence.ts';
export { checkExportTarget } from './export.ts';

/** Which of the options were given. */
export interface PersistSetup {
  readonly dataDir?: string | undefined;
  readonly importDir?: string | undefined;
  readonly resume?: boolean | undefined;
}

/** What the server hands the service core, and what it does once the core exists. */
export interface OpenedPersistence {
  readonly attach: PersistenceAttach;
  /** The data directory's side, when there is one (closed at exit). */
  readonly persistence: Persistence | undefined;
  /** Makes an import durable in the data directory (a snapshot); a no-op otherwise. */
  afterStart(): Promise<void>;
}

/**
 * Opens the data directory and reads the export, as given; an export's workflows and executions are put over
 * the directory's (by ID).
 * @throws DataDirError naming the file and offset that cannot be read
 */
export function openPersistence(setup: PersistSetup): OpenedPersistence {
  const imported = setup.importDir !== undefined ? readExport(setup.importDir) : undefined;
  if (setup.dataDir === undefined) {
    return { attach: importOnly(imported!, setup.resume === true, setup.importDir!), persistence: undefined, afterStart: () => Promise.resolve() };
  }
  const opened = openDataDir(setup.dataDir);
  if (imported) mergeInto(opened.state, imported);
  const persistence = new Persistence(opened, { resume: setup.resume === true });
  return { attach: persistence, persistence, afterStart: () => (imported ? persistence.compactNow() : Promise.resolve()) };
}

/** Puts `from`'s workflows, deleted counters and executions over `to`'s. */
function mergeInto(to: LoadedState, from: LoadedState): void {
  for (const [id, w] of from.workflows) {
    to.deleted.delete(id);
    to.workflows.set(id, w);
    const source = from.sources.get(id);
    if (source !== undefined) to.sources.set(id, source);
  }
  for (const [id, n] of from.deleted) if (!to.workflows.has(id)) to.deleted.set(id, n);
  for (const [id, x] of from.executions) to.executions.set(id, x);
  for (const [id, a] of from.active) to.active.set(id, a);
}

/** An export put into an emulator without a data directory: restored once, nothing written after. */
function importOnly(state: LoadedState, resume: boolean, origin: string): PersistenceAttach {
  return {
    attach(core: CoreInternals): StateSink {
      const active = new Map();
      return {
        restore: () => restoreInto(core, state, active, resume, origin),
        checkWritable: () => {},
        workflowChanged: () => {},
        executionChanged: () => {},
        executionForgotten: () => {},
        hubOf: (hub) => hub,
        callbackDelivered: () => {},
        reset: () => active.clear(),
        activeCallbacks: () => active,
        storage: () => undefined,
        whenDurable: () => undefined,
      };
    },
  };
}
