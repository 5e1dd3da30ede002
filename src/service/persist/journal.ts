/**
 * The append-only journal of a data directory (docs/persistence.md#the-journal): every change is appended as
 * a frame (frame.ts) and made durable with `fdatasync` before the API answers the request that made it.
 *
 * Group commit: records appended while a write and its `fdatasync` are under way wait in memory and go out
 * together in the next write, with one `fdatasync` for all of them. So a lone request waits for one sync, and
 * under load every request of a sync's duration (a few milliseconds on a local disk) shares one.
 *
 * A failed write (ENOSPC: the disk is full) is undone with `ftruncate` back to the last durable size; the
 * requests waiting on it are answered 503 UNAVAILABLE, the journal refuses new API writes
 * ({@link Journal.checkWritable}) while reads go on, and the records not yet on disk are kept and tried again
 * every second until the write succeeds. Nothing already durable is touched.
 */
import * as fs from 'node:fs';
import { ApiError } from '../errors.ts';
import { encodeFrame } from './frame.ts';
import { writeError } from '../../platform/std-streams.ts';

/** The file operations the journal uses (node:fs's; a test hands in failing ones). */
export interface JournalFs {
  write(fd: number, data: Buffer, done: (err: Error | null) => void): void;
  fdatasync(fd: number, done: (err: Error | null) => void): void;
  ftruncate(fd: number, length: number, done: (err: Error | null) => void): void;
}

/** node:fs's operations. */
export const NODE_JOURNAL_FS: JournalFs = {
  write: (fd, data, done) => writeAll(fd, data, 0, done),
  fdatasync: (fd, done) => fs.fdatasync(fd, (e) => done(e)),
  ftruncate: (fd, length, done) => fs.ftruncate(fd, length, (e) => done(e)),
};

/** Writes `data` from `from` on, however many writes it takes. */
function writeAll(fd: number, data: Buffer, from: number, done: (err: Error | null) => void): void {
  fs.write(fd, data, from, data.length - from, null, (e, n) => {
    if (e) return done(e);
    if (from + n < data.length) writeAll(fd, data, from + n, done);
    else done(null);
  });
}

/** Milliseconds between attempts to write again after a failed write. */
const RETRY_MS = 1000;

/** One waiter for a batch to be durable. */
interface Waiter {
  resolve(): void;
  reject(e: unknown): void;
}

/** An open journal file, appended to with group commit. */
export class Journal {
  /** Bytes of the file known durable. */
  #durable: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Waiters of the records in #pending. */
  #waiters: Waiter[] = [];
  /** Whether a write and sync is under way. */
  #busy = false;
  /** The error of the last failed write, until a write succeeds again. */
  #failed: Error | undefined;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #closed = false;

  /**
   * @param fd the journal file, opened for appending
   * @param size its size in bytes (all of it durable)
   * @param path its path, for messages
   */
  constructor(
    private readonly fd: number,
    size: number,
    readonly path: string,
    private readonly io: JournalFs = NODE_JOURNAL_FS,
  ) {
    this.#durable = size;
  }

  /** Bytes in the file plus those waiting to be written. */
  get size(): number {
    return this.#durable + this.#pendingBytes;
  }

  /** Appends a record (a JSON object); it is durable once {@link whenDurable} resolves. */
  append(record: unknown): void {
    const frame = encodeFrame(record);
    this.#pending.push(frame);
    this.#pendingBytes += frame.length;
    if (!this.#busy && this.#failed === undefined) {
      this.#busy = true;
      setImmediate(() => this.#flush());
    }
  }

  /** Resolves once every record appended so far is on disk; undefined when they already are. */
  whenDurable(): Promise<void> | undefined {
    if (this.#pending.length === 0 && !this.#busy) return undefined;
    if (this.#failed !== undefined) return Promise.reject(unavailable(this.#failed));
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  /**
   * Throws while writes fail (the disk is full), so a change is refused before it is made.
   * @throws ApiError UNAVAILABLE naming the failure
   */
  checkWritable(): void {
    if (this.#failed !== undefined) throw unavailable(this.#failed);
  }

  /** The error writes fail with now, if they do. */
  get failure(): Error | undefined {
    return this.#failed;
  }

  /** Writes what is pending and syncs; then the next batch, if records came in meanwhile. */
  #flush(): void {
    if (this.#pending.length === 0 || this.#closed) {
      // Waiters that came while the last batch was under way, with nothing new to write: it is on disk.
      const waiters = this.#waiters;
      this.#waiters = [];
      this.#busy = false;
      for (const w of waiters) w.resolve();
      return;
    }
    const batch = this.#pending.length === 1 ? this.#pending[0]! : Buffer.concat(this.#pending, this.#pendingBytes);
    const parts = this.#pending;
    const waiters = this.#waiters;
    this.#pending = [];
    this.#pendingBytes = 0;
    this.#waiters = [];
    this.io.write(this.fd, batch, (e) => {
      if (e) return this.#failedWrite(e, parts, waiters);
      this.io.fdatasync(this.fd, (e2) => {
        if (e2) return this.#failedWrite(e2, parts, waiters);
        this.#durable += batch.length;
        this.#failed = undefined;
        for (const w of waiters) w.resolve();
        this.#flush();
      });
    });
  }

  /** A write failed: cut the file back to its durable size, answer the waiters, keep the records, retry later. */
  #failedWrite(e: Error, parts: Buffer[], waiters: Waiter[]): void {
    if (this.#failed === undefined) writeError(`workflows-emulator: cannot write the journal ${this.path}: ${e.message}; writes are refused (503) until it can\n`);
    this.#failed = e;
    this.#pending = parts.concat(this.#pending);
    this.#pendingBytes = this.#pending.reduce((n, b) => n + b.length, 0);
    const all = waiters.concat(this.#waiters);
    this.#waiters = [];
    for (const w of all) w.reject(unavailable(e));
    this.io.ftruncate(this.fd, this.#durable, () => {
      this.#busy = false;
      if (this.#closed) return;
      this.#retry = setTimeout(() => {
        this.#retry = undefined;
        if (this.#busy) return;
        this.#busy = true;
        this.#flush();
      }, RETRY_MS);
      this.#retry.unref?.();
    });
  }

  /** Resolves once everything appended is on disk, or rejects when it cannot be written. */
  async drain(): Promise<void> {
    while (this.#pending.length > 0 || this.#busy) {
      if (this.#failed !== undefined) throw unavailable(this.#failed);
      await new Promise<void>((resolve, reject) => this.#waiters.push({ resolve, reject }));
    }
  }

  /** Stops writing (pending records are dropped: call {@link drain} first) and closes the file. */
  close(): void {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    try {
      fs.closeSync(this.fd);
    } catch {
      /* already closed */
    }
  }
}

/** The 503 of a write the disk refused. */
function unavailable(e: Error): ApiError {
  const code = (e as NodeJS.ErrnoException).code;
  return new ApiError('UNAVAILABLE', `the data directory cannot be written (${code ?? e.message}): the change is not kept; reads still work (docs/persistence.md#a-full-disk)`);
}
