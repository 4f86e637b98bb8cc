// Byte-level mutations of valid frames and of the standard handshake, as fast-check arbitraries
// (so they shrink: towards fewer mutations, smaller offsets, the unmutated bytes).
import fc from 'fast-check';
import { encodeQuery, frame, type QueryMsg } from '../../src/clients/wire/codec.ts';
import { Version, WireProtocol } from '../../src/clients/wire/schema.ts';

export type FrameMutation =
  | { op: 'bit-flip'; frame: number; bits: number[] }
  | { op: 'truncate'; keep: number }
  | { op: 'length-delta'; frame: number; delta: number }
  | { op: 'oversized-length'; frame: number; size: number }
  | { op: 'zero-length'; at: number }
  | { op: 'garbage-frame'; at: number; bytes: number[] };

export const frameMutationArbitrary: fc.Arbitrary<FrameMutation> = fc.oneof(
  fc.record({ op: fc.constant('bit-flip' as const), frame: fc.nat(3), bits: fc.array(fc.nat(4096), { minLength: 1, maxLength: 4 }) }),
  fc.record({ op: fc.constant('truncate' as const), keep: fc.nat(256) }),
  fc.record({ op: fc.constant('length-delta' as const), frame: fc.nat(3), delta: fc.integer({ min: -8, max: 8 }).filter((d) => d !== 0) }),
  fc.record({ op: fc.constant('oversized-length' as const), frame: fc.nat(3), size: fc.constantFrom(2 ** 24, 2 ** 26 + 1, 2 ** 31, 2 ** 32 - 1) }),
  fc.record({ op: fc.constant('zero-length' as const), at: fc.nat(3) }),
  fc.record({ op: fc.constant('garbage-frame' as const), at: fc.nat(3), bytes: fc.array(fc.nat(255), { maxLength: 24 }) }),
);

/** Frames of `queries` with the mutations applied, as one byte string. */
export function mutateFrames(queries: readonly QueryMsg[], mutations: readonly FrameMutation[]): Buffer {
  const frames: Buffer[] = queries.map((q) => frame(encodeQuery(q)));
  const pick = (i: number) => i % frames.length;
  let truncateTo: number | undefined;
  for (const m of mutations) {
    switch (m.op) {
      case 'bit-flip': {
        const f = Buffer.from(frames[pick(m.frame)]);
        for (const bit of m.bits) {
          const byte = Math.floor(bit / 8) % f.length;
          f[byte] ^= 1 << (bit % 8);
        }
        frames[pick(m.frame)] = f;
        break;
      }
      case 'length-delta': {
        const f = Buffer.from(frames[pick(m.frame)]);
        f.writeUInt32LE(Math.max(0, f.length - 4 + m.delta) >>> 0, 0);
        frames[pick(m.frame)] = f;
        break;
      }
      case 'oversized-length': {
        const f = Buffer.from(frames[pick(m.frame)]);
        f.writeUInt32LE(m.size >>> 0, 0);
        frames[pick(m.frame)] = f;
        break;
      }
      case 'zero-length':
        frames.splice(m.at % (frames.length + 1), 0, Buffer.alloc(4));
        break;
      case 'garbage-frame':
        frames.splice(m.at % (frames.length + 1), 0, frame(Buffer.from(m.bytes)));
        break;
      case 'truncate':
        truncateTo = Math.min(truncateTo ?? Infinity, m.keep);
        break;
    }
  }
  const all = Buffer.concat(frames);
  return truncateTo === undefined ? all : all.subarray(0, Math.min(all.length - 1, truncateTo));
}

/** Cuts `bytes` into consecutive writes at the given offsets (a frame split across writes). */
export function splitWrites(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => (bytes.length > 1 ? 1 + (c % (bytes.length - 1)) : 0)).filter((c) => c > 0))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const p of points) {
    out.push(bytes.subarray(from, p));
    from = p;
  }
  out.push(bytes.subarray(from));
  return out.filter((b) => b.length > 0);
}

// ---- handshake ----

export interface HandshakeMutation {
  /** The version magic: the standard V0_4, another documented one, or any 32-bit value. */
  version?: number;
  /** A key length that disagrees with the key bytes sent (undefined: the true length). */
  keyLength?: number;
  key?: number[];
  /** The protocol magic, or null to leave it out. */
  protocol?: number | null;
  /** Bytes after the handshake (before the query frame). */
  trailing?: number[];
  /** Keep only this many bytes of the handshake. */
  truncate?: number;
}

const u32 = fc.integer({ min: 0, max: 0xffffffff });

export const handshakeMutationArbitrary: fc.Arbitrary<HandshakeMutation> = fc.record(
  {
    version: fc.oneof(fc.constantFrom(...Object.values(Version)), u32),
    keyLength: fc.oneof(fc.nat(16), u32),
    key: fc.array(fc.nat(255), { maxLength: 12 }),
    protocol: fc.oneof(fc.constantFrom<number | null>(WireProtocol.PROTOBUF, WireProtocol.JSON, null), u32),
    trailing: fc.array(fc.nat(255), { minLength: 1, maxLength: 8 }),
    truncate: fc.nat(24),
  },
  { requiredKeys: [] },
);

/** The handshake bytes a mutation describes, starting from the standard V0_4 one with `authKey`. */
export function mutateHandshake(m: HandshakeMutation, authKey: string): Buffer {
  const key = m.key ? Buffer.from(m.key) : Buffer.from(authKey, 'utf8');
  const parts: Buffer[] = [u32le(m.version ?? Version.V0_4), u32le(m.keyLength ?? key.length), key];
  if (m.protocol !== null) parts.push(u32le(m.protocol ?? WireProtocol.PROTOBUF));
  if (m.trailing) parts.push(Buffer.from(m.trailing));
  const all = Buffer.concat(parts);
  return m.truncate === undefined ? all : all.subarray(0, Math.min(all.length, m.truncate));
}

function u32le(n: number): Buffer {
  const b = Buffer.allocUnsafe(4);
  b.writeUInt32LE(n >>> 0, 0);
  return b;
}
