/**
 * Reading the files a command line names (test files, workflows, mock files) safely (docs/limits.md "The test
 * command"): only regular files, at most {@link MAX_INPUT_FILE_BYTES}, opened without blocking, so a test
 * file naming `/dev/zero` or a FIFO is a clear error instead of a 3 GB read or a wait that never ends.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/** Largest file read, in bytes (4 MB: the largest mock file the control API takes; a workflow is 128 KB). */
export const MAX_INPUT_FILE_BYTES = 4 * 1024 * 1024;

/**
 * The UTF-8 text of the regular file at `path`.
 * @throws Error with `code` set: the open's own code (ENOENT, EACCES...), `ENOTREG` for anything but a
 *   regular file (a directory, a device such as /dev/zero, a FIFO, a socket), `EFBIG` for a file over
 *   `maxBytes`.
 */
export function readBoundedFile(path: string, maxBytes: number = MAX_INPUT_FILE_BYTES): string {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer (0 where the platform has none).
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw Object.assign(new Error(`${path} is not a regular file`), { code: 'ENOTREG' });
    if (st.size > maxBytes) throw Object.assign(new Error(`${path} is ${st.size} bytes, over the limit of ${maxBytes}`), { code: 'EFBIG' });
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break;
      off += n;
    }
    return buf.subarray(0, off).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
