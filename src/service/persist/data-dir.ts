/**
 * A data directory on disk (docs/persistence.md#the-data-directory): `FORMAT.json` (the format version),
 * `snapshot.jsonl` (the state when the journal was last compacted: one saved record per line, records.ts) and
 * `journal-<N>.log` (the changes since, frame.ts), and `LOCK` (the process using it).
 *
 * Opening reads the snapshot and every journal from the one it names on, in order, and hands back the state
 * they make. A torn last record is dropped (cut off the file) and reported on stderr; anything else that
 * cannot be read stops start-up with a {@link DataDirError} naming the file and the byte offset.
 */
import * as fs from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { FrameError, scanFrames } from './frame.ts';
import { Journal, type JournalFs } from './journal.ts';
import { applyRecord, emptyState, type LoadedState } from './state.ts';
import { lazySaved, type LazySavedExecution } from './records.ts';
import { writeError } from '../../platform/std-streams.ts';

/** The format this emulator writes and reads; a directory of a higher one is refused. */
export const FORMAT_VERSION = 1;
const FORMAT_FILE = 'FORMAT.json';
const SNAPSHOT_FILE = 'snapshot.jsonl';
const LOCK_FILE = 'LOCK';
const JOURNAL_RE = /^journal-(\d+)\.log$/;

/** A data directory that cannot be used: the file, the byte offset (when it is about a place in a file), why. */
export class DataDirError extends Error {
  constructor(
    readonly file: string,
    readonly offset: number | undefined,
    why: string,
  ) {
    super(`${file}${offset !== undefined ? ` at byte ${offset}` : ''}: ${why}`);
    this.name = 'DataDirError';
  }
}

/** An open data directory: the state read from it, and the journal new changes go to. */
export interface OpenedDataDir {
  readonly dir: string;
  readonly state: LoadedState;
  /** The generation of the journal being appended to. */
  readonly generation: number;
  readonly journal: Journal;
  /** Bytes of the snapshot read at start-up. */
  readonly snapshotBytes: number;
}

/** The path of generation `gen`'s journal. */
export function journalPath(dir: string, gen: number): string {
  return join(dir, `journal-${gen}.log`);
}

/**
 * Opens (creating when absent or empty) the data directory `dir` and reads its state.
 * @throws DataDirError for a directory that is not one, is in use, is of a newer format, or is damaged
 */
export function openDataDir(dir: string, io?: JournalFs): OpenedDataDir {
  prepareDirectory(dir);
  takeLock(dir);
  const state = emptyState();
  const snapshot = readSnapshot(dir, state);
  const gens = journalGenerations(dir);
  for (const g of gens) if (g < snapshot.generation) fs.rmSync(journalPath(dir, g), { force: true });
  const live = gens.filter((g) => g >= snapshot.generation);
  for (const g of live) readJournal(journalPath(dir, g), state);
  const generation = live.length ? live[live.length - 1]! : snapshot.generation;
  const path = journalPath(dir, generation);
  const fd = fs.openSync(path, 'a');
  if (live.length === 0) syncDirectory(dir);
  return { dir, state, generation, journal: new Journal(fd, fs.fstatSync(fd).size, path, io), snapshotBytes: snapshot.bytes };
}

/** Makes `dir` a data directory (writing FORMAT.json in a new or empty one) or checks that it is one. */
function prepareDirectory(dir: string): void {
  try {
    makeDirectories(dir);
  } catch (e) {
    throw new DataDirError(dir, undefined, `cannot create the data directory: ${(e as Error).message}`);
  }
  const formatPath = join(dir, FORMAT_FILE);
  let text = readFormat(formatPath);
  if (text === undefined) {
    // LOCK, a LOCK.<pid>.tmp and FORMAT.json's temporary files are other emulators', starting on the same new
    // directory at this moment: the lock decides which one goes on (takeLock).
    const starting = (f: string): boolean => f === LOCK_FILE || (f.endsWith('.tmp') && (f.startsWith(`${LOCK_FILE}.`) || f.startsWith(`${FORMAT_FILE}.`)));
    if (fs.readdirSync(dir).every(starting)) {
      writeFileDurably(dir, FORMAT_FILE, JSON.stringify({ format: FORMAT_VERSION, kind: DATA_DIR_KIND }, null, 2) + '\n');
      return;
    }
    // Another emulator starting at this moment may have made it a data directory since the read above.
    text = readFormat(formatPath);
    if (text === undefined) throw new DataDirError(dir, undefined, `not a data directory of the emulator (no ${FORMAT_FILE}) and not empty; give a new or empty directory`);
  }
  checkFormat(formatPath, text, 'data directory');
  if (kindOf(text) === EXPORT_KIND) {
    throw new DataDirError(formatPath, undefined, 'this directory is an export of the emulator, not a data directory: load it with --import (docs/persistence.md#import-and-export)');
  }
}

