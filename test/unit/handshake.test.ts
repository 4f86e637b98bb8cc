import { describe, expect, it } from 'vitest';
import { encodeHandshake, HandshakeReplyReader } from '../../src/clients/wire/handshake.ts';
import { ProtocolViolation } from '../../src/core/errors.ts';

const le = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b.toString('hex');
};

describe('encodeHandshake', () => {
  it('V0_4: magic, length-prefixed key, protocol magic (all little-endian)', () => {
    expect(encodeHandshake({ version: 'V0_4', authKey: 'k1', protocol: 'PROTOBUF' }).toString('hex')).toBe(
      le(0x400c2d20) + le(2) + Buffer.from('k1').toString('hex') + le(0x271ffc41),
    );
  });
  it('an empty key is a zero length and no data', () => {
    expect(encodeHandshake({ version: 'V0_3', authKey: '' }).toString('hex')).toBe(le(0x5f75e83e) + le(0) + le(0x271ffc41));
  });
  it('V0_1 sends the magic alone, V0_2 adds only the key, V1_0 only the documented magic', () => {
    expect(encodeHandshake({ version: 'V0_1' }).toString('hex')).toBe(le(0x3f61ba36));
    expect(encodeHandshake({ version: 'V0_2', authKey: 'x' }).toString('hex')).toBe(le(0x723081e1) + le(1) + '78');
    expect(encodeHandshake({ version: 'V1_0' }).toString('hex')).toBe(le(0x34c2bdc3));
  });
});

describe('HandshakeReplyReader', () => {
  it('joins a reply split across chunks and hands back the bytes after the NUL', () => {
    const reader = new HandshakeReplyReader();
    expect(reader.push(Buffer.from('SUCC'))).toBeUndefined();
    const done = reader.push(Buffer.from('ESS\0\x05\x00'));
    expect(done?.reply).toBe('SUCCESS');
    expect(done?.rest.toString('hex')).toBe('0500');
  });
  it('gives up on a reply with no NUL past its byte cap', () => {
    const reader = new HandshakeReplyReader(8);
    reader.push(Buffer.from('SUCCESS'));
    expect(() => reader.push(Buffer.from('SUCCESS'))).toThrow(ProtocolViolation);
  });
});
