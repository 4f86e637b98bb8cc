// Reassembles length-prefixed frames from a TCP byte stream: partial reads, several frames in
// one chunk, and a size cap checked on the 4-byte header, before any allocation, so that a
// peer announcing a 4 GiB frame gets an error instead of a buffer.
import { FrameTooLarge } from '../../core/errors.ts';

export const DEFAULT_MAX_FRAME_BYTES = 64 * 1024 * 1024;

export class FrameReader {
  private chunks: Buffer[] = [];
  private length = 0;
  /** Payload size announced by the current header, or -1 while waiting for a header. */
  private need = -1;

  constructor(readonly maxFrameBytes = DEFAULT_MAX_FRAME_BYTES) {}

  /** Bytes held that do not yet form a whole frame. */
  get buffered(): number {
    return this.length;
  }

  /** True when the stream stopped in the middle of a frame (header or payload). */
  get midFrame(): boolean {
    return this.length > 0 || this.need !== -1;
  }

  /** Feeds bytes; returns the payloads of every frame completed by them. */
  push(chunk: Buffer): Buffer[] {
    if (chunk.length) {
      this.chunks.push(chunk);
      this.length += chunk.length;
    }
    const frames: Buffer[] = [];
    for (;;) {
      if (this.need === -1) {
        if (this.length < 4) break;
        const size = this.take(4).readUInt32LE(0);
        if (size > this.maxFrameBytes) throw new FrameTooLarge(size, this.maxFrameBytes, frames);
        this.need = size;
      }
      if (this.length < this.need) break;
      frames.push(this.take(this.need));
      this.need = -1;
    }
    return frames;
  }

  private take(n: number): Buffer {
    const first = this.chunks[0];
    if (n === 0) return Buffer.alloc(0);
    if (first.length >= n) {
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      this.length -= n;
      return first.subarray(0, n);
    }
    const out = Buffer.allocUnsafe(n);
    let offset = 0;
    while (offset < n) {
      const c = this.chunks[0];
      const k = Math.min(c.length, n - offset);
      c.copy(out, offset, 0, k);
      if (k === c.length) this.chunks.shift();
      else this.chunks[0] = c.subarray(k);
      offset += k;
    }
    this.length -= n;
    return out;
  }
}
