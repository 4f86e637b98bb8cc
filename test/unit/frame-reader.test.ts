import { describe, expect, it } from 'vitest';
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import { frame } from '../../src/clients/wire/codec.ts';
import { FrameTooLarge } from '../../src/core/errors.ts';

describe('FrameReader', () => {
  it('reassembles a frame delivered one byte at a time', () => {
    const reader = new FrameReader();
    const bytes = frame(Buffer.from('hello, frame'));
    const out: Buffer[] = [];
    for (const b of bytes) out.push(...reader.push(Buffer.from([b])));
    expect(out.map((f) => f.toString())).toEqual(['hello, frame']);
    expect(reader.midFrame).toBe(false);
  });

  it('splits several frames out of one chunk, including an empty one', () => {
    const reader = new FrameReader();
    const chunk = Buffer.concat([frame(Buffer.from('a')), frame(Buffer.alloc(0)), frame(Buffer.from('bc')), frame(Buffer.from('d')).subarray(0, 3)]);
    expect(reader.push(chunk).map((f) => f.toString())).toEqual(['a', '', 'bc']);
    expect(reader.midFrame).toBe(true);
    expect(reader.buffered).toBe(3);
  });

  it('refuses a 0xFFFFFFFF size from the header alone, before any allocation', () => {
    const reader = new FrameReader(64 * 1024 * 1024);
    const header = Buffer.from([0xff, 0xff, 0xff, 0xff]);
    expect(() => reader.push(header)).toThrow(FrameTooLarge);
    try {
      new FrameReader(1024).push(header);
    } catch (err) {
      expect((err as FrameTooLarge).code).toBe('E_FRAME_TOO_LARGE');
      expect((err as Error).message).toBe('frame of 4294967295 bytes exceeds the 1 KiB limit');
    }
  });
});
