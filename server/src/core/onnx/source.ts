// Byte sources for the lazy ONNX reader. A file source reads positionally through one small
// window, so walking a model costs a few MB of I/O whatever the size of its weights.
import { FileRoots } from '../common/confined';
import { closeFile, readIntoSync } from '../common/fileAccess';
import { OnnxReadError, type ByteSource } from './wire';

export type { ByteSource };

export class BufferSource implements ByteSource {
  readonly size: number;
  readonly buf: Buffer;
  constructor(bytes: Uint8Array) {
    this.buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength); // a view, not a copy
    this.size = bytes.length;
  }
  ensure(pos: number): number {
    return pos;
  }
  get bytesRead(): number {
    return this.size;
  }
  read(pos: number, len: number): Uint8Array {
    return this.buf.subarray(pos, Math.min(this.size, pos + len));
  }
  close(): void {
    /* nothing to release */
  }
}

/** Default window: large enough to hold a run of small nodes, small enough not to drag weights in. */
export const DEFAULT_WINDOW = 16 * 1024;

export class FileSource implements ByteSource {
  readonly size: number;
  private fd: number;
  private window: Buffer;
  private winStart = 0;
  private winLen = 0;
  private fetched = 0;

  /** Throws a FileAccessError for a path that is not a readable regular file (never blocks on a FIFO). */
  constructor(path: string, windowSize = DEFAULT_WINDOW) {
    const { fd, size } = FileRoots.named(path).openSync(path);
    this.fd = fd;
    this.size = size;
    this.window = Buffer.allocUnsafe(Math.max(4096, windowSize)); // strings up to 4 KiB are decoded in place
  }

  get bytesRead(): number {
    return this.fetched;
  }

  get buf(): Buffer {
    return this.window;
  }

  ensure(pos: number, len: number): number {
    const end = Math.min(this.size, pos + len);
    if (pos >= this.winStart && end <= this.winStart + this.winLen) return pos - this.winStart;
    const n = Math.min(this.window.length, this.size - pos);
    if (n > 0) this.fill(this.window, n, pos);
    this.winStart = pos;
    this.winLen = Math.max(0, n);
    return 0;
  }

  read(pos: number, len: number): Uint8Array {
    const end = Math.min(this.size, pos + len);
    if (pos >= end) return new Uint8Array(0);
    if (pos >= this.winStart && end <= this.winStart + this.winLen) {
      return this.window.subarray(pos - this.winStart, end - this.winStart);
    }
    const want = end - pos;
    if (want > this.window.length) {
      // A field larger than the window (e.g. a long doc string): read it on its own.
      const out = Buffer.allocUnsafe(want);
      this.fill(out, want, pos);
      return out;
    }
    const n = Math.min(this.window.length, this.size - pos);
    this.fill(this.window, n, pos);
    this.winStart = pos;
    this.winLen = n;
    return this.window.subarray(0, want);
  }

  private fill(target: Buffer, n: number, pos: number): void {
    const done = readIntoSync(this.fd, target, 0, n, pos);
    if (done < n) throw new OnnxReadError('io', `short read at offset ${pos + done}: the file shrank while it was read`, pos + done);
    this.fetched += n;
  }

  close(): void {
    if (this.fd >= 0) closeFile(this.fd);
    this.fd = -1;
  }
}
