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
import { ApiError } from './errors.ts';
import type { ServiceCore } from './model.ts';
import { workflowIdProblem } from './names.ts';
import type { SourceProblem } from './source-problems.ts';

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
  const log = options.log ?? ((line: string) => void process.stderr.write(line + '\n'));
  const debounceMs = options.debounceMs ?? 60;
  const rescanMs = options.rescanMs ?? 2000;
  const maxWaitMs = options.maxWaitMs ?? 1000;
  const files = new Map<string, FileState>();
  /** Workflow ID to the file that owns it. */
  const owners = new Map<string, string>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** When the oldest change not yet read was seen, per file (ms, Date.now()). */
  const pendingSince = new Map<string, number>();
  /** Files already warned about (bad names, conflicts), so a rescan does not repeat the warning. */
  const warned = new Set<string>();
  let closed = false;
  service.sourceProblems.watched(true);
  /** True during the initial load: successful deploys are summed up by the caller, not logged one by one. */
  let starting = true;

  const warnOnce = (key: string, line: string): void => {
    if (warned.has(key)) return;
    warned.add(key);
    log(line);
  };

  /** Reads one file and deploys it if it changed. */
  function sync(name: string): void {
    const naming = workflowIdForFile(name);
    if (!naming) return;
    const path = join(dir, name);
    if ('skip' in naming) {
      warnOnce(`name:${name}`, `workflows-emulator: skipping ${path}: ${naming.skip}`);
      return;
    }
    let content: string;
    let size: number;
    let mtimeMs: number;
    try {
      const st = statSync(path);
      if (!st.isFile()) return;
      size = st.size;
      mtimeMs = st.mtimeMs;
      content = readFileSync(path, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') removed(name);
      else log(`workflows-emulator: cannot read ${path}: ${(e as Error).message}`);
      return;
    }
    const { id } = naming;
    const owner = owners.get(id);
    if (owner !== undefined && owner !== name) {
      warnOnce(`conflict:${name}`, `workflows-emulator: skipping ${path}: workflow "${id}" is already deployed from ${owner}`);
      return;
    }
    if (naming.lowercased) warnOnce(`upper:${name}`, `workflows-emulator: ${path}: the file name has upper-case letters; deploying it as workflow "${id}"`);
    const known = files.get(name);
    if (known && known.content === content) {
      known.size = size;
      known.mtimeMs = mtimeMs;
      return;
    }
    const state: FileState = known ?? { id, content, size, mtimeMs, deployed: false };
    state.content = content;
    state.size = size;
    state.mtimeMs = mtimeMs;
    files.set(name, state);
    owners.set(id, name);
    let existing: string | undefined;
    try {
      existing = service.getWorkflow(id).sourceContents;
    } catch {
      existing = undefined;
    }
    try {
      if (existing === undefined) {
        const wf = service.createWorkflow(id, { sourceContents: content });
        if (!starting) log(`workflows-emulator: deployed workflow "${id}" (revision ${wf.revisionId}) from ${path}`);
      } else if (existing !== content) {
        const wf = service.updateWorkflow(id, { sourceContents: content });
        log(`workflows-emulator: updated workflow "${id}" (revision ${wf.revisionId}) from ${path}`);
      }
      state.deployed = true;
      service.sourceProblems.clear(id);
    } catch (e) {
      const msg = e instanceof ApiError || e instanceof Error ? e.message : String(e);
      const kept = existing !== undefined ? '; the revision deployed before stays' : '';
      state.deployed = false;
      log(`workflows-emulator: ${path}: ${msg}${kept}`);
      service.sourceProblems.set(sourceProblem(service, id, path, msg, e));
    }
  }

  /** A file is gone: delete its workflow if the file owned it, and let another claimant take the ID. */
  function removed(name: string): void {
    const state = files.get(name);
    files.delete(name);
    for (const k of [`name:${name}`, `conflict:${name}`, `upper:${name}`]) warned.delete(k);
    if (!state || owners.get(state.id) !== name) return;
    owners.delete(state.id);
    service.sourceProblems.clear(state.id);
    try {
      service.deleteWorkflow(state.id);
      log(`workflows-emulator: deleted workflow "${state.id}" (${join(dir, name)} was removed)`);
    } catch {
      // Already deleted through the API.
    }
    rescan();
  }

  /** Reads the file after `debounceMs` of quiet, or when its oldest unread change is `maxWaitMs` old. */
  function schedule(name: string): void {
    if (closed) return;
    const now = Date.now();
    const since = pendingSince.get(name) ?? now;
    pendingSince.set(name, since);
    const t = timers.get(name);
    if (t) clearTimeout(t);
    timers.set(
      name,
      setTimeout(
        () => {
          timers.delete(name);
          pendingSince.delete(name);
          if (!closed) sync(name);
        },
        Math.max(0, Math.min(debounceMs, since + maxWaitMs - now)),
      ),
    );
  }

  function listDir(): string[] {
    try {
      return readdirSync(dir).sort();
    } catch (e) {
      warnOnce('dir', `workflows-emulator: cannot read the workflows directory ${dir}: ${(e as Error).message}`);
      return [];
    }
  }

  /** Finds files that changed (size or mtime), appeared or disappeared since last seen. */
  function rescan(): void {
    if (closed) return;
    const present = new Set<string>();
    for (const name of listDir()) {
      if (!workflowIdForFile(name)) continue;
      present.add(name);
      const known = files.get(name);
      if (!known) {
        schedule(name);
        continue;
      }
      try {
        const st = statSync(join(dir, name));
        if (st.size !== known.size || st.mtimeMs !== known.mtimeMs) schedule(name);
      } catch {
        schedule(name);
      }
    }
    for (const name of [...files.keys()]) if (!present.has(name)) schedule(name);
  }

  // Rule 1: deploy what is there now.
  for (const name of listDir()) sync(name);
  starting = false;
  const initial = [...owners.entries()].filter(([, f]) => files.get(f)?.deployed).map(([id]) => id);

  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, { persistent: false }, (_event, filename) => {
      if (filename) schedule(filename.toString());
      else rescan();
    });
    watcher.on('error', (e) => {
      log(`workflows-emulator: watching ${dir} failed (${e.message}); rescanning every ${rescanMs} ms instead`);
      watcher?.close();
      watcher = undefined;
    });
  } catch (e) {
    log(`workflows-emulator: cannot watch ${dir} (${(e as Error).message}); rescanning every ${rescanMs} ms instead`);
  }
  const interval = setInterval(rescan, rescanMs);
  interval.unref?.();

  return {
    initial,
    fileOf(workflowId) {
      const name = owners.get(workflowId);
      return name === undefined ? undefined : join(dir, name);
    },
    close() {
      if (!closed) service.sourceProblems.watched(false);
      closed = true;
      watcher?.close();
      clearInterval(interval);
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
    },
  };
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
