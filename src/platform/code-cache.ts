/**
 * V8's code cache for the bundle's own code (docs/architecture.md#the-code-cache): dist/emulator.js compiles its
 * main code and each packed group as a script of build output (node:vm, in this context; never user input), and
 * hands V8 the code it compiled for that script in an earlier process, so a start skips parsing and compiling
 * what an earlier start of the same command already compiled. Node 20 has no compile cache of its own for ES
 * modules (`module.enableCompileCache` is Node 22.1+), so the bundle keeps one, the way Node's does: written by
 * the first process that lacks it, when it exits, into a folder of the user's (`os.tmpdir()` by default).
 *
 * - Where: `WORKFLOWS_EMULATOR_CODE_CACHE=<dir>`, or `workflows-emulator-code-cache-<uid>` in `os.tmpdir()`;
 *   `WORKFLOWS_EMULATOR_CODE_CACHE=off` (or `0`, `false`) turns it off. The folder is made private (0700), and a
 *   folder that is not the user's own or that others may write to is never read.
 * - What: one file per script and build, named by `key` (the build's hash and the script's use), the runtime
 *   with its version, and the CPU architecture. V8 checks each entry against the source and its own version and flags,
 *   and rejects one that does not match (it then compiles as usual, and this process writes the entry anew).
 * - When: at exit, only entries that were missing or rejected, each written to a temporary file and renamed into
 *   place, so processes starting together never read half an entry. Nothing is written when the folder cannot
 *   be made or written; the code runs all the same.
 * - How much: at most {@link MAX_CACHE_BYTES} in all. Each build writes entries of its own (about 8 MB for all
 *   its commands), so after writing, a process deletes the entries written longest ago until the folder is
 *   within that: the builds in use now keep theirs.
 * - Under Deno too (its node:vm takes V8's code cache), but only when the emulator may already read the
 *   environment and write the folder (`-A`), so that no permission prompt appears for it. Not under Bun: its
 *   node:vm takes a cache but starts no faster with one (`run` measured at the same CPU time with and without).
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { nodeOs, nodeVm } from './builtins.ts';

/** What {@link runCachedScript} compiles. */
export interface CachedScriptOptions {
  /** The script's name in stack traces: a path, or a `workflows-emulator:packed/<group>.js` name. */
  readonly filename: string;
  /** Lines before the script's first line in `filename` (0 when the script is the whole file). */
  readonly lineOffset?: number;
  /** Characters before the script's first character on its first line (0 when it starts a line). */
  readonly columnOffset?: number;
  /** The cache entry's name: the build's hash and what the script is for (`0123abcd-main-run`); `[\w.-]+`. */
  readonly key: string;
}

/** Scripts compiled without a usable cache entry, whose entries are written at exit. */
const toWrite: { script: import('node:vm').Script; file: string }[] = [];
let folder: string | null | undefined;

/**
 * The cache folder, made on first use; null when caching is off, not Node, or the folder is not safe to read.
 * Source: Node's own compile cache is likewise a folder of files under `os.tmpdir()` by default
 * (https://nodejs.org/api/module.html#module-compile-cache).
 */
function cacheFolder(): string | null {
  if (folder !== undefined) return folder;
  folder = null;
  if (process.versions['bun'] !== undefined || !denoAllows('env')) return folder;
  const setting = process.env['WORKFLOWS_EMULATOR_CODE_CACHE'];
  if (setting !== undefined && /^(off|0|false)$/i.test(setting)) return folder;
  let uid: number | undefined;
  try {
    uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  } catch {
    return folder; // Deno without --allow-sys: the folder's owner cannot be checked
  }
  const dir = setting || join(nodeOs().tmpdir(), `workflows-emulator-code-cache-${uid ?? 'user'}`);
  if (!denoAllows('read', dir) || !denoAllows('write', dir)) return folder;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const st = lstatSync(dir);
    // Another user's folder, or one others may write to, could hold code planted for us to run.
    if (!st.isDirectory() || (uid !== undefined && st.uid !== uid) || (process.platform !== 'win32' && (st.mode & 0o022) !== 0)) return folder;
    folder = dir;
  } catch {
    // No folder (read-only file system, no permission): compile without a cache.
  }
  return folder;
}

/** The part of Deno's global read here (https://docs.deno.com/api/deno/~/Deno.Permissions.querySync). */
interface DenoPermissions {
  readonly permissions: { querySync(descriptor: { name: string; path?: string }): { state: string } };
}

