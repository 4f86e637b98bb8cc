// A WIRE fuzz case is bytes: an optional standard handshake, then the exact chunks written to
// the socket, one TCP write each. What the server owes in return is derived from those bytes
// alone (expect.ts), so a finding file that holds the bytes is enough to replay and re-judge it.
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
}

export interface SerializedWireCase {
  handshake: 'default' | 'none';
  /** Hex of each write, in order. */
  writes: string[];
  pipelinable: boolean;
  note?: unknown;
}

export function serializeCase(c: WireCase): SerializedWireCase {
  return { handshake: c.handshake, writes: c.writes.map((w) => w.toString('hex')), pipelinable: c.pipelinable, note: c.note };
}

export function deserializeCase(s: SerializedWireCase): WireCase {
  return { handshake: s.handshake, writes: s.writes.map((h) => Buffer.from(h, 'hex')), pipelinable: s.pipelinable, note: s.note };
}

export function caseBytes(c: WireCase): number {
  return c.writes.reduce((n, w) => n + w.length, 0);
}
