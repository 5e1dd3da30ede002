/**
 * Directory watching (docs/cli.md#directory-watching, rules 1–6): every `.yaml` and `.json` file of the
 * workflows directory is deployed as the workflow named after the file, and kept in sync while running.
 *
 * - Changes are seen through `node:fs` `watch` (Node, Deno and Bun), plus a light rescan every
 *   `rescanMs` comparing size and mtime, which catches events a file system does not report; if `watch` is
 *   not available at all, the rescan alone does the work.
 * - Saves are debounced per file (`debounceMs` of quiet before the file is read), so an editor's partial
 *   write is not deployed half-way; if it is read half-way anyway, it fails to compile, is logged, and the
 *   complete write that follows deploys. A file saved without pause is still read every `maxWaitMs` (1 s),
 *   so continuous saving (a generator, a sync tool) never holds its deploys back.
 * - A file that fails to compile is logged with its path and the compiler's message (step, line, column and
 *   reason); the revision deployed before stays. Identical content makes no new revision. Deleting the file
 *   deletes the workflow; executions already running finish with their revision (rule 6).
 * - Names: the extension is matched case-insensitively; an upper-case name is lowercased with a warning
 *   (rule 5); a name still invalid after that is skipped with a warning; dotfiles (editor lock and swap
 *   files) are ignored silently. When two files map to the same ID (`a.yaml` and `a.json`), the first one
 *   keeps it and the other is skipped with a warning.
 */
import { readdirSync, readFileSync, statSync, watch, type FSWatcher } from 'node:fs';
import { join } from 'node:path';
import { ApiError } from '../errors.ts';
import type { ServiceCore } from '../model.ts';
import { workflowIdProblem } from '../names.ts';
import type { SourceProblem } from './source-problems.ts';
import { writeError } from '../../platform/std-streams.ts';

/** Options of {@link watchDirectory}. */
export interface WatchOptions {
  /** Where messages go (one line each, no trailing newline); default: stderr. */
  readonly log?: (line: string) => void;
  /** Quiet time after the last change of a file before it is read, in milliseconds; default 60. */
  readonly debounceMs?: number;
  /** Interval of the safety rescan, in milliseconds; default 2000. */
  readonly rescanMs?: number;
  /**
   * Longest a file that keeps changing waits to be read, in milliseconds from its first unread change; default
   * 1000. A file saved more often than `debounceMs` is still deployed at least this often.
   */
  readonly maxWaitMs?: number;
}

/** A running directory watcher. */
export interface DirectoryWatcher {
  /** Workflow IDs deployed from the directory at start-up. */
  readonly initial: readonly string[];
  /** The path of the file a workflow was deployed from, or undefined when it was not deployed from the directory. */
  fileOf(workflowId: string): string | undefined;
  /** Stops watching; deployed workflows stay. */
  close(): void;
}

/** @internal What is known about one file. */
interface FileState {
  readonly id: string;
  /** Content last read (deployed or not), to skip events that changed nothing. */
  content: string;
  size: number;
  mtimeMs: number;
  /** True when this file's content is what the workflow runs. */
  deployed: boolean;
}

/**
 * The workflow ID for a file name (rule 2, 4, 5), or why the file is skipped. Returns undefined for files
 * that are silently ignored (other extensions, dotfiles).
 */
export function workflowIdForFile(fileName: string): { id: string; lowercased: boolean } | { skip: string } | undefined {
  if (fileName.startsWith('.')) return undefined;
  const m = /^(.*)\.(yaml|json)$/i.exec(fileName);
  if (!m) return undefined;
  const base = m[1]!;
  const id = base.toLowerCase();
  const problem = workflowIdProblem(id);
  if (problem) return { skip: problem };
  return { id, lowercased: id !== base };
}

/**
 * Deploys every workflow file of `dir` into `service` (rule 1), then keeps them in sync until `close()`.
 * Resolves once the initial files are deployed.
 */
