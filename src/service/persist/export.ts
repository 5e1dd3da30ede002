/**
 * Export and import (docs/persistence.md#import-and-export): the emulator's state as plain files a person can
 * read and diff, written by `--export-on-exit DIR` and `POST /emulator/v1:export`, read by `--import DIR`:
 *
 *     FORMAT.json                                  {"format": 1, "kind": "workflows-emulator export", ...}
 *     workflows/<workflowId>/workflow.json         the current revision ID and the revision counter
 *     workflows/<workflowId>/<revisionId>.yaml     each kept revision's source, as written
 *     workflows/<workflowId>/<revisionId>.json     each kept revision's other fields
 *     deleted.json                                 revision counters of deleted workflows (when there are any)
 *     executions/<workflowId>/<executionId>.json   an execution with its step history, calls, logs, recording
 *
 * JSON files are pretty-printed with sorted keys. An export is written beside its directory and renamed into
 * place, so the directory holds a whole export or the one before.
 */
import * as fs from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { Execution, Workflow } from '../model.ts';
import { SETTING_NAMES } from '../store/workflow-settings.ts';
import type { CoreInternals } from './hooks.ts';
import { saveExecution, type SavedExecution } from './records.ts';
import { checkFormat, DATA_DIR_KIND, DataDirError, EXPORT_KIND, FORMAT_VERSION, kindOf, makeDirectories } from './data-dir.ts';
import { applyRecord, emptyState, type ActiveCallbacks, type LoadedState } from './state.ts';

/** The order the API writes a workflow's fields in (an import puts them back in it). */
const WORKFLOW_KEYS = ['name', 'state', 'revisionId', 'sourceContents', 'description', 'createTime', 'updateTime', 'revisionCreateTime', 'executionHistoryLevel', 'callLogLevel', ...SETTING_NAMES];
/** The order the API writes an execution's fields in. */
const EXECUTION_KEYS = ['name', 'state', 'argument', 'result', 'error', 'startTime', 'createTime', 'endTime', 'workflowRevisionId', 'executionHistoryLevel', 'labels', 'callLogLevel', 'duration', 'status'];

/** What an export wrote. */
export interface ExportSummary {
  /** The export's absolute path. */
  readonly directory: string;
  readonly workflows: number;
  readonly executions: number;
}

/** JSON text, two-space indented, with every object's keys sorted. */
export function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v), 2) + '\n';
}

/**
 * Writes the core's state as an export into `directory` (created; an earlier export there is replaced).
 * @throws Error when `directory` holds something other than an export, or cannot be written
 */
export function exportState(core: CoreInternals, directory: string, active: ReadonlyMap<string, ActiveCallbacks>): ExportSummary {
  const target = resolve(directory);
  checkTarget(target);
  makeDirectories(dirname(target));
  const tmp = join(dirname(target), `.${basename(target)}.export-${process.pid}`);
  fs.rmSync(tmp, { recursive: true, force: true });
  let workflows = 0;
  let executions = 0;
  for (const wf of core.store.records()) {
    const dir = join(tmp, 'workflows', wf.id);
    makeDirectories(dir);
    for (const rev of wf.revisions) {
      const { sourceContents, ...fields } = rev;
      fs.writeFileSync(join(dir, `${rev.revisionId}.yaml`), sourceContents);
      fs.writeFileSync(join(dir, `${rev.revisionId}.json`), sortedJson(fields));
    }
    fs.writeFileSync(join(dir, 'workflow.json'), sortedJson({ id: wf.id, currentRevision: wf.resource.revisionId, revisions: wf.revisions.map((r) => r.revisionId), revisionCounter: wf.counter }));
    workflows++;
  }
  makeDirectories(join(tmp, 'executions'));
  for (const ex of core.executions.list()) {
    const dir = join(tmp, 'executions', ex.workflowId);
    if (executions === 0 || !fs.existsSync(dir)) makeDirectories(dir);
    const { t: _t, ...saved } = saveExecution(ex, ex.resource.state === 'ACTIVE' ? [] : core.logsOf(ex));
    const callbacks = ex.resource.state === 'ACTIVE' ? active.get(ex.executionId) : undefined;
    fs.writeFileSync(join(dir, `${ex.executionId}.json`), sortedJson(callbacks ? { ...saved, callbacks } : saved));
    executions++;
  }
  const deleted = Object.fromEntries(core.store.deletedCounters());
  if (Object.keys(deleted).length) fs.writeFileSync(join(tmp, 'deleted.json'), sortedJson(deleted));
  fs.writeFileSync(join(tmp, 'FORMAT.json'), sortedJson({ format: FORMAT_VERSION, kind: EXPORT_KIND, exportTime: new Date().toISOString(), workflows, executions }));
  replaceDirectory(tmp, target);
  return { directory: target, workflows, executions };
}

