/**
 * Where sys.log entries go (docs/limits.md "Logs"): printed as JSON lines on a stream (the server's stdout)
 * and kept per execution for the API and the web UI, with the bytes of both bounded. A slow reader of the
 * stream makes lines drop, counted and reported once the stream drains, instead of a buffer that grows
 * without end; a closed or failing stream (EPIPE behind `| head -n 1`) stops the printing, never the emulator.
 * The entries kept are bounded per execution and in total, oldest dropped first.
 */
import type { LogEntry } from '../../stdlib/types.ts';
import { sizeOf } from '../../lang/value.ts';

/** Bytes a stream may hold unwritten before further lines are dropped (1 MB; the pipe's reader is slow). */
export const MAX_UNWRITTEN_LOG_BYTES = 1024 * 1024;
/** Bytes of sys.log entries kept per execution (4 MB), as {@link logEntryBytes} counts them. */
export const MAX_LOG_BYTES_PER_EXECUTION = 4 * 1024 * 1024;
/** Bytes of sys.log entries kept across all executions (64 MB). */
export const MAX_LOG_BYTES_TOTAL = 64 * 1024 * 1024;
/** Entries kept per execution, whatever their size. */
export const MAX_LOG_ENTRIES_PER_EXECUTION = 10_000;

/** The part of a writable stream a {@link lineWriter} uses (node:stream Writable, process.stdout). */
export interface LineStream {
  write(chunk: string): boolean;
  readonly writableLength: number;
  on(event: 'error', listener: (e: Error) => void): unknown;
  on(event: 'drain', listener: () => void): unknown;
}

/**
 * A function that prints one line (a newline is added) on a stream, `to` or the one `to()` returns when the first
 * line is printed (src/platform/std-streams.ts: a stream made only when needed): while the stream holds more than
 * `maxUnwrittenBytes` unwritten, lines are dropped and counted, and when it drains the next line printed is
 * preceded by a notice of how many were dropped. After the stream fails (EPIPE, a closed pipe) nothing more is
 * written and nothing is thrown: the error is the reader's, not the emulator's.
 */
export function lineWriter(to: LineStream | (() => LineStream), maxUnwrittenBytes: number = MAX_UNWRITTEN_LOG_BYTES): (line: string) => void {
  let failed = false;
  let dropped = 0;
  let stream: LineStream | undefined;
  const opened = (s: LineStream): LineStream => {
    s.on('error', () => {
      failed = true;
    });
    return s;
  };
  if (typeof to !== 'function') stream = opened(to);
  return (line) => {
    if (failed) return;
    stream ??= opened((to as () => LineStream)());
    if (stream.writableLength > maxUnwrittenBytes) {
      dropped++;
      return;
    }
    try {
      if (dropped > 0) {
        stream.write(`workflows-emulator: ${dropped} log line${dropped === 1 ? '' : 's'} dropped: the output was read too slowly (docs/limits.md "Logs")\n`);
        dropped = 0;
      }
      stream.write(line + '\n');
    } catch {
      failed = true; // a stream destroyed under us throws synchronously on some runtimes
    }
  };
}

/** The bytes one entry is counted as: its payload as `sizeOf` measures it, plus its time and severity. */
export function logEntryBytes(entry: LogEntry): number {
  return sizeOf(entry.payload) + 64;
}

/** One execution's kept entries and their bytes. */
export interface KeptLogs {
  readonly entries: LogEntry[];
  bytes: number;
  /** Entries dropped from this execution's record (the oldest first) to stay within the limits. */
  dropped: number;
}

/**
 * The sys.log entries kept for reading back, per execution, within {@link MAX_LOG_BYTES_PER_EXECUTION} and
 * {@link MAX_LOG_ENTRIES_PER_EXECUTION} per execution and {@link MAX_LOG_BYTES_TOTAL} in total: past either,
 * the oldest entries go first (of the execution itself, then of the executions that logged longest ago).
 */
export class LogRecord {
  #total = 0;
  /** Executions' logs with entries kept, in order of their first entry (a Map keeps insertion order). */
  readonly #byOwner = new Map<object, KeptLogs>();
  /** Entries dropped of executions whose every entry was dropped for the total limit (they leave #byOwner). */
  readonly #emptied = new WeakMap<object, number>();

  constructor(
    private readonly maxTotalBytes: number = MAX_LOG_BYTES_TOTAL,
    private readonly maxExecutionBytes: number = MAX_LOG_BYTES_PER_EXECUTION,
  ) {}

  /** Keeps `entry` for `owner` (an execution's record), dropping older entries as the limits need. */
  add(owner: object, entry: LogEntry): void {
    let kept = this.#byOwner.get(owner);
    if (kept === undefined) this.#byOwner.set(owner, (kept = { entries: [], bytes: 0, dropped: 0 }));
    const bytes = logEntryBytes(entry);
    kept.entries.push(entry);
    kept.bytes += bytes;
    this.#total += bytes;
    while (kept.entries.length > 1 && (kept.bytes > this.maxExecutionBytes || kept.entries.length > MAX_LOG_ENTRIES_PER_EXECUTION)) {
      this.#dropOldest(kept);
    }
    for (const [o, other] of this.#byOwner) {
      if (this.#total <= this.maxTotalBytes || other === kept) break;
      while (other.entries.length > 0 && this.#total > this.maxTotalBytes) this.#dropOldest(other);
      if (other.entries.length === 0) {
        this.#byOwner.delete(o);
        this.#emptied.set(o, other.dropped);
      }
    }
    while (this.#total > this.maxTotalBytes && kept.entries.length > 1) this.#dropOldest(kept);
  }

  #dropOldest(kept: KeptLogs): void {
    // Array.shift is linear, but the arrays are at most MAX_LOG_ENTRIES_PER_EXECUTION long.
    const gone = kept.entries.shift()!;
    const bytes = logEntryBytes(gone);
    kept.bytes -= bytes;
    this.#total -= bytes;
    kept.dropped++;
  }

  /** The entries kept for `owner`, oldest first (a copy), and how many were dropped. */
  read(owner: object): { entries: LogEntry[]; dropped: number } {
    const kept = this.#byOwner.get(owner);
    return { entries: kept ? kept.entries.slice() : [], dropped: kept?.dropped ?? this.#emptied.get(owner) ?? 0 };
  }

  /** Forgets `owner`'s entries (its execution is forgotten). */
  forget(owner: object): void {
    const kept = this.#byOwner.get(owner);
    if (kept === undefined) return;
    this.#total -= kept.bytes;
    this.#byOwner.delete(owner);
  }

  /** Forgets every entry. */
  clear(): void {
    this.#byOwner.clear();
    this.#total = 0;
  }

  /** Bytes kept in total, as {@link logEntryBytes} counts them. */
  get totalBytes(): number {
    return this.#total;
  }
}
