// A WIRE fuzz case is bytes: an optional standard handshake, then the exact chunks written to
// the socket, one TCP write each. What the server owes in return is derived from those bytes
// alone (expect.ts), so a finding file that holds the bytes is enough to replay and re-judge it.
import type { QueryMsg } from '../../src/clients/wire/codec.ts';
import { UsageError } from '../../src/core/errors.ts';

export interface WireCase {
  /**
   * 'default': the executor performs the standard V0_4 handshake (with the target's key) before
   * the writes and requires SUCCESS; 'none': the writes begin with handshake bytes of their own.
   */
  handshake: 'default' | 'none';
  writes: Buffer[];
  /** True when the case may share a connection with others (well-framed queries only). */
  pipelinable: boolean;
  /** A readable view of what was generated, for finding files (not used to judge). */
  note?: unknown;
  /**
   * The Queries the writes are the whole frames of, in order, when the case was built from them:
   * spares decoding its own bytes again to learn what is owed. Not stored: a case read back from
   * a file is judged from its bytes.
   */
  queries?: readonly QueryMsg[];
}

export interface SerializedWireCase {
  handshake: 'default' | 'none';
  /** Hex of each write, in order, with the auth key's bytes zeroed where `masked` says. */
  writes: string[];
  pipelinable: boolean;
  note?: unknown;
  /** Where the target's auth key stood in the writes (handshake mutations start from the real one). */
  masked?: { write: number; offset: number; length: number; secret: 'authKey' }[];
}

/**
 * A key shorter than this is not masked: zeroing every 1- to 3-byte run that happens to equal it
 * would garble the bytes, and such a key protects nothing.
 */
const MIN_MASKED_KEY = 4;

/** The case as stored in finding files and the corpus: hex bytes, never the auth key itself. */
export function serializeCase(c: WireCase, authKey = ''): SerializedWireCase {
  const key = Buffer.from(authKey, 'utf8');
  const masked: NonNullable<SerializedWireCase['masked']> = [];
  const writes = c.writes.map((w, write) => {
    if (key.length < MIN_MASKED_KEY) return w.toString('hex');
    const copy = Buffer.from(w);
    for (let offset = copy.indexOf(key); offset >= 0; offset = copy.indexOf(key, offset + key.length)) {
      copy.fill(0, offset, offset + key.length);
      masked.push({ write, offset, length: key.length, secret: 'authKey' });
    }
    return copy.toString('hex');
  });
  return { handshake: c.handshake, writes, pipelinable: c.pipelinable, note: c.note, ...(masked.length ? { masked } : {}) };
}

/** The exact bytes again, with the auth key of the target it is sent to put back where it was masked. */
export function deserializeCase(s: SerializedWireCase, authKey = ''): WireCase {
  const writes = s.writes.map((h) => Buffer.from(h, 'hex'));
  const key = Buffer.from(authKey, 'utf8');
  for (const m of s.masked ?? []) {
    if (m.length !== key.length) {
      throw new UsageError(`the case masks a ${m.length}-byte auth key where the target's key has ${key.length} bytes: replay it against a target configured with the key it was found with`);
    }
    key.copy(writes[m.write], m.offset);
  }
  return { handshake: s.handshake, writes, pipelinable: s.pipelinable, note: s.note };
}

export function caseBytes(c: WireCase): number {
  return c.writes.reduce((n, w) => n + w.length, 0);
}