/** FORMAT.json's text, or undefined when there is none. @throws DataDirError when it cannot be read */
function readFormat(path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new DataDirError(path, undefined, `cannot read: ${(e as Error).message}`);
  }
}

/** What an export's FORMAT.json names as its kind (a data directory's says DATA_DIR_KIND). */
export const EXPORT_KIND = 'workflows-emulator export';
/** What a data directory's FORMAT.json names as its kind. */
export const DATA_DIR_KIND = 'workflows-emulator data directory';

/** The "kind" a FORMAT.json's text names, if it is JSON with one. */
export function kindOf(text: string): unknown {
  try {
    return (JSON.parse(text) as { kind?: unknown }).kind;
  } catch {
    return undefined;
  }
}

/**
 * Makes `dir` and every missing directory above it, one `mkdir` each: what `fs.mkdirSync(dir, {recursive:
 * true})` does, except that Node's retries that forever (spinning) where `mkdir` answers ENOENT under a
 * directory that exists, as in /proc and /sys.
 * @throws the fs error of the `mkdir` that failed, or an Error when `dir` exists and is not a directory
 */
export function makeDirectories(dir: string): void {
  const missing: string[] = [];
  for (let p = resolve(dir); !fs.existsSync(p); p = dirname(p)) {
    missing.push(p);
    if (dirname(p) === p) break;
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  if (!fs.statSync(dir).isDirectory()) throw new Error(`${resolve(dir)} exists and is not a directory`);
}

/** Checks a FORMAT.json's text. @throws DataDirError for a malformed or newer one */
export function checkFormat(path: string, text: string, what: string): void {
  let format: unknown;
  try {
    format = (JSON.parse(text) as { format?: unknown }).format;
  } catch (e) {
    throw new DataDirError(path, 0, `not JSON: ${(e as Error).message}`);
  }
  if (typeof format !== 'number' || !Number.isInteger(format) || format < 1) throw new DataDirError(path, 0, '"format" is not a version number');
  if (format > FORMAT_VERSION) {
    throw new DataDirError(path, undefined, `this ${what} was written by a newer version of the emulator (format ${format}; this one reads format ${FORMAT_VERSION}): upgrade the emulator`);
  }
}

/**
 * Claims the directory for this process: `LOCK` appears whole, the process ID already in it (written to a file of
 * this process's own, then hard-linked as `LOCK`, which fails if `LOCK` exists), so of processes starting at once
 * exactly one gets it, and none ever reads a `LOCK` that another has created but not yet written. A `LOCK` left by
 * a process that is gone (or unreadable) is removed and the claim tried again.
 * @throws DataDirError when another living process holds it
 */
function takeLock(dir: string): void {
  const path = join(dir, LOCK_FILE);
  const own = join(dir, `${LOCK_FILE}.${process.pid}.tmp`);
  fs.writeFileSync(own, `${process.pid}\n`);
  try {
    claimLock(path, own);
  } finally {
    fs.rmSync(own, { force: true });
  }
}

/** takeLock's attempts: link `own` as `path`, or find who holds it. */
function claimLock(path: string, own: string): void {
  for (let attempt = 0; ; attempt++) {
    try {
      fs.linkSync(own, path);
      return;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 3) throw e;
    }
    const holder = lockHolder(path);
    if (holder !== undefined && holder !== process.pid && isAlive(holder)) {
      throw new DataDirError(path, undefined, `the data directory is in use by process ${holder}`);
    }
    fs.rmSync(path, { force: true });
  }
}

/** The process ID written in a `LOCK` file, or undefined when it is missing, empty or not a process ID. */
function lockHolder(path: string): number | undefined {
  let holder: number;
  try {
    holder = Number(fs.readFileSync(path, 'utf8').trim());
  } catch {
    return undefined;
  }
  return Number.isInteger(holder) && holder > 0 ? holder : undefined;
}

/** Whether process `pid` is running (a zombie, killed but not yet reaped, is not). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true; // no /proc (macOS, Windows): kill(pid, 0) answered
  }
}

/** Releases the directory (at exit). */
export function releaseLock(dir: string): void {
  fs.rmSync(join(dir, LOCK_FILE), { force: true });
}

/** The generations of the journals in `dir`, ascending. */
function journalGenerations(dir: string): number[] {
  const out: number[] = [];
  for (const f of fs.readdirSync(dir)) {
    const m = JOURNAL_RE.exec(f);
    if (m) out.push(Number(m[1]));
  }
  return out.sort((a, b) => a - b);
}

