// What the document says a server owes for the bytes of a case, found by reading the bytes the
// way the server must: the handshake of "Handshake (protobuf protocol)", then the length-prefixed
// frames of "Message framing", each decoded with the one codec.
import { decodeQuery, encodeQuery, type QueryMsg } from '../../src/clients/wire/codec.ts';
import { FrameReader } from '../../src/clients/wire/frame-reader.ts';
import { QueryType, Version } from '../../src/clients/wire/schema.ts';
import type { WireCase } from './case.ts';

/** Responses owed to one decoded query, by token. */
export interface QueryExpectation {
  token: bigint;
  type: number;
  /** Fewest and most responses carrying this token. */
  min: number;
  max: number;
  /** A Query without a known QueryType: a client bug, owed a CLIENT_ERROR. */
  clientError: boolean;
  /** Position of its frame among the case's frames (0-based), to name the frame left unanswered. */
  at?: number;
  /** A zero-length frame (a Query with every field unset). */
  empty?: boolean;
  /**
   * Sent after a malformed frame or a Query without a known type: owed nothing if the server
   * closed the connection (it may, after answering that frame), owed `min` if it kept it open.
   */
  droppable?: boolean;
}

export interface WireExpectation {
  /**
   * 'reply': the client sent a whole handshake and is owed a NUL-terminated reply;
   * 'maybe': the document does not say (V1_0) or the handshake is incomplete; 'default': the
   * executor's own standard handshake, answered SUCCESS before the case starts.
   */
  handshake: 'default' | 'reply' | 'maybe';
  /** Bytes after a whole handshake, to be read as frames once the reply is SUCCESS. */
  afterHandshake: Buffer;
  /** Filled in by `expectFrames` (after the handshake outcome is known). */
  queries: QueryExpectation[];
  /** Whole frames that do not decode as a Query: each is owed one CLIENT_ERROR (token unknown). */
  malformed: number;
  /** Positions of the malformed frames among the case's frames (same numbering as QueryExpectation.at). */
  malformedAt?: number[];
  /** Bytes left in the middle of a frame (truncated, or a size prefix larger than the body). */
  trailing: boolean;
}

const KNOWN_VERSIONS = new Set<number>([Version.V0_1, Version.V0_2, Version.V0_3, Version.V0_4]);

/** Where the handshake in `bytes` ends, or why it has no whole form. */
export function parseHandshake(bytes: Buffer): { state: 'whole'; rest: Buffer } | { state: 'incomplete' | 'undocumented' } {
  if (bytes.length < 4) return { state: 'incomplete' };
  const version = bytes.readUInt32LE(0);
  // V1_0's exchange is "not shown"; an unknown magic leaves nothing else to wait for.
  if (version === Version.V1_0) return { state: 'undocumented' };
  if (!KNOWN_VERSIONS.has(version)) return { state: 'whole', rest: bytes.subarray(4) };
  let offset = 4;
  if (version !== Version.V0_1) {
    if (bytes.length < offset + 4) return { state: 'incomplete' };
    const keyLength = bytes.readUInt32LE(offset);
    if (bytes.length < offset + 4 + keyLength) return { state: 'incomplete' };
    offset += 4 + keyLength;
  }
  if (version === Version.V0_3 || version === Version.V0_4) {
    if (bytes.length < offset + 4) return { state: 'incomplete' };
    offset += 4;
  }
  return { state: 'whole', rest: bytes.subarray(offset) };
}

export function expectCase(c: WireCase): WireExpectation {
  const all = Buffer.concat(c.writes);
  if (c.handshake === 'default') return { handshake: 'default', afterHandshake: all, ...expectFrames(all, c.queries) };
  const hs = parseHandshake(all);
  if (hs.state !== 'whole') return { handshake: 'maybe', afterHandshake: Buffer.alloc(0), queries: [], malformed: 0, trailing: false };
  return { handshake: 'reply', afterHandshake: hs.rest, queries: [], malformed: 0, trailing: false };
}

/** Frame-level expectations for bytes sent after an accepted handshake. */
export function expectFrames(bytes: Buffer, decoded?: readonly QueryMsg[]): Pick<WireExpectation, 'queries' | 'malformed' | 'malformedAt' | 'trailing'> {
  const reader = new FrameReader(0xffffffff);
  const payloads: readonly (Buffer | QueryMsg)[] = decoded ?? reader.push(bytes);
  const queries: QueryExpectation[] = [];
  const malformedAt: number[] = [];
  let malformed = 0;
  for (const [at, p] of payloads.entries()) {
    const q = Buffer.isBuffer(p) ? tryDecode(p) : p;
    if (!q) {
      malformed++;
      malformedAt.push(at);
      continue;
    }
    const empty = Buffer.isBuffer(p) ? p.length === 0 : q.type === undefined && encodeQuery(q).length === 0;
    const token = q.token ?? 0n;
    // After a malformed frame the server may close the connection (it answers CLIENT_ERROR and
    // the document only asks that a fresh connection still works), so later queries may go
    // unanswered then; on a connection it keeps open they are owed as any other.
    const mayBeDropped = malformed > 0 || queries.some((x) => x.clientError);
    const known = isKnownType(q.type);
    const [min, max] = known ? owed(q) : [1, 1];
    queries.push({ token, type: q.type ?? 0, min, max, clientError: !known, at, ...(empty ? { empty } : {}), ...(mayBeDropped ? { droppable: true } : {}) });
  }
  return { queries, malformed, malformedAt, trailing: reader.midFrame };
}

function tryDecode(payload: Buffer): QueryMsg | undefined {
  try {
    return decodeQuery(payload);
  } catch {
    return undefined;
  }
}

function isKnownType(type: number | undefined): boolean {
  return type !== undefined && Object.values(QueryType).includes(type);
}

/**
 * Responses a query is owed ("Query operations" table and the per-token life cycle):
 * START, CONTINUE, NOREPLY_WAIT and SERVER_INFO get one; STOP has "no response rule";
 * a START with a `noreply` global optarg may get none.
 */
function owed(q: QueryMsg): [number, number] {
  switch (q.type) {
    case QueryType.STOP:
      return [0, 1];
    case QueryType.START:
      return q.global_optargs?.some((p) => p.key === 'noreply') ? [0, 1] : [1, 1];
    default:
      return [1, 1];
  }
}