/**
 * Checks at start-up that `--export-on-exit DIR` can be written at exit (docs/persistence.md#import-and-export):
 * `directory` is absent, empty or an earlier export, and the nearest directory above it that exists can be
 * written. Nothing is created.
 * @throws DataDirError naming the directory when it cannot take an export
 */
export function checkExportTarget(directory: string): void {
  const target = resolve(directory);
  try {
    checkTarget(target);
    let above = dirname(target);
    while (!fs.existsSync(above) && dirname(above) !== above) above = dirname(above);
    if (!fs.statSync(above).isDirectory()) throw new Error(`cannot export to ${target}: ${above} is not a directory`);
    fs.accessSync(above, fs.constants.W_OK);
  } catch (e) {
    throw new DataDirError(target, undefined, `--export-on-exit / EXPORT_ON_EXIT: ${(e as Error).message}`);
  }
}

/** @throws Error when `target` exists and is neither empty nor an export */
function checkTarget(target: string): void {
  let entries: string[];
  try {
    entries = fs.readdirSync(target);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new Error(`cannot export to ${target}: ${(e as Error).message}`);
  }
  if (entries.length === 0) return;
  let kind: unknown;
  try {
    kind = kindOf(fs.readFileSync(join(target, 'FORMAT.json'), 'utf8'));
  } catch {
    kind = undefined;
  }
  if (kind !== EXPORT_KIND) throw new Error(`cannot export to ${target}: it is not empty and holds no export of the emulator (nothing was written)`);
}

