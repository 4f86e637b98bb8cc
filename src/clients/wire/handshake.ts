// The handshake of the document's "Handshake (protobuf protocol)" section, for each version
// magic: what each version sends is what its feature marker says it carries.
import { ProtocolViolation } from '../../core/errors.ts';
import { Version, WireProtocol, type VersionName } from './schema.ts';

export interface HandshakeOptions {
  version?: VersionName;
  /** Authorization key; '' sends a zero length and no data. */
  authKey?: string;
  protocol?: keyof typeof WireProtocol;
}

function u32(n: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32LE(n >>> 0, 0);
  return b;
}

/**
 * Bytes a client sends for a handshake. V0_1 sends the magic alone; V0_2 adds the
 * length-prefixed key; V0_3 and V0_4 add the protocol magic. For V1_0 only the magic is
 * documented (the rest is "not shown"), so only the magic is sent.
 */
export function encodeHandshake({ version = 'V0_4', authKey = '', protocol = 'PROTOBUF' }: HandshakeOptions = {}): Buffer {
  const parts = [u32(Version[version])];
  if (version === 'V0_2' || version === 'V0_3' || version === 'V0_4') {
    const key = Buffer.from(authKey, 'utf8');
    parts.push(u32(key.length), key);
  }
  if (version === 'V0_3' || version === 'V0_4') parts.push(u32(WireProtocol[protocol]));
  return Buffer.concat(parts);
}

export const MAX_HANDSHAKE_REPLY_BYTES = 64 * 1024;

/** Collects the server's NUL-terminated answer; the bytes after the NUL belong to the frame stream. */
export class HandshakeReplyReader {
  private chunks: Buffer[] = [];
  private length = 0;

  constructor(readonly maxBytes = MAX_HANDSHAKE_REPLY_BYTES) {}

  /** The bytes received so far without a NUL (for messages about an unterminated reply). */
  get pending(): Buffer {
    return Buffer.concat(this.chunks);
  }

  push(chunk: Buffer): { reply: string; rest: Buffer } | undefined {
    const nul = chunk.indexOf(0);
    if (nul === -1) {
      this.chunks.push(chunk);
      this.length += chunk.length;
      if (this.length > this.maxBytes) {
        throw new ProtocolViolation(`handshake reply has no NUL terminator within ${this.maxBytes} bytes`);
      }
      return undefined;
    }
    const reply = Buffer.concat([...this.chunks, chunk.subarray(0, nul)]).toString('utf8');
    this.chunks = [];
    this.length = 0;
    return { reply, rest: chunk.subarray(nul + 1) };
  }
}