export async function watchDirectory(service: ServiceCore, dir: string, options: WatchOptions = {}): Promise<DirectoryWatcher> {
  const log = options.log ?? ((line: string) => void writeError(line + '\n'));
  const rescanMs = options.rescanMs ?? 2000;
  const files = new DirectoryFiles(service, dir, log);
  const debouncer = new SaveDebouncer(options.debounceMs ?? 60, options.maxWaitMs ?? 1000, (name) => files.sync(name));
  files.schedule = (name) => debouncer.schedule(name);
  service.sourceProblems.watched(true);
  const initial = files.loadAll();
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, { persistent: false }, (_event, filename) => {
      if (filename) debouncer.schedule(filename.toString());
      else files.rescan();
    });
    watcher.on('error', (e) => {
      log(`workflows-emulator: watching ${dir} failed (${e.message}); rescanning every ${rescanMs} ms instead`);
      watcher?.close();
      watcher = undefined;
    });
  } catch (e) {
    log(`workflows-emulator: cannot watch ${dir} (${(e as Error).message}); rescanning every ${rescanMs} ms instead`);
  }
  const interval = setInterval(() => files.rescan(), rescanMs);
  interval.unref?.();
  return {
    initial,
    fileOf: (workflowId) => files.fileOf(workflowId),
    close() {
      if (!files.closed) service.sourceProblems.watched(false);
      files.closed = true;
      watcher?.close();
      clearInterval(interval);
      debouncer.close();
    },
  };
}

/**
 * Reads a file after `debounceMs` of quiet since its last change, or when its oldest unread change is
 * `maxWaitMs` old, so a half-written save is not read and continuous saving still deploys.
 */
class SaveDebouncer {
  readonly #timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** When the oldest change not yet read was seen, per file (ms, Date.now()). */
  readonly #pendingSince = new Map<string, number>();
  #closed = false;

  constructor(
    private readonly debounceMs: number,
    private readonly maxWaitMs: number,
    private readonly read: (name: string) => void,
  ) {}

