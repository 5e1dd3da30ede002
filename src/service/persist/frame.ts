/**
 * The records of the journal (docs/persistence.md#the-journal): each is a frame of an 8-byte header, the
 * payload's length in bytes and its CRC-32 (both unsigned 32-bit little-endian), then the payload, one JSON
 * object in UTF-8. Reading a journal tells a torn last record (a write the process did not finish before it
 * died, which was never acknowledged) from corruption in the middle of the file, which stops start-up.
 */

/** Bytes of a frame's header: the payload's length and its CRC-32. */
export const FRAME_HEADER_BYTES = 8;

/** Largest payload a frame may carry (256 MB): a length past it is read as damage, not as a record. */
const MAX_PAYLOAD_BYTES = 256 * 1024 * 1024;

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** The CRC-32 (IEEE 802.3, the one of zip and PNG) of `bytes[start, end)`. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = CRC_TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One record as a frame: header and JSON payload. */
export function encodeFrame(record: unknown): Buffer {
  const json = JSON.stringify(record);
  const size = Buffer.byteLength(json);
  const out = Buffer.allocUnsafe(FRAME_HEADER_BYTES + size);
  out.write(json, FRAME_HEADER_BYTES, 'utf8');
  out.writeUInt32LE(size, 0);
  out.writeUInt32LE(crc32(out, FRAME_HEADER_BYTES, out.length), 4);
  return out;
}

/** What reading a journal's bytes found: its records, and where a torn last record starts, if any. */
export interface FrameScan {
  /** The payloads, parsed, in order, each with the byte offset of its frame. */
  readonly records: { readonly offset: number; readonly value: Record<string, unknown> }[];
  /** The offset of the torn last record (the file's good part ends there); undefined when none. */
  readonly tornAt: number | undefined;
}

/** A damaged file: the problem and the byte offset where it is. */
export class FrameError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'FrameError';
  }
}

/**
 * Reads every frame of `bytes`. A bad frame that is the last thing in the file (its length runs past the end,
 * it ends exactly at the end, or only zero bytes follow it) is a torn write: reading stops there and
 * `tornAt` says where. A bad frame followed by anything else is corruption.
 * `early`, when given, is asked first for each record's text: what it returns stands for the record, which
 * is then not parsed (a finished execution left unread until it is used, records.ts `lazySaved`).
 * @throws FrameError naming the offset of a damaged record that is not the last
 */
export function scanFrames(bytes: Uint8Array, early?: (text: string) => object | undefined): FrameScan {
  const records: { offset: number; value: Record<string, unknown> }[] = [];
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let at = 0;
  while (at < bytes.length) {
    const problem = frameProblem(bytes, view, at);
    if (problem !== undefined) {
      if (isTail(bytes, view, at)) return { records, tornAt: at };
      throw new FrameError(problem, at);
    }
    const size = view.getUint32(at, true);
    const start = at + FRAME_HEADER_BYTES;
    let value: unknown;
    try {
      const text = decoder.decode(bytes.subarray(start, start + size));
      value = early?.(text) ?? JSON.parse(text);
    } catch (e) {
      throw new FrameError(`a record's checksum matches but it is not JSON (${(e as Error).message})`, at);
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new FrameError('a record is not a JSON object', at);
    records.push({ offset: at, value: value as Record<string, unknown> });
    at = start + size;
  }
  return { records, tornAt: undefined };
}

/** Why the frame at `at` is bad, or undefined when it is whole and its checksum matches. */
function frameProblem(bytes: Uint8Array, view: DataView, at: number): string | undefined {
  if (at + FRAME_HEADER_BYTES > bytes.length) return 'a record header is cut short';
  const size = view.getUint32(at, true);
  if (size === 0 || size > MAX_PAYLOAD_BYTES) return `a record claims ${size} bytes`;
  const end = at + FRAME_HEADER_BYTES + size;
  if (end > bytes.length) return 'a record is cut short';
  if (crc32(bytes, at + FRAME_HEADER_BYTES, end) !== view.getUint32(at + 4, true)) return "a record's checksum does not match";
  return undefined;
}

/** Bytes after a bad frame searched for a good one (4 MB); a longer damaged tail is reported, not dropped. */
const MAX_TAIL_SEARCH = 4 * 1024 * 1024;

/**
 * True when the bad frame at `at` is the file's last: no whole frame with a matching checksum starts anywhere
 * after it (so a damaged length in the middle of the file is not mistaken for a torn end).
 */
function isTail(bytes: Uint8Array, view: DataView, at: number): boolean {
  if (bytes.length - at > MAX_TAIL_SEARCH) return false;
  for (let i = at + 1; i + FRAME_HEADER_BYTES < bytes.length; i++) {
    const size = view.getUint32(i, true);
    if (size === 0 || i + FRAME_HEADER_BYTES + size > bytes.length) continue;
    if (frameProblem(bytes, view, i) === undefined) return false;
  }
  return true;
}