/** Reads snapshot.jsonl into `state`; returns the journal generation it was taken at (0 when there is none). */
function readSnapshot(dir: string, state: LoadedState): { generation: number; bytes: number } {
  const path = join(dir, SNAPSHOT_FILE);
  let text: string;
  try {
    text = fs.readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { generation: 0, bytes: 0 };
    throw new DataDirError(path, undefined, `cannot read: ${(e as Error).message}`);
  }
  const lines = text.split('\n');
  const header = parseLine(path, lines, 0) as { format?: unknown; journal?: unknown; records?: unknown };
  checkFormat(path, JSON.stringify(header), 'data directory');
  const count = header.records;
  if (typeof header.journal !== 'number' || typeof count !== 'number') throw new DataDirError(path, 0, 'the header has no journal or record count');
  if (lines.length < count + 2 || lines[count + 1] !== '{"end":true}') throw new DataDirError(path, offsetOf(lines, Math.min(lines.length - 1, count + 1)), 'the snapshot is cut short');
  for (let i = 1; i <= count; i++) {
    try {
      const lazy = lazySaved(lines[i]!);
      if (lazy) state.executions.set(lazy.id, lazy);
      else applyRecord(state, parseLine(path, lines, i));
    } catch (e) {
      if (e instanceof DataDirError) throw e;
      throw new DataDirError(path, offsetOf(lines, i), `a record cannot be read: ${(e as Error).message}`);
    }
  }
  return { generation: header.journal, bytes: Buffer.byteLength(text) };
}

/** Line `i` of a snapshot as a JSON object. @throws DataDirError naming its offset */
function parseLine(path: string, lines: readonly string[], i: number): Record<string, unknown> {
  let v: unknown;
  try {
    v = JSON.parse(lines[i] ?? '');
  } catch (e) {
    throw new DataDirError(path, offsetOf(lines, i), `not a JSON record: ${(e as Error).message}`);
  }
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new DataDirError(path, offsetOf(lines, i), 'not a JSON object');
  return v as Record<string, unknown>;
}

/** The byte offset of line `i` (counted only when a problem is reported). */
function offsetOf(lines: readonly string[], i: number): number {
  let n = 0;
  for (let k = 0; k < i; k++) n += Buffer.byteLength(lines[k]!) + 1;
  return n;
}

/** Applies a journal's records to `state`; a torn last record is cut off the file and reported on stderr. */
function readJournal(path: string, state: LoadedState): void {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(path);
  } catch (e) {
    throw new DataDirError(path, undefined, `cannot read: ${(e as Error).message}`);
  }
  let scan;
  try {
    scan = scanFrames(bytes, lazySaved);
  } catch (e) {
    if (e instanceof FrameError) throw new DataDirError(path, e.offset, `${e.message}; the journal is damaged (docs/persistence.md#recovery)`);
    throw e;
  }
  for (const r of scan.records) {
    try {
      if ('lazy' in r.value) {
        state.executions.set(r.value.id as string, r.value as unknown as LazySavedExecution);
        state.active.delete(r.value.id as string);
      } else applyRecord(state, r.value);
    } catch (e) {
      throw new DataDirError(path, r.offset, `a record cannot be applied: ${(e as Error).message}`);
    }
  }
  if (scan.tornAt !== undefined) {
    writeError(
      `workflows-emulator: ${path}: dropped a torn last record at byte ${scan.tornAt} (${bytes.length - scan.tornAt} bytes): ` +
        'a write the emulator never acknowledged, cut short when it stopped (docs/persistence.md#recovery)\n',
    );
    fs.truncateSync(path, scan.tornAt);
  }
}

/** Writes `name` in `dir` so that it is whole on disk or absent: a temporary file, fsync, rename, fsync of the directory. */
export function writeFileDurably(dir: string, name: string, data: string | Uint8Array): void {
  // The process's own temporary file: emulators starting at once on a new directory each write FORMAT.json.
  const tmp = join(dir, `${name}.${process.pid}.tmp`);
  const fd = fs.openSync(tmp, 'w');
  try {
    fs.writeFileSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(tmp, join(dir, name));
  syncDirectory(dir);
}

/** Makes a directory's entries (a rename, a new file) durable; a no-op where directories cannot be opened. */
export function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, 'r');
    fs.fsyncSync(fd);
  } catch {
    /* Windows and some runtimes cannot fsync a directory */
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The snapshot file's text: header, one line per record, end line. */
export function snapshotText(generation: number, lines: readonly string[]): string {
  return `${JSON.stringify({ format: FORMAT_VERSION, journal: generation, records: lines.length })}\n${lines.join('\n')}${lines.length ? '\n' : ''}{"end":true}\n`;
}

/** The snapshot's file name. */
export const SNAPSHOT_NAME = SNAPSHOT_FILE;

/** Bytes of every file in the data directory. */
export function directoryBytes(dir: string): number {
  let n = 0;
  let files: string[];
  try {
    files = fs.readdirSync(dir);
  } catch {
    return 0; // removed or made unreadable under the running emulator: health still answers
  }
  for (const f of files) {
    try {
      n += fs.statSync(join(dir, f)).size;
    } catch {
      /* removed meanwhile */
    }
  }
  return n;
}