  /** A file changed: (re)arms its timer. */
  schedule(name: string): void {
    if (this.#closed) return;
    const now = Date.now();
    const since = this.#pendingSince.get(name) ?? now;
    this.#pendingSince.set(name, since);
    const t = this.#timers.get(name);
    if (t) clearTimeout(t);
    const fire = (): void => {
      this.#timers.delete(name);
      this.#pendingSince.delete(name);
      if (!this.#closed) this.read(name);
    };
    this.#timers.set(name, setTimeout(fire, Math.max(0, Math.min(this.debounceMs, since + this.maxWaitMs - now))));
  }

  /** Stops every timer; later changes are ignored. */
  close(): void {
    this.#closed = true;
    for (const t of this.#timers.values()) clearTimeout(t);
    this.#timers.clear();
  }
}

/** The workflow files of one directory and the workflows deployed from them. */
class DirectoryFiles {
  readonly #files = new Map<string, FileState>();
  /** Workflow ID to the file that owns it. */
  readonly #owners = new Map<string, string>();
  /** Files already warned about (bad names, conflicts), so a rescan does not repeat the warning. */
  readonly #warned = new Set<string>();
  /** True during the initial load: successful deploys are summed up by the caller, not logged one by one. */
  #starting = true;
  /** Set by `close()`: rescans stop. */
  closed = false;
  /** Asks for a file to be read soon (the watcher's debouncer); reads at once until set. */
  schedule: (name: string) => void = (name) => this.sync(name);

  constructor(
    private readonly service: ServiceCore,
    private readonly dir: string,
    private readonly log: (line: string) => void,
  ) {}

  /** Deploys what is there now (rule 1); returns the workflow IDs deployed. */
  loadAll(): string[] {
    for (const name of this.#listDir()) this.sync(name);
    this.#starting = false;
    return [...this.#owners.entries()].filter(([, f]) => this.#files.get(f)?.deployed).map(([id]) => id);
  }

  /** The path of the file a workflow was deployed from. */
  fileOf(workflowId: string): string | undefined {
    const name = this.#owners.get(workflowId);
    return name === undefined ? undefined : join(this.dir, name);
  }

  #warnOnce(key: string, line: string): void {
    if (this.#warned.has(key)) return;
    this.#warned.add(key);
    this.log(line);
  }

  /** Reads one file and deploys it if it changed. */
  sync(name: string): void {
    const naming = workflowIdForFile(name);
    if (!naming) return;
    const path = join(this.dir, name);
    if ('skip' in naming) {
      this.#warnOnce(`name:${name}`, `workflows-emulator: skipping ${path}: ${naming.skip}`);
      return;
    }
    const read = this.#read(name, path);
    if (!read) return;
    const { id } = naming;
    const owner = this.#owners.get(id);
    if (owner !== undefined && owner !== name) {
      this.#warnOnce(`conflict:${name}`, `workflows-emulator: skipping ${path}: workflow "${id}" is already deployed from ${owner}`);
      return;
    }
    if (naming.lowercased) this.#warnOnce(`upper:${name}`, `workflows-emulator: ${path}: the file name has upper-case letters; deploying it as workflow "${id}"`);
    const known = this.#files.get(name);
    if (known && known.content === read.content) {
      known.size = read.size;
      known.mtimeMs = read.mtimeMs;
      return;
    }
    const state: FileState = known ?? { id, ...read, deployed: false };
    Object.assign(state, read);
    this.#files.set(name, state);
    this.#owners.set(id, name);
    this.#deploy(state, path);
  }

  /** A file's content, size and mtime; undefined when it is not a file or cannot be read (a gone file is removed). */
  #read(name: string, path: string): { content: string; size: number; mtimeMs: number } | undefined {
    try {
      const st = statSync(path);
      if (!st.isFile()) return undefined;
      return { size: st.size, mtimeMs: st.mtimeMs, content: readFileSync(path, 'utf8') };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') this.#removed(name);
      else this.log(`workflows-emulator: cannot read ${path}: ${(e as Error).message}`);
      return undefined;
    }
  }

  /** Creates or updates the file's workflow; a file that fails to compile is logged and the revision before stays. */
  #deploy(state: FileState, path: string): void {
    const { service } = this;
    const { id, content } = state;
    let existing: string | undefined;
    try {
      existing = service.getWorkflow(id).sourceContents;
    } catch {
      existing = undefined;
    }
    try {
      if (existing === undefined) {
        const wf = service.createWorkflow(id, { sourceContents: content });
        if (!this.#starting) this.log(`workflows-emulator: deployed workflow "${id}" (revision ${wf.revisionId}) from ${path}`);
      } else if (existing !== content) {
        const wf = service.updateWorkflow(id, { sourceContents: content });
        this.log(`workflows-emulator: updated workflow "${id}" (revision ${wf.revisionId}) from ${path}`);
      }
      state.deployed = true;
      service.sourceProblems.clear(id);
    } catch (e) {
      const msg = e instanceof ApiError || e instanceof Error ? e.message : String(e);
      const kept = existing !== undefined ? '; the revision deployed before stays' : '';
      state.deployed = false;
      this.log(`workflows-emulator: ${path}: ${msg}${kept}`);
      service.sourceProblems.set(sourceProblem(service, id, path, msg, e));
    }
  }

  /** A file is gone: delete its workflow if the file owned it, and let another claimant take the ID. */
  #removed(name: string): void {
    const state = this.#files.get(name);
    this.#files.delete(name);
    for (const k of [`name:${name}`, `conflict:${name}`, `upper:${name}`]) this.#warned.delete(k);
    if (!state || this.#owners.get(state.id) !== name) return;
    this.#owners.delete(state.id);
    this.service.sourceProblems.clear(state.id);
    try {
      this.service.deleteWorkflow(state.id);
      this.log(`workflows-emulator: deleted workflow "${state.id}" (${join(this.dir, name)} was removed)`);
    } catch {
      // Already deleted through the API.
    }
    this.rescan();
  }

  #listDir(): string[] {
    try {
      return readdirSync(this.dir).sort();
    } catch (e) {
      this.#warnOnce('dir', `workflows-emulator: cannot read the workflows directory ${this.dir}: ${(e as Error).message}`);
      return [];
    }
  }

  /** Finds files that changed (size or mtime), appeared or disappeared since last seen. */
  rescan(): void {
    if (this.closed) return;
    const present = new Set<string>();
    for (const name of this.#listDir()) {
      if (!workflowIdForFile(name)) continue;
      present.add(name);
      const known = this.#files.get(name);
      if (!known) {
        this.schedule(name);
        continue;
      }
      try {
        const st = statSync(join(this.dir, name));
        if (st.size !== known.size || st.mtimeMs !== known.mtimeMs) this.schedule(name);
      } catch {
        this.schedule(name);
      }
    }
    for (const name of [...this.#files.keys()]) if (!present.has(name)) this.schedule(name);
  }
}

/** The problem the UI shows for a file that failed to deploy: the message and, when the compiler said, where. */
function sourceProblem(service: ServiceCore, workflowId: string, file: string, message: string, e: unknown): SourceProblem {
  const cause = (e as { cause?: { line?: unknown; col?: unknown; step?: unknown } } | undefined)?.cause;
  let kept: string | undefined;
  try {
    kept = service.getWorkflow(workflowId).revisionId;
  } catch {
    kept = undefined;
  }
  return {
    workflowId,
    file,
    message,
    ...(typeof cause?.line === 'number' ? { line: cause.line } : {}),
    ...(typeof cause?.col === 'number' ? { column: cause.col } : {}),
    ...(typeof cause?.step === 'string' ? { step: cause.step } : {}),
    ...(kept !== undefined ? { keptRevisionId: kept } : {}),
    time: new Date().toISOString(),
  };
}