/** Whether Deno has already granted this permission (true elsewhere): asking would prompt the user. */
function denoAllows(name: 'env' | 'read' | 'write', path?: string): boolean {
  const deno = (globalThis as { Deno?: DenoPermissions }).Deno;
  if (deno === undefined) return true;
  try {
    return deno.permissions.querySync(path === undefined ? { name } : { name, path }).state === 'granted';
  } catch {
    return false;
  }
}

/**
 * The runtime and its version (`node-v20.20.2`, `deno-2.9.6`, `bun-1.4.5`: Deno and Bun report a Node version too),
 * and the options Node was started with, if any, as a hash ({@link optionsTag}).
 */
function runtimeTag(): string {
  const { deno, bun } = process.versions as { deno?: string; bun?: string };
  return deno !== undefined ? `deno-${deno}` : bun !== undefined ? `bun-${bun}` : `node-${process.version}${optionsTag()}`;
}

/**
 * `.o<hash>` of the options the process was started with (`process.execArgv` and `NODE_OPTIONS`), or '' for none.
 * V8 rejects an entry written under other V8 flags (`--max-old-space-size`, `--expose-gc`, ...): processes started
 * with and without them would each reject the other's entry and write their own at every start, so each set of
 * options has entries of its own. FNV-1a, 32 bits: a name, not a secret.
 */
function optionsTag(): string {
  const options = [...process.execArgv, process.env['NODE_OPTIONS'] ?? ''].join(' ').trim();
  if (options === '') return '';
  let hash = 0x811c9dc5;
  for (let i = 0; i < options.length; i++) hash = Math.imul(hash ^ options.charCodeAt(i), 0x01000193);
  return `.o${(hash >>> 0).toString(16)}`;
}

/** An entry's file name as runCachedScript writes it: `<key>-<runtime>-<version>[.o<options>]-<arch>.v8` (nothing else is pruned). */
const ENTRY_NAME = /^[\w.-]+-(node|deno|bun)-[\w.]+-\w+\.v8$/;

/** The most the cache folder's entries may take, in bytes, after a process has written to it. */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** Writes the entries of the scripts compiled without one (at exit; each failure is ignored), then prunes. */
function writeEntries(): void {
  for (const { script, file } of toWrite.splice(0)) {
    try {
      const temporary = `${file}.${process.pid}.tmp`;
      writeFileSync(temporary, script.createCachedData(), { mode: 0o600 });
      renameSync(temporary, file);
    } catch {
      // A full disk or a removed folder: the next process compiles as this one did.
    }
  }
  if (folder) pruneEntries(folder, MAX_CACHE_BYTES);
}

/**
 * Deletes the entries of `dir` (files named as {@link ENTRY_NAME}) written longest ago until the rest take at most `maxBytes`; errors (an
 * entry another process deleted first, a folder gone) are ignored.
 */
function pruneEntries(dir: string, maxBytes: number): void {
  try {
    const entries: { file: string; bytes: number; written: number }[] = [];
    for (const name of readdirSync(dir)) {
      if (!ENTRY_NAME.test(name)) continue;
      const file = join(dir, name);
      const st = statSync(file, { throwIfNoEntry: false });
      if (st?.isFile()) entries.push({ file, bytes: st.size, written: st.mtimeMs });
    }
    let total = entries.reduce((sum, e) => sum + e.bytes, 0);
    for (const entry of entries.sort((a, b) => a.written - b.written)) {
      if (total <= maxBytes) break;
      try {
        unlinkSync(entry.file);
      } catch {
        // deleted by another process already
      }
      total -= entry.bytes;
    }
  } catch {
    // The folder cannot be read: nothing to prune.
  }
}

/**
 * Compiles `source` as a script of build output in this context, with V8's code cache entry `options.key` when
 * there is one, and returns the value its last statement evaluates to (the bundle's scripts are each one
 * function expression). Never throws for the cache: an unreadable, missing or rejected entry only means that V8
 * compiles the source itself. Errors of the script itself propagate (a SyntaxError is a build error).
 */
export function runCachedScript(source: string, options: CachedScriptOptions): unknown {
  const vm = nodeVm();
  const dir = cacheFolder();
  const base = { filename: options.filename, lineOffset: options.lineOffset ?? 0, columnOffset: options.columnOffset ?? 0 };
  if (dir === null) return new vm.Script(source, base).runInThisContext();
  const file = join(dir, `${options.key}-${runtimeTag()}-${process.arch}.v8`);
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(file);
  } catch {
    // No entry yet.
  }
  const script = new vm.Script(source, cachedData ? { ...base, cachedData } : base);
  if (cachedData === undefined || script.cachedDataRejected === true) {
    if (toWrite.length === 0) process.once('exit', writeEntries);
    toWrite.push({ script, file });
  }
  return script.runInThisContext();
}