/** Puts the directory `tmp` at `target`, replacing an export there. */
function replaceDirectory(tmp: string, target: string): void {
  const old = `${tmp}.old`;
  let moved = false;
  try {
    fs.renameSync(target, old);
    moved = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  fs.renameSync(tmp, target);
  if (moved) fs.rmSync(old, { recursive: true, force: true });
}

/**
 * Reads an export into a state (the state a data directory's files would make).
 * @throws DataDirError naming the file (and the byte offset, for JSON that does not parse) that cannot be read
 */
export function readExport(directory: string): LoadedState {
  const root = resolve(directory);
  const state = emptyState();
  const formatPath = join(root, 'FORMAT.json');
  const format = readText(formatPath);
  checkFormat(formatPath, format, 'export');
  if (kindOf(format) === DATA_DIR_KIND) {
    throw new DataDirError(formatPath, undefined, 'this directory is a data directory of the emulator, not an export: start with --data-dir to use it (docs/persistence.md#import-and-export)');
  }
  const wfRoot = join(root, 'workflows');
  for (const id of listDir(wfRoot)) {
    const info = readJson(join(wfRoot, id, 'workflow.json')) as { currentRevision?: unknown; revisions?: unknown; revisionCounter?: unknown };
    if (!Array.isArray(info.revisions) || typeof info.currentRevision !== 'string') throw new DataDirError(join(wfRoot, id, 'workflow.json'), undefined, 'needs "currentRevision" and "revisions"');
    const revs = info.revisions.map((r) => readRevision(join(wfRoot, id), String(r)));
    const res = revs.find((r) => r.revisionId === info.currentRevision);
    if (!res) throw new DataDirError(join(wfRoot, id, 'workflow.json'), undefined, `the current revision ${info.currentRevision} is not among "revisions"`);
    applyChecked(join(wfRoot, id, 'workflow.json'), state, { t: 'w', id, res, revs, n: info.revisionCounter });
    state.sources.set(id, join(wfRoot, id, `${res.revisionId}.yaml`));
  }
  const deletedPath = join(root, 'deleted.json');
  if (fs.existsSync(deletedPath)) {
    for (const [id, n] of Object.entries(readJson(deletedPath))) applyChecked(deletedPath, state, { t: 'd', id, n });
  }
  readExecutions(join(root, 'executions'), state);
  return state;
}

/** Reads every execution file under `exRoot` into `state`, oldest first (by startTime). */
function readExecutions(exRoot: string, state: LoadedState): void {
  const all: { path: string; saved: SavedExecution & { callbacks?: ActiveCallbacks } }[] = [];
  for (const wf of listDir(exRoot)) {
    for (const f of listDir(join(exRoot, wf))) {
      if (!f.endsWith('.json')) continue;
      const path = join(exRoot, wf, f);
      const saved = readJson(path) as unknown as SavedExecution & { callbacks?: ActiveCallbacks };
      if (saved.res === null || typeof saved.res !== 'object' || typeof saved.s !== 'number') throw new DataDirError(path, undefined, 'an execution needs "res" (the execution resource) and "s" (its start in milliseconds)');
      all.push({ path, saved: { ...saved, t: 'x', res: ordered(saved.res, EXECUTION_KEYS) as unknown as Execution } });
    }
  }
  all.sort((a, b) => a.saved.s - b.saved.s || (a.saved.id < b.saved.id ? -1 : 1));
  for (const { path, saved } of all) {
    const { callbacks, ...x } = saved;
    applyChecked(path, state, x as unknown as Record<string, unknown>);
    for (const u of callbacks?.urls ?? []) applyChecked(path, state, { t: 'c', x: x.id, u });
    for (const r of callbacks?.deliveries ?? []) applyChecked(path, state, { t: 'cb', x: x.id, r });
  }
}

/** One kept revision: its fields and its source. */
function readRevision(dir: string, revisionId: string): Workflow {
  const fields = readJson(join(dir, `${revisionId}.json`));
  const sourceContents = readText(join(dir, `${revisionId}.yaml`));
  return Object.freeze(ordered({ ...fields, sourceContents }, WORKFLOW_KEYS)) as unknown as Workflow;
}

/** `o` with the keys of `order` first, in that order, then any others. */
function ordered(o: Record<string, unknown> | Execution, order: readonly string[]): Record<string, unknown> {
  const src = o as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of order) if (src[k] !== undefined) out[k] = src[k];
  for (const k of Object.keys(src)) if (!(k in out)) out[k] = src[k];
  return out;
}

function applyChecked(path: string, state: LoadedState, record: Record<string, unknown>): void {
  try {
    applyRecord(state, record);
  } catch (e) {
    throw new DataDirError(path, undefined, (e as Error).message);
  }
}

function listDir(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((f) => !f.startsWith('.')).sort();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new DataDirError(dir, undefined, `cannot read: ${(e as Error).message}`);
  }
}

function readText(path: string): string {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch (e) {
    throw new DataDirError(path, undefined, `cannot read: ${(e as Error).message}`);
  }
}

/** A JSON object file. @throws DataDirError with the offset where the JSON breaks, when the runtime says */
function readJson(path: string): Record<string, unknown> {
  const text = readText(path);
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    const at = /position (\d+)/.exec((e as Error).message);
    throw new DataDirError(path, at ? Buffer.byteLength(text.slice(0, Number(at[1]))) : 0, `not JSON: ${(e as Error).message}`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new DataDirError(path, 0, 'not a JSON object');
  return v as Record<string, unknown>;
}
