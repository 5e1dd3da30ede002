/**
 * The process's standard output and error, each made when first written to, and a line printed without them.
 *
 * Deno and Bun make `process.stdout` and `process.stderr` as Node stream objects when they are first read, and
 * that costs a start: on this machine, a script whose one line is `process.stdout.write('...\n')` took 13 ms more
 * CPU than the same line printed with `console.log` under Bun 1.4, and 28 ms more under Deno 2 (Node's console
 * writes through `process.stdout` itself: the same there). So the server prints its listening line with
 * {@link printLine}, and nothing reads a stream before it is written to.
 *
 * In the command line ({@link ignoreStreamErrors}), a stream got here ignores its errors: a closed reader (EPIPE
 * behind `| head -n 1`) ends the printing, never the emulator (docs/limits.md "Logs"). Imported by another
 * program (the JS API), the streams are that program's, and their errors are left to it.
 */

import { writeSync } from 'node:fs';

let ignoring = false;
/** The streams given their listener so far. */
const listened = new Set<'stdout' | 'stderr'>();
/** Whether `process.stdout` was made here: from then on, lines go through it, in order. */
let stdoutMade = false;

const ignore = (): void => {};

/** From now on, each standard stream gets a listener that ignores its errors when it is made (the command line). */
export function ignoreStreamErrors(): void {
  ignoring = true;
}

/** `process[name]`, with a listener that ignores its errors after {@link ignoreStreamErrors}. */
function standardStream(name: 'stdout' | 'stderr'): NodeJS.WriteStream {
  if (name === 'stdout') stdoutMade = true;
  const stream = process[name];
  if (ignoring && !listened.has(name)) {
    listened.add(name);
    stream.on('error', ignore);
  }
  return stream;
}

/** `process.stdout`, with a listener that ignores its errors after {@link ignoreStreamErrors}. */
export function standardOutput(): NodeJS.WriteStream {
  return standardStream('stdout');
}

/** `process.stderr`, with a listener that ignores its errors after {@link ignoreStreamErrors}. */
export function standardError(): NodeJS.WriteStream {
  return standardStream('stderr');
}

/** Writes `text` to standard error ({@link standardError}). */
export function writeError(text: string): void {
  standardError().write(text);
}

/**
 * Prints one line (given without its line break) on standard output. Until `process.stdout` is made, the line
 * is written to file descriptor 1 at once (`fs.writeSync`): Node's `console.log` makes `process.stdout` first,
 * about 1.5 ms of a server's start (docs/architecture.md#start-up). Once the stream exists (its writes may be
 * queued, on some systems), on Windows (whose console takes text through the stream, not bytes) and when the
 * write fails other than by a closed reader, the line goes through `console.log`, which Deno and Bun write
 * without making `process.stdout`. A closed output is ignored, as {@link standardOutput}'s errors are.
 */
export function printLine(line: string): void {
  try {
    if (!stdoutMade && process.platform !== 'win32' && writeAtOnce(`${line}\n`)) return;
    console.log(line);
  } catch {
    // Deno throws a broken pipe from console.log: the printing ends, not the emulator.
  }
}

/** Writes `text` to file descriptor 1; false when nothing of it could be written (then the caller prints it). */
function writeAtOnce(text: string): boolean {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(1, bytes, done);
  } catch (e) {
    // A closed reader ends the printing; any other failure before the first byte leaves it to console.log.
    return (e as { code?: string }).code === 'EPIPE' || done > 0;
  }
  return true;
}
